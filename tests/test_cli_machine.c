/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of simrun machine probe (src/cli/cli_machine.c, cli_probe.c): with the ping-pong times given (a measured
 * sample of this machine's, tests/data/machine/pingpong-shm.csv) it writes a platform whose every value has its
 * measurement in a comment, and on which a simulated ping-pong takes the fitted time; with a hostfile, the mpirun
 * line of the inter-node ping-pong and the platform of two nodes (a stand-in mpirun: this machine is one node); bad
 * usage is one error line. */
#define _GNU_SOURCE /* symlink, mkfifo, setenv, kill, usleep */
#include "tu_cli.h"
#include "tu_csv.h"

#include <math.h>
#include <signal.h>
#include <sys/stat.h>

#define MACHINE SIMRUN_SOURCE_DIR "/tests/data/machine/"

/* The four numbers of property `id` in the platform text. */
static int property(const char *xml, const char *id, double v[4])
{
  char key[128];
  snprintf(key, sizeof key, "<prop id=\"%s\" value=\"", id);
  const char *at = strstr(xml, key);
  return at ? sscanf(at + strlen(key), "%lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3]) : 0;
}

/* dir/name opened for writing, its path in `path`. */
static FILE *create_in(const char *dir, const char *name, char *path, size_t len)
{
  snprintf(path, len, "%s/%s", dir, name);
  FILE *out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  return out;
}

/* Runs the ping-pong skeleton at p = 2 on dir/probed.xml from min_bytes to max_bytes into `run` (its pp.xml
 * removed after), its message-time table in dir/pp-messages.csv. */
static void pingpong_on_probed(const char *dir, int min_bytes, int max_bytes, cli_run_t *run)
{
  char path[1100];
  FILE *scenario = create_in(dir, "pp.xml", path, sizeof path);
  fprintf(scenario,
          "<scenario name=\"pp\"><platform file=\"probed.xml\"/><program skeleton=\"ping-pong\">"
          "<param name=\"min-bytes\" value=\"%d\"/><param name=\"max-bytes\" value=\"%d\"/>"
          "<param name=\"p\" value=\"2\"/></program></scenario>\n",
          min_bytes, max_bytes);
  fclose(scenario);
  const char *pp[] = {"pp.xml", "--csv", "pp.csv", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, pp, run), 0);
  CU_ASSERT_EQUAL(run->status, 0);
  remove(path);
}

/* The mean transfer of the `count` messages of `bytes` over `hops` in the message-time table pingpong_on_probed wrote
 * in `dir`, in microseconds; NAN when it has no such row. */
static double message_us(const char *dir, int bytes, int hops, int count)
{
  char *csv = read_output(dir, "pp-messages.csv");
  char keys[64];
  snprintf(keys, sizeof keys, "bytes=%d,hops=%d,count=%d", bytes, hops, count);
  double mean = csv ? 1e6 * tu_csv_value(csv, keys, "mean_s") : NAN;
  free(csv);
  return mean;
}

/* simrun machine probe --samples `csv` in a new folder `dir` (1024 bytes) into probed.xml: its text (free it). */
static char *probed_from(char *dir, const char *csv)
{
  cli_run_t run;
  const char *args[] = {"machine", "probe", "probed.xml", "--samples", csv, NULL};
  run_ok(dir, 1024, args, &run);
  run_free(&run);
  char *xml = read_output(dir, "probed.xml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(xml);
  return xml;
}

/* The bandwidth the ranks saw (issue 47: under load NetPIPE's mean times of 48 KB and more were 3-21x the model the
 * lower quartile gave): tests/data/machine/pingpong-spread.csv's spread lines, each mean twice the lower quartile and
 * each deviation the lower quartile, come into the platform's comment as bandwidths, 65536 B / 6.695926 us = 9787.4
 * MB/s at the lower quartile and half of it at the mean, with a spread of 50%, and 1 MiB / 85.360625 us = 12284.1 MB/s
 * (samples without spread lines get no such comment: test_cli_machine_probe_writes_platform). */
static void test_cli_machine_probe_writes_bandwidth_seen(void)
{
  char dir[1024];
  char *xml = probed_from(dir, MACHINE "pingpong-spread.csv");
  CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<!-- bandwidth inside a node as the ranks see it"));
  CU_ASSERT_PTR_NOT_NULL(strstr(xml, "   65536 B: lower quartile   9787.4 MB/s, mean   4893.7 MB/s (sd 50%)\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(xml, " 1048576 B: lower quartile  12284.1 MB/s, mean   6142.0 MB/s (sd 50%) -->\n"));
  free(xml);
  remove_folder(dir);
}

/* The probed platform: each characterisation value follows its comment; a ping-pong skeleton run on it gives, for
 * 8 and 64 bytes, the small-message regime's alpha + beta l written there (one link per route: eq. 4 at d = 1); a page
 * fault costs more than zeroing its 4 KiB at 80 GB/s (0.05 us) and less than a millisecond. Its samples have no
 * comment lines: neither the bandwidth the ranks saw nor a first call's cost is written. */
static void test_cli_machine_probe_writes_platform(void)
{
  char dir[1024];
  cli_run_t run;
  char *xml = probed_from(dir, MACHINE "pingpong-shm.csv");
  static const char *const ids[] = {"simrun:clock-hz",      "simrun:cycles-cpu",    "simrun:cycles-flop",
                                    "simrun:cycles-intmem", "simrun:cycles-extmem", "simrun:comm-model",
                                    "simrun:page-fault-us"};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    char key[128];
    snprintf(key, sizeof key, "<prop id=\"%s\"", ids[i]);
    const char *at = strstr(xml, key);
    CU_ASSERT_FATAL(at != NULL);
    const char *comment_end = at - 1;
    while (comment_end > xml && (*comment_end == ' ' || *comment_end == '\n'))
      comment_end--;
    CU_ASSERT(comment_end - 2 > xml && strncmp(comment_end - 2, "-->", 3) == 0);
  }
  double small[4] = {0}, packet[4] = {0};
  CU_ASSERT_EQUAL(property(xml, "simrun:comm-small-us", small), 4);
  CU_ASSERT_EQUAL(property(xml, "simrun:comm-packet-bytes", packet), 1);
  CU_ASSERT(packet[0] >= 64 && small[0] >= 0 && small[1] >= 0);
  double fault[4] = {0};
  CU_ASSERT_EQUAL(property(xml, "simrun:page-fault-us", fault), 1);
  CU_ASSERT(fault[0] > 0.05 && fault[0] < 1000);
  CU_ASSERT_PTR_NULL(strstr(xml, "as the ranks see it"));
  CU_ASSERT_PTR_NULL(strstr(xml, "first-call"));
  free(xml);
  pingpong_on_probed(dir, 8, 64, &run);
  for (int bytes = 8; bytes <= 64; bytes *= 8)
    CU_ASSERT_DOUBLE_EQUAL(message_us(dir, bytes, 1, 2), small[0] + small[1] * bytes, 1e-3);
  run_free(&run);
  remove_folder(dir);
}

/* A stand-in `mpirun` first on PATH: it appends its arguments to mpirun-args and prints the ping-pong times of
 * T(l, d) = 0.2 + 0.3 d + (0.0002 + 0.0001 d) l us (1 byte to 1 MiB), at d = 2 when given --hostfile or Open MPI's
 * TCP transport, else at d = 1 with the header, as simrun-pingpong does; with `bad`, the d = 2 times of every other
 * size 10 times that (not eq. 4's shape); then the shell commands `tail`. */
static void fake_mpirun_then(const char *dir, int bad, const char *tail)
{
  char path[1200];
  FILE *out = create_in(dir, "mpirun", path, sizeof path);
  fprintf(out,
          "#!/bin/sh\necho \"$*\" >> '%s/mpirun-args'\nd=1\ncase \"$*\" in *--hostfile*|*tcp,self*) d=2;; *) "
          "echo bytes,hops,time_us;; esac\nl=1\nwhile [ $l -le 1048576 ]; do\n"
          "  awk -v l=$l -v d=$d -v bad=%d 'BEGIN { t = 0.2 + 0.3 * d + (0.0002 + 0.0001 * d) * l; "
          "if (bad && d == 2 && int(log(l) / log(2)) %% 2) t *= 10; printf \"%%d,%%d,%%.6f\\n\", l, d, t }'\n"
          "  l=$((l * 2))\ndone\n%s\n",
          dir, bad, tail);
  fclose(out);
  chmod(path, 0755);
}

static void fake_mpirun_bad(const char *dir, int bad)
{
  fake_mpirun_then(dir, bad, "");
}

/* Property `id`'s first two numbers are alpha and beta (the rest 0), to a part in 1e5. */
static void assert_alpha_beta(const char *xml, const char *id, double alpha, double beta)
{
  double v[4] = {0};
  CU_ASSERT_EQUAL(property(xml, id, v), 4);
  TU_ASSERT_CLOSE(v[0], alpha, 1e-5 * alpha);
  TU_ASSERT_CLOSE(v[1], beta, 1e-5 * beta);
  CU_ASSERT(v[2] == 0 && v[3] == 0);
}

static void fake_mpirun(const char *dir)
{
  fake_mpirun_bad(dir, 0);
}

/* Runs `args` in dir into *run with the stand-in mpirun first on PATH (restored after) and SIMRUN_PINGPONG
 * /bin/true (left set). */
static void run_with_fake(const char *dir, const char *const *args, cli_run_t *run)
{
  char env[4200];
  const char *old_path = getenv("PATH");
  char *saved = strdup(old_path ? old_path : "/usr/bin:/bin");
  snprintf(env, sizeof env, "%s:%s", dir, saved);
  setenv("PATH", env, 1);
  setenv("SIMRUN_PINGPONG", "/bin/true", 1);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, (const char **)args, run), 0);
  setenv("PATH", saved, 1);
  free(saved);
}

/* Runs `args` in dir with the stand-in mpirun (run_with_fake), which must succeed having run mpirun twice: on this
 * node, then with `second` in its arguments. Returns its standard error, which the caller frees. */
static char *probe_with_fake(const char *dir, const char *const *args, const char *second)
{
  cli_run_t run;
  run_with_fake(dir, args, &run);
  CU_ASSERT_EQUAL(run.status, 0);
  char *err = strdup(run.err ? run.err : "");
  run_free(&run);
  char *called = read_output(dir, "mpirun-args");
  CU_ASSERT_PTR_NOT_NULL_FATAL(called);
  CU_ASSERT_EQUAL(count_lines(called), 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(called, "--oversubscribe -np 2 /bin/true 1\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(called, second));
  free(called);
  return err;
}

/* --hostfile: mpirun runs the ping-pong on this node, then with the hostfile on its first two nodes (labelled 2
 * hops); each is fitted alone, the stand-in's T(l, 1) = 0.5 + 0.0003 l us inside a node (simrun:comm-*) and T(l, 2) =
 * 0.8 + 0.0004 l us between nodes (simrun:internode-*); the platform holds both nodes, each host with its node, a
 * route between them two links, and a ping-pong skeleton across them takes T(l, 2) at 1024 bytes, 1.2096 us. */
static void test_cli_machine_probe_hostfile(void)
{
  char dir[1024], path[1200];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  fake_mpirun(dir);
  FILE *hosts = create_in(dir, "hosts", path, sizeof path);
  fprintf(hosts, "# two nodes\nnode-a slots=1\nnode-b slots=1 max_slots=4\n");
  fclose(hosts);
  const char *args[] = {"machine", "probe", "probed.xml", "--hostfile", "hosts", NULL};
  free(probe_with_fake(dir, args, "--hostfile hosts --map-by node --oversubscribe -np 2 /bin/true 2"));
  cli_run_t run;
  char *xml = read_output(dir, "probed.xml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(xml);
  CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<!-- node 1: node-b, 1 cores -->"));
  CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<host id=\"n1-core-0\" speed=\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(xml, "\"><prop id=\"simrun:node\" value=\"1\"/></host>"));
  assert_alpha_beta(xml, "simrun:comm-small-us", 0.5, 0.0003);
  assert_alpha_beta(xml, "simrun:internode-small-us", 0.8, 0.0004);
  CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<route src=\"n0-core-0\" dst=\"n1-core-0\"><link_ctn id=\"net-n0-core-0\"/>"
                                     "<link_ctn id=\"net-n1-core-0\"/></route>"));
  free(xml);
  pingpong_on_probed(dir, 1024, 1024, &run);
  CU_ASSERT_DOUBLE_EQUAL(message_us(dir, 1024, 2, 2), 1.210, 1e-3);
  run_free(&run);
  const char *one_distance[] = {
      "machine", "probe", "no.xml", "--hostfile", "hosts", "--samples", MACHINE "pingpong-shm.csv",
      NULL}; /* its samples are all at 1 hop */
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, one_distance, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "pingpong-shm.csv: no sample at 2 hops"));
  CU_ASSERT_EQUAL(count_lines(run.err), 1);
  run_free(&run);
  remove_folder(dir);
}

/* On one machine (no hostfile): the second ping-pong is this node's over Open MPI's TCP transport, fitted alone as the
 * stand-in between nodes (T(l, 2) = 0.8 + 0.0004 l us), the on-node one as the model inside a node (0.5 + 0.0003 l);
 * every core is a host of node 0, so the TCP fit prices no message of this platform. */
static void test_cli_machine_probe_one_machine_tcp(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  fake_mpirun(dir);
  const char *args[] = {"machine", "probe", "probed.xml", NULL};
  free(probe_with_fake(dir, args, "--mca btl tcp,self --oversubscribe -np 2 /bin/true 2 --one-node\n"));
  char *xml = read_output(dir, "probed.xml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(xml);
  assert_alpha_beta(xml, "simrun:comm-small-us", 0.5, 0.0003);
  assert_alpha_beta(xml, "simrun:internode-small-us", 0.8, 0.0004);
  CU_ASSERT_PTR_NOT_NULL(strstr(xml, "over Open MPI's TCP"));
  CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<host id=\"core-1\" speed=\""));
  CU_ASSERT_PTR_NULL(strstr(xml, "simrun:node\" value=\"1\""));
  free(xml);
  fake_mpirun_bad(dir, 1); /* TCP's times not eq. 4's shape: its fit is refused, the platform written without it */
  char path[1100];
  snprintf(path, sizeof path, "%s/mpirun-args", dir);
  remove(path);
  const char *again[] = {"machine", "probe", "again.xml", NULL};
  char *err = probe_with_fake(dir, again, "--mca btl tcp,self");
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "simrun: warning: the ping-pong over TCP (the stand-in between nodes): the fit "
                                     "misses"));
  CU_ASSERT_EQUAL(count_lines(err), 1);
  free(err);
  xml = read_output(dir, "again.xml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(xml);
  CU_ASSERT_PTR_NULL(strstr(xml, "simrun:internode-"));
  CU_ASSERT_PTR_NOT_NULL(
      strstr(xml, "no model between nodes (the fit of the TCP ping-pong was refused: the fit misses"));
  assert_alpha_beta(xml, "simrun:comm-small-us", 0.5, 0.0003);
  free(xml);
  remove_folder(dir);
}

/* T_par of tests/data/machine/pool-trace replayed by ti-replay on dir/`platform` (p = 4), or NAN. */
static double pool_trace_t_par(const char *dir, const char *platform)
{
  char path[1100];
  FILE *scenario = create_in(dir, "replay.xml", path, sizeof path);
  fprintf(scenario,
          "<scenario name=\"replay\"><platform file=\"%s\"/><program skeleton=\"ti-replay\">"
          "<param name=\"trace\" value=\"" MACHINE "pool-trace/index.txt\"/><param name=\"p\" value=\"4\"/>"
          "</program></scenario>\n",
          platform);
  fclose(scenario);
  const char *args[] = {"replay.xml", "--csv", "replay.csv", "--quiet", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  char *csv = read_output(dir, "replay.csv");
  const char *names[] = {"t_par_s", NULL};
  double t_par = csv ? csv_number(csv, 1, names) : NAN;
  free(csv);
  remove(path);
  return t_par;
}

/* --pool: one host of this machine's cores instead of one host per core. tests/data/machine/pool-trace has 4 ranks,
 * ranks 0 and 2 computing 1e9 flops, 1 and 3 nothing. On the pooled host the two share no core while another is free
 * (SimGrid gives each rank at most one of a host's cores): T_par = 1e9 / speed on 2 cores or more. On a host per core
 * ti-replay puts rank i on host i mod cores, so with 2 cores ranks 0 and 2 share core 0: T_par = 2e9 / speed (the
 * machine that wrote these figures has 2; with more, the ranks are apart there too). */
static void test_cli_machine_probe_pool(void)
{
  char dir[1024];
  cli_run_t run;
  const char *pooled[] = {"machine", "probe", "pooled.xml", "--samples", MACHINE "pingpong-shm.csv", "--pool", NULL};
  const char *plain[] = {"machine", "probe", "plain.xml", "--samples", MACHINE "pingpong-shm.csv", NULL};
  run_ok(dir, sizeof dir, pooled, &run);
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, plain, &run), 0);
  run_free(&run);
  char *xml = read_output(dir, "pooled.xml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(xml);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  char host[64];
  snprintf(host, sizeof host, "<host id=\"this-node\" speed=\"");
  const char *at = strstr(xml, host);
  CU_ASSERT_PTR_NOT_NULL_FATAL(at);
  double speed = atof(at + strlen(host));
  char core[32];
  snprintf(core, sizeof core, "f\" core=\"%ld\"/>", cores);
  CU_ASSERT_PTR_NOT_NULL(strstr(at, core));
  CU_ASSERT_PTR_NULL(strstr(xml, "<route"));
  free(xml);
  xml = read_output(dir, "plain.xml"); /* probed again: its own speed */
  CU_ASSERT_PTR_NOT_NULL_FATAL(xml);
  at = strstr(xml, "<host id=\"core-0\" speed=\"");
  double plain_speed = at ? atof(at + strlen("<host id=\"core-0\" speed=\"")) : 0;
  free(xml);
  CU_ASSERT_FATAL(speed > 0 && plain_speed > 0 && cores >= 2);
  TU_ASSERT_CLOSE(pool_trace_t_par(dir, "pooled.xml"), 1e9 / speed, 1e-6);
  TU_ASSERT_CLOSE(pool_trace_t_par(dir, "plain.xml"), (cores == 2 ? 2e9 : 1e9) / plain_speed, 1e-6);
  remove_folder(dir);
}

/* dir/name holds exactly `text`. */
static int holds(const char *dir, const char *name, const char *text)
{
  char *now = read_output(dir, name);
  int same = now && strcmp(now, text) == 0;
  free(now);
  return same;
}

/* dir/s.csv: tests/data/machine/pingpong-shm.csv's samples, then `more`. */
static void samples_with(const char *dir, const char *more)
{
  char *samples = read_output(MACHINE, "pingpong-shm.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(samples);
  char path[1100];
  FILE *copy = create_in(dir, "s.csv", path, sizeof path);
  fputs(samples, copy);
  fputs(more, copy);
  fclose(copy);
  free(samples);
}

/* What a first collective of a kind costs beyond the next (simrun-pingpong's "# first-call ACTION FIRST NEXT" lines),
 * by hand: 15 - 1, 6 - 0.5, 0 (4 then 7), 10 - 0 and 3 - 1, whose median is 5.5 us, with the lines in the comment
 * (samples without such lines give no property: test_cli_machine_probe_writes_platform); a line whose time is not a
 * decimal number, whose action is no word (one that would end the XML comment) or that has a field too many is
 * refused by its line number. */
static void test_cli_machine_probe_writes_first_calls(void)
{
  char dir[1024], made[1024], csv[1100];
  CU_ASSERT_EQUAL_FATAL(make_folder(made, sizeof made), 0);
  samples_with(made, "# first-call barrier 15 1\n# first-call bcast 6 0.5\n# first-call reduce 4 7\n"
                     "# first-call allreduce 10 0\n# first-call gather 3 1\n");
  snprintf(csv, sizeof csv, "%s/s.csv", made);
  char *xml = probed_from(dir, csv);
  double us[4] = {0};
  CU_ASSERT_EQUAL(property(xml, "simrun:first-call-us", us), 1);
  CU_ASSERT_DOUBLE_EQUAL(us[0], 5.5, 1e-9);
  CU_ASSERT_PTR_NOT_NULL(strstr(xml, "barrier 15.0 then 1.0, bcast 6.0 then 0.5, reduce 4.0 then 7.0, allreduce 10.0 "
                                     "then 0.0,\n         gather 3.0 then 1.0;\n"));
  free(xml);
  remove_folder(dir);
  remove_folder(made);
  static const char *const refused[] = {"# first-call bcast nan 0.5\n", "# first-call x--> 1 2\n",
                                        "# first-call bcast 1 2 3\n", "# first-call bcast 0x10 1\n"};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    char more[128];
    snprintf(more, sizeof more, "# first-call barrier 15 1\n%s", refused[i]);
    samples_with(dir, more);
    const char *args[] = {"machine", "probe", "p.xml", "--samples", "s.csv", NULL};
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 2);
    assert_error_line(run.err, "s.csv:27: a first-call line is '# first-call ACTION FIRST_US NEXT_US'",
                      (const char *const[]){"fix or remove it", NULL});
    CU_ASSERT_EQUAL(count_entries(dir), 1); /* s.csv: no platform */
    run_free(&run);
    remove_folder(dir);
  }
}

/* simrun-pingpong itself under mpirun (2 ranks, as simrun machine probe runs it): a first-call line for each of the 15
 * collectives a TI trace holds, in the replay's names (app_ti_actions.c's), each time from 0 to a second, before its
 * samples (test_cli_machine_probe_writes_first_calls reads such lines): the program's format and order, not its
 * figures, which no hand calculation gives. */
static void test_cli_machine_pingpong_times_first_calls(void)
{
  static const char *const actions[] = {"barrier",   "bcast",      "reduce",        "allreduce", "alltoall",
                                        "alltoallv", "gather",     "gatherv",       "scatter",   "scatterv",
                                        "allgather", "allgatherv", "reducescatter", "scan",      "exscan"};
  CU_ASSERT_FATAL(SIMRUN_MPIRUN[0] && SIMRUN_PINGPONG[0]);
  char dir[1024], command[4096];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(command, sizeof command, "exec '%s' --allow-run-as-root --oversubscribe -np 2 '%s' > pp.csv", SIMRUN_MPIRUN,
           SIMRUN_PINGPONG);
  const char *shell[] = {"-c", command, NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_program(dir, "/bin/sh", shell, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  char *csv = read_output(dir, "pp.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  const char *at = csv;
  for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++) {
    char name[32] = "";
    double first = -1, next = -1;
    CU_ASSERT_FATAL(sscanf(at, "# first-call %31s %lf %lf\n", name, &first, &next) == 3);
    CU_ASSERT_STRING_EQUAL(name, actions[i]);
    CU_ASSERT(first >= 0 && first <= 1e6 && next >= 0 && next <= 1e6);
    at = strchr(at, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    at++;
  }
  CU_ASSERT_NSTRING_EQUAL(at, "bytes,hops,time_us\n", 19);
  free(csv);
  remove_folder(dir);
}

/* The output gate (cli_output.h), before any measurement: a platform that would replace the samples (by name or
 * through a link), a folder, a FIFO (a device's stand-in: /dev/null is never put at risk) or a path in a missing
 * folder is refused in one line with 2, and the samples, the link and the FIFO are as they were (a folder given as the
 * output made simrun free garbage, exit 139, after measuring for a minute; the samples were replaced, exit 0). */
static void test_cli_machine_probe_output_gate(void)
{
  static const struct {
    const char *output, *prefix;
  } cases[] = {{"s.csv", "the platform 's.csv' would replace --samples 's.csv'"},
               {"link.xml", "the platform 'link.xml' would replace --samples 's.csv'"},
               {"folder", "cannot write 'folder': it is a folder"},
               {"fifo", "cannot write 'fifo': not a regular file"},
               {"missing/p.xml", "the platform 'missing/p.xml': 'missing' does not exist"}};
  char *samples = read_output(MACHINE, "pingpong-shm.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(samples);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[1024], path[1100];
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    FILE *copy = create_in(dir, "s.csv", path, sizeof path);
    fputs(samples, copy);
    fclose(copy);
    snprintf(path, sizeof path, "%s/link.xml", dir);
    CU_ASSERT_EQUAL(symlink("s.csv", path), 0);
    snprintf(path, sizeof path, "%s/folder", dir);
    CU_ASSERT_EQUAL(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/fifo", dir);
    CU_ASSERT_EQUAL(mkfifo(path, 0600), 0);
    const char *args[] = {"machine", "probe", cases[i].output, "--samples", "s.csv", NULL};
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 2);
    assert_error_line(run.err, cases[i].prefix, (const char *const[]){NULL});
    CU_ASSERT(holds(dir, "s.csv", samples));
    struct stat st;
    CU_ASSERT(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
    snprintf(path, sizeof path, "%s/link.xml", dir);
    CU_ASSERT(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
    CU_ASSERT_EQUAL(count_entries(dir), 4); /* s.csv, link.xml, folder, fifo: nothing made */
    run_free(&run);
    remove_folder(dir);
  }
  free(samples);
}

/* A signal while the probe measures, or before its ping-pong: 128 + the signal, the sweep's one line naming the step
 * and the platform not written, no platform, and no ping-pong file left in TMPDIR (a SIGTERM exited 143 without a
 * word and left /tmp/simrun-pingpong-*). SIMRUN_PINGPONG names a program that does not exist: the ping-pong must not
 * start once the signal came. */
static void test_cli_machine_probe_stopped_by_a_signal(void)
{
  static const struct {
    const char *pause, *samples, *phrase;
  } steps[] = {{"measuring", MACHINE "pingpong-shm.csv", "interrupted by SIGTERM while measuring this machine"},
               {"pingpong", NULL, "interrupted by SIGTERM during the ping-pong"}};
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
    char dir[1024], tmp[1100];
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    snprintf(tmp, sizeof tmp, "%s/tmp", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(tmp, 0700), 0);
    const char *args[] = {"machine", "probe", "p.xml", steps[i].samples ? "--samples" : NULL, steps[i].samples, NULL};
    setenv("SIMRUN_TEST_PAUSE", steps[i].pause, 1);
    char *saved = tu_env_swap("TMPDIR", tmp);
    setenv("SIMRUN_PINGPONG", "/nonexistent/simrun-pingpong", 1);
    FILE *out = tmpfile(), *err = tmpfile();
    pid_t pid = spawn(dir, SIMRUN_BINARY, args, out, err);
    unsetenv("SIMRUN_TEST_PAUSE");
    tu_env_restore("TMPDIR", saved); /* the caller's, not unset: later tests' temporary files go where it says */
    unsetenv("SIMRUN_PINGPONG");
    char text[4096] = "";
    for (int tries = 0; tries < 4000 && !strstr(text, "simrun: test: paused at "); tries++) {
      ssize_t n = pread(fileno(err), text, sizeof text - 1, 0);
      text[n > 0 ? n : 0] = '\0';
      usleep(5000);
    }
    CU_ASSERT(pid > 0 && kill(pid, SIGTERM) == 0);
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(finish(pid, out, err, &run), 0);
    CU_ASSERT_EQUAL(run.status, 128 + SIGTERM);
    const char *line = strchr(run.err, '\n');
    line = line ? line + 1 : "";
    CU_ASSERT_EQUAL(count_lines(line), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, steps[i].phrase));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "not written: p.xml"));
    CU_ASSERT_EQUAL(count_entries(tmp), 0);
    CU_ASSERT_EQUAL(count_entries(dir), 1); /* tmp alone: no platform, no temporary of it */
    run_free(&run);
    remove_folder(dir);
  }
}

/* What mpirun says besides the ping-pong's samples (a stand-in mpirun, as an Open MPI that warns of a missing network
 * or fails): its standard error is no sample, and neither it nor the samples' temporary file is named as the user's
 * input. A warning on standard error: the platform written, one warning per mpirun quoting its last line that says
 * something (not the rule of hyphens around Open MPI's messages). A line of its output that is no sample: exit 1,
 * "the ping-pong's output" and the line's number named, not the temporary file's (which was exit 2 naming
 * TMPDIR/simrun-pingpong-XXXXXX, removed by then). mpirun failing: exit 1 quoting its last line, its control
 * characters as '?' (the error named the temporary file as where its output was). TMPDIR is left empty each time. */
static void test_cli_machine_probe_mpirun_says(void)
{
  static const struct {
    const char *tail, *phrase;
    int status;
    size_t lines;
  } cases[] = {{"printf '%s\\n' ---- 'WARNING: no network found' ---- >&2",
                "simrun: warning: mpirun -np 2 /bin/true "
                "said 3 lines on its standard error, the "
                "last: 'WARNING: no network found'",
                0, 2},
               {"echo 'Open MPI: not a sample'", "simrun: error: the ping-pong's output:23: expected three", 1, 1},
               {"printf 'ORTE \\033[31mcannot\\033[0m start\\n' >&2; exit 1",
                "failed, saying 'ORTE ?[31mcannot?[0m start'; check that", 1, 1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[1024], tmp[1100];
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    snprintf(tmp, sizeof tmp, "%s/tmp", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(tmp, 0700), 0);
    fake_mpirun_then(dir, 0, cases[i].tail);
    char *saved_tmp = tu_env_swap("TMPDIR", tmp);
    const char *args[] = {"machine", "probe", "p.xml", NULL};
    cli_run_t run;
    run_with_fake(dir, args, &run);
    tu_env_restore("TMPDIR", saved_tmp);
    unsetenv("SIMRUN_PINGPONG");
    CU_ASSERT_EQUAL(run.status, cases[i].status);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, cases[i].phrase));
    CU_ASSERT_EQUAL(count_lines(run.err), cases[i].lines);
    CU_ASSERT_PTR_NULL(strstr(run.err, "simrun-pingpong-"));
    CU_ASSERT_EQUAL(count_entries(tmp), 0);
    char p_xml[1200];
    snprintf(p_xml, sizeof p_xml, "%s/p.xml", dir);
    CU_ASSERT_EQUAL(access(p_xml, F_OK) == 0, cases[i].status == 0);
    run_free(&run);
    remove_folder(dir);
  }
}

static void test_cli_machine_bad_usage(void)
{
  EXPECT_FAILURE(.args = {"machine"}, .bare = 1, .status = 2, .prefix = "expected 'simrun machine probe FILE.xml'",
                 .phrases = {NULL});
  EXPECT_FAILURE(.args = {"machine", "probe"}, .bare = 1, .status = 2, .prefix = "no output file given",
                 .phrases = {NULL});
  EXPECT_FAILURE(.args = {"machine", "probe", "out.xml", "--samples", MACHINE "not-eq4.csv"}, .bare = 1, .status = 1,
                 .prefix = MACHINE "not-eq4.csv: messages inside a node: the fit misses",
                 .phrases = {"nothing written"});
  EXPECT_FAILURE(.args = {"machine", "probe", "out.xml", "--samples", MACHINE "pingpong-apart-few.csv"}, .bare = 1,
                 .status = 1, .prefix = MACHINE "pingpong-apart-few.csv: messages between nodes: no packet size",
                 .phrases = {"3 sizes", "nothing written"});
  EXPECT_FAILURE(.args = {"machine", "probe", "out.xml", "--samples", MACHINE "pingpong-apart-not-eq4.csv"}, .bare = 1,
                 .status = 1, .prefix = MACHINE "pingpong-apart-not-eq4.csv: messages between nodes: the fit misses",
                 .phrases = {"nothing written"});
  EXPECT_FAILURE(.args = {"machine", "probe", "out.xml", "--samples", MACHINE "pingpong-apart-only.csv"}, .bare = 1,
                 .status = 2, .prefix = MACHINE "pingpong-apart-only.csv: no sample at 1 hop",
                 .phrases = {"bytes,1,time_us"});
  EXPECT_FAILURE(.args = {"machine", "probe", "out.xml", "--hostfile", MACHINE "hosts-one-node.txt"}, .bare = 1,
                 .status = 2, .prefix = MACHINE "hosts-one-node.txt:3: fewer than two nodes",
                 .phrases = {"one per line"});
  EXPECT_FAILURE(.args = {"machine", "probe", "out.xml", "--hostfile", MACHINE "hosts-bad-slots.txt"}, .bare = 1,
                 .status = 2, .prefix = MACHINE "hosts-bad-slots.txt:2: slots= is not a positive whole number",
                 .phrases = {"node1 slots=4"});
  EXPECT_FAILURE(.args = {"machine", "probe", "out.xml", "--hostfile", MACHINE "no-such-hosts"}, .bare = 1, .status = 2,
                 .prefix = MACHINE "no-such-hosts: cannot read that hostfile", .phrases = {NULL});
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_cli_machine_probe_writes_platform", test_cli_machine_probe_writes_platform},
      {"test_cli_machine_probe_writes_bandwidth_seen", test_cli_machine_probe_writes_bandwidth_seen},
      {"test_cli_machine_probe_writes_first_calls", test_cli_machine_probe_writes_first_calls},
      {"test_cli_machine_pingpong_times_first_calls", test_cli_machine_pingpong_times_first_calls},
      {"test_cli_machine_probe_hostfile", test_cli_machine_probe_hostfile},
      {"test_cli_machine_probe_one_machine_tcp", test_cli_machine_probe_one_machine_tcp},
      {"test_cli_machine_probe_pool", test_cli_machine_probe_pool},
      {"test_cli_machine_bad_usage", test_cli_machine_bad_usage},
      {"test_cli_machine_probe_output_gate", test_cli_machine_probe_output_gate},
      {"test_cli_machine_probe_stopped_by_a_signal", test_cli_machine_probe_stopped_by_a_signal},
      {"test_cli_machine_probe_mpirun_says", test_cli_machine_probe_mpirun_says},
      {NULL, NULL}};
  return tu_run("cli_machine", cases);
}
