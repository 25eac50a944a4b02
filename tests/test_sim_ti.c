/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Time-independent traces (sim_ti.h, app_ti.h): a hand calculation, the round trip (a skeleton's run written as a TI
 * trace and replayed gives the same simulated time and messages), and the message for an action simrun cannot replay.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "app_gj.h"
#include "app_ti.h"
#include "met_comm.h"
#include "met_wait.h"
#include "sim_error.h"
#include "sim_run.h"
#include "sim_ti.h"
#include "tu.h"
#include "tu_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T800 SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"
/* Table 2, l > 120 bytes, d = 1: -81.5 + 1.33 l + 93.04 + 0.05 l us; for l = 1000: 1391.54 us. */
#define T_1000_1HOP 1391.54e-6

static void make_dir(char *dir, size_t size)
{
  snprintf(dir, size, "/tmp/simrun-ti-XXXXXX");
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

static void remove_dir(const char *dir, int nranks)
{
  char path[256];
  for (int r = 0; r < nranks; r++) {
    snprintf(path, sizeof path, "%s/rank-%d.txt", dir, r);
    remove(path);
  }
  snprintf(path, sizeof path, "%s/index.txt", dir);
  remove(path);
  snprintf(path, sizeof path, "%s/hostfile.txt", dir);
  remove(path);
  rmdir(dir);
}

/* A two-rank trace in a new folder `dir`, its index (relative paths, from the index's folder) into `index`. */
static void write_two_ranks(char *dir, size_t dirlen, const char *rank0, const char *rank1, char *index, size_t len)
{
  char path[128];
  make_dir(dir, dirlen);
  snprintf(path, sizeof path, "%s/rank-0.txt", dir);
  tu_write_text(path, rank0);
  snprintf(path, sizeof path, "%s/rank-1.txt", dir);
  tu_write_text(path, rank1);
  snprintf(index, len, "%s/index.txt", dir);
  tu_write_text(index, "rank-0.txt\nrank-1.txt\n");
}

/* Replays the TI trace of index `index` on `nranks` ranks with simrun's own semantics (every send synchronous, the
 * platform's network model: the T800's T(l, d)); returns the status, the trace in *trace on success. */
static int replay(const char *index, int nranks, met_trace_t **trace, char *err, size_t errlen)
{
  const char *names[] = {"trace", "sends", "network"};
  const char *values[] = {index, "synchronous", "platform"};
  app_point_t at = {.count = 3, .names = names, .values = values};
  void *arg = NULL;
  const char *blame = NULL;
  *trace = NULL;
  int rc = app_ti_skeleton.prepare(&at, nranks, &arg, err, errlen, &blame);
  if (rc != 0)
    return rc;
  sim_job_t job = {.platform = T800,
                   .nranks = nranks,
                   .bcast = SIM_BCAST_NEIGHBOUR,
                   .program = app_ti_skeleton.program,
                   .arg = arg,
                   .engine_cfg = app_ti_skeleton.engine_cfg(arg)};
  rc = tu_sim_run(&job, trace, err, errlen);
  app_ti_skeleton.release(arg);
  return rc;
}

/* Rank 0 computes 25e6 flops (1 s at the T800's 25 MHz) then sends 1000 B to its neighbour: T_par = 1 s + T(1000, 1).
 */
static void test_sim_ti_replay_by_hand(void)
{
  char dir[64];
  char path[128];
  write_two_ranks(dir, sizeof dir, "0 init\n0 compute 25e6\n0 send 1 0 1000\n0 finalize\n",
                  "1 init\n\n1 recv 0 0 1000\n1 finalize\n", path, sizeof path);
  met_trace_t *trace = NULL;
  char err[1024] = "";
  CU_ASSERT_EQUAL(replay(path, 2, &trace, err, sizeof err), 0);
  CU_ASSERT_FATAL(trace != NULL);
  TU_ASSERT_CLOSE(met_trace_end(trace), 1.0 + T_1000_1HOP, 1e-9);
  CU_ASSERT_EQUAL(met_comm_messages(trace), 1);
  met_trace_free(trace);
  CU_ASSERT_EQUAL(replay(path, 3, &trace, err, sizeof err), SIM_EPARAM);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "lists 2 trace files, one per rank, but p = 3"));
  remove_dir(dir, 2);
}

/* A scan on communicator 1 of ranks 2, 1, 0 (comm_def: that order) after rank 2 computes 25e6 flops (1 s): in the
 * communicator's order rank 2 comes first, so ranks 1 and 0 wait for it (Early Scan, each about 1 s) and rank 2 for
 * no one. The wait states took the ranks' order before (met_coll_t.place): rank 0 first, no one waiting at all. */
static void test_sim_ti_scan_waits_in_communicator_order(void)
{
  char dir[64], path[128];
  make_dir(dir, sizeof dir);
  for (int r = 0; r < 3; r++) {
    char text[256];
    snprintf(text, sizeof text, "%d init\n%d comm_def 1 2 1 0\n%s%d in 1 scan 1000 0\n%d finalize\n", r, r,
             r == 2 ? "2 compute 25e6\n" : "", r, r);
    snprintf(path, sizeof path, "%s/rank-%d.txt", dir, r);
    tu_write_text(path, text);
  }
  snprintf(path, sizeof path, "%s/index.txt", dir);
  tu_write_text(path, "rank-0.txt\nrank-1.txt\nrank-2.txt\n");
  met_trace_t *trace = NULL;
  char err[1024] = "";
  CU_ASSERT_EQUAL(replay(path, 3, &trace, err, sizeof err), 0);
  CU_ASSERT_FATAL(trace != NULL);
  met_waits_t w;
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(trace, &w), 0);
  const double *scan = &w.time[MET_WAIT_EARLY_SCAN];
  CU_ASSERT(scan[0 * MET_WAIT_PATTERNS] > 0.99 && scan[0 * MET_WAIT_PATTERNS] < 1.01);
  CU_ASSERT(scan[1 * MET_WAIT_PATTERNS] > 0.99 && scan[1 * MET_WAIT_PATTERNS] < 1.01);
  CU_ASSERT_EQUAL(scan[2 * MET_WAIT_PATTERNS], 0);
  met_wait_free(&w);
  met_trace_free(trace);
  remove_dir(dir, 3);
}

/* Gauss-Jordan N = 24 on 4 ranks with the neighbour broadcast, written as a TI trace and replayed: the same T_par and
 * the same messages (the broadcasts were written as the messages they became), and the hostfile of the mapping. */
static void test_sim_ti_round_trip(void)
{
  char dir[64];
  make_dir(dir, sizeof dir);
  const char *names[] = {"n"};
  const char *values[] = {"24"};
  app_point_t at = {.count = 1, .names = names, .values = values};
  void *arg = NULL;
  char err[1024] = "";
  const char *blame = NULL;
  CU_ASSERT_FATAL(app_gj_skeleton.prepare(&at, 4, &arg, err, sizeof err, &blame) == 0);
  sim_job_t job = {.platform = T800,
                   .nranks = 4,
                   .bcast = SIM_BCAST_NEIGHBOUR,
                   .program = app_gj_skeleton.program,
                   .arg = arg,
                   .ti_dir = dir};
  met_trace_t *original = NULL;
  CU_ASSERT_EQUAL(tu_sim_run(&job, &original, err, sizeof err), 0);
  app_gj_skeleton.release(arg);
  CU_ASSERT_FATAL(original != NULL);
  char index[128];
  snprintf(index, sizeof index, "%s/index.txt", dir);
  sim_ti_trace_t *listed = NULL;
  CU_ASSERT_EQUAL_FATAL(sim_ti_open(index, &listed, err, sizeof err), 0);
  CU_ASSERT_EQUAL(sim_ti_trace_files(listed), 4);
  CU_ASSERT(sim_ti_trace_path(listed, 0)[0] == '/' && strstr(sim_ti_trace_path(listed, 3), "/rank-3.txt"));
  sim_ti_trace_free(listed);
  /* the hosts of the ranks for smpirun -hostfile: 4 ranks take the 2 x 2 corner of the mesh in snake order */
  char hostfile[128];
  snprintf(hostfile, sizeof hostfile, "%s/hostfile.txt", dir);
  FILE *hosts = fopen(hostfile, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(hosts);
  char text[128] = "";
  size_t len = fread(text, 1, sizeof text - 1, hosts);
  text[len] = '\0';
  fclose(hosts);
  CU_ASSERT_STRING_EQUAL(text, "t0-0\nt0-1\nt1-1\nt1-0\n");
  met_trace_t *replayed = NULL;
  CU_ASSERT_EQUAL(replay(index, 4, &replayed, err, sizeof err), 0);
  CU_ASSERT_FATAL(replayed != NULL);
  CU_ASSERT(met_trace_end(original) > 0);
  TU_ASSERT_CLOSE(met_trace_end(replayed), met_trace_end(original), 1e-9 * met_trace_end(original));
  CU_ASSERT_EQUAL(met_comm_messages(replayed), met_comm_messages(original));
  for (int r = 0; r < 4; r++)
    TU_ASSERT_CLOSE(met_trace_category_time(replayed, r, MET_CAT_COMM),
                    met_trace_category_time(original, r, MET_CAT_COMM), 1e-9);
  met_trace_free(original);
  met_trace_free(replayed);
  remove_dir(dir, 4);
}

/* An action SimGrid does not know either: the run fails, naming the file, the line and what is supported. */
static void test_sim_ti_unsupported_action(void)
{
  char dir[64];
  char path[128];
  write_two_ranks(dir, sizeof dir, "0 init\n0 isendx 1 0 8\n", "1 init\n1 recv 0 0 8\n", path, sizeof path);
  met_trace_t *trace = NULL;
  char err[1024] = "";
  CU_ASSERT_EQUAL(replay(path, 2, &trace, err, sizeof err), SIM_EPARAM);
  CU_ASSERT_PTR_NULL(trace);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "rank-0.txt:2: '0 isendx 1 0 8': not an action simrun replays"));
  remove_dir(dir, 2);
}

/* Replays the two-rank trace rank0/rank1 and checks that it fails with `code` and a message holding `phrase`. */
static void expect_refusal(const char *rank0, const char *rank1, int code, const char *phrase)
{
  char dir[64];
  char path[128];
  write_two_ranks(dir, sizeof dir, rank0, rank1, path, sizeof path);
  met_trace_t *trace = NULL;
  char err[1024] = "";
  CU_ASSERT_EQUAL(replay(path, 2, &trace, err, sizeof err), code);
  CU_ASSERT_PTR_NULL(trace);
  if (!strstr(err, phrase))
    fprintf(stderr, "expected '%s' in: %s\n", phrase, err);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, phrase));
  met_trace_free(trace);
  remove_dir(dir, 2);
}

/* Malformed or absurd fields, each refused at its line with the reason: NaN, infinity, a negative size, 1e308 flops,
 * a count whose bytes wrap, a rank outside the communicator, a datatype SMPI does not define, a missing field. */
static void test_sim_ti_bad_fields(void)
{
  const char *ok = "1 init\n";
  expect_refusal("0 init\n0 compute nan\n", ok, SIM_EPARAM, "rank-0.txt:2: '0 compute nan': field 3 (flops)");
  expect_refusal("0 compute inf\n", ok, SIM_EPARAM, "'0 compute inf': field 3 (flops) 'inf' is not a finite number");
  expect_refusal("0 compute 1e308\n", ok, SIM_EPARAM, "field 3 (flops) 1e308 is outside [0, 1e+21]");
  expect_refusal("0 send 1 0 -5\n", ok, SIM_EPARAM, "field 5 (count) -5 is outside");
  expect_refusal("0 send 1 0 1e17 54\n", ok, SIM_EPARAM, "elements of 32 bytes exceed 1e+18 bytes");
  expect_refusal("0 send 7 0 8\n", ok, SIM_EPARAM, "rank 7 does not exist: the trace's communicator");
  expect_refusal("0 bcast 8 0 77\n", ok, SIM_EPARAM, "datatype code 77 is not one of SMPI 3.32's");
  expect_refusal("0 send 1 0\n", ok, SIM_EPARAM, "3 fields after the action are needed, there are 2");
  expect_refusal("0 sleep 1e12\n", ok, SIM_EPARAM, "field 3 (seconds) 1e12 is outside");
}

/* A wait for a request never posted, or waited for twice, is refused; a message that never matches names each
 * blocked rank's file and line. */
static void test_sim_ti_bad_requests_and_deadlock(void)
{
  expect_refusal("0 isend 1 0 8\n0 wait 0 1 0\n0 wait 0 1 0\n", "1 recv 0 0 8\n", SIM_EPARAM,
                 "rank-0.txt:3: '0 wait 0 1 0': no pending isend or irecv from rank 0 to rank 1 with tag 0");
  expect_refusal("0 recv 1 0 8\n", "1 init\n1 recv 0 0 8\n", SIM_EDEADLOCK, "rank-0.txt:1, rank 1 at ");
  /* simrun's extensions (docs/ti-replay.md), each refused with its line */
  expect_refusal("0 comm_def 2 0 1\n", "1 init\n", SIM_EPARAM,
                 "'0 comm_def 2 0 1': communicator 2 defined after 0: comm_def numbers them 1, 2, ... in order");
  expect_refusal("0 comm_def 1 1\n", "1 init\n", SIM_EPARAM, "'0 comm_def 1 1': rank 0 is listed nowhere among");
  expect_refusal("0 in 1 barrier\n", "1 init\n", SIM_EPARAM, "'0 in 1 barrier': communicator 1 is not defined");
  expect_refusal("0 comm_def 1 0 1\n0 in 1 send 1 0 8\n", "1 init\n", SIM_EPARAM, "'send' is not a collective");
  expect_refusal("0 cancel 1 0 5\n", "1 init\n", SIM_EPARAM, "'0 cancel 1 0 5': no pending isend or irecv");
  expect_refusal("0 recv 1 0 8\n", "1 init\n1 recv 0 0 8\n", SIM_EDEADLOCK, "rank-1.txt:2)");
}

/* The '#' lines at the end of an index (libsimrun-trace.so's "# simrun-binding" lines, which smpirun -replay -np P
 * skips as lines beyond the P-th) are no trace files; a '#' line among the paths is read as a path, as smpirun reads
 * it, and refused. */
static void test_sim_ti_index_comment_lines(void)
{
  char dir[64];
  char path[128];
  char err[1024] = "";
  write_two_ranks(dir, sizeof dir, "0 init\n", "1 init\n", path, sizeof path);
  tu_write_text(path, "rank-0.txt\nrank-1.txt\n# simrun-binding rank=0\n# simrun-binding rank=1\n");
  sim_ti_trace_t *listed = NULL;
  CU_ASSERT_EQUAL_FATAL(sim_ti_open(path, &listed, err, sizeof err), 0);
  CU_ASSERT_EQUAL(sim_ti_trace_files(listed), 2);
  sim_ti_trace_free(listed);
  tu_write_text(path, "rank-0.txt\n# simrun-binding rank=0\nrank-1.txt\n");
  CU_ASSERT_NOT_EQUAL(sim_ti_open(path, &listed, err, sizeof err), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "index.txt:2: cannot read"));
  tu_write_text(path, "# simrun-binding rank=0\n");
  CU_ASSERT_NOT_EQUAL(sim_ti_open(path, &listed, err, sizeof err), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "is empty"));
  remove_dir(dir, 2);
}

/* Files that are not traces end with one error, not a loop: an index naming /dev/zero (not a regular file), a trace
 * holding NUL bytes, a line longer than any action of 2 ranks. */
static void test_sim_ti_hostile_files(void)
{
  char dir[64];
  char path[128];
  write_two_ranks(dir, sizeof dir, "0 init\n", "1 init\n", path, sizeof path);
  tu_write_text(path, "/dev/zero\n/dev/zero\n");
  met_trace_t *trace = NULL;
  char err[1024] = "";
  CU_ASSERT_EQUAL(replay(path, 2, &trace, err, sizeof err), SIM_EPARAM);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "index.txt:1: /dev/zero is not a regular file"));
  char rank0[128];
  snprintf(rank0, sizeof rank0, "%s/rank-0.txt", dir);
  FILE *f = fopen(rank0, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("0 init\n0 comp", f);
  fputc('\0', f);
  fclose(f);
  tu_write_text(path, "rank-0.txt\nrank-1.txt\n");
  CU_ASSERT_EQUAL(replay(path, 2, &trace, err, sizeof err), SIM_EPARAM);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "rank-0.txt:2: a NUL byte"));
  f = fopen(rank0, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  for (int i = 0; i < 10000; i++)
    fputs("0 compute 1 ", f);
  fclose(f);
  CU_ASSERT_EQUAL(replay(path, 2, &trace, err, sizeof err), SIM_EPARAM);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "rank-0.txt:1: the line is longer than any action"));
  remove_dir(dir, 2);
}

/* A real MPI program (tests/data/ti/ring.c), compiled with smpicc and traced by smpirun -trace-ti, replayed by simrun
 * on the same 4 hosts: 4 ring messages of 128 doubles (1024 B) and the one-int broadcast (SMPI's binomial tree on 4
 * ranks: 3 messages of 4 B); the barrier's empty messages overlap (rank 0 posts its 3 receives at once), so that not
 * every one costs both ends time. Fails when SMPI is not installed (scripts/install-deps installs it). */
static void test_sim_ti_replays_smpi_trace(void)
{
  CU_ASSERT_EQUAL_FATAL(system("command -v smpicc > /dev/null && command -v smpirun > /dev/null"), 0);
  char dir[64];
  make_dir(dir, sizeof dir);
  char command[1024];
  snprintf(command, sizeof command,
           "cd %s && printf 't0-0\\nt0-1\\nt0-2\\nt0-3\\n' > hosts && "
           "smpicc -o ring " SIMRUN_SOURCE_DIR "/tests/data/ti/ring.c 2> /dev/null && "
           "smpirun -np 4 -platform " T800 " -hostfile hosts -trace-ti --cfg=tracing/filename:ring.ti "
           "--log=root.thres:critical ./ring > /dev/null 2>&1",
           dir);
  CU_ASSERT_EQUAL_FATAL(system(command), 0);
  char index[128];
  snprintf(index, sizeof index, "%s/ring.ti", dir);
  met_trace_t *trace = NULL;
  char err[1024] = "";
  CU_ASSERT_EQUAL(replay(index, 4, &trace, err, sizeof err), 0);
  CU_ASSERT_FATAL(trace != NULL);
  met_msg_stat_t *stats = NULL;
  long groups = met_comm_stats(trace, &stats);
  size_t ring = 0;
  size_t bcast = 0;
  for (long g = 0; g < groups; g++) {
    ring += stats[g].bytes == 1024 ? stats[g].count : 0;
    bcast += stats[g].bytes == 4 ? stats[g].count : 0;
  }
  CU_ASSERT_EQUAL(ring, 4);
  CU_ASSERT_EQUAL(bcast, 3);
  free(stats);
  met_trace_free(trace);
  snprintf(command, sizeof command, "rm -rf %s", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* sim_ti_number gives what strtod gives, to the bit and to the character where it stops, on whole numbers (its fast
 * path, up to 15 digits), on what it leaves to strtod (16 digits, decimals, exponents, hex, blanks, text) and on
 * what is not a number. */
static void test_sim_ti_number_as_strtod(void)
{
  static const char *const texts[] = {"0",
                                      "-0",
                                      "7",
                                      "007",
                                      "16416",
                                      "-444",
                                      "999999999999999",
                                      "-999999999999999",
                                      "1234567890123456",
                                      "1e6",
                                      "2.5",
                                      "0x10",
                                      " 12",
                                      "12 ",
                                      "12a",
                                      "-",
                                      "",
                                      "inf",
                                      "nan",
                                      "+5"};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    char *ours_end = NULL;
    char *libc_end = NULL;
    double ours = sim_ti_number(texts[i], &ours_end);
    double libc = strtod(texts[i], &libc_end);
    CU_ASSERT(memcmp(&ours, &libc, sizeof ours) == 0 || (ours != ours && libc != libc));
    CU_ASSERT_PTR_EQUAL(ours_end, libc_end);
  }
}

/* The line reader over lines that straddle its 64 KiB reads: 30000 numbered lines of 1 to 40 characters (about
 * 600 KiB), an empty one, and a last one without its newline, each given back whole and numbered; then the bound of a
 * reader for no field (4096 characters): a line of 4095 is read, one of 4096 is too long, a NUL byte is binary. */
static void test_sim_ti_reader_lines_across_reads(void)
{
  char path[] = "/tmp/simrun-ti-reader-XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  FILE *f = fdopen(fd, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  for (int i = 0; i < 30000; i++)
    fprintf(f, "%d %.*s\n", i, i % 34, "abcdefghijklmnopqrstuvwxyzABCDEFGH");
  fputs("\nlast", f);
  fclose(f);
  sim_ti_reader_t *in = NULL;
  char err[256];
  CU_ASSERT_EQUAL_FATAL(sim_ti_reader_open(path, 8, &in, err, sizeof err), 0);
  char *text;
  size_t len;
  int good = 0;
  for (int i = 0; i < 30000; i++) {
    char want[64];
    int n = snprintf(want, sizeof want, "%d %.*s", i, i % 34, "abcdefghijklmnopqrstuvwxyzABCDEFGH");
    good += sim_ti_reader_next(in, &text, &len) == 0 && len == (size_t)n && strcmp(text, want) == 0;
  }
  CU_ASSERT_EQUAL(good, 30000);
  CU_ASSERT(sim_ti_reader_next(in, &text, &len) == 0 && len == 0 && text[0] == '\0');
  CU_ASSERT(sim_ti_reader_next(in, &text, &len) == 0 && len == 4 && strcmp(text, "last") == 0);
  CU_ASSERT_EQUAL(sim_ti_reader_next(in, &text, &len), 1);
  CU_ASSERT_EQUAL(sim_ti_reader_next(in, &text, &len), 1);
  sim_ti_reader_close(in);
  static const struct {
    int length; /* a line of this many 'x', then a NUL byte at `nul` unless it is -1, then the next line "y" */
    int nul;
    int rc;
  } bounds[] = {
      {4095, -1, 0}, {4096, -1, SIM_TI_LONG_LINE}, {5000, 4095, SIM_TI_BINARY}, {5000, 4096, SIM_TI_LONG_LINE}};
  for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
    f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (int i = 0; i < bounds[b].length; i++)
      fputc(i == bounds[b].nul ? '\0' : 'x', f);
    fputs("\ny\n", f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(sim_ti_reader_open(path, 0, &in, err, sizeof err), 0);
    CU_ASSERT_EQUAL(sim_ti_reader_next(in, &text, &len), bounds[b].rc);
    if (bounds[b].rc == 0) {
      CU_ASSERT_EQUAL(len, (size_t)bounds[b].length);
      CU_ASSERT(sim_ti_reader_next(in, &text, &len) == 0 && strcmp(text, "y") == 0);
    }
    sim_ti_reader_close(in);
  }
  remove(path);
}

/* A trace in one file is opened from its first line, which is an action: its ranks read the rest as they replay.
 * It was read whole, each line copied, into memory that grew with its length (65 MiB of peak memory at 64,000 steps
 * of bench/scale.sh tests, 38 MiB with this), and one of more than 2^20 lines (the most ranks an index lists) was
 * refused; the first line alone is read, so 2^20 + 1 lines open as one file, and so does a file whose later lines an
 * index could not have (a line longer than any path). */
static void test_sim_ti_one_file_opened_by_its_first_line(void)
{
  char path[] = "/tmp/simrun-ti-long-XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  FILE *f = fdopen(fd, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("0 init\n", f);
  for (int i = 0; i < (1 << 20); i++)
    fputs("0 compute 1\n", f);
  for (int i = 0; i < 10000; i++)
    fputs("0 compute 1 ", f);
  fputs("\n0 finalize\n", f);
  fclose(f);
  sim_ti_trace_t *trace = NULL;
  char err[1024] = "";
  CU_ASSERT_EQUAL_FATAL(sim_ti_open(path, &trace, err, sizeof err), 0);
  CU_ASSERT_EQUAL(sim_ti_trace_files(trace), 1);
  CU_ASSERT_STRING_EQUAL(sim_ti_trace_path(trace, 0), path);
  sim_ti_trace_free(trace);
  remove(path);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_ti_replay_by_hand", test_sim_ti_replay_by_hand},
      {"test_sim_ti_scan_waits_in_communicator_order", test_sim_ti_scan_waits_in_communicator_order},
      {"test_sim_ti_round_trip", test_sim_ti_round_trip},
      {"test_sim_ti_unsupported_action", test_sim_ti_unsupported_action},
      {"test_sim_ti_bad_fields", test_sim_ti_bad_fields},
      {"test_sim_ti_bad_requests_and_deadlock", test_sim_ti_bad_requests_and_deadlock},
      {"test_sim_ti_hostile_files", test_sim_ti_hostile_files},
      {"test_sim_ti_index_comment_lines", test_sim_ti_index_comment_lines},
      {"test_sim_ti_replays_smpi_trace", test_sim_ti_replays_smpi_trace},
      {"test_sim_ti_number_as_strtod", test_sim_ti_number_as_strtod},
      {"test_sim_ti_reader_lines_across_reads", test_sim_ti_reader_lines_across_reads},
      {"test_sim_ti_one_file_opened_by_its_first_line", test_sim_ti_one_file_opened_by_its_first_line},
      {NULL, NULL}};
  return tu_run("sim_ti", cases);
}
