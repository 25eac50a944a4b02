/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* End-to-end tests of hostile input (issue 18): numbers that would wrap or mean nothing, platforms SimGrid would abort
 * on, signals. Each must end with the documented exit status, one "simrun: error: FILE:LINE: ..." line and nothing
 * left behind. Inputs are in tests/data/cli/hostile/. */
#define _DEFAULT_SOURCE /* mkdtemp, fileno, dup2, fork, execv, kill, setenv, readlink, usleep */

#include "tu_cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define HOSTILE DATA "hostile/"

/* A fresh working folder and a fresh cache folder (SIMRUN_CACHE_DIR, inherited by the runs), each of 1024 bytes. */
static void begin_folders(char *dir, char *cache)
{
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, 1024), 0);
  CU_ASSERT_EQUAL_FATAL(make_folder(cache, 1024), 0);
  setenv("SIMRUN_CACHE_DIR", cache, 1);
}

/* Numbers: an int parameter above INT_MAX used to wrap (2^32 -> 0: SIGFPE; 2^32 + 2 -> 2, a wrong run). */

static void test_hostile_grid_rows_wrap(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "grid-rows-wrap.xml"}, .status = 2, .prefix = HOSTILE "grid-rows-wrap.xml:13: ",
                 .phrases = {"grid-rows=\"4294967296\" is too large", "2147483647"});
}

static void test_hostile_p_wrap(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "p-wrap.xml"}, .status = 2,
                 .prefix = HOSTILE "p-wrap.xml:10: ", .phrases = {"p=\"4294967298\" is too large", "2147483647"});
}

/* The platform's 32 hosts are checked before pdgemm sizes its grid by p: the message comes at once, not "out of
 * memory" after 16 GB. */
static void test_hostile_p_checked_against_hosts_first(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "pdgemm-huge-p.xml"}, .status = 2, .prefix = HOSTILE "pdgemm-huge-p.xml:14: ",
                 .phrases = {"p = 2000000000", "has 32 hosts", "use p no larger than the host count"});
}

/* dir/name opened for writing (the test fails at once when it cannot be). */
static FILE *create_in(const char *dir, const char *name)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  CU_ASSERT_FATAL(f != NULL);
  return f;
}

/* A sweep of p = 129..100000 on the 128-host mesh, every p beyond it: one line naming the least p and the hosts, exit
 * 2, within a 4 GB address space (the probe allocated a 237-KB description for every p, 23.7 GB, before reading the
 * host count: "out of memory", exit 1). Under a sanitizer, whose allocator reserves far more address space, without
 * the limit and with p = 129..2000: the same path, at a cost the sanitised suite can bear. (p from 1 would now run
 * p = 1 to 128 and skip the rest, one warning each.) */
static void test_hostile_many_p_checked_before_allocating(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  FILE *f = create_in(dir, "many-p.xml");
  fprintf(f,
          "<scenario name=\"many-p\"><platform file=\"%s/platforms/t800-mesh-128.xml\"/>"
          "<program skeleton=\"gauss-jordan\"><param name=\"n\" value=\"16\"/>"
          "<param name=\"broadcast\" value=\"neighbour\"/></program><sweep><param name=\"p\" values=\"",
          SIMRUN_SOURCE_DIR);
  int count = SANITIZED ? 2000 : 100000; /* 100000 took 30 s under AddressSanitizer */
  for (int p = 129; p <= count; p++)
    fprintf(f, "%d ", p);
  fprintf(f, "\"/></sweep></scenario>\n");
  fclose(f);
  char command[2400];
  snprintf(command, sizeof command, "%sexec '%s' --no-cache many-p.xml", SANITIZED ? "" : "ulimit -v 4000000; ",
           SIMRUN_BINARY);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_program(dir, "/bin/sh", (const char *const[]){"-c", command, NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, "many-p.xml:1: every point has more ranks than its platform's hosts: p = 129 and up",
                    (const char *const[]){"has 128 hosts", "use p no larger than the host count", NULL});
  run_free(&run);
  remove_folder(dir);
}

/* dir/name with `text`. */
static void write_file(const char *dir, const char *name, const char *text)
{
  FILE *f = create_in(dir, name);
  fputs(text, f);
  fclose(f);
}

/* A trace index that names a file which is no trace (a password file), or a trace parameter that names one as the
 * index: one line, exit 2, saying it is not a trace (or not an index) and quoting nothing of it (an index naming
 * /etc/shadow printed its first line, the hash). A real trace's bad line is still quoted. */
static void test_hostile_ti_foreign_files_not_quoted(void)
{
  static const struct {
    const char *trace, *index, *phrase;
  } cases[] = {{"index.txt", "secret\n", "secret:1: not a time-independent trace"},
               {"secret", NULL, "secret: not a trace index: none of its 2 lines names a file that exists"},
               {"index.txt", "rank0.txt\n", "rank0.txt:1: '0 compte 1e6': not an action simrun replays"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[1024], scenario[2048];
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    write_file(dir, "secret", "root:$y$SECRETHASH:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n");
    write_file(dir, "rank0.txt", "0 compte 1e6\n");
    if (cases[i].index)
      write_file(dir, "index.txt", cases[i].index);
    snprintf(scenario, sizeof scenario,
             "<scenario name=\"x\"><platform file=\"%s/platforms/icluster-fe-32.xml\"/><program "
             "skeleton=\"ti-replay\"><param name=\"trace\" value=\"%s\"/></program><sweep><param name=\"p\" "
             "values=\"1\"/></sweep></scenario>\n",
             SIMRUN_SOURCE_DIR, cases[i].trace);
    write_file(dir, "s.xml", scenario);
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char *const[]){"--no-cache", "s.xml", NULL}, &run), 0);
    CU_ASSERT_EQUAL(run.status, 2);
    assert_error_line(run.err, "s.xml", (const char *const[]){cases[i].phrase, NULL});
    CU_ASSERT_PTR_NULL(strstr(run.err, "SECRETHASH"));
    CU_ASSERT_PTR_NULL(strstr(run.err, "daemon"));
    run_free(&run);
    remove_folder(dir);
  }
}

/* A replay of 300 ranks, each keeping its trace file open: under a hard limit of 256 open files, refused before it
 * starts, naming the limit to raise (2,048 files failed midway: "cannot read r2039.txt: Too many open files; check the
 * path"); under a soft limit of 256 below a higher hard one, run (simrun raises its soft limit). */
static void test_hostile_ti_more_ranks_than_open_files(void)
{
  char dir[1024], name[64], text[160];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  char *index = calloc(300, 16);
  CU_ASSERT_FATAL(index != NULL);
  for (int r = 0; r < 300; r++) {
    snprintf(name, sizeof name, "r%d.txt", r);
    snprintf(text, sizeof text, "%d init\n%d compute 1000\n%d finalize\n", r, r, r);
    write_file(dir, name, text);
    strcat(strcat(index, name), "\n");
  }
  write_file(dir, "index.txt", index);
  free(index);
  write_file(dir, "s.xml",
             "<scenario name=\"x\"><platform file=\"mesh.xml\"/><program skeleton=\"ti-replay\"><param name=\"trace\" "
             "value=\"index.txt\"/><param name=\"t-seq\" value=\"1\"/></program><sweep><param name=\"p\" "
             "values=\"300\"/></sweep></scenario>\n");
  cli_run_t run;
  const char *mesh[] = {"platform", "mesh", "20x15", "--preset", "icluster", "-o", "mesh.xml", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, mesh, &run), 0);
  CU_ASSERT_EQUAL_FATAL(run.status, 0);
  run_free(&run);
  char command[2400];
  snprintf(command, sizeof command, "ulimit -n 256 && exec '%s' --no-cache s.xml", SIMRUN_BINARY);
  CU_ASSERT_EQUAL_FATAL(run_program(dir, "/bin/sh", (const char *const[]){"-c", command, NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, "s.xml:1: index.txt: replaying 300 ranks keeps 300 trace files open at once",
                    (const char *const[]){"may open 256 files", "ulimit -n 364", NULL});
  run_free(&run);
  snprintf(command, sizeof command, "ulimit -Sn 256 && exec '%s' -q --no-cache s.xml", SIMRUN_BINARY);
  CU_ASSERT_EQUAL_FATAL(run_program(dir, "/bin/sh", (const char *const[]){"-c", command, NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_STRING_EQUAL(run.err, "");
  run_free(&run);
  remove_folder(dir);
}

/* A full disk while the OTF2 archive is written: one line naming the archive and libotf2's first error, exit 1, and
 * nothing left in the folder (libotf2 printed ten lines of its own). The disk is a 40 KiB tmpfs mounted in a private
 * mount namespace of a user namespace (unshare -rm), which needs no privilege and leaves nothing mounted. */
static void test_hostile_full_disk_otf2(void)
{
  char dir[1024], suppressions[1024], command[6144];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  CU_ASSERT_EQUAL_FATAL(make_folder(suppressions, sizeof suppressions), 0);
  /* libotf2 3.0 does not free an event writer whose closing failed (its buffer's flush): 40 bytes from
   * otf2_evt_writer_new at exit, which LeakSanitizer reports in the sanitised build; after a failed close the handle
   * is no longer simrun's to free (the suppression names that one allocation, not libotf2 as a whole) */
  write_file(suppressions, "lsan.supp", "leak:otf2_evt_writer_new\n");
  snprintf(command, sizeof command,
           "mount -t tmpfs -o size=40k tmpfs '%s' && cd '%s' && LSAN_OPTIONS=suppressions='%s/lsan.supp'"
           ":print_suppressions=0 '%s' -q --no-cache '%sgj-small.xml' --per-process 4 --otf2 o >/dev/null; "
           "status=$?; ls -A; exit $status",
           dir, dir, suppressions, SIMRUN_BINARY, DATA);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(
      run_program(dir, "/usr/bin/unshare", (const char *const[]){"-rm", "sh", "-c", command, NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 1);
  assert_error_line(run.err, "writing the OTF2 archive 'o/point-5.otf2' failed: No space left on device",
                    (const char *const[]){"check the space and the rights in 'o'", NULL});
  CU_ASSERT_STRING_EQUAL(run.out, ""); /* no archive, no temporary folder */
  run_free(&run);
  remove_folder(dir);
  remove_folder(suppressions);
}

/* A sweep of 2000 n x 128 p x 4 broadcasts, 1,024,000 points: refused before the points are made, naming each
 * parameter's count (it took 740 MB before a point's own check refused it). */
static void test_hostile_too_many_points(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  FILE *f = create_in(dir, "many.xml");
  fprintf(f,
          "<scenario name=\"many\"><platform file=\"%s/platforms/t800-mesh-128.xml\"/>"
          "<program skeleton=\"gauss-jordan\"/><sweep><param name=\"n\" values=\"",
          SIMRUN_SOURCE_DIR);
  for (int n = 0; n < 2000; n++)
    fprintf(f, "%d ", 128 + n);
  fprintf(f, "\"/><param name=\"p\" values=\"");
  for (int p = 1; p <= 128; p++)
    fprintf(f, "%d ", p);
  fprintf(f, "\"/><param name=\"broadcast\" values=\"one-to-all neighbour binomial mesh\"/></sweep></scenario>\n");
  fclose(f);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char *const[]){"--no-cache", "many.xml", NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, "many.xml: the sweep has more than 1000000 points",
                    (const char *const[]){"n 2000 x p 128 x broadcast 4", "sweep fewer values", NULL});
  run_free(&run);
  remove_folder(dir);
}

static void test_hostile_duplicate_values(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "duplicate-values.xml"}, .status = 2, .prefix = HOSTILE "duplicate-values.xml:9: ",
                 .phrases = {"parameter 'broadcast' lists 'one-to-all' more than once", "list each value once"});
}

static void test_hostile_reference_p_huge(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "reference-p-huge.xml"}, .status = 2,
                 .prefix = HOSTILE "reference-p-huge.xml:12: ", .phrases = {"p = 99999999999", "2147483647"});
}

static void test_hostile_reference_values_not_times(void)
{
  static const char *const files[] = {"reference-value-nan.xml", "reference-value-inf.xml",
                                      "reference-value-negative.xml"};
  static const char *const shown[] = {"value nan ", "value inf ", "value -0.5 "};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[512];
    char prefix[900];
    snprintf(path, sizeof path, HOSTILE "%s", files[i]);
    snprintf(prefix, sizeof prefix, "%s:12: <reference> ", path);
    EXPECT_FAILURE(.args = {path}, .status = 2, .prefix = prefix, .phrases = {shown[i], "give finite numbers"});
  }
}

/* Platforms SimGrid aborted on mid-run, with a backtrace: refused before the run at the <platform> line. */

static void expect_platform_refused(const char *name, const char *phrase)
{
  char path[512];
  char prefix[900];
  snprintf(path, sizeof path, HOSTILE "%s.xml", name);
  snprintf(prefix, sizeof prefix, "%s:3: platform '" HOSTILE "platform-%s.xml' could not be loaded: ", path, name);
  EXPECT_FAILURE(.args = {path}, .status = 2, .prefix = prefix, .phrases = {phrase});
}

static void test_hostile_platform_no_route(void)
{
  expect_platform_refused("no-route", "no route from host 'h0' to host 'h1'; add a <route>");
  expect_platform_refused("no-route-floyd", "no route from host 'h0' to host 'h1'; add a <route>");
  /* routes inside a native mesh are not looked up (right by construction); those leaving it are */
  expect_platform_refused("no-route-native", "no route from host 'h0' to host 'n0-0'; add a <route>");
}

static void test_hostile_platform_speed_zero(void)
{
  expect_platform_refused("speed-zero", "host 'h0' has speed 0 flop/s, outside [1 flop/s, 1e18 flop/s]");
}

static void test_hostile_platform_bandwidth_zero(void)
{
  expect_platform_refused("bandwidth-zero", "link 'wire' has bandwidth 0 B/s, outside [1 B/s, 1 PB/s]");
}

static void test_hostile_platform_bad_mesh_row(void)
{
  expect_platform_refused("bad-row", HOSTILE "platform-bad-row.xml:6: property simrun:row = \"99999999999\" (on host "
                                             "'h0'): expected an integer in [0, 65535]");
}

static void test_hostile_platform_link_init_infinite(void)
{
  expect_platform_refused("link-init-inf", HOSTILE "platform-link-init-inf.xml:6: property simrun:link-init-us = "
                                                   "\"inf\" (on zone 'pair'): expected a number in [0, 1e12]");
}

/* Host names sort by the value of their digits, however many: 25 digits used to overflow std::stoull. */
static void test_hostile_platform_digit_names_run(void)
{
  char dir[1024];
  cli_run_t run;
  run_ok(dir, sizeof dir, (const char *[]){"--no-cache", HOSTILE "digit-names.xml", NULL}, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "digit-names"));
  run_free(&run);
  remove_folder(dir);
}

/* What SimGrid kills the process on is found first, with its line and the fix (the platform fuzzer's 21 crash inputs
 * of 90 s, all SimGrid's aborts or crashes in the probe's child, were these three): an assertion on a missing profile,
 * a crash of its Dijkstra routing when a route is missing, an abort on an unknown routing. */
static void test_hostile_platform_crash_is_one_line(void)
{
  expect_platform_refused("missing-profile", HOSTILE "platform-missing-profile.xml:6: speed_file=\"no-such.profile\": "
                                                     "no such file beside the platform");
  expect_platform_refused("no-route-dijkstra", HOSTILE "platform-no-route-dijkstra.xml:7: host 'h1' is joined to the "
                                                       "zone's first host by no chain of <route>s (routing Dijkstra)");
  expect_platform_refused("bad-routing", HOSTILE "platform-bad-routing.xml:4: routing=\"Fulll\" is no routing SimGrid "
                                                 "knows; write Full, Floyd");
}

/* Signals: SIGINT, SIGTERM and SIGHUP stop a sweep alike, after its first point (the sweep takes seconds): exit 128 +
 * the signal, one line saying how many points are kept in the cache, no output file, no --svg folder, no simulation
 * process left running in the working folder. */

/* How many processes have `dir` as their working folder. */
static int processes_in(const char *dir)
{
  DIR *proc = opendir("/proc");
  int count = 0;
  char link[64];
  char cwd[2048];
  for (const struct dirent *entry; proc && (entry = readdir(proc));) {
    snprintf(link, sizeof link, "/proc/%.20s/cwd", entry->d_name);
    ssize_t len = readlink(link, cwd, sizeof cwd - 1);
    if (len > 0) {
      cwd[len] = '\0';
      count += strcmp(cwd, dir) == 0;
    }
  }
  if (proc)
    closedir(proc);
  return count;
}

/* Runs the slow sweep in a fresh folder with a fresh cache (dir and cache: 1024 bytes each), its outputs asked for,
 * sends it `signal` once it has finished a point and waits for it: its exit status and output in *run. */
static void signal_sweep(char *dir, char *cache, int signal, cli_run_t *run)
{
  begin_folders(dir, cache);
  static const char *const args[] = {
      "-q", "-j", "2", "--csv", "out.csv", "--svg", "pics/sub", "--per-process", "4", HOSTILE "slow-sweep.xml", NULL};
  FILE *out = tmpfile();
  FILE *err = tmpfile();
  pid_t pid = spawn(dir, SIMRUN_BINARY, args, out, err);
  CU_ASSERT_FATAL(pid > 0);
  /* once the first point is in the cache (a second or so; longer in a sanitised build) */
  for (int waited = 0; count_entries(cache) < 1 && waited < 1200; waited++)
    usleep(100000);
  CU_ASSERT_EQUAL(kill(pid, signal), 0);
  CU_ASSERT_EQUAL_FATAL(finish(pid, out, err, run), 0);
}

static void expect_stopped_by(int signal, int status)
{
  char dir[1024];
  char cache[1024];
  cli_run_t run;
  signal_sweep(dir, cache, signal, &run);
  CU_ASSERT_EQUAL(run.status, status);
  char prefix[900];
  snprintf(prefix, sizeof prefix, HOSTILE "slow-sweep.xml: interrupted after ");
  assert_error_line(run.err, prefix, (const char *const[]){" of 24 points; they are kept in ", cache, NULL});
  CU_ASSERT_EQUAL(count_entries(dir), 0);
  CU_ASSERT_EQUAL(processes_in(dir), 0);
  CU_ASSERT(count_entries(cache) > 0); /* the finished points */
  run_free(&run);
  remove_folder(dir);
  remove_folder(cache);
}

static void test_hostile_signals_stop_alike(void)
{
  expect_stopped_by(SIGINT, 130);
  expect_stopped_by(SIGTERM, 143);
  expect_stopped_by(SIGHUP, 129);
}

/* kill -9 cannot be caught, yet leaves nothing: no output file or folder (made only at the end), no simulation process
 * (each dies with simrun), no temporary cache file (entries are named only when whole). */
static void test_hostile_kill_9_leaves_nothing(void)
{
  char dir[1024];
  char cache[1024];
  cli_run_t run;
  signal_sweep(dir, cache, SIGKILL, &run);
  CU_ASSERT_EQUAL(run.status, -1); /* killed */
  usleep(200000);                  /* the children's death signal is delivered at once; their exit takes a moment */
  CU_ASSERT_EQUAL(count_entries(dir), 0);
  CU_ASSERT_EQUAL(processes_in(dir), 0);
  DIR *folder = opendir(cache);
  for (const struct dirent *entry; folder && (entry = readdir(folder));)
    CU_ASSERT(entry->d_name[0] == '.' || strstr(entry->d_name, ".result") != NULL);
  if (folder)
    closedir(folder);
  run_free(&run);
  remove_folder(dir);
  remove_folder(cache);
}

/* The cache key covers the files a platform names: an edited bandwidth profile used to return the old result. */

/* The T_par of the CSV's last row (the t_par_s column, docs/results.md), after running the scenario in `dir`; NAN
 * when there is none. */
static double run_last_t_par(const char *dir)
{
  cli_run_t run;
  CU_ASSERT_FATAL(run_simrun(dir, (const char *const[]){"-q", "--csv", "out.csv", "s.xml", NULL}, &run) == 0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  char *csv = read_output(dir, "out.csv");
  CU_ASSERT_FATAL(csv != NULL);
  int rows = 0; /* data rows: the lines after the header */
  for (const char *c = csv; (c = strchr(c, '\n')) && c[1]; c++)
    rows++;
  double t_par = csv_number(csv, rows, (const char *const[]){"t_par_s", NULL});
  free(csv);
  return t_par;
}

static void test_hostile_cache_key_covers_profiles(void)
{
  char dir[1024];
  char cache[1024];
  begin_folders(dir, cache);
  write_file(dir, "platform.xml",
             "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<platform version=\"4.1\"><zone id=\"pair\" routing=\"Full\">\n"
             "<host id=\"h0\" speed=\"1Gf\"/><host id=\"h1\" speed=\"1Gf\"/>\n"
             "<link id=\"wire\" bandwidth=\"1MBps\" latency=\"10us\" bandwidth_file=\"wire.profile\"/>\n"
             "<route src=\"h0\" dst=\"h1\"><link_ctn id=\"wire\"/></route></zone></platform>\n");
  write_file(dir, "s.xml",
             "<?xml version=\"1.0\"?>\n<scenario name=\"profile\"><platform file=\"platform.xml\"/>\n"
             "<program skeleton=\"gauss-jordan\"><param name=\"n\" value=\"64\"/>"
             "<param name=\"broadcast\" value=\"one-to-all\"/></program>\n"
             "<sweep><param name=\"p\" values=\"1 2\"/></sweep></scenario>\n");
  write_file(dir, "wire.profile", "0 1000000\n");
  double fast = run_last_t_par(dir);
  write_file(dir, "wire.profile", "0 500000\n"); /* half the bandwidth: the p = 2 run can only take longer */
  double slow = run_last_t_par(dir);
  CU_ASSERT(fast > 0 && slow > fast);
  remove_folder(dir);
  remove_folder(cache);
}

/* The cache's bound, $SIMRUN_CACHE_MAX_MB: not a number, a sign, 0, one past 1 TiB, a number that wraps a long, a
 * unit: one line naming the variable and its value, exit 2, nothing written. */
static void test_hostile_cache_bound_refused(void)
{
  char dir[1024];
  char cache[1024];
  begin_folders(dir, cache);
  static const char *const values[] = {"abc", "-5", "0", "1048577", "99999999999999999999", "12MB"};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    setenv("SIMRUN_CACHE_MAX_MB", values[i], 1);
    EXPECT_FAILURE(.args = {DATA "gj-small.xml"}, .status = 2, .prefix = "SIMRUN_CACHE_MAX_MB: ",
                   .phrases = {values[i], "is not a whole number of MiB from 1 to 1048576"});
  }
  unsetenv("SIMRUN_CACHE_MAX_MB");
  CU_ASSERT_EQUAL(count_entries(cache), 0);
  remove_folder(dir);
  remove_folder(cache);
}

/* Two sweeps sharing a cache at once: both succeed, with the CSV of a run without cache, and leave only whole entries.
 */
static void test_hostile_cache_shared_by_concurrent_sweeps(void)
{
  char dir[1024];
  char cache[1024];
  begin_folders(dir, cache);
  static const char *const names[] = {"a.csv", "b.csv"};
  pid_t pids[2];
  FILE *outs[2][2];
  for (int i = 0; i < 2; i++) {
    outs[i][0] = tmpfile();
    outs[i][1] = tmpfile();
    pids[i] = spawn(dir, SIMRUN_BINARY,
                    (const char *const[]){"-q", "-j", "2", "--csv", names[i], DATA "gj-fourteen.xml", NULL}, outs[i][0],
                    outs[i][1]);
  }
  for (int i = 0; i < 2; i++) {
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(finish(pids[i], outs[i][0], outs[i][1], &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_STRING_EQUAL(run.err, "");
    run_free(&run);
  }
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(
      run_simrun(dir, (const char *const[]){"-q", "--no-cache", "--csv", "c.csv", DATA "gj-fourteen.xml", NULL}, &run),
      0);
  run_free(&run);
  char *csv[3] = {read_output(dir, "a.csv"), read_output(dir, "b.csv"), read_output(dir, "c.csv")};
  CU_ASSERT_FATAL(csv[0] && csv[1] && csv[2]);
  CU_ASSERT_STRING_EQUAL(csv[0], csv[2]);
  CU_ASSERT_STRING_EQUAL(csv[1], csv[2]);
  for (int i = 0; i < 3; i++)
    free(csv[i]);
  CU_ASSERT_EQUAL(count_entries(cache), 14); /* one per point, no temporary file */
  remove_folder(dir);
  remove_folder(cache);
}

/* A scenario writes only inside its own folder, unless the command line names the output. */

static void test_hostile_report_outside_scenario_folder(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "report-escape-parent.xml"}, .bare = 1, .status = 2,
                 .prefix =
                     HOSTILE "report-escape-parent.xml:12: <report csv=...> writes '" HOSTILE "../../escaped.csv', "
                             "outside the scenario's folder",
                 .phrases = {"--csv '" HOSTILE "../../escaped.csv' on the command line"});
  EXPECT_FAILURE(.args = {HOSTILE "report-escape-absolute.xml"}, .bare = 1, .status = 2,
                 .prefix = HOSTILE "report-escape-absolute.xml:12: <report csv=...> writes '/tmp/simrun-escaped.csv', ",
                 .phrases = {"outside the scenario's folder"});
}

static void test_hostile_report_inside_or_on_command_line(void)
{
  char dir[1024];
  char cache[1024];
  begin_folders(dir, cache);
  CU_ASSERT_EQUAL(mkdir(strcat(strcpy((char[1100]){0}, dir), "/sub"), 0700), 0);
  write_file(dir, "s.xml",
             "<?xml version=\"1.0\"?>\n<scenario name=\"inside\"><platform file=\"" DATA "two-hosts.xml\"/>\n"
             "<program skeleton=\"gauss-jordan\"><param name=\"n\" value=\"16\"/>"
             "<param name=\"broadcast\" value=\"one-to-all\"/></program>\n"
             "<sweep><param name=\"p\" values=\"1\"/></sweep><report csv=\"sub/../out.csv\"/></scenario>\n");
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char *const[]){"-q", "s.xml", NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  char *csv = read_output(dir, "out.csv");
  CU_ASSERT_PTR_NOT_NULL(csv);
  free(csv);
  CU_ASSERT_EQUAL_FATAL(
      run_simrun(dir, (const char *const[]){"-q", "--csv", "named.csv", HOSTILE "report-escape-absolute.xml", NULL},
                 &run),
      0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  csv = read_output(dir, "named.csv");
  CU_ASSERT_PTR_NOT_NULL(csv);
  free(csv);
  remove_folder(dir);
  remove_folder(cache);
}

/* Files that never end or block (a device, a FIFO) are refused, and an output is never renamed onto a device. */
static void test_hostile_devices_refused(void)
{
  EXPECT_FAILURE(.args = {"/dev/zero"}, .status = 2,
                 .prefix = "/dev/zero: cannot open scenario: ", .phrases = {"not a regular file (a FIFO or a device)"});
  EXPECT_FAILURE(.args = {"--csv", "/dev/null", DATA "gj-small.xml"}, .bare = 1, .status = 2,
                 .prefix = "cannot write '/dev/null': not a regular file", .phrases = {"give a file name"});
  EXPECT_FAILURE(.args = {"--csv", "", DATA "gj-small.xml"}, .bare = 1, .status = 2,
                 .prefix = "an output path is empty", .phrases = {"give a file name"});
}

/* No output replaces an input or another output of the run (issue 32 item 1): each case runs on a copy of `source`
 * (a folder of tests/data), must exit 2 with one line naming both files, and leave the copy as it was: nothing
 * replaced, nothing added. */
static void expect_clash(const char *source, const char *const *args, const char *prefix, const char *phrase)
{
  char dir[1024];
  char cache[1024];
  char command[4200];
  begin_folders(dir, cache);
  snprintf(command, sizeof command, "cp -R '%s/.' '%s'", source, dir);
  CU_ASSERT_EQUAL_FATAL(system(command), 0);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, prefix, (const char *const[]){phrase, NULL});
  CU_ASSERT_STRING_EQUAL(run.out, "");
  run_free(&run);
  snprintf(command, sizeof command, "diff -r --no-dereference '%s' '%s' >/dev/null && rm -rf '%s'", source, dir, dir);
  CU_ASSERT_EQUAL(system(command), 0);
  remove_folder(cache);
}

#define CLOBBER HOSTILE "clobber"

static void test_hostile_output_replaces_scenario(void)
{
  static const char *const options[] = {"--csv", "--json", "--html", "--paje"};
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
    char prefix[200];
    snprintf(prefix, sizeof prefix, "%s 'scn.xml' would replace the scenario 'scn.xml'; ", options[i]);
    expect_clash(CLOBBER, (const char *const[]){"-q", "--per-process", "2", options[i], "scn.xml", "scn.xml", NULL},
                 prefix, "give");
  }
  expect_clash(CLOBBER, (const char *const[]){"-q", "--csv", "link.xml", "scn.xml", NULL},
               "--csv 'link.xml' would replace the scenario 'scn.xml'", "another name");
}

static void test_hostile_output_replaces_platform(void)
{
  expect_clash(CLOBBER, (const char *const[]){"-q", "--json", "plat.xml", "scn.xml", NULL},
               "--json 'plat.xml' would replace the platform 'plat.xml'; give --json another name", "name");
  expect_clash(CLOBBER, (const char *const[]){"-q", "--csv", "speed.profile", "profile.xml", NULL},
               "--csv 'speed.profile' would replace a file the platform names 'speed.profile'", "another name");
  /* --svg . writes NAME-*.svg files into the folder: a platform called picture.svg could be among them */
  expect_clash(CLOBBER, (const char *const[]){"-q", "--svg", ".", "svg-platform.xml", NULL},
               "--svg '.' would replace the platform 'picture.svg'; give --svg another folder", "folder");
}

static void test_hostile_output_replaces_trace(void)
{
  /* --ti's folder is set aside whole while the sweep writes it: any input beneath it clashes, not only point-* */
  static const char *const folders[][2] = {{"--ti", "move aside, while the sweep reads it,"}, {"--otf2", "replace"}};
  static const char *const ti_folders[] = {"traces", "traces/point-0", "."};
  for (size_t i = 0; i < 2; i++) {
    char prefix[200];
    snprintf(prefix, sizeof prefix, "%s 'traces' would %s the file of parameter 'trace'", folders[i][0], folders[i][1]);
    expect_clash(CLOBBER, (const char *const[]){"-q", "--per-process", "2", folders[i][0], "traces", "trace.xml", NULL},
                 prefix, "traces/point-0/index.txt");
  }
  for (size_t i = 1; i < 3; i++) {
    char prefix[200];
    snprintf(prefix, sizeof prefix, "--ti '%s' would move aside, while the sweep reads it, ", ti_folders[i]);
    expect_clash(CLOBBER, (const char *const[]){"-q", "--per-process", "2", "--ti", ti_folders[i], "trace.xml", NULL},
                 prefix, "give --ti another folder");
  }
  expect_clash(CLOBBER, (const char *const[]){"-q", "--csv", "traces/point-0/rank-1.txt", "trace.xml", NULL},
               "--csv 'traces/point-0/rank-1.txt' would replace a trace file it lists", "give --csv another name");
}

static void test_hostile_outputs_clash(void)
{
  expect_clash(CLOBBER, (const char *const[]){"-q", "--csv", "out.csv", "--json", "out.csv", "scn.xml", NULL},
               "--json 'out.csv' would write over --csv 'out.csv'", "another name");
  expect_clash(CLOBBER, (const char *const[]){"-q", "--csv", "out.csv", "--html", "out-processes.csv", "scn.xml", NULL},
               "--html 'out-processes.csv' would write over --csv's processes table 'out-processes.csv'",
               "another name");
  /* every table the CSV may have beside it, the last of rep_csv_tables' list too (it was left out of the check) */
  expect_clash(
      CLOBBER, (const char *const[]){"-q", "--csv", "out.csv", "--json", "out-provenance.csv", "scn.xml", NULL},
      "--json 'out-provenance.csv' would write over --csv's provenance table 'out-provenance.csv'", "another name");
  expect_clash(CLOBBER,
               (const char *const[]){"-q", "--per-process", "2", "--otf2", "o", "--ti", "./o", "trace.xml", NULL},
               "--ti './o' would write over --otf2 'o'", "another folder");
}

static void test_hostile_report_replaces_scenario(void)
{
  expect_clash(CLOBBER, (const char *const[]){"-q", "report-self.xml", NULL},
               "report-self.xml:7: <report csv> 'report-self.xml' would replace the scenario 'report-self.xml'",
               "give <report csv> another name");
}

static void test_hostile_output_in_cache(void)
{
  char dir[1024];
  char cache[1024];
  char csv[1100];
  begin_folders(dir, cache);
  snprintf(csv, sizeof csv, "%s/out.csv", cache);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char *const[]){"-q", "--csv", csv, DATA "gj-small.xml", NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, "--csv '", (const char *const[]){"would write inside the cache of finished points", NULL});
  run_free(&run);
  CU_ASSERT_EQUAL(count_entries(cache), 0);
  remove_folder(dir);
  remove_folder(cache);
}

static void test_hostile_analyse_output_replaces_timeline(void)
{
  expect_clash(SIMRUN_SOURCE_DIR "/tests/data/tracer",
               (const char *const[]){"analyse", "two-ranks", "--csv", "two-ranks/timeline-0.txt", NULL},
               "--csv 'two-ranks/timeline-0.txt' would replace a file of the trace folder", "another name");
  expect_clash(SIMRUN_SOURCE_DIR "/tests/data/tracer",
               (const char *const[]){"analyse", "two-ranks", "--seq", "cut", "--json", "./cut/timeline-1.txt", NULL},
               "--json './cut/timeline-1.txt' would replace a file of the --seq folder", "another name");
}

/* Bounded input (issue 32 item 2, issue 33 item 4): the timeline and ping-pong CSV readers refuse what they cannot
 * bound (a device, a FIFO, a line past their limit) and numbers that are not decimal or do not fit, with FILE:LINE. */
#define TIMELINE HOSTILE "timeline/"

static void test_hostile_timeline_bounded(void)
{
  EXPECT_FAILURE(.args = {"analyse", TIMELINE "huge-p"}, .bare = 1, .status = 2,
                 .prefix = TIMELINE "huge-p/timeline-0.txt:2: the run has 99999999999 ranks; ",
                 .phrases = {"1 to 65536 ranks"});
  EXPECT_FAILURE(.args = {"analyse", TIMELINE "zero"}, .bare = 1, .status = 2,
                 .prefix = TIMELINE "zero/timeline-0.txt: not a regular file", .phrases = {"trace the run again"});
  EXPECT_FAILURE(.args = {"analyse", TIMELINE "long-line"}, .bare = 1, .status = 2,
                 .prefix = TIMELINE "long-line/timeline-0.txt:3: a line longer than 4095 characters",
                 .phrases = {"trace the run again"});
  EXPECT_FAILURE(.args = {"analyse", TIMELINE "hex"}, .bare = 1, .status = 2,
                 .prefix = TIMELINE "hex/timeline-0.txt:3: a number is not written in decimal", .phrases = {"again"});
  EXPECT_FAILURE(.args = {"analyse", TIMELINE "peer-wrap"}, .bare = 1, .status = 2,
                 .prefix = TIMELINE "peer-wrap/timeline-0.txt:3: the partner is not a rank", .phrases = {"again"});
}

static void test_hostile_pingpong_csv_bounded(void)
{
  EXPECT_FAILURE(.args = {"characterise", "/dev/zero"}, .bare = 1, .status = 2,
                 .prefix = "/dev/zero: cannot read it: it is not a regular file", .phrases = {"give the CSV file"});
  EXPECT_FAILURE(.args = {"characterise", HOSTILE "pingpong-hex.csv"}, .bare = 1, .status = 2,
                 .prefix = HOSTILE "pingpong-hex.csv:3: expected three non-negative numbers", .phrases = {"fix"});
  EXPECT_FAILURE(.args = {"characterise", HOSTILE "pingpong-long-line.csv"}, .bare = 1, .status = 2,
                 .prefix = HOSTILE "pingpong-long-line.csv:2: the line is longer than 1022 characters",
                 .phrases = {"bytes,hops,time_us"});
  EXPECT_FAILURE(.args = {"characterise", "missing.csv"}, .bare = 1, .status = 2,
                 .prefix = "missing.csv: cannot read it: No such file or directory; check the path",
                 .phrases = {"check"});
}

/* Platforms SimGrid's parser reads without a column or a fix (issue 32 item 3): libxml2 reads them first, and
 * SimGrid's own parse errors get the fix simrun knows. */
static void test_hostile_platform_parse_errors(void)
{
  expect_platform_refused("not-xml", HOSTILE "platform-not-xml.xml:1:1: not well-formed XML: Start tag expected");
  expect_platform_refused("no-doctype", HOSTILE "platform-no-doctype.xml:2: no <!DOCTYPE platform SYSTEM");
  expect_platform_refused("junk-speed", HOSTILE "platform-junk-speed.xml:5: cannot parse number:fast; give a number "
                                                "with its unit, such as speed=\"1Gf\"");
  expect_platform_refused("no-hosts", "the platform declares no host; add a <host>");
  /* SimGrid names the element without its line: simrun finds it in the file (issue 48) */
  expect_platform_refused("missing-link", HOSTILE "platform-missing-link.xml:8: <link_ctn id=\"wier\"/> names a link "
                                                  "no <link> declares; declare <link id=\"wier\" .../>");
  expect_platform_refused("twice-host", HOSTILE "platform-twice-host.xml:6: a second host named 'h0' (the first is at "
                                                "line 5); give each host an id of its own");
  expect_platform_refused("unknown-model", HOSTILE "platform-unknown-model.xml:5: property simrun:comm-model = "
                                                   "\"hockney\" (on zone 'pair'): expected piecewise");
  EXPECT_FAILURE(.args = {HOSTILE "scenario-as-platform.xml"}, .status = 2,
                 .prefix =
                     HOSTILE "scenario-as-platform.xml:3: platform '" HOSTILE "bandwidth-zero.xml' could not be "
                             "loaded: " HOSTILE "bandwidth-zero.xml:2: this is a simrun scenario, not a platform; ",
                 .phrases = {"name a SimGrid platform file"});
}

/* Physical ranges (issue 32 item 4, issue 33 item 4): figures outside them are refused with the range. */
static void test_hostile_platform_out_of_range(void)
{
  expect_platform_refused("bandwidth-tiny", "link 'wire' has bandwidth 1e-300 B/s, outside [1 B/s, 1 PB/s]");
  expect_platform_refused("io-negative", HOSTILE "platform-io-negative.xml:6: property simrun:io-input-us = "
                                                 "\"-1000000000 0\" (on zone 'pair'): expected 2 numbers in [0, 1e12]");
  expect_platform_refused("route-twice", "the route from host 'h0' to host 'h1' passes link 'wire' twice");
}

static void test_hostile_reference_minus_zero(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "reference-value-minus-zero.xml"}, .status = 2,
                 .prefix = HOSTILE "reference-value-minus-zero.xml:12: <reference> value -0 is not a time",
                 .phrases = {"give finite numbers"});
}

/* A figure at a p the sweep never runs is never shown: one warning line, and the run goes on. */
static void test_hostile_reference_p_not_run(void)
{
  char dir[1024];
  char cache[1024];
  begin_folders(dir, cache);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char *const[]){"-q", HOSTILE "reference-p-not-run.xml", NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_STRING_EQUAL(run.err, "simrun: warning: " HOSTILE "reference-p-not-run.xml:12: <reference> gives a figure "
                                  "at p = 64, which the sweep never runs, so it is never shown; add 64 to the p "
                                  "values or remove the figure\n");
  run_free(&run);
  remove_folder(dir);
  remove_folder(cache);
}

/* strtod reads 0x10 as 16: a trace's numbers are decimal only. */
static void test_hostile_ti_hexadecimal(void)
{
  EXPECT_FAILURE(.args = {"--no-cache", HOSTILE "ti-hex.xml"}, .status = 2,
                 .prefix = HOSTILE "ti-hex.xml: " HOSTILE "ti-hex/trace.txt:2: '0 compute 0x10': ",
                 .phrases = {"'0x10' is not a finite number in decimal"});
}

/* Numbers given on the command line or as a scenario's time are decimal too: strtod reads 0x10 as 16, and -0 passes
 * a test for >= 0. */
static void test_hostile_options_decimal_only(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "t-seq-hex.xml"}, .status = 2,
                 .prefix = HOSTILE "t-seq-hex.xml:5: t-seq=\"0x10\" is not a time in seconds; ",
                 .phrases = {"give a decimal number > 0"});
  static const char *const sizes[] = {"0x10", "-0"};
  for (size_t i = 0; i < 2; i++)
    EXPECT_FAILURE(.args = {"characterise", SIMRUN_SOURCE_DIR "/tests/data/machine/table2.csv", "--packet-bytes",
                            sizes[i]},
                   .bare = 1, .status = 2, .prefix = "--packet-bytes: expected a decimal number of bytes",
                   .phrases = {"from 0 to 1e15"});
  EXPECT_FAILURE(.args = {"analyse", SIMRUN_SOURCE_DIR "/tests/data/tracer/two-ranks", "--seq", "0x1"}, .bare = 1,
                 .status = 2, .prefix = "--seq 0x1: give a time in seconds > 0", .phrases = {"p = 1"});
}

/* A scenario is a page of XML: one past 16 MiB (here a sparse file, which costs no disk) is refused unread. */
static void test_hostile_scenario_too_large(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  char path[1200];
  snprintf(path, sizeof path, "%s/big.xml", dir);
  FILE *f = fopen(path, "w");
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(ftruncate(fileno(f), (17L << 20)), 0);
  fclose(f);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char *const[]){"big.xml", NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, "big.xml: cannot open scenario: it is larger than simrun reads: 16 MiB for a scenario",
                    (const char *const[]){"give the scenario file itself", NULL});
  CU_ASSERT_PTR_NULL(strstr(run.err, "check the path")); /* the path was right: the file was not a scenario */
  run_free(&run);
  remove_folder(dir);
}

/* A FIFO would block a reader forever: the timeline and the CSV readers refuse it at once. */
static void test_hostile_fifo_refused(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  char path[1200];
  snprintf(path, sizeof path, "%s/run", dir);
  CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/run/timeline-0.txt", dir);
  CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char *const[]){"analyse", "run", NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, "run/timeline-0.txt: not a regular file", (const char *const[]){"FIFO", NULL});
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char *const[]){"characterise", "run/timeline-0.txt", NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, "run/timeline-0.txt: cannot read it: it is not a regular file",
                    (const char *const[]){"FIFO", NULL});
  run_free(&run);
  /* simrun compare's tables: a pipe or a device never ends */
  CU_ASSERT_EQUAL_FATAL(
      run_simrun(dir, (const char *const[]){"compare", "run/timeline-0.txt", "/dev/zero", NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, "run/timeline-0.txt: not a regular file", (const char *const[]){"pipe", NULL});
  run_free(&run);
  CU_ASSERT_EQUAL(unlink(path), 0);
  snprintf(path, sizeof path, "%s/run", dir);
  CU_ASSERT_EQUAL(rmdir(path), 0);
  remove_folder(dir);
}

/* simrun compare on a table with a field of 100,000 characters: refused at its line, not read into memory whole;
 * hexadecimal and nan fields are text, never numbers (nothing compared: the same text in both is equal). */
static void test_hostile_compare_tables(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  char path[1200];
  snprintf(path, sizeof path, "%s/long.csv", dir);
  FILE *out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fprintf(out, "p,t_par_s\n1,");
  for (int i = 0; i < 100000; i++)
    fputc('9', out);
  fprintf(out, "\n");
  fclose(out);
  snprintf(path, sizeof path, "%s/hex.csv", dir);
  out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fprintf(out, "p,t_par_s\n1,0x10\n2,nan\n");
  fclose(out);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char *const[]){"compare", "long.csv", "long.csv", NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, "long.csv:2: a field longer than 4096 characters", (const char *const[]){NULL});
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char *const[]){"compare", "hex.csv", "hex.csv", NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Compared: 0 values"));
  run_free(&run);
  remove_folder(dir);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_hostile_grid_rows_wrap", test_hostile_grid_rows_wrap},
      {"test_hostile_p_wrap", test_hostile_p_wrap},
      {"test_hostile_p_checked_against_hosts_first", test_hostile_p_checked_against_hosts_first},
      {"test_hostile_reference_p_huge", test_hostile_reference_p_huge},
      {"test_hostile_reference_values_not_times", test_hostile_reference_values_not_times},
      {"test_hostile_platform_no_route", test_hostile_platform_no_route},
      {"test_hostile_platform_speed_zero", test_hostile_platform_speed_zero},
      {"test_hostile_platform_bandwidth_zero", test_hostile_platform_bandwidth_zero},
      {"test_hostile_platform_link_init_infinite", test_hostile_platform_link_init_infinite},
      {"test_hostile_platform_digit_names_run", test_hostile_platform_digit_names_run},
      {"test_hostile_platform_crash_is_one_line", test_hostile_platform_crash_is_one_line},
      {"test_hostile_signals_stop_alike", test_hostile_signals_stop_alike},
      {"test_hostile_kill_9_leaves_nothing", test_hostile_kill_9_leaves_nothing},
      {"test_hostile_cache_key_covers_profiles", test_hostile_cache_key_covers_profiles},
      {"test_hostile_cache_bound_refused", test_hostile_cache_bound_refused},
      {"test_hostile_cache_shared_by_concurrent_sweeps", test_hostile_cache_shared_by_concurrent_sweeps},
      {"test_hostile_report_outside_scenario_folder", test_hostile_report_outside_scenario_folder},
      {"test_hostile_report_inside_or_on_command_line", test_hostile_report_inside_or_on_command_line},
      {"test_hostile_devices_refused", test_hostile_devices_refused},
      {"test_hostile_platform_bad_mesh_row", test_hostile_platform_bad_mesh_row},
      {"test_hostile_many_p_checked_before_allocating", test_hostile_many_p_checked_before_allocating},
      {"test_hostile_ti_foreign_files_not_quoted", test_hostile_ti_foreign_files_not_quoted},
      {"test_hostile_ti_more_ranks_than_open_files", test_hostile_ti_more_ranks_than_open_files},
      {"test_hostile_full_disk_otf2", test_hostile_full_disk_otf2},
      {"test_hostile_too_many_points", test_hostile_too_many_points},
      {"test_hostile_duplicate_values", test_hostile_duplicate_values},
      {"test_hostile_output_replaces_scenario", test_hostile_output_replaces_scenario},
      {"test_hostile_output_replaces_platform", test_hostile_output_replaces_platform},
      {"test_hostile_output_replaces_trace", test_hostile_output_replaces_trace},
      {"test_hostile_outputs_clash", test_hostile_outputs_clash},
      {"test_hostile_report_replaces_scenario", test_hostile_report_replaces_scenario},
      {"test_hostile_output_in_cache", test_hostile_output_in_cache},
      {"test_hostile_analyse_output_replaces_timeline", test_hostile_analyse_output_replaces_timeline},
      {"test_hostile_timeline_bounded", test_hostile_timeline_bounded},
      {"test_hostile_pingpong_csv_bounded", test_hostile_pingpong_csv_bounded},
      {"test_hostile_fifo_refused", test_hostile_fifo_refused},
      {"test_hostile_compare_tables", test_hostile_compare_tables},
      {"test_hostile_scenario_too_large", test_hostile_scenario_too_large},
      {"test_hostile_options_decimal_only", test_hostile_options_decimal_only},
      {"test_hostile_ti_hexadecimal", test_hostile_ti_hexadecimal},
      {"test_hostile_platform_out_of_range", test_hostile_platform_out_of_range},
      {"test_hostile_reference_minus_zero", test_hostile_reference_minus_zero},
      {"test_hostile_reference_p_not_run", test_hostile_reference_p_not_run},
      {"test_hostile_platform_parse_errors", test_hostile_platform_parse_errors},
      {NULL, NULL}};
  return tu_run("hostile", cases);
}
