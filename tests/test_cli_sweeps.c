/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* End-to-end tests of sweeps through the command line: -j, Ctrl-C and resuming from the cache, the progress bar on a
 * terminal, and the task farm under Open MPI's mpirun against a local run. Inputs are in tests/data/cli/. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, fileno, dup2, fork, execv, kill, nanosleep, setenv */
#define _DEFAULT_SOURCE         /* forkpty */

#include "tu_cli.h"

#include <pty.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

static void test_cli_jobs_junk(void)
{
  EXPECT_FAILURE(.args = {"-j", "0", DATA "gj-small.xml"}, .status = 2,
                 .prefix = "-j takes the number of simulations to run at once, a whole number from 1 to 1024, not '0'",
                 .phrases = {"see simrun --help"});
  EXPECT_FAILURE(.args = {"--jobs=many", DATA "gj-small.xml"}, .status = 2, .prefix = "-j takes ",
                 .phrases = {"not 'many'"});
}

/* The per-process p's run writes its intervals to a temporary file in $TMPDIR (met_trace_new_spilled): a TMPDIR that
 * does not exist is a runtime failure, said in one line that names it, and no output is written. */
static void test_cli_timeline_needs_a_temporary_folder(void)
{
  char dir[1024];
  const char *args[] = {"-q", "--no-cache", DATA "gj-small.xml", "--per-process", "4", "--csv", "out.csv", NULL};
  const char *const none[] = {NULL};
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  char *saved = tu_env_swap("TMPDIR", "/nonexistent-simrun-tmp"); /* for the simrun started here only */
  cli_run_t run;
  int started = run_simrun(dir, args, &run);
  tu_env_restore("TMPDIR", saved);
  CU_ASSERT_EQUAL_FATAL(started, 0);
  CU_ASSERT_EQUAL(run.status, 1);
  assert_error_line(run.err,
                    DATA "gj-small.xml: cannot make the timeline's temporary file in /nonexistent-simrun-tmp; set "
                         "TMPDIR to a writable folder\n",
                    none);
  CU_ASSERT_EQUAL(count_entries(dir), 0);
  run_free(&run);
  remove_folder(dir);
}

/* --ti writes the per-process p's runs (gj-small: points 2 and 5 are at p = 4) as TI traces, each an index of four
 * rank files starting with init; without --per-process it is refused before anything runs. */
static void test_cli_ti_writes_traces(void)
{
  char dir[1024];
  const char *args[] = {"-q", DATA "gj-small.xml", "--per-process", "4", "--ti", "ti", NULL};
  cli_run_t run;
  run_ok(dir, sizeof dir, args, &run);
  char *index = read_output(dir, "ti/point-5/index.txt");
  char *rank = read_output(dir, "ti/point-5/rank-3.txt");
  CU_ASSERT(index && count_lines(index) == 4 && strstr(index, "/ti/point-5/rank-3.txt\n"));
  CU_ASSERT(rank && strncmp(rank, "3 init\n3 recv 0 0 ", 18) == 0 && strstr(rank, "3 finalize\n"));
  /* the report says what the recorder kept: sums everywhere, the timeline at p = 4 only */
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Recorded: per-rank sums as the run goes"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "the timeline kept at p = 4 only."));
  free(index);
  free(rank);
  run_free(&run);
  char command[1200];
  snprintf(command, sizeof command, "rm -r %s/ti", dir); /* remove_folder leaves nested folders */
  CU_ASSERT_EQUAL(system(command), 0);
  remove_folder(dir);
  EXPECT_FAILURE(.args = {DATA "gj-small.xml", "--ti", "ti"}, .status = 2,
                 .prefix = "--ti writes the runs of the per-process p in this process: add --per-process P");
}

/* The number of results in cache folder `dir`. */
static int count_results(const char *dir)
{
  DIR *folder = opendir(dir);
  int count = 0;
  for (const struct dirent *entry; folder && (entry = readdir(folder));)
    count += strstr(entry->d_name, ".result") != NULL;
  if (folder)
    closedir(folder);
  return count;
}

/* Starts the 14-point sweep (its cache in `cache`, where SIMRUN_CACHE_DIR points), waits for its first finished point,
 * sends SIGINT. */
static void interrupt_sweep(const char *dir, const char *cache, const char *const *args, cli_run_t *run)
{
  FILE *out = tmpfile();
  FILE *err = tmpfile();
  pid_t pid = spawn(dir, SIMRUN_BINARY, args, out, err);
  struct timespec pause = {.tv_nsec = 5000000};
  for (int i = 0; pid > 0 && i < 4000 && count_results(cache) == 0; i++)
    nanosleep(&pause, NULL);
  CU_ASSERT(pid > 0 && kill(pid, SIGINT) == 0);
  CU_ASSERT_EQUAL_FATAL(finish(pid, out, err, run), 0);
}

/* A fresh working folder and a fresh cache folder, with SIMRUN_CACHE_DIR on the latter; returns the variable's former
 * value (or NULL) for end_cache_folders. */
static char *begin_cache_folders(char *dir, char *cache, size_t size)
{
  char *before = getenv("SIMRUN_CACHE_DIR") ? strdup(getenv("SIMRUN_CACHE_DIR")) : NULL;
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, size), 0);
  CU_ASSERT_EQUAL_FATAL(make_folder(cache, size), 0);
  setenv("SIMRUN_CACHE_DIR", cache, 1);
  return before;
}

/* Puts SIMRUN_CACHE_DIR back and removes both folders. */
static void end_cache_folders(char *before, const char *dir, const char *cache)
{
  before ? setenv("SIMRUN_CACHE_DIR", before, 1) : unsetenv("SIMRUN_CACHE_DIR");
  free(before);
  remove_folder(cache);
  remove_folder(dir);
}

/* Ctrl-C half-way: exit status 130 (128 + SIGINT), one line saying how many points are kept and where, no output file
 * left; the same command again completes the CSV, with every point in the cache. */
static void test_cli_interrupted_sweep_resumes(void)
{
  char dir[1024];
  char cache[1024];
  char *before = begin_cache_folders(dir, cache, sizeof dir);
  const char *args[] = {DATA "gj-fourteen.xml", "--csv", "out.csv", NULL};
  cli_run_t run;
  interrupt_sweep(dir, cache, args, &run);
  CU_ASSERT_EQUAL(run.status, 130);
  assert_error_line(run.err, DATA "gj-fourteen.xml: interrupted after ",
                    (const char *const[]){"of 14 points", cache, "run the same command again to resume", NULL});
  int kept = count_results(cache);
  CU_ASSERT(kept >= 1 && kept < 14);
  CU_ASSERT_EQUAL(count_entries(dir), 0);
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT(run.status == 0 && *run.err == '\0');
  char *csv = read_output(dir, "out.csv");
  CU_ASSERT(csv && count_lines(csv) == 15);
  CU_ASSERT_EQUAL(count_results(cache), 14);
  free(csv);
  run_free(&run);
  end_cache_folders(before, dir, cache);
}

/* A two-rank trace of one message of `bytes` bytes in `dir` (index.txt and its two files). */
static void write_trace(const char *dir, int bytes)
{
  char text[128];
  snprintf(text, sizeof text, "0 init\n0 send 1 0 %d\n0 finalize\n", bytes);
  write_in(dir, "rank-0.txt", text);
  snprintf(text, sizeof text, "1 init\n1 recv 0 0 %d\n1 finalize\n", bytes);
  write_in(dir, "rank-1.txt", text);
  write_in(dir, "index.txt", "rank-0.txt\nrank-1.txt\n");
}

/* A ti-replay point is never taken from the cache: its trace files are not in the key, so an edited trace gives a
 * new result (1000 B, then 2000 B: different message times), and nothing is filed. The trace path is relative to
 * the scenario file. */
static void test_cli_trace_replay_not_cached(void)
{
  char dir[1024];
  char cache[1024];
  char *before = begin_cache_folders(dir, cache, sizeof dir);
  write_in(dir, "ti.xml",
           "<scenario name=\"ti\"><platform file=\"" SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml\"/>"
           "<program skeleton=\"ti-replay\"><param name=\"trace\" value=\"index.txt\"/></program>"
           "<sweep><param name=\"p\" values=\"2\"/></sweep></scenario>\n");
  const char *args[] = {"-q", "ti.xml", NULL};
  cli_run_t first;
  cli_run_t second;
  write_trace(dir, 1000);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &first), 0);
  write_trace(dir, 2000);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &second), 0);
  CU_ASSERT(first.status == 0 && second.status == 0 && strstr(first.out, "1000"));
  CU_ASSERT(strstr(second.out, "2000") && !strstr(second.out, "1000"));
  CU_ASSERT_EQUAL(count_results(cache), 0);
  run_free(&first);
  run_free(&second);
  end_cache_folders(before, dir, cache);
}

/* Everything simrun writes on the terminal of pseudo-terminal `master`, as a new string. */
static char *read_terminal(int master)
{
  size_t len = 0;
  char *text = malloc(1);
  char buf[4096];
  ssize_t n;
  while (text && (n = read(master, buf, sizeof buf)) > 0) {
    char *grown = realloc(text, len + (size_t)n + 1);
    if (grown)
      memcpy(grown + len, buf, (size_t)n);
    len += grown ? (size_t)n : 0;
    if (!grown)
      free(text);
    text = grown;
  }
  if (text)
    text[len] = '\0';
  return text;
}

/* On a terminal, a progress bar that ends at every point; piped, nothing (the other tests check that stderr is empty).
 */
static void test_cli_progress_bar_on_a_terminal(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  int master = -1;
  fflush(NULL);
  pid_t pid = forkpty(&master, NULL, NULL, NULL);
  if (pid == 0) {
    if (chdir(dir) == 0)
      execl(SIMRUN_BINARY, SIMRUN_BINARY, "--no-cache", DATA "gj-small.xml", (char *)NULL);
    _exit(127);
  }
  CU_ASSERT_FATAL(pid > 0);
  char *seen = read_terminal(master);
  int wstatus = 0;
  CU_ASSERT(waitpid(pid, &wstatus, 0) == pid && WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
  CU_ASSERT(seen && strstr(seen, "simrun: [###") && strstr(seen, " 6/6 points") && strstr(seen, "speedup"));
  free(seen);
  close(master);
  remove_folder(dir);
}

/* Whether the progress log (SIMRUN_TEST_PROGRESS, cli_progress.h) at `path` has a state after the first that finished
 * no more points than the one before: a report from inside a running simulation, not a point's end. */
static int log_has_report(const char *path)
{
  FILE *f = fopen(path, "r");
  double elapsed, left;
  size_t done, total, before = SIZE_MAX;
  int report = 0;
  while (f && fscanf(f, "%lf %lf %zu %zu", &elapsed, &left, &done, &total) == 4) {
    report |= before != SIZE_MAX && done == before && done < total;
    before = done;
  }
  if (f)
    fclose(f);
  return report;
}

/* Under mpirun, 2 ranks (one hands out, one simulates) print the table and write the CSV of a local -j 2 run, and
 * rank 0 hears how far a simulation is before it ends (its progress log has a report between two points' ends). Fails
 * when simrun was built without Open MPI; --mpi on one rank only is refused. Open MPI keeps part of what
 * MPI_Init allocates until the process exits (in components it has unloaded by then), which LeakSanitizer would
 * report: leak detection is off for these runs (the other tests run the same code without MPI, with it on). */
static void test_cli_mpi_farm_matches_local_run(void)
{
  if (!*SIMRUN_MPIRUN) {
    CU_FAIL("simrun was built without Open MPI (libopenmpi-dev, openmpi-bin): scripts/install-deps installs it");
    return;
  }
  char *before = getenv("ASAN_OPTIONS") ? strdup(getenv("ASAN_OPTIONS")) : NULL;
  setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  const char *farm[] = {"--allow-run-as-root", "--oversubscribe",   "-np",   "2",        SIMRUN_BINARY, "--mpi",
                        "--no-cache",          DATA "gj-small.xml", "--csv", "farm.csv", NULL};
  const char *local[] = {"-j", "2", "--no-cache", DATA "gj-small.xml", "--csv", "local.csv", NULL};
  cli_run_t a;
  cli_run_t b;
  char log[1100];
  snprintf(log, sizeof log, "%s/progress.log", dir);
  setenv("SIMRUN_TEST_PROGRESS", log, 1);
  CU_ASSERT_EQUAL_FATAL(run_program(dir, SIMRUN_MPIRUN, farm, &a), 0);
  unsetenv("SIMRUN_TEST_PROGRESS");
  CU_ASSERT(log_has_report(log));
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, local, &b), 0);
  CU_ASSERT(a.status == 0 && b.status == 0 && strstr(a.out, "speedup"));
  CU_ASSERT_STRING_EQUAL(a.out, b.out);
  char *x = read_output(dir, "farm.csv");
  char *y = read_output(dir, "local.csv");
  CU_ASSERT(x && y && count_lines(x) == 7 && strcmp(x, y) == 0);
  free(x);
  free(y);
  run_free(&a);
  run_free(&b);
  remove_folder(dir);
  EXPECT_FAILURE(.args = {"--mpi", DATA "gj-small.xml"}, .status = 2,
                 .prefix = DATA "gj-small.xml: --mpi needs at least 2 ranks", .phrases = {"mpirun -np N"});
  before ? setenv("ASAN_OPTIONS", before, 1) : unsetenv("ASAN_OPTIONS");
  free(before);
}

/* In a new folder (its path into dir), writes two platforms with `simrun platform` (`a` and `b`, its arguments) and
 * scenario file `name` holding `scenario`; then runs simrun there with `args` into *run. */
static void sweep_two_platforms(char *dir, size_t len, const char *const *a, const char *const *b, const char *name,
                                const char *scenario, const char *const *args, cli_run_t *run)
{
  char path[1200];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, len), 0);
  for (int i = 0; i < 2; i++) {
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, i ? b : a, run), 0);
    CU_ASSERT_EQUAL(run->status, 0);
    run_free(run);
  }
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  CU_ASSERT_FATAL(f != NULL);
  fputs(scenario, f);
  fclose(f);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, run), 0);
}

/* A sweep over two switches of 4 and 8 hosts at p = 1, 2, 4, 8: p = 8 on the 4-host switch is skipped with one warning
 * line naming the platform and its hosts, and the other 7 points run (the sweep was refused whole). */
static void test_cli_platform_sweep_skips_points_beyond_hosts(void)
{
  char dir[1024];
  cli_run_t run;
  const char *sw4[] = {"platform", "switch", "4", "--preset", "icluster", "-o", "sw4.xml", NULL};
  const char *sw8[] = {"platform", "switch", "8", "--preset", "icluster", "-o", "sw8.xml", NULL};
  const char *args[] = {"-q", "--no-cache", "sizes.xml", "--csv", "sizes.csv", NULL};
  sweep_two_platforms(dir, sizeof dir, sw4, sw8, "sizes.xml",
                      "<scenario name=\"sizes\"><platform file=\"sw8.xml\"/><program skeleton=\"gauss-jordan\"><param "
                      "name=\"n\" value=\"64\"/><param name=\"broadcast\" value=\"neighbour\"/></program><sweep><param "
                      "name=\"platform\" values=\"sw4.xml sw8.xml\"/><param name=\"p\" values=\"1 2 4 8\"/></sweep>"
                      "</scenario>\n",
                      args, &run);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_STRING_EQUAL(run.err,
                         "simrun: warning: sizes.xml:1: p = 8 skipped on platform 'sw4.xml', which has 4 hosts\n");
  char *csv = read_output(dir, "sizes.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  CU_ASSERT_EQUAL(count_lines(csv), 1 + 7); /* the header and 3 + 4 points */
  free(csv);
  run_free(&run);
  remove_folder(dir);
}

/* The report's first line names the parameters every point shares in parentheses, and no parentheses when none is
 * fixed (it read "gauss-jordan () on ..."): n and the broadcast swept with the platform, then n fixed. */
static void test_cli_title_names_fixed_parameters_only(void)
{
  static const char *const titles[] = {"all: gauss-jordan on the platforms its platform parameter sweeps\n",
                                       "all: gauss-jordan (n = 32) on the platforms its platform parameter sweeps\n"};
  static const char *const n_values[] = {"values=\"32 48\"", "values=\"32\""};
  const char *sw2[] = {"platform", "switch", "2", "--preset", "icluster", "-o", "sw2.xml", NULL};
  const char *sw4[] = {"platform", "switch", "4", "--preset", "icluster", "-o", "sw4.xml", NULL};
  const char *args[] = {"-q", "--no-cache", "all.xml", NULL};
  for (int k = 0; k < 2; k++) {
    char dir[1024], scenario[1024];
    cli_run_t run;
    snprintf(scenario, sizeof scenario,
             "<scenario name=\"all\"><platform file=\"sw4.xml\"/><program skeleton=\"gauss-jordan\"/><sweep>"
             "<param name=\"n\" %s/><param name=\"broadcast\" values=\"neighbour one-to-all\"/><param "
             "name=\"platform\" values=\"sw2.xml sw4.xml\"/><param name=\"p\" values=\"1 2\"/></sweep></scenario>\n",
             n_values[k]);
    sweep_two_platforms(dir, sizeof dir, sw2, sw4, "all.xml", scenario, args, &run);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_NSTRING_EQUAL(run.out, titles[k], strlen(titles[k]));
    run_free(&run);
    remove_folder(dir);
  }
}

/* On one platform as in a sweep over platforms: p = 1, 2, 4 on two-hosts.xml runs p = 1 and 2 and skips p = 4 with one
 * warning line at the scenario's p (a run on one platform was refused whole for one p beyond its hosts). */
static void test_cli_one_platform_skips_points_beyond_hosts(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  const char *args[] = {"-q", "--no-cache", DATA "too-many-ranks.xml", "--csv", "few.csv", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_STRING_EQUAL(run.err, "simrun: warning: " DATA "too-many-ranks.xml:9: p = 4 skipped on platform '" DATA
                                  "two-hosts.xml', which has 2 hosts\n");
  char *csv = read_output(dir, "few.csv");
  CU_ASSERT(csv && count_lines(csv) == 1 + 2); /* the header, p = 1 and 2 */
  free(csv);
  run_free(&run);
  remove_folder(dir);
}

/* A scaled sweep through the command line: the scaled table in the report, the CSV's fixed-size columns (row 2 is
 * p = 2, n = 45, whose fixed-size twin is the n = 32 point at p = 2, row 5: a fixed-size point leaves them empty), and
 * a bad expression refused at its line with status 2 and nothing written. */
static void test_cli_scaled_sweep(void)
{
  char dir[1024];
  const char *args[] = {"--csv", "out.csv", DATA "gj-scaled.xml", NULL};
  cli_run_t run;
  run_ok(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Scaled sweep (docs/scenarios.md)"));
  char *csv = read_output(dir, "out.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  static const char *const fixed_speedup[] = {"fixed_speedup", NULL}, *const speedup[] = {"speedup", NULL},
                           *const fixed_size[] = {"fixed_size", NULL}, *const n[] = {"n", NULL};
  CU_ASSERT_EQUAL(csv_number(csv, 2, n), 45);
  CU_ASSERT_EQUAL(csv_number(csv, 5, n), 32);
  CU_ASSERT_EQUAL(csv_number(csv, 2, fixed_size), 0);
  CU_ASSERT_EQUAL(csv_number(csv, 5, fixed_size), 1);
  CU_ASSERT_EQUAL(csv_number(csv, 2, fixed_speedup), csv_number(csv, 5, speedup));
  free(csv);
  run_free(&run);
  remove_folder(dir);
  EXPECT_FAILURE(.args = {DATA "gj-scaled-bad.xml"}, .status = 2,
                 .prefix = DATA "gj-scaled-bad.xml:8: parameter 'n': expr=\"64 / (p - 1)\" at p = 1: division by zero",
                 .phrases = {"; keep the divisor non-zero at every value"});
}

/* pdgemm's grids on two switches of 4 hosts, icluster's and epyc-25gbe's: the point-to-point and network lines and
 * the best and worst grids name their platform, and each platform's p = 4 gets its own row (they were one, mixing
 * both machines' points). By hand from the presets: a message's latency is two links', 2 x 62.02 = 124.04 us on
 * icluster and 2 x 2.91108 = 5.82216 us on epyc-25gbe. */
static void test_cli_platform_sweep_names_platforms(void)
{
  char dir[1024];
  cli_run_t run;
  const char *ic[] = {"platform", "switch", "4", "--preset", "icluster", "-o", "ic.xml", NULL};
  const char *eth[] = {"platform", "switch", "4", "--preset", "epyc-25gbe", "-o", "eth.xml", NULL};
  const char *args[] = {"--no-cache", "--full", "--width", "1000", "grids.xml", NULL};
  sweep_two_platforms(dir, sizeof dir, ic, eth, "grids.xml",
                      "<scenario name=\"grids\"><platform file=\"ic.xml\"/><program skeleton=\"pdgemm\"><param "
                      "name=\"m\" value=\"256\"/><param name=\"n\" value=\"256\"/><param name=\"k\" value=\"256\"/>"
                      "<param name=\"block\" value=\"64\"/><param name=\"broadcast\" value=\"binomial\"/></program>"
                      "<sweep><param name=\"platform\" values=\"ic.xml eth.xml\"/><param name=\"grid-rows\" "
                      "values=\"1 2 4\"/><param name=\"p\" values=\"4\"/></sweep></scenario>\n",
                      args, &run);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Point-to-point models on ic.xml, ranks 0 and 1 (2 hops): Hockney lambda "
                                         "124.04 us"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Point-to-point models on eth.xml, ranks 0 and 1 (2 hops): Hockney lambda "
                                         "5.82216 us"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "docs/machines.md): on ic.xml, CM02: "));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "docs/machines.md): on eth.xml, CM02: "));
  const char *table = strstr(run.out, "Best and worst grid per platform and p");
  CU_ASSERT_PTR_NOT_NULL_FATAL(table);
  const char *first = strstr(table, "  ic.xml\n");
  const char *second = strstr(table, "  eth.xml\n");
  CU_ASSERT(first && second && first < second && strncmp(first - 57, "     4 ", 7) == 0);
  run_free(&run);
  remove_folder(dir);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_cli_jobs_junk", test_cli_jobs_junk},
      {"test_cli_scaled_sweep", test_cli_scaled_sweep},
      {"test_cli_platform_sweep_skips_points_beyond_hosts", test_cli_platform_sweep_skips_points_beyond_hosts},
      {"test_cli_one_platform_skips_points_beyond_hosts", test_cli_one_platform_skips_points_beyond_hosts},
      {"test_cli_platform_sweep_names_platforms", test_cli_platform_sweep_names_platforms},
      {"test_cli_ti_writes_traces", test_cli_ti_writes_traces},
      {"test_cli_timeline_needs_a_temporary_folder", test_cli_timeline_needs_a_temporary_folder},
      {"test_cli_interrupted_sweep_resumes", test_cli_interrupted_sweep_resumes},
      {"test_cli_trace_replay_not_cached", test_cli_trace_replay_not_cached},
      {"test_cli_progress_bar_on_a_terminal", test_cli_progress_bar_on_a_terminal},
      {"test_cli_mpi_farm_matches_local_run", test_cli_mpi_farm_matches_local_run},
      {"test_cli_title_names_fixed_parameters_only", test_cli_title_names_fixed_parameters_only},
      {NULL, NULL}};
  return tu_run("cli_sweeps", cases);
}
