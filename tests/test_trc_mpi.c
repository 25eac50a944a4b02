/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The MPI tracer (src/tracer, docs/tracer.md): builds examples/ring-matmul and a small program of known calls with
 * Open MPI's mpicc, runs them under mpirun with libsimrun-trace.so preloaded, and checks the TI trace against the
 * messages the programs send (worked out here from the algorithm of seed 000 Ex. 1.2) and the timeline's categories
 * against what the programs do; SimGrid's smpirun replays the traces, simrun analyses them, and a run that aborts is
 * refused. Without Open MPI or smpirun these tests fail: mpicc, mpirun, smpirun and the library are required. */
#include "met_timeline.h"
#include "met_wait.h"
#include "tu_cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define EXAMPLE    SIMRUN_SOURCE_DIR "/examples/ring-matmul/ring_matmul.c"
#define CALLS      SIMRUN_SOURCE_DIR "/tests/data/tracer/mpi_calls.c"
#define ABORT      SIMRUN_SOURCE_DIR "/tests/data/tracer/mpi_abort.c"
#define ANY        SIMRUN_SOURCE_DIR "/tests/data/tracer/any_source.c"
#define FORTRAN    SIMRUN_SOURCE_DIR "/tests/data/tracer/fortran_calls.f90"
#define POLLMANY   SIMRUN_SOURCE_DIR "/tests/data/tracer/poll_many.c"
#define POLLMANYF  SIMRUN_SOURCE_DIR "/tests/data/tracer/poll_many.f90"
#define WAITMANY   SIMRUN_SOURCE_DIR "/tests/data/tracer/wait_many.c"
#define WAITMANYF  SIMRUN_SOURCE_DIR "/tests/data/tracer/wait_many.f90"
#define F08        SIMRUN_SOURCE_DIR "/tests/data/tracer/fortran_f08.f90"
#define REQUESTS   SIMRUN_SOURCE_DIR "/tests/data/tracer/requests.c"
#define PINGPONG   SIMRUN_SOURCE_DIR "/tests/data/tracer/pingpong_loop.c"
#define THREADS    SIMRUN_SOURCE_DIR "/tests/data/tracer/threads.c"
#define DUP_WAIT   SIMRUN_SOURCE_DIR "/tests/data/tracer/dup_wait.c"
#define PROBES     SIMRUN_SOURCE_DIR "/tests/data/tracer/probe_late.c"
#define IO_RMA     SIMRUN_SOURCE_DIR "/tests/data/tracer/io_rma.c"
#define ALONE      SIMRUN_SOURCE_DIR "/tests/data/tracer/alone.c"
#define BSEND      SIMRUN_SOURCE_DIR "/tests/data/tracer/bsend_imrecv.c"
#define WAITS_SOME SIMRUN_SOURCE_DIR "/tests/data/tracer/waits_some.c"
#define NBC_WAIT   SIMRUN_SOURCE_DIR "/tests/data/tracer/nbc_wait.c"
#define NBC_SUB    SIMRUN_SOURCE_DIR "/tests/data/tracer/nbc_sub.c"
#define NBC_FORMS  SIMRUN_SOURCE_DIR "/tests/data/tracer/nbc_forms.c"
#define INTER      SIMRUN_SOURCE_DIR "/tests/data/tracer/intercomm.c"
#define SENDRECV   SIMRUN_SOURCE_DIR "/tests/data/tracer/sendrecv_ring.c"
#define CHEAP      SIMRUN_SOURCE_DIR "/tests/data/tracer/cheap_calls.c"
#define OWN_PAIR   SIMRUN_SOURCE_DIR "/tests/data/tracer/own_time_pair.c"
#define ROOTED     SIMRUN_SOURCE_DIR "/tests/data/tracer/rooted_late.c"
#define FRESH      SIMRUN_SOURCE_DIR "/tests/data/tracer/fresh_pages.c"
#define POLLWORK   SIMRUN_SOURCE_DIR "/tests/data/tracer/poll_work.c"
#define POLLRHYTHM SIMRUN_SOURCE_DIR "/tests/data/tracer/poll_rhythm.c"
#define CHILDREN   SIMRUN_SOURCE_DIR "/tests/data/tracer/children.c"
#define PRELOAD    SIMRUN_SOURCE_DIR "/tests/data/tracer/preload.c"
#define POLLING    SIMRUN_SOURCE_DIR "/bench/trc_polling.c"
#define STARTUP    SIMRUN_SOURCE_DIR "/tests/data/tracer/startup.c"
#define NESTED     SIMRUN_SOURCE_DIR "/tests/data/tracer/nested.c"
#define SPAWN      SIMRUN_SOURCE_DIR "/tests/data/tracer/spawn.c"
#define PERSISTENT SIMRUN_SOURCE_DIR "/tests/data/tracer/persistent_ring.c"
#define COMPLETED  SIMRUN_SOURCE_DIR "/tests/data/tracer/many_completions.c"
#define SHARED     SIMRUN_SOURCE_DIR "/tests/data/tracer/shared_core.c"
#define SETUP_CORE SIMRUN_SOURCE_DIR "/tests/data/tracer/setup_shared.c"
#define AFTER      SIMRUN_SOURCE_DIR "/tests/data/tracer/after_finalize.c"
#define HANDLES    SIMRUN_SOURCE_DIR "/tests/data/tracer/shared_handles.c"
#define NO_FINAL   SIMRUN_SOURCE_DIR "/tests/data/tracer/no_finalize.c"

/* Compiles `source` with mpicc into `dir`/`name`; fails the test when Open MPI is missing. */
static void build(const char *dir, const char *source, const char *name)
{
  CU_ASSERT_FATAL(SIMRUN_MPICC[0] != '\0' && strstr(SIMRUN_MPICC, "NOTFOUND") == NULL);
  CU_ASSERT_FATAL(SIMRUN_TRACE_LIB[0] != '\0');
  const char *args[] = {"-O2", "-I", SIMRUN_SOURCE_DIR "/src/tracer", source, "-o", name, NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_program(dir, SIMRUN_MPICC, args, &run), 0);
  if (run.status != 0)
    fprintf(stderr, "%s", run.err);
  CU_ASSERT_EQUAL_FATAL(run.status, 0);
  run_free(&run);
}

/* A new folder `dir` (1024 bytes) with `source` built in it as `name` (build). */
static void built_in_new_folder(char *dir, const char *source, const char *name)
{
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, 1024), 0);
  build(dir, source, name);
}

/* Runs `dir`/`program` (with `arg`, or none) on `np` ranks under the tracer with SIMRUN_TRACE_FORMAT=`format` and the
 * variable `env` ("NAME=VALUE"; NULL: none), its trace into `dir`/`trace`. */
static int traced_run_env(const char *dir, const char *program, const char *np, const char *trace, const char *arg,
                          const char *format, const char *env, cli_run_t *run)
{
  CU_ASSERT_FATAL(SIMRUN_MPIRUN[0] != '\0');
  char preload[1200];
  char folder[4200]; /* a folder name up to PATH_MAX: test_trc_mpi_unwritable_folder_keeps_program_running */
  char as[64];
  snprintf(preload, sizeof preload, "LD_PRELOAD=%s", SIMRUN_TRACE_LIB);
  snprintf(folder, sizeof folder, "SIMRUN_TRACE_DIR=%s", trace);
  snprintf(as, sizeof as, "SIMRUN_TRACE_FORMAT=%s", format);
  const char *args[] = {"--allow-run-as-root",
                        "--oversubscribe",
                        "-np",
                        np,
                        "-x",
                        preload,
                        "-x",
                        folder,
                        "-x",
                        as,
                        "-x",
                        "SIMRUN_TRACE_FLOPS=1e9",
                        "-x",
                        env ? env : "SIMRUN_TRACE_FLOPS=1e9",
                        program,
                        arg,
                        NULL};
  return run_program(dir, SIMRUN_MPIRUN, args, run);
}

/* The same without a variable of its own. */
static int traced_run_as(const char *dir, const char *program, const char *np, const char *trace, const char *arg,
                         const char *format, cli_run_t *run)
{
  return traced_run_env(dir, program, np, trace, arg, format, NULL, run);
}

/* The same in simrun's format, the default. */
static int traced_run(const char *dir, const char *program, const char *np, const char *trace, const char *arg,
                      cli_run_t *run)
{
  return traced_run_as(dir, program, np, trace, arg, "simrun", run);
}

/* SimGrid's own replayer, `smpirun -replay` (SimGrid 3.32, src/smpi/internals/smpi_replay.cpp), replays the `np`
 * ranks' trace `dir`/`trace` on the Pentium II cluster to its end: every action the tracer wrote is one SMPI reads. */
static void smpi_replays(const char *dir, const char *trace, const char *np)
{
  CU_ASSERT_FATAL(SIMRUN_SMPIRUN[0] != '\0' && strstr(SIMRUN_SMPIRUN, "NOTFOUND") == NULL);
  char path[1200];
  char index[1200];
  snprintf(path, sizeof path, "%s/hosts.txt", dir);
  FILE *hosts = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(hosts);
  fprintf(hosts, "pii-0\npii-1\npii-2\npii-3\n");
  fclose(hosts);
  snprintf(index, sizeof index, "%s/index.txt", trace);
  const char *args[] = {"-np",
                        np,
                        "-platform",
                        SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                        "-hostfile",
                        "hosts.txt",
                        "-replay",
                        index,
                        "--log=root.thres:critical",
                        "--log=smpi_replay.thres:info",
                        NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_program(dir, SIMRUN_SMPIRUN, args, &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "Simulation time"));
  run_free(&run);
}

/* Whether TI line `line` is timing only: a compute action (a positive whole amount; in a loop's body, `in_loop`, a
 * positive mean per iteration, which a loop folded under load may give fractional: "compute 2417.333", "faults
 * 0.5"), a poll record (as many as the run's timing made) or a faults action (as many as the memory's state made, a
 * positive whole count, or mean). */
static int timing_only(const char *line, int in_loop)
{
  char word[32];
  double amount = 0;
  int who;
  if (sscanf(line, "%d %31s %lf", &who, word, &amount) < 2)
    return 0;
  if (strcmp(word, "compute") == 0 || strcmp(word, "faults") == 0) {
    CU_ASSERT(in_loop ? amount > 0 : amount >= 1 && amount == (double)(long long)amount);
    if (!(in_loop || amount == (double)(long long)amount))
      fprintf(stderr, "not a whole amount outside a loop: %s\n", line);
    return 1;
  }
  return strcmp(word, "poll") == 0;
}

/* The rank's TI file without its timing-only lines (timing_only), nor the loops whose body holds nothing else: a run
 * of polls that a loaded machine cut with computations (a poll that yielded the processor, its CPU time over POLL_GAP
 * in trc_record.c) folds into one, as many times as the cuts came. "init" first and "finalize" last. A new string, or
 * NULL when the file cannot be read. */
static char *messages_of(const char *trace, int rank)
{
  char name[64];
  snprintf(name, sizeof name, "rank-%d.txt", rank);
  char *text = read_output(trace, name);
  if (!text)
    return NULL;
  char *out = calloc(strlen(text) + 1, 1);
  int who, count, lines;
  char *next = NULL;
  for (char *line = strtok_r(text, "\n", &next); out && line; line = strtok_r(NULL, "\n", &next)) {
    if (timing_only(line, 0))
      continue;
    if (sscanf(line, "%d loop %d %d", &who, &count, &lines) == 3 && lines > 0) {
      char *body = next; /* the loop's body: skipped with it when it is timing only */
      int timing = 1;
      for (int i = 0; i < lines && body && *body; i++) {
        size_t len = strcspn(body, "\n");
        char one[256];
        snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one - 1 ? len : sizeof one - 1), body);
        timing = timing && timing_only(one, 1);
        body += len + (body[len] == '\n');
      }
      if (timing) {
        next = body;
        continue;
      }
    }
    strcat(out, line);
    strcat(out, "\n");
  }
  free(text);
  return out;
}

static int block_size(int n, int p, int b)
{
  return n / p + (b < n % p);
}

/* Appends one "<rank> <verb> <peer> <tag> <bytes>" line. */
static void add(char *out, int me, const char *verb, int peer, int tag, int bytes)
{
  sprintf(out + strlen(out), "%d %s %d %d %d\n", me, verb, peer, tag, bytes);
}

/* The messages of rank `me` of the ring multiply, in program order: rank 0 sends each rank its rows of A (tag 1) and
 * columns of B (tag 2), n x block doubles each; p steps, each shifting B block (me - step) mod p to the next rank
 * (tag 3), even ranks sending first; every rank returns its block rows of C (tag 4). */
static void expect_ring(int n, int p, int me, char *out)
{
  sprintf(out, "%d init\n", me);
  for (int r = 1; r < p; r++)
    for (int tag = 1; tag <= 2; tag++)
      if (me == 0 || me == r)
        add(out, me, me == 0 ? "send" : "recv", me == 0 ? r : 0, tag, 8 * n * block_size(n, p, r));
  for (int step = 0; p > 1 && step < p; step++) {
    int held = (me - step + p) % p;
    int send = 8 * n * block_size(n, p, held);
    int recv = 8 * n * block_size(n, p, (held - 1 + p) % p);
    if (me % 2 == 0)
      add(out, me, "send", (me + 1) % p, 3, send);
    add(out, me, "recv", (me - 1 + p) % p, 3, recv);
    if (me % 2 == 1)
      add(out, me, "send", (me + 1) % p, 3, send);
  }
  for (int r = 1; r < p; r++)
    if (me == 0 || me == r)
      add(out, me, me == 0 ? "recv" : "send", me == 0 ? r : 0, 4, 8 * n * block_size(n, p, r));
  sprintf(out + strlen(out), "%d finalize\n", me);
}

/* Rank files in format 2 (docs/tracer.md, "The measured timeline"), decoded here on their own, as the format's
 * description reads, not as the reader does: "d ID fields" names call ID's fields; "ID GAP COMPUTE DURATION [POLLS]"
 * is a computation (when COMPUTE > 0) from GAP ns after the previous interval's end, then call ID ("NAME*POLLS" when
 * POLLS is given), times in whole ns; a loop's lines and comments stay as they are, and the next gap counts from the
 * loop's LAST. The text in format 1 (a file already in format 1 as it is), or NULL when unreadable. */
static char *timeline_text(const char *dir, const char *name)
{
  static const char magic[] = "# simrun measured timeline 2\n";
  char *text = read_output(dir, name);
  if (!text || strncmp(text, magic, strlen(magic)) != 0)
    return text;
  char *out = NULL, *fields[4096] = {0}, *save = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  long long prev = 0;
  fprintf(f, "# simrun measured timeline 1\n");
  for (char *line = strtok_r(text + strlen(magic), "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    long long id, gap, compute, duration, polls = 1, sec;
    int at = 0;
    char last[32];
    if (sscanf(line, "d %lld %n", &id, &at) == 1 && id >= 0 && id < 4096) {
      free(fields[id]);
      fields[id] = strdup(line + at);
    } else if (sscanf(line, "%lld %lld %lld %lld %lld", &id, &gap, &compute, &duration, &polls) >= 4) {
      CU_ASSERT_FATAL(id >= 0 && id < 4096 && fields[id] != NULL);
      char call[4096];
      snprintf(call, sizeof call, "%s", fields[id]);
      char *name_end = call; /* after "category phase peer bytes call" */
      for (int i = 0; i < 5; i++)
        name_end += strspn(name_end, " "), name_end += strcspn(name_end, " ");
      char tail[4096];
      snprintf(tail, sizeof tail, "%s", name_end);
      if (polls > 1)
        snprintf(name_end, sizeof call - (size_t)(name_end - call), "*%lld%s", polls, tail);
      long long start = prev + gap;
      if (compute > 0)
        fprintf(f, "%lld.%09lld %lld.%09lld compute %.*s -1 0 -\n", start / 1000000000, start % 1000000000,
                (start + compute) / 1000000000, (start + compute) % 1000000000,
                (int)strcspn(strchr(call, ' ') + 1, " "), strchr(call, ' ') + 1);
      start += compute;
      prev = start + duration;
      fprintf(f, "%lld.%09lld %lld.%09lld %s\n", start / 1000000000, start % 1000000000, prev / 1000000000,
              prev % 1000000000, call);
    } else {
      if (sscanf(line, "loop %*d %*d %*s %31s", last) == 1 && sscanf(last, "%lld.%lld", &sec, &gap) == 2)
        prev = sec * 1000000000 + gap;
      fprintf(f, "%s\n", line);
    }
  }
  fclose(f);
  for (int i = 0; i < 4096; i++)
    free(fields[i]);
  free(text);
  return out;
}

/* What the timeline of one rank holds, by the checks of check_timeline. */
typedef struct timeline_counts {
  int multiply; /* compute intervals in phase "multiply" */
  int recv;     /* MPI_Recv intervals, all idle */
  int send;     /* MPI_Send intervals, all comm */
  int ended;    /* the "# end" line is there */
} timeline_counts_t;

/* Reads rank `rank`'s timeline: intervals in time order, categories as docs/tracer.md gives them per call, computation
 * only between calls. */
static void check_timeline(const char *trace, int rank, int p, timeline_counts_t *counts)
{
  char name[64];
  snprintf(name, sizeof name, "timeline-%d.txt", rank);
  char *text = timeline_text(trace, name);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  char head[64];
  snprintf(head, sizeof head, "# simrun measured timeline 1\n# rank %d of %d\n", rank, p);
  CU_ASSERT_NSTRING_EQUAL(text, head, strlen(head));
  memset(counts, 0, sizeof *counts);
  double last = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    double start, end, bytes;
    char category[16], phase[64], call[32];
    int peer;
    if (line[0] == '#') {
      counts->ended += strncmp(line, "# end ", 6) == 0;
      continue;
    }
    CU_ASSERT_EQUAL_FATAL(
        sscanf(line, "%lf %lf %15s %63s %d %lf %31s", &start, &end, category, phase, &peer, &bytes, call), 7);
    CU_ASSERT(start >= last && end >= start);
    last = end;
    int compute = strcmp(category, "compute") == 0;
    CU_ASSERT_EQUAL(compute, strcmp(call, "-") == 0);
    counts->multiply += compute && strcmp(phase, "multiply") == 0;
    CU_ASSERT(compute || strcmp(phase, "multiply") != 0);
    if (strcmp(call, "MPI_Recv") == 0) {
      counts->recv++;
      CU_ASSERT_STRING_EQUAL(category, "idle");
      CU_ASSERT(peer >= 0 && peer < p && bytes > 0);
    }
    if (strcmp(call, "MPI_Send") == 0) {
      counts->send++;
      CU_ASSERT_STRING_EQUAL(category, "comm");
      CU_ASSERT(peer >= 0 && peer < p && bytes > 0);
    }
  }
  free(text);
}

/* simrun's ti-replay skeleton replays `dir`/`trace` at p = `p` on the Pentium II cluster to its end; its report says
 * `expected`. */
static void simrun_replays(const char *dir, const char *trace, int p, const char *expected)
{
  FILE *scenario = NULL;
  char path[1200];
  snprintf(path, sizeof path, "%s/replay.xml", dir);
  CU_ASSERT_PTR_NOT_NULL_FATAL(scenario = fopen(path, "w"));
  fprintf(scenario,
          "<scenario name=\"replay\"><platform file=\"" SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml\"/>"
          "<program skeleton=\"ti-replay\"><param name=\"trace\" value=\"%s/index.txt\"/></program>"
          "<sweep><param name=\"p\" values=\"%d\"/></sweep></scenario>\n",
          trace, p);
  fclose(scenario);
  const char *replay[] = {"-q", "--no-cache", "replay.xml", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, replay, &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, expected));
  run_free(&run);
}

/* `simrun analyse` of the traces at p = 1 and 3 (T_seq from the first) and the replay of the p = 3 trace on the
 * Pentium II cluster: the analysis holds Lemeire's identity speedup = p / (1 + sum Ovh_j) (eq. 1.14) on the measured
 * run; the replay simulates the 15 messages of the algorithm (2 x 2 to distribute, 3 steps of 3 shifts, 2 back). */
static void analyse_and_replay(const char *dir)
{
  const char *args[] = {"analyse", "trace-3", "trace-1", "--seq", "trace-1", "--csv", "measured.csv", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "the run traced at p = 1 in trace-1"));
  run_free(&run);
  char *csv = read_output(dir, "measured.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  CU_ASSERT_EQUAL(count_lines(csv), 3);
  /* the p = 3 row is the second: rows are sorted by p */
  const char *const p_col[] = {"p", NULL}, *const speedup[] = {"speedup", NULL};
  const char *const ovh[][2] = {{"ovh_ctrl", NULL}, {"ovh_comm", NULL}, {"ovh_idle", NULL}, {"ovh_anomaly", NULL}};
  CU_ASSERT_EQUAL(csv_number(csv, 2, p_col), 3);
  double sum = 0;
  for (size_t j = 0; j < 4; j++)
    sum += csv_number(csv, 2, ovh[j]);
  TU_ASSERT_CLOSE(csv_number(csv, 2, speedup) * (1 + sum), 3.0, 1e-6);
  CU_ASSERT(csv_number(csv, 2, ovh[1]) > 0 && csv_number(csv, 2, ovh[2]) >= 0); /* the ring communicates and waits */
  free(csv);
  simrun_replays(dir, "trace-3", 3, "(15 messages,");
}

/* The index's binding lines (src/tracer/trc_bind.h), after its paths: one per rank in rank order, each with this
 * node's online cores and the run's p ranks on it; at p = 1 Open MPI binds the rank to one core (mpirun(1): bind to
 * core for np <= 2), so its cpus are one CPU. */
static void check_binding(const char *index, int p)
{
  const char *line = index ? strstr(index, "# simrun-binding ") : NULL;
  for (int r = 0; r < p; r++) {
    int rank = -1, online = 0, ranks = 0, end = 0;
    char cpus[64] = "";
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    CU_ASSERT_EQUAL(sscanf(line, "# simrun-binding rank=%d node=%*s cpus=%63s online=%d node-ranks=%d%n", &rank, cpus,
                           &online, &ranks, &end),
                    4);
    CU_ASSERT_EQUAL(rank, r);
    CU_ASSERT_EQUAL(online, (int)sysconf(_SC_NPROCESSORS_ONLN));
    CU_ASSERT_EQUAL(ranks, p);
    CU_ASSERT(p > 1 || cpus[strspn(cpus, "0123456789")] == '\0'); /* one CPU */
    CU_ASSERT_EQUAL(line[end], '\n');
    line = line[end] ? line + end + 1 : NULL;
  }
  CU_ASSERT(line == NULL || *line == '\0');
}

/* Traces the ring multiply at n = 301 (unequal blocks 101, 100, 100 at p = 3; every message above SMPI's 64 KiB eager
 * threshold, so that every replay semantics counts all of them) and p = 1 and 3, and checks every rank's
 * messages and timeline. */
static void test_trc_mpi_ring_matmul_messages(void)
{
  char dir[1024];
  built_in_new_folder(dir, EXAMPLE, "ring_matmul");
  for (int p = 1; p <= 3; p += 2) {
    char np[8];
    char trace[1100];
    snprintf(np, sizeof np, "%d", p);
    snprintf(trace, sizeof trace, "%s/trace-%d", dir, p);
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./ring_matmul", np, trace, "301", &run), 0);
    TU_ASSERT_RAN(&run);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "product ok"));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "simrun-trace: tracing"));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "simrun-trace: wrote the traces"));
    CU_ASSERT_PTR_NULL(strstr(run.err, "simrun-trace: warning"));
    run_free(&run);
    char *index = read_output(trace, "index.txt");
    CU_ASSERT(index && (int)count_lines(index) == 2 * p); /* a path and a binding line per rank */
    check_binding(index, p);
    free(index);
    for (int me = 0; me < p; me++) {
      char expected[4096];
      expect_ring(301, p, me, expected);
      char *got = messages_of(trace, me);
      CU_ASSERT_PTR_NOT_NULL_FATAL(got);
      CU_ASSERT_STRING_EQUAL(got, expected);
      timeline_counts_t counts;
      check_timeline(trace, me, p, &counts);
      CU_ASSERT_EQUAL(counts.multiply, p); /* one multiply per step, no MPI call inside */
      CU_ASSERT_EQUAL(counts.recv, p == 1 ? 0 : me == 0 ? 2 * p - 1 : p + 2);
      CU_ASSERT_EQUAL(counts.send, p == 1 ? 0 : me == 0 ? 3 * p - 2 : p + 1);
      CU_ASSERT_EQUAL(counts.ended, 1);
      free(got);
    }
  }
  analyse_and_replay(dir);
  /* smpirun replays the p = 3 run traced in SMPI's format (simrun's holds faults actions: fresh buffers) */
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run_as(dir, "./ring_matmul", "3", "trace-3-smpi", "301", "smpi", &run), 0);
  TU_ASSERT_RAN(&run);
  run_free(&run);
  smpi_replays(dir, "trace-3-smpi", "3");
  static const char *const traces[] = {"trace-1", "trace-3", "trace-3-smpi"};
  for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
    char trace[1100];
    snprintf(trace, sizeof trace, "%s/%s", dir, traces[i]);
    remove_folder(trace);
  }
  remove_folder(dir);
}

/* Runs `dir`/`program` on `np` ranks under the tracer into `trace` in TI format `format`: it must end well, print
 * `said` and say no warning. */
static void traced_quietly(const char *dir, const char *program, const char *np, const char *trace, const char *format,
                           const char *said)
{
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run_as(dir, program, np, trace, NULL, format, &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, said));
  CU_ASSERT_PTR_NULL(strstr(run.err, "warning"));
  run_free(&run);
}

/* A new working folder `dir` with `source` built in it as `name` and run on 2 ranks under the tracer into `dir`/trace
 * (its path in `trace`) in TI format `format`; the run's output in *run. */
static void traced_pair(char *dir, char *trace, const char *source, const char *name, const char *format,
                        cli_run_t *run)
{
  char program[64];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, 1024), 0);
  snprintf(trace, 1100, "%s/trace", dir);
  snprintf(program, sizeof program, "./%s", name);
  build(dir, source, name);
  CU_ASSERT_EQUAL_FATAL(traced_run_as(dir, program, "2", trace, NULL, format, run), 0);
  TU_ASSERT_RAN(run);
}

/* traced_pair that must say no warning and, unless `said` is NULL, print `said`. */
static void traced_pair_quietly(char *dir, char *trace, const char *source, const char *name, const char *format,
                                const char *said)
{
  cli_run_t run;
  traced_pair(dir, trace, source, name, format, &run);
  CU_ASSERT(said == NULL || strstr(run.out, said) != NULL);
  CU_ASSERT_PTR_NULL(strstr(run.err, "warning"));
  run_free(&run);
}

/* The two ranks' TI files in `trace`, compute actions left out, are `expected`. */
static void messages_are(const char *trace, const char *const expected[2])
{
  for (int rank = 0; rank < 2; rank++) {
    char *got = messages_of(trace, rank);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, expected[rank]);
    free(got);
  }
}

/* Reads folder `path` with met_timeline_stream (whole): the trace, or NULL (a failed assertion). */
static met_trace_t *read_run(const char *path, met_timeline_info_t *info)
{
  char err[4400] = "";
  met_trace_t *trace = met_timeline_stream(path, 1, info, err, sizeof err);
  if (!trace)
    fprintf(stderr, "%s\n", err);
  CU_ASSERT_PTR_NOT_NULL(trace);
  return trace;
}

/* Two reads of one run give the same figures: T_par, each rank's time per category, the messages and collectives
 * paired, the wait states, to 1e-9 s. */
static void same_figures(met_trace_t *a, met_trace_t *b, const met_timeline_info_t *ia, const met_timeline_info_t *ib)
{
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  CU_ASSERT_PTR_NOT_NULL_FATAL(b);
  CU_ASSERT_EQUAL(met_trace_nranks(a), met_trace_nranks(b));
  TU_ASSERT_CLOSE(met_trace_end(a), met_trace_end(b), 1e-9);
  for (int rank = 0; rank < met_trace_nranks(a); rank++)
    for (int c = 0; c < MET_CAT_COUNT; c++)
      TU_ASSERT_CLOSE(met_trace_category_time(a, rank, (met_category_t)c),
                      met_trace_category_time(b, rank, (met_category_t)c), 1e-9);
  CU_ASSERT(ia->matched == ib->matched && ia->unmatched == ib->unmatched && ia->collectives == ib->collectives);
  met_waits_t wa, wb;
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(a, &wa), 0);
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(b, &wb), 0);
  TU_ASSERT_CLOSE(met_wait_total(&wa, MET_WAIT_PATTERNS), met_wait_total(&wb, MET_WAIT_PATTERNS), 1e-9);
  met_wait_free(&wa);
  met_wait_free(&wb);
}

/* The timelines the library wrote in `trace` are in format 2, and read as their text in format 1 (timeline_text,
 * written into `trace`-text) they give the same figures: T_par, each rank's time per category, the messages and
 * collectives paired, the wait states, to 1e-9 s (both are whole nanoseconds, so the same doubles). */
static void compact_reads_as_text(const char *trace)
{
  char text_dir[1200];
  snprintf(text_dir, sizeof text_dir, "%s-text", trace);
  CU_ASSERT_EQUAL_FATAL(mkdir(text_dir, 0777), 0);
  met_timeline_info_t compact, plain;
  met_trace_t *a = read_run(trace, &compact);
  for (int rank = 0; a && rank < met_trace_nranks(a); rank++) {
    char name[64], path[1300];
    snprintf(name, sizeof name, "timeline-%d.txt", rank);
    char *original = read_output(trace, name);
    CU_ASSERT(original && strncmp(original, "# simrun measured timeline 2\n", 29) == 0);
    free(original);
    char *text = timeline_text(trace, name);
    snprintf(path, sizeof path, "%s/%s", text_dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_FATAL(f && text && fputs(text, f) >= 0 && fclose(f) == 0);
    free(text);
  }
  met_trace_t *b = a ? read_run(text_dir, &plain) : NULL;
  same_figures(a, b, &compact, &plain);
  met_trace_free(a);
  met_trace_free(b);
  remove_folder(text_dir);
}

/* `simrun analyse trace` reads the folder without a word on stderr, and its compact timelines read as their text. */
static void analyses(const char *dir, const char *trace)
{
  const char *analyse[] = {"analyse", trace, NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_STRING_EQUAL(run.err, "");
  run_free(&run);
  compact_reads_as_text(trace);
}

/* Each traced call of mpi_calls.c as its TI action (sizes in bytes: 100 ints, 10 and 4 doubles; the broadcast on a
 * communicator of one rank as simrun's "in"; MPI_Mprobe and MPI_Mrecv as the receive of one int), the calls the
 * format cannot hold listed in the warning at MPI_Finalize,
 * a send to MPI_PROC_NULL timed with no partner (-1), the trace replayed by simrun and the folder analysed. */
static void test_trc_mpi_calls_and_untraced_warning(void)
{
  char dir[1024];
  char trace[1100];
  cli_run_t run;
  traced_pair(dir, trace, CALLS, "mpi_calls", "simrun", &run);
  for (int rank = 0; rank < 2; rank++) {
    char warning[512];
    snprintf(warning, sizeof warning,
             "simrun-trace: warning: rank %d: calls not in the TI trace (replay will miss them): "
             "MPI_Neighbor_allgather x1 (neighbourhood collective: no TI action); MPI_Comm_idup x1 (non-blocking "
             "collective: no TI action)\n",
             rank);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, warning));
  }
  run_free(&run);
  const char *expected[] = {
      "0 init\n0 isend 1 7 400\n0 wait 0 1 7\n0 bcast 80 1\n0 allreduce 32 0\n0 comm_dup\n"
      "0 barrier\n0 comm_split\n0 comm_def 1 0\n0 in 1 bcast 80 0\n0 isend 1 3 8\n0 recv 1 3 8\n0 wait 0 1 3\n"
      "0 send 1 12 4\n0 reducescatter 8 8 0\n0 barrier\n0 finalize\n",
      "1 init\n1 irecv 0 7 400\n1 waitall\n1 bcast 80 1\n1 allreduce 32 0\n1 comm_dup\n"
      "1 barrier\n1 comm_split\n1 comm_def 1 1\n1 in 1 bcast 80 0\n1 isend 0 3 8\n1 recv 0 3 8\n1 wait 1 0 3\n"
      "1 recv 0 12 4\n1 reducescatter 8 8 0\n1 barrier\n1 finalize\n"};
  messages_are(trace, expected);
  for (int rank = 0; rank < 2; rank++) {
    char name[32];
    snprintf(name, sizeof name, "timeline-%d.txt", rank);
    char *timeline = timeline_text(trace, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(timeline);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(timeline, rank == 0 ? " comm exchange 1 400 MPI_Isend 7 0\n" : " comm exchange 0 400 MPI_Irecv 7 0\n"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(timeline, rank == 0 ? " idle exchange 1 0 MPI_Wait 7 0 0\n" : " idle exchange -1 0 MPI_Waitall\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(timeline, rank == 0 ? " comm main 1 8 MPI_Sendrecv 3 0 1 3 8\n"
                                                      : " comm main 0 8 MPI_Sendrecv 3 0 0 3 8\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " ctrl main -1 0 MPI_Comm_split\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " idle main -1 0 MPI_Barrier\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " comm main -2 8 MPI_Send 0 0\n")); /* to MPI_PROC_NULL (-2), tag 0 */
    CU_ASSERT(strstr(timeline, " idle main -1 0 MPI_Request_get_status\n") ||
              strstr(timeline, " ctrl main -1 0 MPI_Request_get_status\n")); /* a poll, or found complete */
    free(timeline);
  }
  simrun_replays(dir, "trace", 2, "T_par");
  analyses(dir, trace);
  remove_folder(trace);
  remove_folder(dir);
}

/* The two ranks' TI files in `dir`/`trace` are `expected` (compute actions left out), simrun replays them, and both
 * folders are removed. */
static void replays_as(const char *dir, const char *trace, const char *const expected[2])
{
  messages_are(trace, expected);
  simrun_replays(dir, "trace", 2, "T_par");
  remove_folder(trace);
  remove_folder(dir);
}

/* The time of `name`'s "# end T" line (the entry into MPI_Finalize) in folder `dir`, or NAN. */
static double timeline_end(const char *dir, const char *name)
{
  char *text = timeline_text(dir, name);
  const char *at = text ? strstr(text, "\n# end ") : NULL;
  double end = NAN;
  if (!at || sscanf(at, "\n# end %lf", &end) != 1)
    end = NAN;
  free(text);
  return end;
}

/* The seconds rank `rank` spent in one-sided calls by its warning in `err` ("...; one-sided calls took S s, P% of the
 * rank's run, ..."), checked against P and the run's span `end` (its "# end"), or NAN when the warning says none. */
static double one_sided_seconds(const char *err, int rank, double end)
{
  char head[96];
  snprintf(head, sizeof head, "simrun-trace: warning: rank %d: calls not in the TI trace", rank);
  const char *line = strstr(err, head);
  const char *took = line ? strstr(line, "; one-sided calls took ") : NULL;
  double seconds, share;
  if (!took || took > strchr(line, '\n') ||
      sscanf(took, "; one-sided calls took %lf s, %lf%% of the rank's run", &seconds, &share) != 2)
    return NAN;
  CU_ASSERT(seconds >= 0 && seconds <= end);
  CU_ASSERT_DOUBLE_EQUAL(share, 100 * seconds / end, 0.051); /* printed to a tenth of a percent */
  return seconds;
}

/* io_rma.c's MPI-IO file and one-sided window, which the TI format cannot hold, named at MPI_Finalize by the calls that
 * open them, once each (mpb-mpi's HDF5 output went through MPI-IO unnamed), and by simrun analyse's run line, from
 * the timelines' "# untraced" (before, analyse said nothing of them: OpenCoarrays' one-sided traffic); the window's
 * fences and put counted with it, and the time in them stated: rank 0 waited in its second fence while rank 1 spun
 * SPIN = 0.05 s before its put (before, NWChem's 883 windows were named and not one of its puts, gets or
 * synchronisations); its message traced, and replayed. */
static void test_trc_mpi_io_and_windows_named(void)
{
  char dir[1024];
  char trace[1100];
  cli_run_t run;
  traced_pair(dir, trace, IO_RMA, "io_rma", "simrun", &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "io_rma: read back 1 2, put 42\n"));
  static const char *const windows[] = {"MPI_Win_allocate x1, MPI_Win_fence x2, MPI_Win_free x1",
                                        "MPI_Win_allocate x1, MPI_Win_fence x2, MPI_Put x1, MPI_Win_free x1"};
  double seconds[2];
  for (int rank = 0; rank < 2; rank++) {
    char warning[512];
    snprintf(warning, sizeof warning,
             "simrun-trace: warning: rank %d: calls not in the TI trace (replay will miss them): MPI_File_open x1 "
             "(MPI-IO: its reads and writes are not traced, their time is in the computation around them); %s "
             "(one-sided communication: its puts, gets and synchronisations are not traced, their time is in the "
             "computation around them); one-sided calls took ",
             rank, windows[rank]);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, warning));
    char name[32];
    snprintf(name, sizeof name, "timeline-%d.txt", rank);
    seconds[rank] = one_sided_seconds(run.err, rank, timeline_end(trace, name));
  }
  CU_ASSERT(seconds[0] >= 0.04); /* its wait for rank 1's SPIN, less what the ranks' first fences left apart */
  run_free(&run);
  const char *analyse[] = {"analyse", trace, NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  TU_ASSERT_RAN(&run);
  tu_unwrap(run.out);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out,
                                "; calls not in the TI trace, which a replay misses (2 ranks; rank 0's, as the "
                                "tracer named them): MPI_File_open x1 (MPI-IO: its reads and writes are not "
                                "traced, their time is in the computation around them); MPI_Win_allocate x1, "
                                "MPI_Win_fence x2, MPI_Win_free x1 (one-sided communication: its puts, gets and "
                                "synchronisations are not traced, their time is in the computation around them); "
                                "one-sided calls took "));
  run_free(&run);
  const char *expected[] = {"0 init\n0 barrier\n0 send 1 5 4\n0 finalize\n",
                            "1 init\n1 barrier\n1 recv 0 5 4\n1 finalize\n"};
  replays_as(dir, trace, expected);
}

/* alone.c on 2 ranks with SIMRUN_TRACE_FORMAT=smpi: each rank's MPI_Allreduce and MPI_Barrier on a communicator of
 * itself alone need no TI action, and none is written; the world's MPI_Allreduce is, and the run has its index,
 * without a warning, and replays. Before, they were refused as simrun's "in" (FreeFem++ at p = 2: 27 of them) and the
 * run had no index. (The simrun format defines such a communicator and runs them in it, as any.) */
static void test_trc_mpi_collectives_alone_need_no_action(void)
{
  char dir[1024];
  char trace[1100];
  traced_pair_quietly(dir, trace, ALONE, "alone", "smpi", "alone: sum 3\n");
  char *index = read_output(trace, "index.txt");
  CU_ASSERT_PTR_NOT_NULL(index);
  free(index);
  const char *expected[] = {"0 init\n0 comm_split\n0 allreduce 4 0\n0 finalize\n",
                            "1 init\n1 comm_split\n1 allreduce 4 0\n1 finalize\n"};
  replays_as(dir, trace, expected);
}

/* bsend_imrecv.c on 2 ranks: a 64-KiB MPI_Bsend is written as the isend it is (it returns once its message is in the
 * attached buffer), so the ring, each rank's buffered send before its receive, replays (before: a `send`, which both
 * replays held until the next rank received, and neither ended); the message an MPI_Improbe matched is received at its
 * MPI_Imrecv, with its tag, 31, as MPI_Mrecv's (before: a request from any source and tag whose wait's line gave tag
 * -1, and simrun analyse paired 2 of the 4 messages: "2 sends no receive took"). */
static void test_trc_mpi_buffered_sends_and_matched_ireceives(void)
{
  char dir[1024];
  char trace[1100];
  traced_pair_quietly(dir, trace, BSEND, "bsend_imrecv", "simrun", "bsend_imrecv: got 65536 from the ring, tag 31\n");
  const char *analyse[] = {"analyse", trace, "--width", "1000", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "(p = 2): 4 messages paired, 0 receives unpaired"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "no receive took"));
  run_free(&run);
  const char *expected[] = {"0 init\n0 isend 1 7 65536\n0 recv 1 7 65536\n0 isend 1 31 4\n0 recv 1 31 4\n0 wait 0 1 "
                            "31\n0 finalize\n",
                            "1 init\n1 isend 0 7 65536\n1 recv 0 7 65536\n1 isend 0 31 4\n1 recv 0 31 4\n1 wait 1 0 "
                            "31\n1 finalize\n"};
  replays_as(dir, trace, expected);
}

/* intercomm.c's messages over an intercommunicator name their partners in the remote group: written with the world
 * rank of the other side (before, read in the local group, each rank sent to itself, and a rank past the local group
 * crashed mpi4py.futures' manager at p = 4), and replayed. */
static void test_trc_mpi_intercommunicator_partners(void)
{
  char dir[1024];
  char trace[1100];
  traced_pair_quietly(dir, trace, INTER, "intercomm", "simrun", "intercomm: got 7 8\n");
  const char *expected[] = {"0 init\n0 comm_split\n0 isend 1 4 12\n0 wait 0 1 4\n0 recv 1 5 8\n0 finalize\n",
                            "1 init\n1 comm_split\n1 recv 0 4 12\n1 send 0 5 8\n1 finalize\n"};
  replays_as(dir, trace, expected);
}

/* simrun analyse's reading of the timelines in `trace` (a full trace, NULL when refused), which must pair `matched`
 * messages and leave no receive unpaired; what the reader found into *found when not NULL. */
static met_trace_t *read_paired_found(const char *trace, size_t matched, met_timeline_info_t *found)
{
  char err[1024] = "";
  met_timeline_info_t info;
  met_trace_t *measured = met_timeline_stream(trace, 1, &info, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL(measured);
  CU_ASSERT(measured == NULL || (info.matched == matched && info.unmatched == 0));
  if (found)
    *found = info;
  return measured;
}

static met_trace_t *read_all_paired(const char *trace, size_t matched)
{
  return read_paired_found(trace, matched, NULL);
}

/* `name` (tests/data/tracer/NAME.c) traced on 2 ranks, rank 0 printing "NAME: waits took W s, work C s": its
 * timeline-0.txt holds each of `lines` (NULL-terminated), and simrun analyse pairs `matched` messages and gives rank 0
 * no more idle than its waits took (the wall time it measured around them) and what the reader put back (waits a
 * rank's own tracer time, removed, had hidden: 1 run in 3 to 6 here, waits of 0.1 ms read as 8.2 ms of idle, 8.2 ms
 * put back, where the bound was the waits alone; docs/tracer.md, "The library's own time"), and at least the CPU time
 * of its work as computation. */
static void waits_bounded(const char *source, const char *name, const char *const *lines, size_t matched)
{
  char dir[1024];
  char trace[1100];
  char said[64];
  cli_run_t run;
  traced_pair(dir, trace, source, name, "simrun", &run);
  double waited = -1, worked = -1;
  snprintf(said, sizeof said, "%s: waits took ", name);
  const char *at = strstr(run.out, said);
  CU_ASSERT_FATAL(at && sscanf(at + strlen(said), "%lf s, work %lf s", &waited, &worked) == 2);
  run_free(&run);
  char *text = read_output(trace, "timeline-0.txt");
  for (const char *const *line = lines; *line; line++)
    CU_ASSERT(text && strstr(text, *line));
  free(text);
  met_timeline_info_t info;
  met_trace_t *measured = read_paired_found(trace, matched, &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(measured);
  double idle = met_trace_category_time(measured, 0, MET_CAT_IDLE);
  double compute = met_trace_category_time(measured, 0, MET_CAT_COMPUTE);
  double bound = waited + info.own_put_back + 1e-3;
  CU_ASSERT(idle <= bound);
  CU_ASSERT(compute >= 0.9 * worked);
  if (idle > bound || compute < 0.9 * worked)
    fprintf(stderr, "\n%s rank 0: idle %.6f s (waits took %.6f, %.6f put back), computation %.6f s (work %.6f)\n", name,
            idle, waited, info.own_put_back, compute, worked);
  met_trace_free(measured);
  remove_folder(trace);
  remove_folder(dir);
}

/* waits_some.c: rank 0's MPI_Waitall of two of its three pending receives names them (the younger, age 1, and the
 * older by its mask, 1), so the analysis completes the third at the MPI_Wait. Before, the waitall completed all
 * three, idle until the third's sender entered, which was after rank 0's work (rank 1 sends it once rank 0's message
 * came), and the computation between shrank to keep each call within its end as read. */
static void test_trc_mpi_waitall_of_some_requests(void)
{
  waits_bounded(WAITS_SOME, "waits_some", (const char *[]){" MPI_Waitall 2 0 1 1\n", NULL}, 4);
}

/* nbc_wait.c: rank 0's MPI_Wait for an MPI_Iallreduce names its request (age 0: the initiation's line is a posting,
 * after the receive's), its MPI_Waitany of null requests completes none of the requests the timeline holds, and its
 * line says so (request -2): the pending receive is completed at the last MPI_Wait. Before, the first MPI_Wait
 * completed it (the oldest pending), idle until its sender came after rank 0's work, which the analysis drew as 0.02 ms
 * of a measured 100 ms (by hand, with a 0.1-s loop and a 0.2-s sender). */
static void test_trc_mpi_waits_for_no_message(void)
{
  waits_bounded(NBC_WAIT, "nbc_wait",
                (const char *[]){" idle main -1 0 MPI_Wait -1 0 0\n", " idle main -1 0 MPI_Waitany -1 0 -2\n", NULL},
                2);
}

/* nbc_sub.c at p = 4: the non-blocking collectives' lines name their communicators (a "# comm" line before the
 * first on a half) and roots, so simrun analyse pairs them with the blocking ones: on each half an MPI_Ibcast,
 * MPI_Iallgather and MPI_Ibarrier, on the world an MPI_Ireduce, MPI_Ibarrier and MPI_Barrier, by hand 2 x 3 + 3 = 9
 * collectives, none unpaired, and the one message; the successful MPI_Test that ends rank 0's poll of the world's
 * MPI_Ibarrier names its request (age 0). Each one's TI action, its blocking form's, is written where it completed:
 * the MPI_Waitall's four (in its order, before any message's wait), the MPI_Test's barrier, and simrun replays the
 * trace; no call is left out of it. Before, the tests named no request the timeline held, only the barrier was
 * paired, and the TI trace held none of them ("calls not in the TI trace"). (How such a test waits is
 * test_timeline_nonblocking_collective_anchors_its_test's: with 4 ranks on 2 cores, the polling ranks' time held off
 * their processors between polls is no steady figure to bound.) */
static void test_trc_mpi_nonblocking_collectives_paired(void)
{
  char dir[1024];
  char trace[1100];
  built_in_new_folder(dir, NBC_SUB, "nbc_sub");
  snprintf(trace, sizeof trace, "%s/t", dir);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run_as(dir, "./nbc_sub", "4", trace, NULL, "simrun", &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "nbc_sub: reduced 6\n"));
  CU_ASSERT_PTR_NULL(strstr(run.err, "calls not in the TI trace"));
  run_free(&run);
  const char *expected[] = {
      "0 init\n0 comm_split\n0 comm_def 1 2 0\n0 in 1 bcast 16 1\n0 in 1 allgather 4 4\n0 reduce 4 0 "
      "2\n0 in 1 barrier\n0 barrier\n0 recv 2 9 4\n0 barrier\n0 finalize\n",
      "1 init\n1 comm_split\n1 comm_def 1 3 1\n1 in 1 bcast 16 1\n1 in 1 allgather 4 4\n1 reduce 4 0 "
      "2\n1 in 1 barrier\n1 barrier\n1 barrier\n1 finalize\n"};
  for (int me = 0; me < 2; me++) {
    char *got = messages_of(trace, me);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, expected[me]);
    free(got);
  }
  simrun_replays(dir, "t", 4, "T_par");
  char *text = read_output(trace, "timeline-0.txt");
  CU_ASSERT(text && strstr(text, "\n# comm ") && strstr(text, " comm main 2 4 MPI_Ireduce -1 0\n") &&
            strstr(text, " MPI_Ibcast -1 ") && strstr(text, " MPI_Test -1 0 0\n"));
  free(text);
  met_timeline_info_t info;
  met_trace_t *measured = read_run(trace, &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(measured);
  CU_ASSERT_EQUAL(info.collectives, 9);
  CU_ASSERT_EQUAL(info.colls_unpaired, 0);
  CU_ASSERT_EQUAL(info.colls_undefined, 0);
  CU_ASSERT_EQUAL(info.matched, 1);
  met_trace_free(measured);
  remove_folder(trace);
  remove_folder(dir);
}

/* nbc_forms.c at p = 3, each of the 14 collectives with a written non-blocking form on the world and on a
 * sub-communicator, once blocking and once non-blocking with its MPI_Wait: every rank's TI actions are the same in both
 * runs (the blocking wrappers' are the reference: the non-blocking one's action is its blocking form's, written where
 * its wait completed it, with the same sizes, roots and counts, a gather in place included), and simrun analyse pairs
 * as many collectives in both, by hand 14 x 3 groups (the world, ranks 0 and 1, rank 2 alone) = 42. */
static void test_trc_mpi_nonblocking_forms_as_blocking(void)
{
  char dir[1024];
  built_in_new_folder(dir, NBC_FORMS, "nbc_forms");
  static const char *const mode[2] = {"blocking", "nb"};
  char trace[2][1100];
  for (int k = 0; k < 2; k++) {
    snprintf(trace[k], sizeof trace[k], "%s/%s", dir, mode[k]);
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./nbc_forms", "3", trace[k], mode[k], &run), 0);
    TU_ASSERT_RAN(&run);
    CU_ASSERT_PTR_NULL(strstr(run.err, "calls not in the TI trace"));
    run_free(&run);
    met_timeline_info_t info;
    met_trace_t *measured = read_run(trace[k], &info);
    CU_ASSERT_EQUAL(info.collectives, 42);
    met_trace_free(measured);
  }
  for (int me = 0; me < 3; me++) {
    char *reference = messages_of(trace[0], me);
    char *got = messages_of(trace[1], me);
    CU_ASSERT_FATAL(reference && got);
    CU_ASSERT_STRING_EQUAL(got, reference);
    free(reference);
    free(got);
  }
  for (int k = 0; k < 2; k++)
    remove_folder(trace[k]);
  remove_folder(dir);
}

/* The bytes of the messages rank 0 of the analysed `trace` received (counted there), in order, at most 10; their
 * number. */
static int received_bytes(const met_trace_t *trace, double bytes[10])
{
  const met_interval_t *iv = met_trace_intervals(trace, 0);
  int n = 0, from, to;
  for (size_t i = 0; i < met_trace_count(trace, 0) && n < 10; i++)
    if (met_message_ends(&iv[i], 0, &from, &to) && to == 0)
      bytes[n++] = iv[i].bytes;
  return n;
}

/* Receives posted from any source (tests/data/tracer/any_source.c) are written, once a wait or test finds them
 * complete, as receives from the sender their status names, with the message's tag and size; one from rank 1 with
 * any tag is written when posted, as an irecv with SMPI's any tag, -444; the program's send is waited for by the TI
 * waitall, and nothing is left untraced. Each receive from any source gets fewer bytes than its buffer, and the line of
 * the call that completed it gives the bytes received (rank 1's sends), statuses ignored or not: before, the waitany's
 * and tests' lines gave 0, and so did the waitall's and waitsome's, whose receives simrun analyse then counted at
 * their postings' buffer sizes. Traced in SMPI's format (its polling loops as one test at most), which smpirun
 * replays. */
static void test_trc_mpi_any_source_receives(void)
{
  char dir[1024];
  char trace[1100];
  traced_pair_quietly(dir, trace, ANY, "any_source", "smpi", NULL);
  const char *expected[] = {"0 init\n0 recv 1 5 8\n0 isend 1 8 4\n0 waitall\n0 recv 1 6 16\n0 recv 1 99 4\n"
                            "0 recv 1 9 8\n0 recv 1 12 12\n0 recv 1 98 4\n0 recv 1 13 4\n0 recv 1 10 4\n"
                            "0 irecv 1 -444 16\n0 wait 1 0 -444\n0 finalize\n",
                            "1 init\n1 send 0 5 8\n1 recv 0 8 4\n1 send 0 6 16\n1 send 0 9 8\n1 send 0 99 4\n"
                            "1 send 0 12 12\n1 send 0 13 4\n1 send 0 98 4\n1 send 0 10 4\n1 send 0 11 8\n"
                            "1 finalize\n"};
  messages_are(trace, expected);
  char *timeline = timeline_text(trace, "timeline-0.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(timeline);
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " idle main 1 0 MPI_Wait -1 0 0\n"));       /* any tag; the last posting */
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " idle main -1 8 MPI_Waitany 5 0 0\n"));    /* 8 bytes into 16 */
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " idle main -1 16 MPI_Waitall\n"));         /* 16 into 24, ignored */
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " ctrl main -1 8 MPI_Testall 9 0 0\n"));    /* 8 into 24, ignored */
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " idle main -1 12 MPI_Waitsome 12 0 0\n")); /* 12 into 16, ignored */
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " ctrl main -1 4 MPI_Testsome 13 0 0\n"));  /* 4 into 16, given */
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " idle main 1 4 MPI_Wait "));               /* 4 into 16 */
  free(timeline);
  /* simrun analyse counts a receive from any source at the wait or test that completed it, with the bytes received:
   * the waitany's 8, the waitall's 16, the testall's 8, the waitsome's 12, the testsome's 4 and the wait's 4 (and
   * the 4 of each MPI_Recv before a test); the receive posted from rank 1 is counted at its posting, with its buffer's
   * 16 (docs/tracer.md, Limits) */
  met_trace_t *measured = read_all_paired(trace, 10);
  CU_ASSERT_PTR_NOT_NULL_FATAL(measured);
  const double sent[] = {8, 16, 4, 8, 12, 4, 4, 4, 16};
  double bytes[10];
  int n = received_bytes(measured, bytes);
  CU_ASSERT_EQUAL(n, 9);
  for (int i = 0; i < n && i < 9; i++)
    CU_ASSERT_EQUAL(bytes[i], sent[i]);
  for (int i = 0; n != 9 && i < n; i++)
    fprintf(stderr, "rank 0 counted a message of %g bytes\n", bytes[i]);
  met_trace_free(measured);
  smpi_replays(dir, "trace", "2");
  analyses(dir, trace);
  remove_folder(trace);
  remove_folder(dir);
}

/* The communicators (9th field) and requests (10th, -1 when absent) of `call`'s lines in `timeline`, in order, at
 * most 4; their number. */
static int envelopes(const char *timeline, const char *call, long long comm[4], long long req[4])
{
  int n = 0;
  for (const char *line = timeline; line && *line && n < 4; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    char name[64], text[512];
    long long tag;
    snprintf(text, sizeof text, "%.*s", (int)strcspn(line, "\n"), line); /* sscanf alone would read on */
    req[n] = -1;
    if (sscanf(text, "%*f %*f %*s %*s %*d %*f %63s %lld %lld %lld", name, &tag, &comm[n], &req[n]) >= 3 &&
        strcmp(name, call) == 0)
      n++;
  }
  return n;
}

/* tests/data/tracer/dup_wait.c on 2 ranks: the sub-communicator, its duplicate, the duplicate of MPI_COMM_WORLD and
 * the sub-communicator's duplicate with info each have a key of their own (not 0, the world's), the same at both
 * ends; the receives (postings 0 to 3, on the duplicate, the sub-communicator, the world's duplicate, the duplicate
 * with info) are named by the waits that complete them by age, postings since theirs: postings 1, 0, 2, 3 of the
 * program's order, ages 2, 3, 1, 0, the third
 * after its communicator was freed (the program runs to its end: the wait's key was taken when the receive was
 * posted). simrun analyse pairs all four messages. */
static void test_trc_mpi_duplicates_and_waited_requests(void)
{
  char dir[1024];
  char trace[1100];
  cli_run_t run;
  traced_pair(dir, trace, DUP_WAIT, "dup_wait", "simrun", &run);
  run_free(&run);
  char *sender = timeline_text(trace, "timeline-0.txt");
  char *receiver = timeline_text(trace, "timeline-1.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sender);
  CU_ASSERT_PTR_NOT_NULL_FATAL(receiver);
  long long sent[4], posted[4], waited[4], none[4], ids[4], reqs[4];
  CU_ASSERT_EQUAL_FATAL(envelopes(sender, "MPI_Send", sent, none), 4);
  CU_ASSERT_EQUAL_FATAL(envelopes(receiver, "MPI_Irecv", posted, ids), 4);
  CU_ASSERT_EQUAL_FATAL(envelopes(receiver, "MPI_Wait", waited, reqs), 4);
  for (int i = 0; i < 4; i++) {
    CU_ASSERT(sent[i] != 0);
    for (int j = i + 1; j < 4; j++)
      CU_ASSERT(sent[i] != sent[j]);
    CU_ASSERT(ids[i] == -1);         /* a posting names no request: its waits count back to it */
    CU_ASSERT(waited[i] == sent[i]); /* half, twin, the world's duplicate, the duplicate with info */
  }
  CU_ASSERT(posted[0] == sent[1] && posted[1] == sent[0] && posted[2] == sent[2] && posted[3] == sent[3]);
  CU_ASSERT(reqs[0] == 2 && reqs[1] == 3 && reqs[2] == 1 && reqs[3] == 0); /* postings 1, 0, 2, 3 of 4 */
  free(sender);
  free(receiver);
  met_trace_free(read_all_paired(trace, 4));
  remove_folder(trace);
  remove_folder(dir);
}

/* tests/data/tracer/nested.c on 2 ranks: the calls made inside MPI_Comm_free's delete callback are the outer call's
 * time, not records of their own (the outer call's record came after theirs with a negative gap, and simrun analyse
 * refused the folder), and write no TI action: each rank's only isend or irecv is the message around the outer call
 * (an inner MPI_Isend, MPI_Irecv or started request wrote its action once its line was dropped, a receive on the
 * inner communicator's ranks; an inner MPI_Startall's later messages were counted as postings, so that the wait
 * after it named another request). The run analyses without a word, its one message paired. */
static void test_trc_mpi_nested_calls_in_the_outer_one(void)
{
  char dir[1024];
  char trace[1100];
  cli_run_t run;
  traced_pair(dir, trace, NESTED, "nested", "simrun", &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "nested done on rank 0: inner freed"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "nested done on rank 1: inner freed"));
  run_free(&run);
  for (int rank = 0; rank < 2; rank++) {
    char name[32];
    char *text = timeline_text(trace, rank ? "timeline-1.txt" : "timeline-0.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, " MPI_Comm_free"));
    CU_ASSERT_PTR_NULL(strstr(text, " MPI_Barrier")); /* only inside the callback */
    CU_ASSERT_PTR_NULL(strstr(text, " MPI_Startall"));
    free(text);
    snprintf(name, sizeof name, "rank-%d.txt", rank);
    text = read_output(trace, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    int messages = 0;
    for (const char *at = text; (at = strstr(at, rank ? " irecv " : " isend ")) != NULL; at++)
      messages++;
    CU_ASSERT_EQUAL(messages, 1);
    CU_ASSERT_PTR_NULL(strstr(text, rank ? " isend " : " irecv "));
    free(text);
  }
  met_trace_free(read_all_paired(trace, 1));
  analyses(dir, trace);
  remove_folder(trace);
  remove_folder(dir);
}

/* The entry of `rank`'s first message end with tag `tag` in the analysed `trace` (the tracer's own time removed, each
 * receive after its sender's entry: docs/tracer.md), or NAN when there is none. */
static double entry_of(const met_trace_t *trace, int rank, int tag)
{
  const met_interval_t *iv = met_trace_intervals(trace, rank);
  for (size_t i = 0; i < met_trace_count(trace, rank); i++)
    if (iv[i].tag == tag && iv[i].dir != MET_DIR_NONE)
      return iv[i].start;
  return NAN;
}

/* A late sender by construction: `receiver`'s call with tag `tag` waited for `sender`'s, which entered later. */
typedef struct late_pair {
  int sender;
  int receiver;
  int tag;
} late_pair_t;

/* simrun analyse's reading of `trace` pairs `matched` messages, none left, and gives rank `rank` a late sender equal,
 * to the microsecond, to the times from its calls' entries to their senders' in the trace read (the wait-state rule
 * on the times with the tracer's own time removed: a receive never ends before its sender's entry, so no wait is cut
 * short), give or take what the reader moved to keep causality (its time put back, waits removed, receives moved by
 * the clock condition): a call paired before its partner's rank moved later waits until that partner's entry as it
 * was (the CI's sanitised suite, two tests at a time, failed the bound of 1e-6 once; over 100 runs by hand beside
 * busy loops and those tests did not). That late sender must be 0.15 to 1.5 s: a sleep of 0.3 s in
 * all by construction, give or take what a rank descheduled after a barrier or in its sleep lost, on a loaded machine
 * (the sanitised build at load 13 fell out of 0.25-1 s once, the ranks' timelines now on one clock). */
static void late_sender_is(const char *trace, size_t matched, int rank, const late_pair_t *pairs, int npairs)
{
  met_timeline_info_t info;
  met_trace_t *measured = read_paired_found(trace, matched, &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(measured);
  double late = 0;
  for (int i = 0; i < npairs; i++)
    late += fmax(0, entry_of(measured, pairs[i].sender, pairs[i].tag) -
                        entry_of(measured, pairs[i].receiver, pairs[i].tag));
  met_waits_t w;
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(measured, &w), 0);
  double waited = met_wait_time(&w, rank, MET_WAIT_LATE_SENDER);
  double moved = info.own_put_back + info.waits_removed + info.clock_total;
  TU_ASSERT_CLOSE(waited, late, 1e-6 + moved);
  CU_ASSERT(late >= 0.15 && late <= 1.5);
  if (fabs(waited - late) > 1e-6 || !(late >= 0.15 && late <= 1.5))
    fprintf(stderr, "late sender %.6f s by the entries, %.6f s by the analysis, %.6f s moved\n", late, waited, moved);
  met_wait_free(&w);
  met_trace_free(measured);
}

/* tests/data/tracer/probe_late.c on 2 ranks, traced in SMPI's format: each probe that found a message names its sender,
 * tag and communicator (the duplicate's key, not the world's 0), and MPI_Mrecv too. simrun analyse pairs each probe
 * with the send it found: rank 0's late sender is, to the microsecond, the time from each blocking probe's entry to
 * its sender's (in the trace read, the tracer's own time removed), and by construction (rank 1 sleeps 0.2 s, then 0.1
 * s, after barriers before sending) about 0.3 s (late_sender_is's bounds). Without the probes' partners it would be
 * about 0 (each receive finds its sender there). simrun's ti-replay and smpirun replay the trace (no probe is a TI
 * action). About 3 s. */
static void test_trc_mpi_probe_waits_for_late_sender(void)
{
  char dir[1024];
  char trace[1100];
  traced_pair_quietly(dir, trace, PROBES, "probe_late", "smpi", "probes ok");
  char *receiver = timeline_text(trace, "timeline-0.txt");
  char *sender = timeline_text(trace, "timeline-1.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(receiver);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sender);
  long long key[4], none[4];
  CU_ASSERT_EQUAL(envelopes(receiver, "MPI_Mprobe", key, none), 1);
  CU_ASSERT(key[0] != 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(receiver, " idle main 1 0 MPI_Probe 7 0\n"));
  char line[128];
  snprintf(line, sizeof line, " idle main 1 0 MPI_Mprobe 8 %lld\n", key[0]);
  CU_ASSERT_PTR_NOT_NULL(strstr(receiver, line));
  snprintf(line, sizeof line, " idle main 1 4 MPI_Mrecv 8 %lld\n", key[0]);
  CU_ASSERT_PTR_NOT_NULL(strstr(receiver, line));
  CU_ASSERT_PTR_NOT_NULL(strstr(receiver, " ctrl main 1 0 MPI_Iprobe 9 0\n"));
  free(receiver);
  free(sender);
  const late_pair_t probes[] = {{1, 0, 7}, {1, 0, 8}}; /* MPI_Probe, MPI_Mprobe: each the first end of its tag */
  late_sender_is(trace, 3, 0, probes, 2);
  simrun_replays(dir, "trace", 2, "T_par");
  smpi_replays(dir, "trace", "2");
  remove_folder(trace);
  remove_folder(dir);
}

/* `pattern`'s wait of `rank` in the run read from `trace`, which must be within [low, 1.5] s. */
/* When `rank` entered its first collective call of `kind` (the trace's span), or NAN. */
static double coll_entry(const met_trace_t *trace, int rank, met_coll_kind_t kind)
{
  size_t count;
  const met_coll_t *colls = met_trace_colls(trace, rank, &count);
  for (size_t i = 0; i < count; i++)
    if (colls[i].kind == kind)
      return colls[i].start;
  return NAN;
}

/* What `rank`'s non-blocking collectives of `kind` waited for their members (met_nbc_t.waited). */
static double nbc_waited(const met_trace_t *trace, int rank, met_coll_kind_t kind)
{
  size_t count;
  const met_nbc_t *nbcs = met_trace_nbcs(trace, rank, &count);
  double sum = 0;
  for (size_t i = 0; i < count; i++)
    sum += nbcs[i].kind == kind ? nbcs[i].waited : 0;
  return sum;
}

/* `waiter`'s first non-blocking collective waited for `late`'s initiation: at most from its own initiation to that
 * one, at most NBC_SLACK less (its initiation returning and its wait's entry, and a processor lost between them), by
 * construction at least `low` less what the waiter waited for a processor. */
static void nbc_waits_for(const met_trace_t *measured, const met_timeline_info_t *info, int waiter, int late,
                          double low)
{
  const double NBC_SLACK = 0.01;
  size_t nw, nl;
  const met_nbc_t *mine = met_trace_nbcs(measured, waiter, &nw), *theirs = met_trace_nbcs(measured, late, &nl);
  CU_ASSERT_FATAL(nw >= 1 && nl >= 1);
  double apart = theirs[0].posted - mine[0].posted;
  double lost = info->usage_ranks > waiter ? info->usage[waiter].lost : 0;
  CU_ASSERT(mine[0].waited <= apart + 1e-9 && mine[0].waited >= apart - NBC_SLACK - lost);
  CU_ASSERT(apart >= low - lost && apart <= 1.5);
  if (!(mine[0].waited <= apart + 1e-9 && mine[0].waited >= apart - NBC_SLACK - lost && apart >= low - lost))
    fprintf(stderr, "rank %d's non-blocking collective waited %.6f s, its initiation %.6f s before the other's\n",
            waiter, mine[0].waited, apart);
}

/* `waiter`'s wait in `pattern` (less its non-blocking collectives' of `kind`) equals, to the microsecond, the time from
 * its entry into its first call of `kind` to `late`'s, by construction at least `low` (a sleep's length, less what a
 * loaded machine may take off it) less what the waiter waited for a processor in the run (`info`'s WAITED: held up
 * after the barrier before it, it enters later; the early reduce of test_trc_mpi_rooted_collectives_wait_for_root read
 * 0.046 s against 0.05 once, the suite's build beside it at a load of 5). */
static void waits_for(const met_trace_t *measured, const met_timeline_info_t *info, int waiter, int late,
                      met_coll_kind_t kind, met_wait_pattern_t pattern, double low)
{
  double expected = coll_entry(measured, late, kind) - coll_entry(measured, waiter, kind);
  met_waits_t w;
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(measured, &w), 0);
  double t = met_wait_time(&w, waiter, pattern) - nbc_waited(measured, waiter, kind);
  TU_ASSERT_CLOSE(t, expected, 1e-6);
  double least = low - (info->usage_ranks > waiter ? info->usage[waiter].lost : 0);
  CU_ASSERT(expected >= least && expected <= 1.5);
  if (!(expected >= least && expected <= 1.5) || fabs(t - expected) > 1e-6)
    fprintf(stderr, "%s of rank %d: %.6f s, its entry to the other's %.6f s (at least %.6f)\n", met_wait_title(pattern),
            waiter, t, expected, least);
  met_wait_free(&w);
}

/* tests/data/tracer/rooted_late.c on 2 ranks: an MPI_Bcast on a duplicate of MPI_COMM_WORLD and an MPI_Reduce on the
 * world name their root (rank 0) as their partner, the broadcast on a communicator of one rank its root's world rank
 * (1, its line naming its communicator, which a "# comm" line defines). simrun analyse pairs both rooted calls: rank 1
 * waits for its root (late broadcast) from its entry to the root's, rank 0 for the value to reduce (early reduce) from
 * its entry to rank 1's, each to the microsecond of the entries the trace read gives, and by construction about 0.2 s
 * and 0.1 s (at least 0.1 and 0.05 s on a loaded machine, which can hold up the waiter after the barrier). Before
 * (Debian's Quantum ESPRESSO, issue 26's check), the lines gave no root and both waits were communication. Its
 * MPI_Scan is paired too: rank 1 waits for rank 0 (early scan), by construction about 0.1 s (before, its wait was
 * communication), and its MPI_Iscan's wait, as long (before, the tracer wrote no action for it and the wait was
 * communication). About 1 s. */
static void test_trc_mpi_rooted_collectives_wait_for_root(void)
{
  char dir[1024], trace[1100];
  traced_pair_quietly(dir, trace, ROOTED, "rooted_late", "simrun", "rooted ok");
  char *root = timeline_text(trace, "timeline-0.txt");
  char *leaf = timeline_text(trace, "timeline-1.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(root);
  CU_ASSERT_PTR_NOT_NULL_FATAL(leaf);
  CU_ASSERT_PTR_NOT_NULL(strstr(leaf, " comm main 0 4 MPI_Bcast\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(root, " comm main 0 4 MPI_Reduce\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(leaf, " comm main 1 4 MPI_Bcast -1 "));
  CU_ASSERT_PTR_NOT_NULL(strstr(leaf, "\n# comm ")); /* its communicator defined: rank 1 alone, 1:1:1 */
  CU_ASSERT_PTR_NOT_NULL(strstr(leaf, " 1:1:1\n"));
  free(root);
  free(leaf);
  met_timeline_info_t info;
  char err[1024] = "";
  met_trace_t *measured = met_timeline_stream(trace, 1, &info, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(measured);
  CU_ASSERT_EQUAL(info.colls_unpaired, 0);
  waits_for(measured, &info, 1, 0, MET_COLL_ONE_TO_N, MET_WAIT_LATE_BCAST, 0.1);
  waits_for(measured, &info, 0, 1, MET_COLL_N_TO_ONE, MET_WAIT_EARLY_REDUCE, 0.05);
  waits_for(measured, &info, 1, 0, MET_COLL_PREFIX, MET_WAIT_EARLY_SCAN, 0.05);
  nbc_waits_for(measured, &info, 1, 0, 0.05);
  met_trace_free(measured);
  remove_folder(trace);
  remove_folder(dir);
}

/* tests/data/tracer/sendrecv_ring.c on 3 ranks: each send-receive's timeline line gives both halves (the partner,
 * bytes and tag it sent; the source, tag and bytes it received, the second round's MPI_ANY_SOURCE as the sender it
 * got; MPI_PROC_NULL as -2), and simrun analyse pairs all 88 messages (3 + 3 around the ring, 2 along the chain, 80
 * between ranks 0 and 1, folded into loops but for outlier iterations, which a loaded machine's preemptions make and
 * which may leave none of 16 steady iterations: in SMPI's format, whose TI actions the folding cannot compare, rank
 * 0's calls that differ only in the tag received stay apart, else its receives of tag 11 would not pair): rank
 * 2, which receives from the sleeper in both rounds, has a late sender equal, to the microsecond, to the time from its
 * calls' entries to the sleepers' (in the trace read), by construction about 0.3 s (late_sender_is's bounds). Before, a
 * send-receive's line named one partner and no tag, nothing was paired and its waiting was communication. The folder
 * analyses, and its compact timelines read as their text. About 1 s (0.8 s of it the traced run). */
static void test_trc_mpi_sendrecv_ring_waits_for_slow_rank(void)
{
  char dir[1024], trace[1100];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(trace, sizeof trace, "%s/trace", dir);
  build(dir, SENDRECV, "sendrecv_ring");
  traced_quietly(dir, "./sendrecv_ring", "3", trace, "smpi", "sendrecv ok");
  char *line[3];
  for (int rank = 0; rank < 3; rank++) {
    char name[32];
    snprintf(name, sizeof name, "timeline-%d.txt", rank);
    line[rank] = timeline_text(trace, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line[rank]);
  }
  CU_ASSERT_PTR_NOT_NULL(strstr(line[2], " comm main 0 4 MPI_Sendrecv 7 0 1 7 4\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line[2], " comm main 1 4 MPI_Sendrecv_replace 8 0 0 8 4\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line[0], " comm main 1 4 MPI_Sendrecv 9 0 -2 -1 0\n")); /* from MPI_PROC_NULL */
  CU_ASSERT_PTR_NOT_NULL(strstr(line[2], " comm main -2 0 MPI_Sendrecv 9 0 1 9 4\n"));  /* to MPI_PROC_NULL */
  CU_ASSERT_PTR_NOT_NULL(strstr(line[0], " comm main 1 4 MPI_Sendrecv 10 0 1 11 4\n")); /* the tag it got kept */
  for (int rank = 0; rank < 3; rank++)
    free(line[rank]);
  const late_pair_t ring[] = {{1, 2, 7}, {0, 2, 8}, {1, 2, 9}}; /* the last about 0 */
  late_sender_is(trace, 88, 2, ring, 3);
  analyses(dir, trace);
  remove_folder(trace);
  remove_folder(dir);
}

/* Rank `me`'s TI actions of requests.c (compute and poll records left out), worked out from the program: the five
 * receives completed in tag order by Waitall on two, Waitany, Waitsome and Waits (each named, not a waitall); the
 * receive from any source cancelled (never written) and, unless `smpi`, the one from rank 1 written as cancelled; the
 * freed send never waited for; each polling loop's successful call as the wait of its request (MPI_Test's with its
 * test); the persistent pair started three times; the collectives on sub-communicators defined by their world ranks.
 */
static void expect_requests(int me, int smpi, char *out)
{
  static const char *const halves[] = {"%d comm_def 1 2 0\n", "%d comm_def 1 3 1\n"};
  static const char *const rows[] = {"%d comm_def 2 0 1\n", "%d comm_def 2 2 3\n"};
  sprintf(out, "%d init\n", me);
  if (me == 0) {
    for (int tag = 0; tag < 5; tag++)
      add(out, 0, "irecv", 1, tag, 32);
    for (int tag = 0; tag < 5; tag++)
      sprintf(out + strlen(out), "0 wait 1 0 %d\n", tag);
    if (!smpi)
      strcat(out, "0 irecv 1 98 16\n0 cancel 1 0 98\n");
    strcat(out, "0 isend 1 20 4\n0 barrier\n");
    for (int tag = 30; tag <= 33; tag++)
      sprintf(out + strlen(out), "0 irecv 1 %d 4\n0 wait 1 0 %d\n", tag, tag);
    strcat(out, "0 recv 1 34 4\n");
  } else if (me == 1) {
    for (int tag = 0; tag < 5; tag++)
      add(out, 1, "send", 0, tag, 32);
    strcat(out, "1 recv 0 20 4\n1 barrier\n");
    for (int tag = 30; tag <= 34; tag++)
      add(out, 1, "send", 0, tag, 4);
  } else {
    sprintf(out + strlen(out), "%d barrier\n", me);
  }
  for (int i = 0; me < 2 && i < 3; i++)
    sprintf(out + strlen(out), "%d isend %d 40 64\n%d irecv %d 40 64\n%d waitall\n", me, 1 - me, me, 1 - me, me);
  if (!smpi) {
    sprintf(out + strlen(out), "%d comm_split\n", me);
    sprintf(out + strlen(out), halves[me % 2], me);
    const char *in = "%d in 1 allreduce 32 0\n%d in 1 barrier\n%d in 1 bcast 16 1\n%d in 1 gather 8 8 0\n"
                     "%d in 1 alltoall 8 8\n%d in 1 scan 16 0\n";
    sprintf(out + strlen(out), in, me, me, me, me, me, me);
    sprintf(out + strlen(out), rows[me / 2], me);
    sprintf(out + strlen(out), "%d in 2 allgather 8 8\n", me);
    if (me > 0)
      sprintf(out + strlen(out), "%d comm_def 3 1 2 3\n%d in 3 reduce 24 0 2\n", me, me);
  }
  sprintf(out + strlen(out), "%d barrier\n%d finalize\n", me, me);
}

/* messages_of on a hand-made TI file: a loop of computations and polls (what a loaded machine made of requests.c's
 * MPI_Test loop once: "0 loop 51 2") goes with its body; one with a message in its body stays, body and all. */
static void messages_skip_timing_loops(const char *dir)
{
  char path[1100];
  snprintf(path, sizeof path, "%s/rank-9.txt", dir);
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("9 init\n9 irecv 1 30 4\n9 loop 51 2\n9 compute 43211\n9 poll 3 120\n9 faults 2\n9 wait 1 0 30\n"
        "9 loop 20 2\n9 poll 1 40\n9 isend 1 40 64\n9 finalize\n",
        f);
  fclose(f);
  char *got = messages_of(dir, 9);
  CU_ASSERT_PTR_NOT_NULL_FATAL(got);
  CU_ASSERT_STRING_EQUAL(got, "9 init\n9 irecv 1 30 4\n9 wait 1 0 30\n9 loop 20 2\n9 isend 1 40 64\n9 finalize\n");
  free(got);
  remove(path);
}

/* requests.c's rank 0 tests a null request and a persistent one not started with each test and
 * MPI_Request_get_status: each completes none, so each is a poll of a run of polls (docs/tracer.md, "Runs of polls"),
 * not a call of its own; the only test calls its timeline defines are the four that completed a receive (tags 30 to
 * 33), where the tracer of cf071a6 defined nine; five with MPI_Test's inactive request a call again. */
static void null_tests_are_polls(const char *trace)
{
  char *timeline = read_output(trace, "timeline-0.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(timeline);
  int calls = 0;
  for (const char *at = timeline; (at = strstr(at, " ctrl main -1 0 ")) != NULL; at++)
    calls += strncmp(at + 16, "MPI_Test", 8) == 0 || strncmp(at + 16, "MPI_Request_get_status", 22) == 0;
  CU_ASSERT_EQUAL(calls, 4);
  free(timeline);
}

/* tests/data/tracer/requests.c at p = 4 (issue 25): every rank's TI actions as expect_requests works them out, the
 * trace replayed by simrun; the same program with SIMRUN_TRACE_FORMAT=smpi refused (no index: it needs simrun's
 * extensions); and without the calls that need them, traced in SMPI's format and replayed by smpirun too. */
static void test_trc_mpi_requests_and_sub_communicators(void)
{
  char dir[1024];
  built_in_new_folder(dir, REQUESTS, "requests");
  messages_skip_timing_loops(dir);
  static const struct {
    const char *trace;
    const char *arg;
    const char *format;
  } runs[] = {{"full", NULL, "simrun"}, {"plain", "smpi", "smpi"}, {"refused", NULL, "smpi"}};
  for (int k = 0; k < 3; k++) {
    char trace[1100];
    snprintf(trace, sizeof trace, "%s/%s", dir, runs[k].trace);
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(traced_run_as(dir, "./requests", "4", trace, runs[k].arg, runs[k].format, &run), 0);
    TU_ASSERT_RAN(&run);
    CU_ASSERT_PTR_NULL(strstr(run.err, "calls not in the TI trace"));
    char *index = read_output(trace, "index.txt");
    CU_ASSERT((index != NULL) == (k < 2));
    free(index);
    if (k == 2)
      CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "needs simrun's TI extensions (listed above), which smpirun cannot read"));
    run_free(&run);
    for (int me = 0; k < 2 && me < 4; me++) {
      char expected[4096];
      expect_requests(me, k == 1, expected);
      char *got = messages_of(trace, me);
      CU_ASSERT_PTR_NOT_NULL_FATAL(got);
      CU_ASSERT_STRING_EQUAL(got, expected);
      if (strcmp(got, expected) != 0)
        fprintf(stderr, "rank %d of %s: got\n%sexpected\n%s", me, runs[k].trace, got, expected);
      free(got);
    }
    if (k == 0)
      null_tests_are_polls(trace);
  }
  simrun_replays(dir, "full", 4, "T_par");
  simrun_replays(dir, "plain", 4, "T_par");
  smpi_replays(dir, "plain", "4");
  /* the sub-communicators' collectives are paired on their own communicators, which the timelines define: the world's
   * two barriers; on each half of the split an MPI_Allreduce, MPI_Barrier, MPI_Bcast, MPI_Gather and MPI_Alltoall
   * (not its MPI_Scan: the split orders each half's members in reverse, which its "# comm" line gives, and a scan's
   * members wait in the communicator's order, which its spans cannot hold); each row's MPI_Allgather; the MPI_Reduce
   * of ranks 1 to 3: by hand 2 + 2 x 5 + 2 + 1 = 15 (2 before the timelines defined them; every rank's k-th collective
   * paired as one call of all before that); in SMPI's format too, whose TI trace cannot hold them but whose timeline is
   * simrun's (10 before its rooted ones named their root there) */
  for (int k = 0; k < 3; k += 2) {
    char folder[1100];
    snprintf(folder, sizeof folder, "%s/%s", dir, runs[k].trace);
    met_timeline_info_t info;
    met_trace_t *measured = read_run(folder, &info);
    CU_ASSERT_EQUAL(info.collectives, 15);
    CU_ASSERT_EQUAL(info.colls_unpaired, 0);
    CU_ASSERT_EQUAL(info.colls_undefined, 0);
    met_trace_free(measured);
  }
  /* rank 0's MPI_Request_free of its pending isend of tag 20 names it (age 0), so that the analysis stops waiting
   * for a wait to complete it; those of its inactive persistent requests name none */
  char *line = timeline_text(dir, "full/timeline-0.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(line);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, " ctrl main -1 0 MPI_Request_free 20 0 0\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line, " ctrl main -1 0 MPI_Request_free\n"));
  free(line);
  for (int k = 0; k < 3; k++) {
    char trace[1100];
    snprintf(trace, sizeof trace, "%s/%s", dir, runs[k].trace);
    remove_folder(trace);
  }
  remove_folder(dir);
}

/* Copies `from`/`name`, a zstd file, into `to`/`name` as plain text and into `gz`/`name` as gzip (zlib's level 1, as
 * the tracer wrote before zstd), decompressed by libzstd's own streaming loop, not by simrun's reader; whether
 * `from`/`name` was one whole zstd frame. */
static int unzstd_into(const char *from, const char *to, const char *gz, const char *name)
{
  char path[1300];
  snprintf(path, sizeof path, "%s/%s", from, name);
  FILE *in = fopen(path, "rb");
  snprintf(path, sizeof path, "%s/%s", to, name);
  FILE *out = fopen(path, "w");
  snprintf(path, sizeof path, "%s/%s", gz, name);
  gzFile zout = gzopen(path, "wb1");
  ZSTD_DCtx *d = ZSTD_createDCtx();
  CU_ASSERT_FATAL(in && out && zout && d);
  static unsigned char packed[1 << 16];
  static char text[1 << 17];
  size_t left = 1; /* ZSTD_decompressStream's: 0 once the frame is whole */
  int ok = 1;
  for (size_t n; ok && (n = fread(packed, 1, sizeof packed, in)) > 0;) {
    ZSTD_inBuffer zin = {packed, n, 0};
    while (ok && zin.pos < zin.size) {
      ZSTD_outBuffer text_out = {text, sizeof text, 0};
      left = ZSTD_decompressStream(d, &text_out, &zin);
      ok = !ZSTD_isError(left) && fwrite(text, 1, text_out.pos, out) == text_out.pos &&
           gzwrite(zout, text, (unsigned)text_out.pos) == (int)text_out.pos;
    }
  }
  ZSTD_freeDCtx(d);
  CU_ASSERT(fclose(in) == 0 && fclose(out) == 0 && gzclose(zout) == Z_OK);
  return ok && left == 0;
}

/* Writes `trace`'s index.txt into `copy`, each file's folder made `copy`'s. */
static void copy_index(const char *trace, const char *copy)
{
  char *index = read_output(trace, "index.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(index);
  char path[1200];
  snprintf(path, sizeof path, "%s/index.txt", copy);
  FILE *f = fopen(path, "w");
  for (char *line = strtok(index, "\n"); f && line; line = strtok(NULL, "\n"))
    if (line[0] == '#')
      fprintf(f, "%s\n", line); /* a rank's binding */
    else
      fprintf(f, "%s/%s\n", copy, strrchr(line, '/') + 1);
  CU_ASSERT_FATAL(f && fclose(f) == 0);
  free(index);
}

/* The text of the CSV file `csv` that simrun `args` writes in `dir` (exit 0), for the caller to free. */
static char *csv_written(const char *dir, const char *const *args, const char *csv)
{
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  TU_ASSERT_RAN(&run);
  run_free(&run);
  char *text = read_output(dir, csv);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  return text;
}

/* The figure in column `column` of the first row of the CSV file `csv` that simrun `args` writes in `dir`. */
static double csv_figure(const char *dir, const char *const *args, const char *csv, const char *column)
{
  char *text = csv_written(dir, args, csv);
  const char *const names[] = {column, NULL};
  double figure = csv_number(text, 1, names);
  free(text);
  return figure;
}

/* T_par of the replay of `dir`/`trace` on the Pentium II cluster at p = `p` (simrun_replays' scenario). */
static double replayed_t_par(const char *dir, const char *trace, int p)
{
  simrun_replays(dir, trace, p, "T_par");
  const char *replay[] = {"-q", "--no-cache", "replay.xml", "--csv", "replay.csv", NULL};
  return csv_figure(dir, replay, "replay.csv", "t_par_s");
}

/* A file whose text outgrows SIMRUN_TRACE_COMPRESS bytes is written as zstd (here 1 byte, so every timeline, and the
 * TI files, which hold simrun's extensions: requests.c's cancel, poll and comm_def), and simrun reads it as the same
 * text: the folder decompressed by libzstd, and that text as gzip (as the tracer wrote before), give the same figures
 * (T_par, times per rank and category, messages paired, wait states, to 1e-9 s: the same doubles) and the same
 * replayed T_par. */
static void test_trc_mpi_large_files_compressed(void)
{
  char dir[1024], trace[1100], plain[1100], gz[1100];
  built_in_new_folder(dir, REQUESTS, "requests");
  snprintf(trace, sizeof trace, "%s/zstd", dir);
  snprintf(plain, sizeof plain, "%s/plain", dir);
  snprintf(gz, sizeof gz, "%s/gzip", dir);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run_env(dir, "./requests", "4", trace, NULL, "simrun", "SIMRUN_TRACE_COMPRESS=1", &run),
                        0);
  TU_ASSERT_RAN(&run);
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(mkdir(plain, 0777), 0);
  CU_ASSERT_EQUAL_FATAL(mkdir(gz, 0777), 0);
  for (int rank = 0; rank < 4; rank++) {
    char name[64];
    snprintf(name, sizeof name, "timeline-%d.txt", rank);
    CU_ASSERT(unzstd_into(trace, plain, gz, name));
    snprintf(name, sizeof name, "rank-%d.txt", rank);
    CU_ASSERT(unzstd_into(trace, plain, gz, name));
  }
  copy_index(trace, plain);
  copy_index(trace, gz);
  char *text = read_output(plain, "timeline-0.txt");
  CU_ASSERT(text && strncmp(text, "# simrun measured timeline 2\n", 29) == 0);
  free(text);
  met_timeline_info_t zinfo, pinfo, ginfo;
  met_trace_t *a = read_run(trace, &zinfo);
  met_trace_t *b = read_run(plain, &pinfo);
  met_trace_t *c = read_run(gz, &ginfo);
  same_figures(a, b, &zinfo, &pinfo);
  same_figures(c, b, &ginfo, &pinfo);
  met_trace_free(a);
  met_trace_free(b);
  met_trace_free(c);
  double t_zstd = replayed_t_par(dir, "zstd", 4);
  double t_plain = replayed_t_par(dir, "plain", 4);
  double t_gzip = replayed_t_par(dir, "gzip", 4);
  CU_ASSERT(t_zstd > 0);
  TU_ASSERT_CLOSE(t_zstd, t_plain, 1e-12);
  TU_ASSERT_CLOSE(t_gzip, t_plain, 1e-12);
  remove_folder(trace);
  remove_folder(plain);
  remove_folder(gz);
  remove_folder(dir);
}

/* Runs ./pingpong on 2 ranks traced into `dir`/`trace` at SIMRUN_TRACE_FLOPS=`flops`, folded or not
 * (SIMRUN_TRACE_FOLD=`fold`), in SIMRUN_TRACE_FORMAT=`format`; the program must succeed. The bytes of the folder's
 * rank and timeline files. */
static double pingpong_traced(const char *dir, const char *trace, const char *flops, const char *fold,
                              const char *format)
{
  char preload[1200], folder[1200], rate[64], folding[64], as[64];
  snprintf(preload, sizeof preload, "LD_PRELOAD=%s", SIMRUN_TRACE_LIB);
  snprintf(folder, sizeof folder, "SIMRUN_TRACE_DIR=%s/%s", dir, trace);
  snprintf(rate, sizeof rate, "SIMRUN_TRACE_FLOPS=%s", flops);
  snprintf(folding, sizeof folding, "SIMRUN_TRACE_FOLD=%s", fold);
  snprintf(as, sizeof as, "SIMRUN_TRACE_FORMAT=%s", format);
  const char *const env[] = {preload, folder, rate, folding, as};
  const char *args[20] = {"--allow-run-as-root", "--oversubscribe", "-np", "2"};
  int n = 4;
  for (int i = 0; i < 5; i++) {
    args[n++] = "-x";
    args[n++] = env[i];
  }
  args[n] = "./pingpong";
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_program(dir, SIMRUN_MPIRUN, args, &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "pingpong done"));
  run_free(&run);
  double bytes = 0;
  for (int rank = 0; rank < 2; rank++)
    for (int kind = 0; kind < 2; kind++) {
      char path[1400];
      struct stat st;
      snprintf(path, sizeof path, "%s/%s/%s-%d.txt", dir, trace, kind ? "timeline" : "rank", rank);
      CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
      bytes += (double)st.st_size;
    }
  return bytes;
}

/* ti-replay's T_par and T_seq (the sum of the trace's computation, 0 when none) of `dir`/`trace` at p = 2 on the
 * Pentium II cluster. */
static void pingpong_replayed(const char *dir, const char *trace, double *t_par, double *t_seq)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/%s.xml", dir, trace);
  FILE *scenario = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(scenario);
  fprintf(scenario,
          "<scenario name=\"%s\"><platform file=\"" SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml\"/>"
          "<program skeleton=\"ti-replay\"><param name=\"trace\" value=\"%s/%s/index.txt\"/></program>"
          "<sweep><param name=\"p\" values=\"2\"/></sweep></scenario>\n",
          trace, dir, trace);
  fclose(scenario);
  char xml[64], csv[64];
  snprintf(xml, sizeof xml, "%s.xml", trace);
  snprintf(csv, sizeof csv, "%s.csv", trace);
  const char *args[] = {"-q", "--no-cache", xml, "--csv", csv, NULL};
  char *text = csv_written(dir, args, csv);
  const char *const par[] = {"t_par_s", NULL}, *const seq[] = {"t_seq_s", NULL};
  *t_par = csv_number(text, 1, par);
  *t_seq = csv_number(text, 1, seq); /* an empty cell (no computation) reads 0 */
  free(text);
}

/* The lines of rank `rank`'s TI file in `trace` that start a loop of `count` iterations ("": of any count; its
 * timeline's with `timeline`). */
static int loops_of(const char *dir, const char *trace, int rank, const char *count, int timeline)
{
  char name[256], prefix[64];
  snprintf(name, sizeof name, "%s/%s-%d.txt", trace, timeline ? "timeline" : "rank", rank);
  int at = timeline ? 0 : snprintf(prefix, sizeof prefix, "%d ", rank);
  snprintf(prefix + at, sizeof prefix - (size_t)at, "loop %s%s", count, count[0] ? " " : "");
  char *text = read_output(dir, name);
  int loops = 0;
  for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "")
    loops += strncmp(line, prefix, strlen(prefix)) == 0;
  free(text);
  return loops;
}

/* The iterations of rank `rank`'s loops in `trace` (its TI file's, or its timeline's with `timeline`): their sum into
 * *iterations; returns the number of loops. */
static int loop_iterations(const char *dir, const char *trace, int rank, int timeline, long *iterations)
{
  char name[256];
  snprintf(name, sizeof name, "%s/%s-%d.txt", trace, timeline ? "timeline" : "rank", rank);
  char *text = read_output(dir, name);
  int loops = 0;
  long count;
  *iterations = 0;
  for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "")
    if (sscanf(line, timeline ? "loop %ld " : "%*d loop %ld ", &count) == 1) {
      loops++;
      *iterations += count;
    }
  free(text);
  return loops;
}

/* Whether `line`, a line of a TI file (or of a timeline: `timeline`, with `is_send` telling of each ID whether its
 * latest definition is an MPI_Send's), is a send. */
static int line_sends(const char *line, int timeline, const unsigned char *is_send)
{
  long id;
  if (!timeline)
    return sscanf(line, "%*d send %ld", &id) == 1;
  if (line[0] == '=')
    return strstr(line, " MPI_Send ") != NULL;
  return sscanf(line, "%ld ", &id) == 1 && id >= 0 && id < 4096 && is_send[id];
}

/* The sends of rank `rank` in `trace` (its TI file's, or its timeline's with `timeline`), each loop's body counted
 * once per iteration. A timeline's ID is a slot of a table that a later definition may take for another call
 * (docs/tracer.md), so each "d" line sets what its ID means from there on. */
static long sends_in(const char *dir, const char *trace, int rank, int timeline)
{
  char path[1400], call[64], line[512];
  snprintf(path, sizeof path, "%s/%s/%s-%d.txt", dir, trace, timeline ? "timeline" : "rank", rank);
  FILE *file = fopen(path, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(file);
  unsigned char is_send[4096] = {0};
  long count = 1, total = 0, id;
  int body = 0;
  while (fgets(line, sizeof line, file)) {
    if (timeline && sscanf(line, "d %ld %*s %*s %*s %*s %63s", &id, call) == 2) {
      CU_ASSERT_FATAL(id >= 0 && id < 4096);
      is_send[id] = strcmp(call, "MPI_Send") == 0;
      continue;
    }
    if (sscanf(line, timeline ? "loop %ld %d" : "%*d loop %ld %d", &count, &body) == 2)
      continue;
    total += line_sends(line, timeline, is_send) ? (body > 0 ? count : 1) : 0;
    body -= body > 0;
  }
  fclose(file);
  return total;
}

/* Rank `rank`'s loops in `trace` are the 6 sizes' 1000 round trips: every one of the 6000 sends written, in a loop or
 * apart, at least one loop per size, and most of the iterations in loops. An iteration that waited long is written
 * apart with the few before the next loop starts (trc_fold.c's outliers: a loaded machine's preemptions; a busy CI
 * machine left 6% of them out of loops), so only a quiet run has 6 loops of 1000. */
static void assert_pingpong_loops(const char *dir, const char *trace, int rank, int timeline)
{
  long iterations, sends = sends_in(dir, trace, rank, timeline);
  int loops = loop_iterations(dir, trace, rank, timeline, &iterations);
  CU_ASSERT_EQUAL(sends, 6000);
  CU_ASSERT(loops >= 6 && iterations >= 0.5 * 6000 && iterations <= 6000);
  if (!(loops >= 6 && iterations >= 0.5 * 6000 && iterations <= 6000) || sends != 6000)
    fprintf(stderr, "%s, rank %d: %d loops of %ld iterations in all, %ld sends\n", trace, rank, loops, iterations,
            sends);
}

/* Folding (issue 25, docs/tracer.md): tests/data/tracer/pingpong_loop.c bounces 1000 round trips of each of 6 sizes,
 * NetPIPE's pattern. Folded, each rank's TI file holds one loop of 1000 iterations per size (or a few, when some
 * iterations waited long: assert_pingpong_loops), and the folder stays under
 * 1 KiB per size and rank plus 1 KiB of headers per rank, and 2 KiB per outlier: a bound from the sizes and the
 * machine's preemptions, not the iterations (unfolded, it is over 40 times larger than the folded one, or than the
 * bound without outliers). With computation timed at 1e-3 flop/s (none written) the folded and the unfolded traces
 * replay to the same T_par, to 1e-9 relative: the same messages in the same order. With a real rate each trace's
 * computation is priced (the folded one's as each slot's mean): replay T_par is the messages' T_par plus at most the
 * trace's computation (T_seq here), as no computation is counted twice on the critical path of a ping-pong; so both
 * lie within [T_msg, T_msg + T_seq], and differ by at most the larger T_seq. In SMPI's format the TI files hold no
 * loop (the timelines do) and smpirun replays them. About 14 s at load 10 (5 traced runs, 4 replays, one smpirun). */
static void test_trc_mpi_folded_pingpong(void)
{
  char dir[1024];
  built_in_new_folder(dir, PINGPONG, "pingpong");
  double folded = pingpong_traced(dir, "folded", "1e-3", "1", "simrun");
  double unfolded = pingpong_traced(dir, "unfolded", "1e-3", "0", "simrun");
  /* each outlier iteration (a preemption, on a loaded machine) is written as it came and starts a loop again: under
   * 2 KiB more on its rank's two files (660 B to 1.4 KiB measured at load 15, bursts of outliers included) */
  long iterations;
  double splits = 0, quiet = 2 * (1024 + 6 * 1024.0);
  for (int rank = 0; rank < 2; rank++) {
    assert_pingpong_loops(dir, "folded", rank, 0);
    splits += loop_iterations(dir, "folded", rank, 0, &iterations) - 6;
  }
  CU_ASSERT(folded <= quiet + 2048 * splits);
  CU_ASSERT(unfolded > 40 * fmin(folded, quiet));
  if (!(folded <= quiet + 2048 * splits && unfolded > 40 * fmin(folded, quiet)))
    fprintf(stderr, "pingpong: folded %.0f B with %.0f loops more than its 12, unfolded %.0f B\n", folded, splits,
            unfolded);
  double t_folded, t_unfolded, seq_f, seq_u;
  pingpong_replayed(dir, "folded", &t_folded, &seq_f);
  pingpong_replayed(dir, "unfolded", &t_unfolded, &seq_u);
  CU_ASSERT(t_folded > 0);
  TU_ASSERT_CLOSE(t_folded, t_unfolded, 1e-9 * t_unfolded);
  pingpong_traced(dir, "folded-work", "1e9", "1", "simrun");
  pingpong_traced(dir, "unfolded-work", "1e9", "0", "simrun");
  pingpong_replayed(dir, "folded-work", &t_folded, &seq_f);
  pingpong_replayed(dir, "unfolded-work", &t_unfolded, &seq_u);
  CU_ASSERT(seq_f > 0 && seq_u > 0);
  CU_ASSERT(t_folded >= t_unfolded - seq_u - 1e-9 && t_folded <= t_unfolded + seq_f + 1e-9);
  /* SMPI's format: the TI trace unfolded (smpirun has no loop action), the timeline folded; smpirun replays it */
  pingpong_traced(dir, "smpi", "1e-3", "1", "smpi");
  for (int rank = 0; rank < 2; rank++) {
    CU_ASSERT_EQUAL(loops_of(dir, "smpi", rank, "", 0), 0);
    assert_pingpong_loops(dir, "smpi", rank, 1);
  }
  smpi_replays(dir, "smpi", "2");
  static const char *const traces[] = {"folded", "unfolded", "folded-work", "unfolded-work", "smpi"};
  for (int i = 0; i < 5; i++) {
    char trace[1200];
    snprintf(trace, sizeof trace, "%s/%s", dir, traces[i]);
    remove_folder(trace);
  }
  remove_folder(dir);
}

/* simrun analyse reads the folder `dir`/trace without a word on standard error and succeeds. */
static void analysed_without_a_word(const char *dir)
{
  char trace[1100];
  snprintf(trace, sizeof trace, "%s/trace", dir);
  analyses(dir, trace);
}

/* Builds the Fortran program `source` into `dir`/`name` with Open MPI's mpifort. */
static void build_fortran(const char *dir, const char *source, const char *name)
{
  CU_ASSERT_FATAL(SIMRUN_MPIFORT[0] != '\0' && strstr(SIMRUN_MPIFORT, "NOTFOUND") == NULL);
  const char *args[] = {"-O2", source, "-o", name, NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_program(dir, SIMRUN_MPIFORT, args, &run), 0);
  CU_ASSERT_EQUAL_FATAL(run.status, 0);
  run_free(&run);
}

/* A new working folder `dir` (1024 bytes) with `source` built by `builder` as `name`, and the path of its trace
 * folder, `dir`/trace, in `trace` (1100 bytes). */
static void built_in(char *dir, char *trace, void (*builder)(const char *, const char *, const char *),
                     const char *source, const char *name)
{
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, 1024), 0);
  snprintf(trace, 1100, "%s/trace", dir);
  builder(dir, source, name);
}

/* built_in, then the program run on `np` ranks under the tracer into `dir`/trace, in simrun's format: it must print
 * `said` and say no warning. */
static void built_and_traced(char *dir, char *trace, void (*builder)(const char *, const char *, const char *),
                             const char *source, const char *name, const char *np, const char *said)
{
  char program[64];
  built_in(dir, trace, builder, source, name);
  snprintf(program, sizeof program, "./%s", name);
  traced_quietly(dir, program, np, trace, "simrun", said);
}

/* tests/data/tracer/persistent_ring.c on 3 ranks: each message an MPI_Start(all) started is a line of the call, what
 * it started after its communicator (docs/tracer.md: 0 a receive, 1 a send, 5 a synchronous one, plus 2 after the
 * call's first line; a send to MPI_PROC_NULL, partner -2, and a receive from any source, partner -1, too), so that
 * simrun analyse pairs all 86 messages (3 in the first ring, 2 x 40 in the folded rounds of ranks 0 and 1, 3 in the
 * last ring), where it paired none before; rank 2's late sender is, to the microsecond, the time from its waits'
 * entries to rank 1's starts, and by construction about 0.3 s (late_sender_is's bounds); an MPI_Startall of no request
 * is a ctrl line that simrun analyse does not count among the starts whose messages it misses (tachyon at p = 1 read
 * "1 MPI_Start and MPI_Startall call give none of the messages they started"). About 2 s. */
static void test_trc_mpi_persistent_messages_paired(void)
{
  char dir[1024], trace[1100];
  built_and_traced(dir, trace, build, PERSISTENT, "persistent_ring", "3", "persistent ok");
  char *line = timeline_text(trace, "timeline-2.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(line);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, " comm main 1 4 MPI_Startall 11 0 0\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line, " comm main 0 4 MPI_Startall 12 0 3\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line, " comm main -2 4 MPI_Startall 6 0 3\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line, " comm main -1 4 MPI_Start 21 0 0\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line, " comm main 0 4 MPI_Start 22 0 5\n")); /* a synchronous send */
  CU_ASSERT_PTR_NOT_NULL(strstr(line, " ctrl main -1 0 MPI_Startall\n"));    /* of no request */
  free(line);
  const late_pair_t ring[] = {{1, 2, 11}, {1, 2, 21}};
  late_sender_is(trace, 86, 2, ring, 2);
  const char *analyse[] = {"analyse", trace, NULL}; /* the start of no request is no start whose messages it misses */
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  CU_ASSERT_PTR_NULL(strstr(run.out, "MPI_Startall call"));
  run_free(&run);
  analyses(dir, trace);
  remove_folder(trace);
  remove_folder(dir);
}

/* Rank 1's TI file in `trace` holds the `n` actions `expected` in that order (others between them). */
static void actions_in_order(const char *trace, const char *const *expected, size_t n)
{
  char *text = read_output(trace, "rank-1.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  const char *at = text;
  for (size_t i = 0; i < n; i++) {
    const char *found = strstr(at, expected[i]);
    CU_ASSERT_PTR_NOT_NULL(found);
    if (!found)
      fprintf(stderr, "rank-1.txt lacks '%s' after its offset %ld:\n%s\n", expected[i], (long)(at - text), text);
    at = found ? found + strlen(expected[i]) : at;
  }
  free(text);
}

/* What a Fortran program's rank 1 says at MPI_Finalize in `err` (fortran_calls.f90's and fortran_f08.f90's: each puts
 * its rank into the next rank's window between two fences): its one-sided calls counted and timed, as C's are (the
 * tracer binds the Fortran names: before, they went to PMPI_ directly, unnamed). */
static void fortran_windows_counted(const char *err)
{
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "rank 1: calls not in the TI trace (replay will miss them): MPI_Win_create x1, "
                                     "MPI_Win_fence x2, MPI_Put x1, MPI_Win_free x1 (one-sided communication"));
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "one-sided calls took "));
}

/* A Fortran program (`use mpi`): Open MPI's Fortran bindings call PMPI_* directly, so the library binds the Fortran
 * names itself (trc_fortran.c). The program still checks its own values (MPI_IN_PLACE, statuses, MPI_REQUEST_NULL
 * back in Fortran), every rank's actions are those it made, in order, and simrun replays the trace. */
static void test_trc_mpi_fortran_program(void)
{
  char dir[1024];
  char trace[1100];
  built_in(dir, trace, build_fortran, FORTRAN, "fortran_calls");
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run_as(dir, "./fortran_calls", "3", trace, NULL, "simrun", &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "fortran ok"));
  /* named at MPI_Finalize, once per rank, as their C calls are (before, CP2K's went untraced and unnamed) */
  fortran_windows_counted(run.err);
  CU_ASSERT_PTR_NULL(strstr(run.err, "MPI_Iallgather")); /* its TI allgather is where its wait completed it */
  CU_ASSERT_PTR_NULL(strstr(run.err, "MPI_Iscan"));      /* and its scan (before, counted as having no action) */
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "MPI_File_open x1 (MPI-IO"));
  run_free(&run);
  CU_ASSERT_EQUAL(count_entries(trace), 7); /* index.txt, three rank files, three timelines */
  char *timeline = timeline_text(dir, "trace/timeline-1.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(timeline);
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " ctrl main -1 0 MPI_Cart_sub"));
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " ctrl main -1 0 MPI_Comm_split_type"));
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " ctrl main -1 0 MPI_Comm_dup_with_info"));
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " idle main 0 0 MPI_Mprobe 10 0"));
  /* the receives from any source into 12 bytes: the bytes received, from the tracer's own statuses */
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " idle main -1 4 MPI_Waitsome 11 0 0\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " idle main -1 8 MPI_Waitall\n"));
  free(timeline);
  /* rank 1's actions in the program's order (the computations between them aside): the ring (a Waitall over every
   * pending request is SMPI's plain waitall), Sendrecv with rank 0 (as SMPI writes it: isend, recv, wait), Bcast,
   * Allreduce, the split and the barrier on it, the second ring completed by Testany, the persistent ring
   * (each Start written as the operation it starts), the Allreduce on the Cartesian row (all three ranks, in their
   * order: the world's) and the Barrier on the node's ranks (the same), the Barrier on the duplicate, the ring of
   * matched probes (the Mrecv as the recv its status gives), the Iscan (a scan where its wait completed it), the rings
   * from any source (each receive as the recv its status gives, once complete), the logical Allreduce */
  static const char *const expected[] = {
      "1 init",        "1 irecv 0 7 4", "1 send 2 7 4",    "1 waitall",       "1 isend 0 3 4",  "1 recv 0 3 4",
      "1 wait 1 0 3",  "1 bcast 4 0",   "1 allreduce 4 0", "1 comm_split",    "1 in 1 barrier", "1 irecv 0 8 4",
      "1 send 2 8 4",  "1 wait 0 1 8",  "1 irecv 0 9 4",   "1 isend 2 9 4",   "1 waitall",      "1 allreduce 4 0",
      "1 barrier\n",   "1 barrier\n",   "1 send 2 10 4",   "1 recv 0 10 4",   "1 scan 4 0",     "1 send 2 11 4",
      "1 recv 0 11 4", "1 send 2 12 8", "1 recv 0 12 8",   "1 allreduce 4 0", "1 finalize"};
  actions_in_order(trace, expected, sizeof expected / sizeof expected[0]);
  analysed_without_a_word(dir);
  remove_folder(trace);
  remove_folder(dir);
}

/* A program on `use mpi_f08` (tests/data/tracer/fortran_f08.f90), whose bindings reach the mpif.h ones under other
 * names, is traced as a `use mpi` one (before, it left no folder and one warning at exit): it checks its own values,
 * every rank's actions are those it made, in order (rank 1's of 3: the ring waited for by Waitall, the Sendrecv with
 * rank 0 as isend, recv, wait, Bcast, Allreduce, the split and its barrier, the ring completed by a Test loop, the
 * Allreduce on the Cartesian row of all three ranks, the ring waited for with MPI_STATUS_IGNORE, the logical
 * Allreduce), the Cartesian calls are in its timeline and simrun analyses it without a word. */
static void test_trc_mpi_f08_program(void)
{
  char dir[1024];
  char trace[1100];
  built_in(dir, trace, build_fortran, F08, "fortran_f08");
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run_as(dir, "./fortran_f08", "3", trace, NULL, "simrun", &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "f08 ok"));
  fortran_windows_counted(run.err); /* as C's and mpif.h's are */
  run_free(&run);
  static const char *const expected[] = {"1 init",          "1 irecv 0 7 4", "1 send 2 7 4",    "1 waitall",
                                         "1 isend 0 3 4",   "1 recv 0 3 4",  "1 wait 1 0 3",    "1 bcast 4 0",
                                         "1 allreduce 4 0", "1 comm_split",  "1 in 1 barrier",  "1 irecv 0 8 4",
                                         "1 send 2 8 4",    "1 wait 0 1 8",  "1 allreduce 4 0", "1 irecv 0 9 4",
                                         "1 send 2 9 4",    "1 wait 0 1 9",  "1 allreduce 4 0", "1 finalize"};
  actions_in_order(trace, expected, sizeof expected / sizeof expected[0]);
  char *timeline = timeline_text(dir, "trace/timeline-1.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(timeline);
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " ctrl main -1 0 MPI_Cart_create"));
  CU_ASSERT_PTR_NOT_NULL(strstr(timeline, " ctrl main -1 0 MPI_Cart_sub"));
  free(timeline);
  analysed_without_a_word(dir);
  remove_folder(trace);
  remove_folder(dir);
}

/* A program that mpirun starts and that never initialises MPI (a bash script here, bash exiting through exit(), where
 * dash's _exit() skips the library's destructor; Debian 12's mrbayes-mpi, linked to no MPI library) is not traced:
 * the first rank says so once, and no folder is made. */
static void test_trc_mpi_serial_program_is_reported(void)
{
  char dir[1024];
  char trace[1100];
  char script[1100];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(trace, sizeof trace, "%s/trace", dir);
  snprintf(script, sizeof script, "%s/serial.sh", dir);
  FILE *out = fopen(script, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fprintf(out, "exit 0\n");
  fclose(out);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "/bin/bash", "2", trace, "serial.sh", &run), 0);
  TU_ASSERT_RAN(&run);
  const char *warning = "simrun-trace: warning: this program never called MPI_Init";
  char *first = strstr(run.err, warning);
  CU_ASSERT_PTR_NOT_NULL(first);
  CU_ASSERT(first == NULL || strstr(first + 1, warning) == NULL); /* once, not per rank */
  run_free(&run);
  CU_ASSERT_EQUAL(count_entries(trace), -1);
  remove_folder(dir);
}

/* `simrun analyse trace` in `dir`, with --partial when `partial` is 1, --replay-on the Pentium II cluster when 2: its
 * status, and its stderr into err (4096 bytes). */
static int analyse_partial(const char *dir, int partial, char *err)
{
  const char *plain[] = {"analyse", "trace", NULL};
  const char *anyway[] = {"analyse", "--partial", "trace", NULL};
  const char *replayed[] = {"analyse", "trace", "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, partial == 2 ? replayed : partial ? anyway : plain, &run), 0);
  snprintf(err, 4096, "%s", run.err);
  int status = run.status;
  run_free(&run);
  return status;
}

/* A run that dies (rank 1 calls MPI_Abort, or, with `how` "kill", SIGKILLs itself) leaves no index and timelines
 * without their end line, and each rank's marker incomplete-R, which it removes only once its files are whole: simrun
 * analyse refuses the folder in one line, exit 2: after MPI_Abort naming rank 1's marker, which says so (the tracer's
 * "why: " line), after SIGKILL rank 0's (the lowest rank that did not finish), with the other rank; with --partial it
 * reads the files up to their last whole line and names rank 0's file (read first) as cut short, in one warning (after
 * SIGKILL, which loses the ranks' buffers, that no record reached its files). The files of an earlier run with more
 * ranks (7), its index and its marker are gone from the folder. With `env` SIMRUN_TRACE_COMPRESS=1, the files are zstd
 * frames never ended (cut mid-frame), and read the same. */
static void died_run_is_refused(const char *how, const char *env)
{
  char dir[1024];
  char trace[1100];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(trace, sizeof trace, "%s/trace", dir);
  CU_ASSERT_EQUAL_FATAL(mkdir(trace, 0777), 0);
  static const char *const stale[] = {"index.txt", "rank-6.txt", "timeline-6.txt", "incomplete-6"};
  for (int i = 0; i < 4; i++) {
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", trace, stale[i]);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fclose(f);
  }
  build(dir, ABORT, "mpi_abort");
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run_env(dir, "./mpi_abort", "2", trace, how, "simrun", env, &run), 0);
  CU_ASSERT_NOT_EQUAL(run.status, 0);
  run_free(&run);
  CU_ASSERT_EQUAL(count_entries(trace), 6); /* rank-0, rank-1, timeline-0, timeline-1, incomplete-0, incomplete-1 */
  char *text = read_output(trace, "timeline-0.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_EQUAL(strncmp(text, "\x28\xb5\x2f\xfd", 4) == 0, env != NULL); /* zstd's magic number */
  free(text);
  char err[4096];
  CU_ASSERT_EQUAL(analyse_partial(dir, 0, err), 2);
  CU_ASSERT_EQUAL(count_lines(err), 1);
  static const char killed[] = "simrun: error: trace/incomplete-0: rank 0 did not finish (nor did 1 other rank): "
                               "the run was killed or aborted, or could not write its files, before MPI_Finalize, "
                               "or exited without it where the tracer could not end them (its warning said why), or "
                               "is still running; run it again (or let it end), or read what it wrote with simrun "
                               "analyse --partial\n";
  static const char aborted[] = "simrun: error: trace/incomplete-1: rank 1 did not finish (nor did 1 other rank): it "
                                "called MPI_Abort (error code 3); read what the run wrote with simrun analyse "
                                "--partial, or run it again\n";
  const char *refused = how ? killed : aborted;
  CU_ASSERT_STRING_EQUAL(err, refused);
  CU_ASSERT_EQUAL(analyse_partial(dir, 2, err), 2); /* --replay-on said first that the index is missing */
  CU_ASSERT_STRING_EQUAL(err, refused);
  const char *said = how ? "simrun: error: trace/timeline-0.txt: no record of the run reached its files before it "
                           "stopped" /* its buffers lost (before: "the run recorded no time", of a run that computed) */
                         : "simrun: warning: trace/timeline-0.txt:";
  CU_ASSERT_EQUAL(analyse_partial(dir, 1, err), how ? 2 : 0);
  CU_ASSERT_EQUAL(count_lines(err), 1);
  CU_ASSERT_NSTRING_EQUAL(err, said, strlen(said));
  CU_ASSERT(how || strstr(err, ": cut short: the file ends before its '# end' line"));
  if (how) { /* the run again, to its end, into the killed run's folder */
    CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./mpi_abort", "2", trace, "finish", &run), 0);
    TU_ASSERT_RAN(&run);
    CU_ASSERT_PTR_NULL(strstr(run.err, "warning"));
    run_free(&run);
    CU_ASSERT_EQUAL(count_entries(trace), 5); /* index.txt, rank-0, rank-1, timeline-0, timeline-1: no marker */
    analysed_without_a_word(dir);
  }
  remove_folder(trace);
  remove_folder(dir);
}

static void test_trc_mpi_aborted_run_is_refused(void)
{
  died_run_is_refused(NULL, NULL);
  died_run_is_refused(NULL, "SIMRUN_TRACE_COMPRESS=1");
}

/* SIGKILL, which no handler sees, of rank 1 mid-run leaves the markers as MPI_Abort does (above); the same program
 * run to its end into that folder (the gate takes a killed run's folder) is traced whole: the markers are gone, the
 * index is there, and simrun analyse reads the folder without a word. */
static void test_trc_mpi_killed_run_is_refused(void)
{
  died_run_is_refused("kill", NULL);
}

/* The count of `needle` in `text`. */
static int occurrences(const char *text, const char *needle)
{
  int n = 0;
  for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
    n++;
  return n;
}

/* Whether rank `rank`'s timeline in `trace` has the tracer's line of a rank that ended at its exit without
 * MPI_Finalize with exit status `status`, before its "# end" line (1), has none (0), or is not as either (-1). */
static int ended_at_exit(const char *trace, int rank, int status)
{
  char name[64];
  snprintf(name, sizeof name, "timeline-%d.txt", rank);
  char *text = read_output(trace, name);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  char line[64];
  snprintf(line, sizeof line, "\n# exit without MPI_Finalize, status %d\n", status);
  const char *exit_line = strstr(text, line), *end = strstr(text, "\n# end ");
  int said = !end ? -1 : exit_line ? (exit_line < end ? 1 : -1) : strstr(text, "\n# exit without") ? -1 : 0;
  free(text);
  return said;
}

/* tests/data/tracer/no_finalize.c at p = 4 on 2 cores: ranks that return from main without calling MPI_Finalize
 * (GetDP at p = 1 does) end their files at their exit, whole: no marker, each timeline's exit line before its end line,
 * one warning and the index written by the rank that ended last (rank 0, 20 ms after the others, which wait for it:
 * mpirun ends the job once a rank's process is gone, and 9 of 10 such runs lost rank 0's files when the others did
 * not wait); simrun analyse reads the folder without a word on stderr, pairs the ring's 4 x 100 messages and says so
 * in the run's line. With `status` at p = 2, rank 1 calls exit(3): its exit line gives the status, and the run's line
 * says that one rank's status says the program failed; at p = 1, that "its rank ended at its exit". Before, the ranks'
 * records stayed in their buffers and the folder was refused as a killed run's. With `fork` at p = 2, a child forked
 * without exec returns from main (its exit runs the tracer's destructor, with the rank's state and open files) and the
 * ranks end with MPI_Finalize: the child leaves the rank's files alone, which are whole and have no exit line. With
 * `alarm` and `alarm-recv` at p = 1, the exit comes from a signal handler, in the rank's computation (as a SIGTERM
 * handler's when mpirun stops a job) or inside MPI_Recv: the files are left as they are, the marker stays, no index is
 * written, the rank says why, in its warning and in its marker, and simrun analyse refuses the folder naming the rank
 * and quoting why. With `late` at p = 2, rank 1 sleeps where rank 0 returns: rank 0 says after its 2 s wait that the
 * trace stops short, mpirun kills rank 1, and simrun analyse quotes why from rank 1's marker (before: not a word from
 * the tracer, and the refusal of a killed run). */
static void test_trc_mpi_exit_without_finalize_whole(void)
{
  char dir[1024];
  char trace[1100];
  built_in(dir, trace, build, NO_FINAL, "no_finalize");
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./no_finalize", "4", trace, "return", &run), 0);
  CU_ASSERT_EQUAL(occurrences(run.err, "simrun-trace: warning: the program exited without calling MPI_Finalize"), 1);
  CU_ASSERT_EQUAL(occurrences(run.err, "simrun-trace: wrote the traces of 4 rank(s)"), 1);
  run_free(&run);
  CU_ASSERT_EQUAL(count_entries(trace), 9); /* index.txt, rank-R and timeline-R of the 4 ranks: no marker */
  for (int rank = 0; rank < 4; rank++)
    CU_ASSERT_EQUAL(ended_at_exit(trace, rank, 0), 1);
  const char *analyse[] = {"analyse", "trace", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_STRING_EQUAL(run.err, "");
  tu_unwrap(run.out);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "400 messages paired"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "4 of its 4 ranks ended at their exit without calling MPI_Finalize"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "exit status that says the program failed"));
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./no_finalize", "2", trace, "status", &run), 0);
  run_free(&run);
  CU_ASSERT_EQUAL(ended_at_exit(trace, 0, 0), 1);
  CU_ASSERT_EQUAL(ended_at_exit(trace, 1, 3), 1);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  tu_unwrap(run.out);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "2 of its 2 ranks ended at their exit without calling MPI_Finalize"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "1 of them with an exit status that says the program failed (3)"));
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./no_finalize", "1", trace, "return", &run), 0);
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  tu_unwrap(run.out);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; its rank ended at its exit without calling MPI_Finalize"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "its trace ends there"));
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./no_finalize", "2", trace, "fork", &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NULL(strstr(run.err, "warning"));
  run_free(&run);
  CU_ASSERT_EQUAL(count_entries(trace), 5); /* index.txt, rank-0, rank-1, timeline-0, timeline-1 */
  CU_ASSERT_EQUAL(ended_at_exit(trace, 0, 0), 0);
  CU_ASSERT_EQUAL(ended_at_exit(trace, 1, 0), 0);
  analysed_without_a_word(dir);
  static const struct {
    const char *how, *said;
  } interrupted[] = {{"alarm", "from its handler of SIGALRM (the run was interrupted)"},
                     {"alarm-recv", "inside an MPI call"}};
  for (int k = 0; k < 2; k++) {
    CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./no_finalize", "1", trace, interrupted[k].how, &run), 0);
    CU_ASSERT_PTR_NULL(strstr(run.err, "the program exited without calling MPI_Finalize"));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "simrun-trace: warning: rank 0 exited without calling MPI_Finalize, "));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, interrupted[k].said));
    run_free(&run);
    CU_ASSERT_EQUAL(count_entries(trace), 3); /* rank-0, timeline-0, incomplete-0 */
    char err[4096];
    CU_ASSERT_EQUAL(analyse_partial(dir, 0, err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "trace/incomplete-0: rank 0 did not finish: it exited without calling "
                                       "MPI_Finalize, "));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, interrupted[k].said));
  }
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./no_finalize", "2", trace, "late", &run), 0);
  CU_ASSERT_EQUAL(occurrences(run.err, "simrun-trace: warning: rank 0 exited without calling MPI_Finalize, and other "
                                       "ranks had not ended their files 2 s later"),
                  1);
  run_free(&run);
  CU_ASSERT_EQUAL(count_entries(trace), 5); /* rank-R and timeline-R of the 2 ranks, incomplete-1: no index */
  char err[4096];
  CU_ASSERT_EQUAL(analyse_partial(dir, 0, err), 2);
  CU_ASSERT_STRING_EQUAL(err, "simrun: error: trace/incomplete-1: rank 1 did not finish: it had not ended its files 2 "
                              "s after rank 0 exited without calling MPI_Finalize: mpirun ends such a job, killing the "
                              "ranks still running; read what the run wrote with simrun analyse --partial, or run it "
                              "again\n");
  remove_folder(trace);
  remove_folder(dir);
}

/* Runs `program` `arg` at p = `np` in `dir` untraced, under libsimrun-span.so, into `run`. */
static int span_run(const char *dir, const char *program, const char *np, const char *arg, cli_run_t *run)
{
  CU_ASSERT_FATAL(SIMRUN_MPIRUN[0] != '\0' && SIMRUN_SPAN_LIB[0] != '\0');
  char preload[1200];
  snprintf(preload, sizeof preload, "LD_PRELOAD=%s", SIMRUN_SPAN_LIB);
  const char *args[] = {"--allow-run-as-root", "--oversubscribe", "-np", np, "-x", preload, program, arg, NULL};
  return run_program(dir, SIMRUN_MPIRUN, args, run);
}

/* libsimrun-span.so, the untraced time --untraced takes: the ring multiply at p = 2 under it prints one line, the
 * longest rank's span from the end of MPI_Init to MPI_Finalize, which holds the program's own time (MPI_Wtime from
 * after its allocations to its result, printed) and passes it by at most its allocations and frees, 20 ms and 10%
 * (by hand: some 1 ms); and the option it gives is one simrun analyse takes for the traced run of the same program.
 * A program that returns from main without MPI_Finalize (no_finalize.c) gets rank 0's span to its exit, said so; a
 * `use mpi_f08` program (fortran_f08.f90) its line too (before, none: its MPI_Init has names of its own). */
static void test_trc_mpi_span_library(void)
{
  char dir[1024];
  built_in_new_folder(dir, EXAMPLE, "ring_matmul");
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(span_run(dir, "./ring_matmul", "2", "400", &run), 0);
  TU_ASSERT_RAN(&run);
  const char *own_line = strstr(run.out, "ring_matmul: n = 400, p = 2, ");
  const char *said = strstr(run.err, "simrun-span: ");
  CU_ASSERT_PTR_NOT_NULL_FATAL(own_line);
  CU_ASSERT_PTR_NOT_NULL_FATAL(said);
  CU_ASSERT_PTR_NULL(strstr(said + 1, "simrun-span: "));
  double own = strtod(own_line + strlen("ring_matmul: n = 400, p = 2, "), NULL), span = 0;
  char option[64] = "";
  CU_ASSERT_EQUAL(sscanf(said,
                         "simrun-span: %lf s from the end of MPI_Init to MPI_Finalize (the longest rank's) at p "
                         "= 2, %*d involuntary context switch(es): give simrun analyse --untraced %63s",
                         &span, option),
                  2);
  CU_ASSERT(own > 0 && span >= own && span <= own + 0.02 + 0.1 * own);
  run_free(&run);
  char trace[1100];
  snprintf(trace, sizeof trace, "%s/trace", dir);
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./ring_matmul", "2", trace, "400", &run), 0);
  run_free(&run);
  const char *analyse[] = {"analyse",    "trace", "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                           "--untraced", option,  NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "(untraced)"));
  run_free(&run);
  build(dir, NO_FINAL, "no_finalize");
  CU_ASSERT_EQUAL_FATAL(span_run(dir, "./no_finalize", "2", "return", &run), 0);
  CU_ASSERT_EQUAL(occurrences(run.err, "simrun-span: "), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, " s from the end of MPI_Init to rank 0's exit without MPI_Finalize (its "
                                         "own) at p = 2"));
  run_free(&run);
  build_fortran(dir, F08, "fortran_f08"); /* `use mpi_f08`: its own names of MPI_Init and MPI_Finalize */
  CU_ASSERT_EQUAL_FATAL(span_run(dir, "./fortran_f08", "3", NULL, &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "f08 ok"));
  CU_ASSERT_EQUAL(occurrences(run.err, "simrun-span: "), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, " s from the end of MPI_Init to MPI_Finalize (the longest rank's) at p = 3"));
  run_free(&run);
  remove_folder(trace);
  remove_folder(dir);
}

/* MPI_THREAD_MULTIPLE: a run whose MPI calls all come from the thread that initialised MPI is traced whole (an index,
 * and simrun analyse reads it without a word); a run whose messages go from another thread still runs to its end, and
 * each rank says how many calls it could not record (one each: MPI_Sendrecv), with no index written, and simrun
 * analyse names the folder's cause in one line (before, the other thread's envelope went into the main thread's next
 * record, and the reader refused that line).
 * MPI_THREAD_SERIALIZED as StarPU-MPI uses it (MPI initialised by a progress thread, MPI_Comm_size asked by the main
 * thread meanwhile): the progress thread traced whole, the queries neither recorded nor counted (before, they went
 * into the timeline from both threads at once: Debian's StarPU mpi_cholesky got negative gaps, "poll 0" and bytes of
 * one line inside another), and each rank says that its main thread's CPU time is not in the trace. */
static void test_trc_mpi_thread_multiple(void)
{
  char dir[1024];
  char trace[1100];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(trace, sizeof trace, "%s/trace", dir);
  build(dir, THREADS, "threads");
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./threads", "2", trace, "main", &run), 0);
  TU_ASSERT_RAN(&run); /* failed once in a fresh clone's suite, not again in 18 runs alone or beside busy loops */
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "threads ok"));
  CU_ASSERT_PTR_NULL(strstr(run.err, "warning"));
  run_free(&run);
  CU_ASSERT_EQUAL(count_entries(trace), 5); /* index.txt, rank-0, rank-1, timeline-0, timeline-1 */
  analysed_without_a_word(dir);
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./threads", "2", trace, "other", &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "threads ok"));
  const char *said = "1 MPI call(s) from threads other than the one that initialised MPI";
  char *first = strstr(run.err, said);
  CU_ASSERT_PTR_NOT_NULL(first);
  CU_ASSERT(first && strstr(first + 1, said) != NULL); /* each rank */
  run_free(&run);
  CU_ASSERT_EQUAL(count_entries(trace), 4); /* no index */
  const char *analyse[] = {"analyse", "trace", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "/timeline-")); /* the first file read to its end */
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, ": the program made 1 MPI call(s) from threads other than the one that "
                                         "initialised MPI (as mpi4py.futures and PT-Scotch do)"));
  CU_ASSERT_PTR_NULL(strchr(run.err, '\n') ? strchr(strchr(run.err, '\n') + 1, '\n') : NULL); /* one line */
  run_free(&run);
  /* and so with --replay-on, whose missing index was told first ("trace the run again", which cannot help) */
  const char *replay[] = {"analyse", "trace", "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, replay, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, ": the program made 1 MPI call(s) from threads other than the one that "));
  CU_ASSERT_PTR_NULL(strstr(run.err, "no TI trace index"));
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./threads", "2", trace, "serialized", &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "threads ok"));
  CU_ASSERT_PTR_NULL(strstr(run.err, "from threads other than"));
  const char *cpu = "its other threads used"; /* the main thread's 0.4 s of CPU, which the TI trace leaves out */
  first = strstr(run.err, cpu);
  CU_ASSERT_PTR_NOT_NULL(first);
  CU_ASSERT(first && strstr(first + 1, cpu) != NULL); /* each rank */
  run_free(&run);
  CU_ASSERT_EQUAL(count_entries(trace), 5);
  for (int rank = 0; rank < 2; rank++) { /* the main thread's queries are not the progress thread's timeline */
    char name[64];
    snprintf(name, sizeof name, "trace/timeline-%d.txt", rank);
    char *text = timeline_text(dir, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NULL(strstr(text, "MPI_Comm_size"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "MPI_Sendrecv"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n# threads-cpu ")); /* for simrun analyse, which says it of the run */
    free(text);
  }
  analysed_without_a_word(dir);
  const char *analyse_serialized[] = {"analyse", "trace", "--width", "1000", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse_serialized, &run), 0);
  tu_unwrap(run.out); /* the run's line passes 1000 columns when its clock condition and held time are said */
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "the ranks' other threads used "));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "which the TI trace's compute amounts leave out: a replay misses their work"));
  run_free(&run);
  remove_folder(trace);
  remove_folder(dir);
}

/* A full disk: rank 0's timeline is /dev/full, where every write fails (ENOSPC). The program runs to its end and says
 * its product is right; the library says so in one line and writes no index. */
static void test_trc_mpi_full_disk_keeps_program_running(void)
{
  char dir[1024];
  char trace[1100];
  char path[1200];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(trace, sizeof trace, "%s/trace", dir);
  CU_ASSERT_EQUAL_FATAL(mkdir(trace, 0777), 0);
  snprintf(path, sizeof path, "%s/timeline-0.txt", trace);
  CU_ASSERT_EQUAL_FATAL(symlink("/dev/full", path), 0);
  build(dir, EXAMPLE, "ring_matmul");
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./ring_matmul", "2", trace, "20", &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "product ok"));
  if (run.status != 0 || !strstr(run.out, "product ok")) /* once in a fresh clone's sanitised suite, not again */
    fprintf(stderr, "ring_matmul beside a full disk: exit status %d, its output:\n%s\nits errors:\n%s\n", run.status,
            run.out, run.err);
  const char *said = "simrun-trace: warning: rank 0 cannot write ";
  char *first = strstr(run.err, said);
  CU_ASSERT_PTR_NOT_NULL(first);
  CU_ASSERT(first == NULL || strstr(first + 1, "simrun-trace: warning") == NULL); /* the only warning */
  CU_ASSERT(first == NULL || strstr(run.err, "simrun-trace: warning") == first);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "No space left on device"));
  CU_ASSERT_PTR_NULL(strstr(run.err, "simrun-trace: wrote"));
  run_free(&run);
  char *index = read_output(trace, "index.txt");
  CU_ASSERT_PTR_NULL(index);
  free(index);
  remove_folder(trace);
  remove_folder(dir);
}

/* The lines of `err` that begin with `prefix`. */
static int lines_starting(const char *err, const char *prefix)
{
  int n = 0;
  for (const char *at = err; at; at = strchr(at, '\n'), at = at ? at + 1 : NULL)
    n += strncmp(at, prefix, strlen(prefix)) == 0;
  return n;
}

/* Trace folders the library cannot make: the program runs to its end all the same, with one warning, rank 0's: from
 * the folder's gate (trc_folder.c) for a folder whose parent does not exist, and for one whose files' paths would pass
 * PATH_MAX (a relative name of 4,080 characters: before, it was made empty and three warnings followed); from its
 * making for one in /proc, which no one can make (before: a line from each rank). */
static void test_trc_mpi_unwritable_folder_keeps_program_running(void)
{
  char dir[1024];
  built_in_new_folder(dir, EXAMPLE, "ring_matmul");
  static char longest[4081];
  memset(longest, 'x', sizeof longest - 1);
  const char *const folders[] = {"/proc/simrun-no-such/trace", longest, "/proc/simrun-trace"};
  static const char missing[] = "simrun-trace: warning: SIMRUN_TRACE_DIR=/proc/simrun-no-such/trace: its folder "
                                "/proc/simrun-no-such does not exist";
  const char *const said[] = {missing, "characters): its files' paths would pass PATH_MAX", "/proc/simrun-trace"};
  for (int i = 0; i < 3; i++) {
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./ring_matmul", "2", folders[i], "20", &run), 0);
    TU_ASSERT_RAN(&run);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "product ok"));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, said[i]));
    CU_ASSERT_EQUAL(lines_starting(run.err, "simrun-trace: "), 1);
    if (lines_starting(run.err, "simrun-trace: ") != 1)
      fprintf(stderr, "SIMRUN_TRACE_DIR %.40s: %s\n", folders[i], run.err);
    run_free(&run);
  }
  char made[5200];
  snprintf(made, sizeof made, "%s/%s", dir, longest);
  CU_ASSERT_NOT_EQUAL(access(made, F_OK), 0); /* not made */
  remove_folder(dir);
}

/* The tracer's own time is removed from the run's times: at p = 1, where no rank waits, 100,000 cheap calls leave
 * between their intervals (T_par less every category: what is left is a gap) under 1 ns, where the files' gaps are the
 * tracer's own time, which its `# tracer-cost` line gives too (the two within 1% and 1 us: the gaps are rounded to
 * the nanosecond); nothing is put back (no partner). simrun analyse says how much was removed, and takes T_seq from
 * this run without subtracting it again. Before, the gaps, some 0.1-1 us per call, stayed in the run. About 1 s. */
static void test_trc_mpi_own_time_removed(void)
{
  char dir[1024];
  char trace[1100];
  built_and_traced(dir, trace, build, CHEAP, "cheap_calls", "1", "cheap calls done");
  met_timeline_info_t info;
  met_trace_t *run = read_run(trace, &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(run);
  double gaps = met_trace_end(run);
  for (int c = 0; c < MET_CAT_COUNT; c++)
    gaps -= met_trace_category_time(run, 0, (met_category_t)c);
  CU_ASSERT(info.compensated);
  CU_ASSERT(info.own_gaps > 1e-3); /* some 0.1-1 us per call */
  CU_ASSERT(fabs(info.own_gaps - info.tracer_cost) < 0.01 * info.tracer_cost + 1e-6);
  CU_ASSERT_EQUAL(info.own_put_back, 0);
  CU_ASSERT_EQUAL(info.waits_removed, 0);
  CU_ASSERT(fabs(gaps) < 1e-9);
  if (!(fabs(gaps) < 1e-9))
    fprintf(stderr, "gaps %.12f s, tracer cost %.9f s\n", gaps, info.tracer_cost);
  met_trace_free(run);
  const char *analyse[] = {"analyse", "trace", "--width", "1000", NULL};
  cli_run_t said;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &said), 0);
  TU_ASSERT_RAN(&said);
  tu_unwrap(said.out);
  CU_ASSERT_PTR_NOT_NULL(strstr(said.out,
                                "s over the ranks (the gaps between intervals), removed from the run's times, "
                                "then 0.000000 s put back"));
  CU_ASSERT_PTR_NOT_NULL(strstr(said.out, "its T_par, the tracer's own time (")); /* T_seq */
  run_free(&said);
  remove_folder(trace);
  remove_folder(dir);
}

/* In a timeline of format 2 (docs/tracer.md: "d ID category phase peer bytes CALL ..." defines call ID, "ID GAP
 * COMPUTE DURATION" records it, in ns), the gap and computation before the record that follows the first record of
 * `call`, into ns[0 .. 1]; whether there was one. */
static int after_first(const char *timeline, const char *call, long long ns[2])
{
  char *text = strdup(timeline);
  long long call_id = -1, id, gap, compute;
  int found = 0, next = 0;
  char name[64];
  for (char *line = strtok(text, "\n"); line && !next; line = strtok(NULL, "\n")) {
    if (call_id < 0 && sscanf(line, "d %lld %*s %*s %*s %*s %63s", &id, name) == 2 && strcmp(name, call) == 0)
      call_id = id;
    else if (line[0] != 'd' && sscanf(line, "%lld %lld %lld", &id, &gap, &compute) == 3) {
      next = found;
      found = call_id >= 0 && id == call_id;
    }
  }
  free(text);
  ns[0] = gap;
  ns[1] = compute;
  return next;
}

/* tests/data/tracer/many_completions.c on 1 rank: its MPI_Waitall completes 1,000 requests, written as a wait each and
 * forgotten after the call's exit, and an MPI_Barrier follows at once. That work is the recorder's: the gap before the
 * barrier's record holds it (at least 20 ns a request: 0.1-0.25 ms here, 1.5 us when the bug was there), and the
 * computation recorded there, the program's few instructions between the two calls, is under a twentieth of it (1 us
 * here), less what the rank waited for a processor in the run (its "# disturbance" WAITED, 6-353 us in 4 quiet runs;
 * nothing where Linux does not give it): such a wait inside that work is the computation's (docs/tracer.md, "The
 * library's own time"; 10-20 us of a 0.1-ms gap, twice in three suites run with ctest -j2).
 * Before, that work passed for computation (0.24 ms, the gap 1.5 us), as an MPI_Irecv's irecv, formatted after the
 * call, did (docs/tracer.md).
 * Its 200,000 unsuccessful MPI_Testsome after are polls: the tracer's time (`# tracer-cost`) stays under the run's
 * span; when that work's accounting followed a poll too, it counted each poll's time since its run's last clock
 * reading, 8 times the span. About 1 s. */
static void test_trc_mpi_work_after_a_call_is_the_recorders(void)
{
  char dir[1024], trace[1100];
  built_and_traced(dir, trace, build, COMPLETED, "many_completions", "1", "completions done");
  char *timeline = read_output(trace, "timeline-0.txt"); /* format 2, as written */
  CU_ASSERT_PTR_NOT_NULL_FATAL(timeline);
  long long ns[2] = {0, 0};
  CU_ASSERT_FATAL(after_first(timeline, "MPI_Waitall", ns));
  const char *disturbance = strstr(timeline, "\n# disturbance ");
  double waited = NAN;
  CU_ASSERT_FATAL(disturbance && sscanf(disturbance, "\n# disturbance %*f %*f %*f %*f %*f %lf", &waited) == 1);
  double held_ns = isfinite(waited) ? 1e9 * waited : 0;
  CU_ASSERT(ns[0] >= 20000);
  CU_ASSERT((ns[1] - held_ns) * 20 < ns[0]);
  if (!(ns[0] >= 20000 && (ns[1] - held_ns) * 20 < ns[0]))
    fprintf(stderr, "before the barrier: gap %lld ns, computation %lld ns\n", ns[0], ns[1]);
  const char *cost = strstr(timeline, "\n# tracer-cost "), *end = strstr(timeline, "\n# end ");
  CU_ASSERT_FATAL(cost && end);
  CU_ASSERT(strtod(cost + 15, NULL) < strtod(end + 7, NULL)); /* the tracer's time is inside the run's */
  free(timeline);
  analyses(dir, trace);
  remove_folder(trace);
  remove_folder(dir);
}

/* The counts of the faults actions that follow the receives (actions "recv ...") of rank 1 in `trace`, in order, 0
 * for a receive that none follows, into faults[0 .. 1]; returns the number of receives. */
static int faults_after_receives(const char *trace, long faults[2])
{
  char *text = read_output(trace, "rank-1.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  int receives = 0;
  char word[32];
  long count;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (sscanf(line, "%*d %31s %ld", word, &count) < 1)
      continue;
    if (strcmp(word, "recv") == 0 && receives < 2)
      faults[receives++] = 0;
    else if (strcmp(word, "faults") == 0 && receives > 0)
      faults[receives - 1] = count;
  }
  free(text);
  return receives;
}

/* tests/data/tracer/fresh_pages.c on 2 ranks: rank 1 receives 1 MiB into pages it never touched (huge pages refused),
 * then again into the same pages. Its first receive must be followed by a faults action of at least a fault per page
 * (by hand, 2^20 B / the page size: 256 of 4 KiB) and at most 16 more (the library's own first uses: 2 here), its
 * second by none or under 16 (the pages are the rank's now); in SMPI's format by none, and smpirun replays the trace.
 * About 1 s. */
static void test_trc_mpi_receive_into_fresh_pages_faults(void)
{
  long pages = (1L << 20) / sysconf(_SC_PAGESIZE);
  static const char *const formats[] = {"simrun", "smpi"};
  for (int f = 0; f < 2; f++) {
    char dir[1024];
    char trace[1100];
    traced_pair_quietly(dir, trace, FRESH, "fresh_pages", formats[f], "fresh pages ok");
    long faults[2] = {-1, -1};
    CU_ASSERT_EQUAL(faults_after_receives(trace, faults), 2);
    if (f == 0) {
      CU_ASSERT(faults[0] >= pages && faults[0] <= pages + 16);
      CU_ASSERT(faults[1] < 16);
    } else {
      CU_ASSERT(faults[0] == 0 && faults[1] == 0);
      smpi_replays(dir, "trace", "2");
    }
    if (f == 0 && !(faults[0] >= pages && faults[0] <= pages + 16))
      fprintf(stderr, "faults after the receives: %ld and %ld for %ld pages\n", faults[0], faults[1], pages);
    remove_folder(trace);
    remove_folder(dir);
  }
}

/* The figure that follows `label` in `out` (NULL, or no such label: NAN). */
static double figure_after(const char *out, const char *label)
{
  const char *said = out ? strstr(out, label) : NULL;
  return said ? strtod(said + strlen(label), NULL) : NAN;
}

/* What rank `rank`'s TI file in `trace` holds (a loop's body times its count): its compute and poll processor
 * seconds, over the flop rate its timeline gives, its polls, and the computation nearest a given length in seconds. */
typedef struct ti_sums {
  double seconds;
  double polls;
  double poll_seconds;
  double nearest;
} ti_sums_t;

/* Reads those sums into *sums, the computation nearest `near` seconds; -1 when a file cannot be read. */
static int ti_sums(const char *trace, int rank, double near, ti_sums_t *sums)
{
  char name[64];
  snprintf(name, sizeof name, "timeline-%d.txt", rank);
  char *timeline = read_output(trace, name);
  double rate = figure_after(timeline, "# flop-rate ");
  free(timeline);
  snprintf(name, sizeof name, "rank-%d.txt", rank);
  char *text = read_output(trace, name);
  if (!text)
    return -1;
  double flops = 0, times = 1, count, amount;
  *sums = (ti_sums_t){.nearest = INFINITY};
  long body = 0;
  char word[32];
  int who;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    int fields = sscanf(line, "%d %31s %lf %lf", &who, word, &count, &amount);
    if (body == 0)
      times = 1;
    else
      body--;
    if (fields >= 4 && strcmp(word, "loop") == 0) {
      times = count;
      body = (long)amount;
    } else if (fields >= 3 && strcmp(word, "compute") == 0) {
      flops += times * count;
      if (fabs(count / rate - near) < fabs(sums->nearest - near))
        sums->nearest = count / rate;
    } else if (fields >= 4 && strcmp(word, "poll") == 0) {
      flops += times * amount;
      sums->polls += times * count;
      sums->poll_seconds += times * amount;
    }
  }
  free(text);
  sums->seconds = flops / rate;
  sums->poll_seconds /= rate;
  return 0;
}

/* The processor seconds of rank `rank`'s TI file in `trace` (ti_sums); NAN when a file cannot be read. */
static double processor_seconds(const char *trace, int rank)
{
  ti_sums_t sums;
  return ti_sums(trace, rank, 0, &sums) == 0 ? sums.seconds : NAN;
}

/* Whether the computation nearest `worked` seconds in rank 0's TI trace in `trace` is within 10% of it and 100 us. */
static int work_kept(const char *trace, double worked)
{
  ti_sums_t sums = {0};
  int kept = ti_sums(trace, 0, worked, &sums) == 0 && fabs(sums.nearest - worked) <= 0.1 * worked + 100e-6;
  if (!kept)
    fprintf(stderr, "poll_rhythm: the computation nearest its work %.6f s of %.6f\n", sums.nearest, worked);
  return kept;
}

/* tests/data/tracer/poll_rhythm.c on 2 ranks: rank 0's 200,000 tests back to back, where the recorder reads the clock
 * at one poll in up to 16 (docs/tracer.md, "Runs of polls"), then 2 ms of work, then 20,000 tests each after 2 us of
 * work, then a run of tests that sleeps 0.6 ms and 4 ms of work. Its TI trace, unfolded (a folded loop of runs of polls
 * keeps their mean count and work), counts every unsuccessful test in its poll actions, exactly as the program counted
 * them, and keeps the 2 ms and the 4 ms apart as computations of their own (within 10% of their CPU time and 100 us),
 * not in a run of polls. The 4 ms: the recorder read the CPU clock after the sleep, where a reading that a run of polls
 * made was not the one later computations were timed from, whose bound then lost the sleep (3.34 ms, 4 runs of 5; in
 * a loaded suite, the 2 ms after a run of polls that yielded the processor came out 16-21% short, 5 runs of 100). */
static void test_trc_mpi_polls_counted_at_every_rhythm(void)
{
  char dir[1024];
  char trace[1100];
  cli_run_t run;
  built_in(dir, trace, build, POLLRHYTHM, "poll_rhythm");
  CU_ASSERT_EQUAL_FATAL(traced_run_env(dir, "./poll_rhythm", "2", trace, NULL, "simrun", "SIMRUN_TRACE_FOLD=0", &run),
                        0);
  TU_ASSERT_RAN(&run);
  double polls = figure_after(run.out, "polls "), worked = figure_after(run.out, "\nwork CPU ");
  double slept = figure_after(run.out, "slept work CPU ");
  ti_sums_t sums = {0};
  CU_ASSERT_EQUAL(ti_sums(trace, 0, worked, &sums), 0);
  CU_ASSERT(polls >= 200000 && sums.polls == polls);
  if (!(sums.polls == polls))
    fprintf(stderr, "poll_rhythm: %.0f polls in the TI trace of %.0f made\n", sums.polls, polls);
  CU_ASSERT(worked >= 0.002 && work_kept(trace, worked));
  CU_ASSERT(slept >= 0.004 && work_kept(trace, slept));
  run_free(&run);
  remove_folder(trace);
  remove_folder(dir);
}

/* tests/data/tracer/poll_work.c on 2 ranks: rank 0 tests its receive after each 2 us of work for the 50 ms rank 1
 * computes before sending. Its TI trace holds that processor time (the runs of polls' flops and the computations
 * between runs, which the scheduler's interrupts make), which its own CPU clock measured around the loop: no more
 * (the polls' clock readings are the recorder's, taken out), and at least half (what the recorder's work in each poll
 * can be at most, under the sanitisers' build). Without the runs' flops, the trace held a few ms of it. So does its
 * trace in SMPI's format, which has no poll action, as computation (before, the runs and their work were dropped
 * without a word: a few ms). */
static void test_trc_mpi_polls_with_work_keep_their_processor_time(void)
{
  static const char *const formats[] = {"simrun", "smpi"};
  for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
    char dir[1024];
    char trace[1100];
    cli_run_t run;
    traced_pair(dir, trace, POLLWORK, "poll_work", formats[k], &run);
    double polled = figure_after(run.out, "polled CPU ");
    double traced = processor_seconds(trace, 0);
    CU_ASSERT(polled > 0.005); /* at least the 0.01 s after which it tells rank 1 to send */
    CU_ASSERT(traced >= 0.5 * polled && traced <= 1.05 * polled + 0.002);
    if (!(traced >= 0.5 * polled && traced <= 1.05 * polled + 0.002))
      fprintf(stderr, "rank 0's processor time in its TI trace (%s) %.6f s, measured around its loop %.6f s\n",
              formats[k], traced, polled);
    char *index = read_output(trace, "index.txt");
    CU_ASSERT_PTR_NOT_NULL(index);
    CU_ASSERT_PTR_NULL(strstr(run.err, "warning"));
    free(index);
    run_free(&run);
    remove_folder(trace);
    remove_folder(dir);
  }
}

/* Rank 0's computation in `trace` before its first call: the wall seconds of its first computation line when the
 * first line of its timeline is one, else 0. */
static double startup(const char *trace)
{
  char *text = timeline_text(trace, "timeline-0.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  double seconds = 0;
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    double start, end;
    char category[16];
    if (line[0] == '#' || sscanf(line, "%lf %lf %15s", &start, &end, category) != 3)
      continue;
    seconds = strcmp(category, "compute") == 0 ? end - start : 0;
    break;
  }
  free(text);
  return seconds;
}

/* tests/data/tracer/poll_work.c on 2 ranks, rank 0's tests each after 1-2 us of work, then 15 tests back to back
 * after each 29 us (17,500 multiply-adds), then back to back: the timeline books the work between the tests as rank 0's
 * computation (docs/tracer.md, "Runs of polls": the time between two polls read at one in 64 or fewer, drawn, less the
 * recorder's part of it), at least 70% of the CPU time the program measured around its loop (the recorder's work in a
 * poll some 50-100 ns of each 1-2 us; before, each run of polls was one idle interval, the work between its tests in
 * it: 0.5 ms of the 50 were computation), and of the loop of bursts at least three quarters of its work's CPU time,
 * timed apart after MPI_Finalize, its "# polls-work" at most 1.15 times it and 2 ms (by hand 0.91-1.05 in 5 runs,
 * 0.95-0.96 in 4 beside 4 busy loops; before, the times read were kept only under 10 us, and runs of polls held each
 * 29 us, read over 16 tests: 0.3 ms of 47), the same of 17 tests after each 66 us, whose runs' estimates a time in 17
 * holds, their caps' cuts carried (by hand 0.81-0.96 quiet in 6 runs, 0.65 once in a fresh clone's suite, whose load
 * slowed the loop to 116 ms of CPU; cut alone, 0.74-0.92 quiet in 9: its lower bound, 0.4, catches a carry lost whole,
 * its upper one, as the burst loop's, a carry that books work beyond the loop's), and of tests back to back its "#
 * polls-work" at most a fifth (the loop's own instructions, a few ns of each test's 40 or so traced, and the error of
 * the recorder's part: by hand 5-6% quiet, 2-10% beside 4 busy loops, none since a mean under 10 ns a poll is taken for
 * that error). The tests back to back once more beside two busy loops a core: rank 0's computation after its first call
 * (startup: the wall time from MPI_Init to its first call, 20.7 and 28.3 ms where the loaded machine held it off its
 * core, in a run by hand beside 10 busy loops and once in a fresh clone's suite, failed the test) at most a quarter of
 * its loop's CPU time (by hand beside 4 busy loops on 2 cores, 3-14% in 10 runs, its "# polls-work" nearly all of it;
 * before, 16 tests that Open MPI's yields slowed to 23-79 us of CPU cut the run every 10-20 ms, and the processor's
 * waits in the recorder's system calls at the cuts were computation: 20-54% in 9 runs, and 18 ms of 84.5 in a suite).
 */
static void test_trc_mpi_polls_work_is_computation(void)
{
  static const struct {
    const char *piece;
    int loaded;
  } cases[] = {{"500", 0}, {"17500x15", 0}, {"40000x17", 0}, {"0", 0}, {"0", 1}};
  char dir[1024];
  char trace[1100];
  built_in_new_folder(dir, POLLWORK, "poll_work");
  snprintf(trace, sizeof trace, "%s/trace", dir);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    pid_t hogs[64];
    int nhogs = cases[k].loaded ? (int)(cores > 0 && cores < 32 ? 2 * cores : 64) : 0;
    for (int h = 0; h < nhogs; h++)
      hogs[h] = tu_start_hog();
    cli_run_t run;
    int ran = traced_run(dir, "./poll_work", "2", trace, cases[k].piece, &run);
    for (int h = 0; h < nhogs; h++)
      CU_ASSERT_EQUAL(tu_stop_hog(hogs[h]), 0);
    CU_ASSERT_EQUAL_FATAL(ran, 0);
    TU_ASSERT_RAN(&run);
    double polled = figure_after(run.out, "polled CPU "), worked = figure_after(run.out, "work CPU ");
    met_timeline_info_t info;
    met_trace_t *measured = read_run(trace, &info);
    double computed = measured ? met_trace_category_time(measured, 0, MET_CAT_COMPUTE) : NAN;
    char *timeline = read_output(trace, "timeline-0.txt");
    const char *line = timeline ? strstr(timeline, "\n# polls-work ") : NULL;
    double work = NAN;
    CU_ASSERT(line && sscanf(line, "\n# polls-work %lf", &work) == 1);
    free(timeline);
    int right = k == 0   ? computed >= 0.7 * polled && work >= 0.5 * polled && work <= computed
                : k == 1 ? computed >= 0.75 * worked && work <= 1.15 * worked + 0.002 && worked >= 0.5 * polled
                : k == 2 ? computed >= 0.4 * worked && work <= 1.15 * worked + 0.002 && worked >= 0.5 * polled
                : k == 3 ? work <= 0.2 * polled
                         : computed - startup(trace) <= 0.25 * polled;
    CU_ASSERT(polled > 0.005 && right);
    if (!right)
      fprintf(stderr,
              "poll_work %s%s: rank 0 computed %.6f s, %.6f s of it between its tests, of a loop of %.6f s of CPU "
              "(its work %.6f s)\n",
              cases[k].piece, cases[k].loaded ? " loaded" : "", computed, work, polled, worked);
    met_trace_free(measured);
    run_free(&run);
    remove_folder(trace);
  }
  remove_folder(dir);
}

/* Rank 0's "# polls-work" in `trace` (NAN when absent). */
static double polls_work(const char *trace)
{
  char *timeline = read_output(trace, "timeline-0.txt");
  const char *line = timeline ? strstr(timeline, "\n# polls-work ") : NULL;
  double work = NAN;
  CU_ASSERT(line && sscanf(line, "\n# polls-work %lf", &work) == 1);
  free(timeline);
  return work;
}

/* tests/data/tracer/poll_many.f90 and poll_many.c on 2 ranks: rank 0 waits by MPI_Testsome over 64 requests from
 * Fortran, then over 4096 from C, no work between its tests: its "# polls-work" at most a fifth, then a twentieth, of
 * its loop's CPU time (by hand 0.0 ms in 3 runs each). Before, what the wrappers do before the test's entry and after
 * its exit was the program's work between its tests: the Fortran binding's conversions of the 64 handles and back,
 * some 0.4 us a test, 36-77 ms booked of a 50-100-ms wait (24 ms with one request); the C wrapper's copy of the 4096
 * handles, some 1 us a test, 14.8 ms of 100. A run whose loop got under 20 ms of CPU (rank 0 starved beside a loaded
 * suite while rank 1 computed its 50 ms: once under ctest -j2) is run again, up to three times. */
static void test_trc_mpi_polls_of_many_requests_no_work(void)
{
  static const struct {
    void (*builder)(const char *, const char *, const char *);
    const char *source;
    const char *requests;
    double bound;
  } cases[] = {{build_fortran, POLLMANYF, "64", 0.2}, {build, POLLMANY, "4096", 0.05}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char dir[1024];
    char trace[1100];
    built_in(dir, trace, cases[k].builder, cases[k].source, "poll_many");
    double polled = 0, work = NAN;
    for (int attempt = 0; attempt < 3 && !(polled > 0.02); attempt++) { /* a loop starved of CPU tells nothing */
      cli_run_t run;
      CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./poll_many", "2", trace, cases[k].requests, &run), 0);
      TU_ASSERT_RAN(&run);
      polled = figure_after(run.out, "polled CPU ");
      work = polls_work(trace);
      run_free(&run);
    }
    CU_ASSERT(polled > 0.02 && work <= cases[k].bound * polled);
    if (!(polled > 0.02 && work <= cases[k].bound * polled))
      fprintf(stderr, "poll_many %s: %.6f s booked as work between the tests of a %.6f-s loop\n", cases[k].requests,
              work, polled);
    remove_folder(trace);
    remove_folder(dir);
  }
}

static int compare_doubles(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median seconds of computation right before rank 0's MPI_Waitall lines in `trace` (of the first 64), their count
 * in *waits. The median, not the mean: one preemption of the rank between its last send and its wait (a 4-ms tick
 * of a busy machine's scheduler) is that gap's wall-clock time, and would alone make the mean of 50 waits 80 us. */
static double computed_before_waits(const char *trace, int *waits)
{
  char *text = timeline_text(trace, "timeline-0.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  *waits = 0;
  double before[64], computed = 0, computed_end = -1; /* the last computation line: its seconds and end */
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    double start, end;
    char category[16], call[64];
    if (sscanf(line, "%lf %lf %15s %*s %*s %*s %63s", &start, &end, category, call) != 4)
      continue;
    if (strcmp(category, "compute") == 0) {
      computed = end - start;
      computed_end = end;
    } else if (strcmp(call, "MPI_Waitall") == 0) {
      if (*waits < 64)
        before[*waits] = fabs(computed_end - start) < 1e-9 ? computed : 0;
      (*waits)++;
    }
  }
  free(text);
  int kept = *waits < 64 ? *waits : 64;
  qsort(before, (size_t)kept, sizeof before[0], compare_doubles);
  return kept > 0 ? before[kept / 2] : NAN;
}

/* tests/data/tracer/wait_many.c and wait_many.f90 on 1 rank: 50 MPI_Waitall over 4096 requests, each after a loop of
 * receives and sends with no work: the median computation before a wait under 2 us (by hand 0.0 and 0.1 us).
 * Before, what the wrappers did before the entry was computation before each, replayed as work: the C wrapper's copies
 * and look-ups of the requests, 7.9-24 us; the Fortran binding's conversions of the handles, 11.3 us more. */
static void test_trc_mpi_wait_copies_not_computation(void)
{
  static const struct {
    void (*builder)(const char *, const char *, const char *);
    const char *source;
  } cases[] = {{build, WAITMANY}, {build_fortran, WAITMANYF}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char dir[1024];
    char trace[1100];
    built_in(dir, trace, cases[k].builder, cases[k].source, "wait_many");
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./wait_many", "1", trace, "4096", &run), 0);
    TU_ASSERT_RAN(&run);
    run_free(&run);
    int waits = 0;
    double before = computed_before_waits(trace, &waits);
    CU_ASSERT(waits == 50 && before < 2e-6);
    if (!(waits == 50 && before < 2e-6))
      fprintf(stderr, "wait_many %s: %d waits, median %.3f us of computation before one\n", cases[k].source, waits,
              1e6 * before);
    remove_folder(trace);
    remove_folder(dir);
  }
}

/* tests/data/tracer/shared_handles.c on 2 ranks, 1,000 rounds of 32 sends in flight tested out of order or by halves
 * (MPI_Testsome): Open MPI gives most of them one handle (the program says how many shared one: some must, or this case
 * tests nothing), yet each test names a request still pending, so simrun analyse pairs the 32,000 messages and gives
 * none up. Before, the tracer took whichever pending request held the handle first from where it last looked: tests
 * named requests already complete, others stayed pending, and 8,192 were given up (Ray's run at p = 2: 356,352, and
 * 155 s to read); taking the oldest for each, an MPI_Testsome named one request for its 16, and 8,192 as well. */
static void test_trc_mpi_shared_handles_name_pending_requests(void)
{
  char dir[1024];
  char trace[1100];
  built_in(dir, trace, build, HANDLES, "shared_handles");
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./shared_handles", "2", trace, "1000", &run), 0);
  TU_ASSERT_RAN(&run);
  long shared = -1;
  const char *said = strstr(run.out, "shared_handles: ");
  CU_ASSERT(said && sscanf(said, "shared_handles: %ld of 32000", &shared) == 1 && shared > 0);
  run_free(&run);
  met_trace_free(read_all_paired(trace, 32000));
  remove_folder(trace);
  remove_folder(dir);
}

/* tests/data/tracer/preload.c traced on 2 ranks, the tracer named in LD_PRELOAD after libm.so.6, alone, and by
 * another spelling of its path before libm.so.6 (space-separated): rank 0's child process, started after MPI_Init, sees
 * libm.so.6 alone, no LD_PRELOAD, then libm.so.6 alone. The tracer takes itself out of the rank's LD_PRELOAD
 * (trc_preload.h): a rank's children are not ranks, and each loaded it, and Open MPI with it (NEURON's start-up script,
 * some 50 processes on rank 0: 1.18x of CPU traced at p = 1, 1.00x without). Before, the child saw the tracer too. Each
 * run is traced all the same (its index). */
static void test_trc_mpi_children_not_preloaded(void)
{
  char dir[1024];
  built_in_new_folder(dir, PRELOAD, "preload");
  char respelt[1200];
  const char *slash = strrchr(SIMRUN_TRACE_LIB, '/');
  CU_ASSERT_PTR_NOT_NULL_FATAL(slash);
  snprintf(respelt, sizeof respelt, "%.*s/./%s", (int)(slash - SIMRUN_TRACE_LIB), SIMRUN_TRACE_LIB, slash + 1);
  static const char *const seen[] = {"child LD_PRELOAD=[libm.so.6]", "child LD_PRELOAD=[unset]",
                                     "child LD_PRELOAD=[libm.so.6]"};
  for (int i = 0; i < 3; i++) {
    char preload[2600], folder[1200], trace[1100], index[1200];
    if (i == 0)
      snprintf(preload, sizeof preload, "LD_PRELOAD=libm.so.6:%s", SIMRUN_TRACE_LIB);
    else if (i == 1)
      snprintf(preload, sizeof preload, "LD_PRELOAD=%s", SIMRUN_TRACE_LIB);
    else
      snprintf(preload, sizeof preload, "LD_PRELOAD=%s libm.so.6", respelt);
    snprintf(trace, sizeof trace, "%s/trace", dir);
    snprintf(folder, sizeof folder, "SIMRUN_TRACE_DIR=%s", trace);
    snprintf(index, sizeof index, "%s/index.txt", trace);
    const char *args[] = {
        "--allow-run-as-root", "--oversubscribe", "-np", "2", "-x", preload, "-x", folder, "./preload", NULL};
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_program(dir, SIMRUN_MPIRUN, args, &run), 0);
    TU_ASSERT_RAN(&run);
    if (!strstr(run.out, seen[i]))
      fprintf(stderr, "%s: %s", preload, run.out);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, seen[i]));
    CU_ASSERT_EQUAL(access(index, F_OK), 0);
    run_free(&run);
    remove_folder(trace);
  }
  remove_folder(dir);
}

/* tests/data/tracer/children.c on 2 ranks: each rank runs 4 items in child processes (system()) of 0.05 s of CPU each.
 * Rank 0's TI trace holds their CPU time as its computation: at least 0.9 x 4 x 0.05 s (by hand) and what
 * getrusage(RUSAGE_CHILDREN) gave the program, at most that and 0.01 s of its own (issue 47: the trace booked the
 * rank's waits for its children as computation of zero flops, and a replay predicted the run 95% short). Each rank
 * says so at MPI_Finalize with the share, and simrun analyse says it of the run. */
static void test_trc_mpi_children_work_counted(void)
{
  char dir[1024];
  char trace[1100];
  cli_run_t run;
  traced_pair(dir, trace, CHILDREN, "children", "simrun", &run);
  double used = figure_after(run.out, "children CPU ");
  double traced = processor_seconds(trace, 0);
  CU_ASSERT(used >= 4 * 0.05);
  CU_ASSERT(traced >= 0.9 * 4 * 0.05 && traced >= 0.9 * used && traced <= used + 0.01);
  if (!(traced >= 0.9 * used && traced <= used + 0.01))
    fprintf(stderr, "rank 0's processor time in its TI trace %.6f s, its children's CPU %.6f s\n", traced, used);
  /* the rank's CPU time over the run, its children's included, against its wall time (docs/tracer.md) */
  char *timeline = read_output(trace, "timeline-0.txt");
  const char *line = timeline ? strstr(timeline, "# disturbance ") : NULL;
  double load[2] = {NAN, NAN}, switches = NAN, cpu = NAN, wall = NAN, waited = NAN, compute = NAN;
  CU_ASSERT(line && sscanf(line, "# disturbance %lf %lf %lf %lf %lf %lf %lf", &load[0], &load[1], &switches, &cpu,
                           &wall, &waited, &compute) == 7);
  CU_ASSERT(load[0] >= 0 && load[1] >= 0 && switches >= 0);
  CU_ASSERT(waited >= 0 && waited <= wall); /* its thread's wait for a processor (run_delay), within the span */
  CU_ASSERT(cpu >= 0.9 * 4 * 0.05 && cpu <= 1.05 * wall + 0.01);
  /* its computations' CPU time, the children's counted included: what the TI trace's amounts give (each written to
   * the flop, at most a microsecond apart in all), within its CPU time */
  CU_ASSERT(fabs(compute - traced) <= 1e-6 + 1e-6 * traced && compute <= cpu);
  free(timeline);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "simrun-trace: rank 0: its child processes used "));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "of its computation, counted in the TI trace's compute amounts"));
  run_free(&run);
  const char *analyse[] = {"analyse", trace, "--width", "1000", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  TU_ASSERT_RAN(&run);
  tu_unwrap(run.out);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "the ranks' child processes used "));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "counted as the ranks' computation in the TI trace (the ranks waited"));
  run_free(&run);
  remove_folder(trace);
  remove_folder(dir);
}

/* The largest of the ranks' CPU seconds of their loops outside their pieces of computation (shared_core.c's "shared
 * CPU COMPUTED PROCESS" lines in `out`): the tracer's work, the calls and the loop's own, or NAN. */
static double shared_not_computed(const char *out)
{
  double most = NAN, computed, process;
  for (const char *at = strstr(out, "shared CPU "); at; at = strstr(at + 1, "shared CPU "))
    if (sscanf(at, "shared CPU %lf %lf", &computed, &process) == 2)
      most = isnan(most) || process - computed > most ? process - computed : most;
  return most;
}

/* Program `name` built from `source` in a new folder `dir`, run on 2 ranks that share one core (taskset -c 0), traced
 * into `trace` (dir/trace): exits 0, its output into `run`. */
static void traced_on_one_core(char dir[1024], char trace[1100], const char *source, const char *name, cli_run_t *run)
{
  char preload[1200], folder[1200], program[300];
  built_in_new_folder(dir, source, name);
  snprintf(trace, 1100, "%s/trace", dir);
  snprintf(preload, sizeof preload, "LD_PRELOAD=%s", SIMRUN_TRACE_LIB);
  snprintf(folder, sizeof folder, "SIMRUN_TRACE_DIR=%s", trace);
  snprintf(program, sizeof program, "./%s", name);
  const char *args[] = {
      "-c",   "0",     SIMRUN_MPIRUN, "--allow-run-as-root", "--bind-to", "none", "-np", "2", "-x", preload, "-x",
      folder, program, NULL};
  CU_ASSERT_EQUAL_FATAL(run_program(dir, "/usr/bin/taskset", args, run), 0);
  TU_ASSERT_RAN(run);
}

/* Two ranks on one core: a run in which one waited for the core more than this share of its wall time is crowded
 * (others took the core) and run again; the share of a wait beyond half the wall time that the bounds allow as the
 * process's other threads' CPU time. */
#define SHARED_CROWDED 0.55
#define SHARED_OTHERS  0.25

/* Rank `rank`'s "# disturbance" figures in `timeline` (NULL: none) hold CPU + WAITED = WALL, the rank never blocking
 * (shared_core.c, setup_shared.c: running or waiting for the core at every moment), to 0.6% and 1 ms (its other
 * threads' CPU time, a preempted write of its files), and a quarter of what it waited beyond half its wall time (its
 * core-mate's half), what another process took beside them, while the process's other threads (CPU counts them,
 * WAITED is the recorded thread's) ran: in ctest -j2 runs, rank 0 waited 82% of its 1.05 s and CPU + WAITED passed
 * WALL by 21 ms (6% of that excess), then 57% of 0.479 s and 0.480 s, by 4.7 and 8.5 ms (23%). Returns how far
 * CPU + WAITED misses WALL beyond that slack (at most 0: within; NAN: no such line), its COMPUTE into *compute (at
 * most CPU, asserted) and the figures into `said`. */
static double disturbance_excess(const char *timeline, int rank, double *compute, char said[160])
{
  const char *at = timeline ? strstr(timeline, "# disturbance ") : NULL;
  double f[8] = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  CU_ASSERT(at && sscanf(at, "# disturbance %lf %lf %lf %lf %lf %lf %lf %lf", &f[0], &f[1], &f[2], &f[3], &f[4], &f[5],
                         &f[6], &f[7]) == 8);
  double cpu = f[3], wall = f[4], waited = f[5];
  double slack = 0.006 * wall + 0.001 + SHARED_OTHERS * fmax(0, waited - 0.5 * wall);
  snprintf(said, 160, "rank %d: CPU %.6f + WAITED %.6f s against WALL %.6f s", rank, cpu, waited, wall);
  CU_ASSERT(cpu >= f[6]);
  *compute = f[6];
  return fabs(cpu + waited - wall) - slack;
}

/* The same, asserted within; returns its COMPUTE, or NAN. */
static double disturbance_adds_up(const char *timeline, int rank)
{
  double compute;
  char said[160];
  double excess = disturbance_excess(timeline, rank, &compute, said);
  CU_ASSERT(excess <= 0);
  if (!(excess <= 0))
    fprintf(stderr, "%s\n", said);
  return compute;
}

/* One traced run of shared_core.c (test_trc_mpi_shared_core_held_tracer_time), kept until judged. */
typedef struct shared_run {
  char dir[1024];
  char trace[1100];
  double not_computed; /* shared_not_computed */
  double crowded;      /* the larger of the ranks' waits for the core as a share of their wall time (NAN: unknown) */
} shared_run_t;

/* Rank `rank`'s timeline of `run` (NULL: none), its "# disturbance" WALL and WAITED into *wall and *waited (NAN when
 * not given) and the line into `said` (printed with a failure: the test flaked in suites). */
static char *shared_timeline(const shared_run_t *run, int rank, double *wall, double *waited, char said[256])
{
  char name[32];
  snprintf(name, sizeof name, "timeline-%d.txt", rank);
  char *timeline = read_output(run->trace, name);
  const char *line = timeline ? strstr(timeline, "\n# disturbance ") : NULL;
  *wall = *waited = NAN;
  if (line && sscanf(line, "\n# disturbance %*f %*f %*f %*f %lf %lf", wall, waited) != 2)
    *wall = *waited = NAN;
  snprintf(said, 256, "%.*s", line ? (int)strcspn(line + 1, "\n") : 0, line ? line + 1 : "");
  return timeline;
}

/* Traces shared_core.c on one core into `run` and reads how crowded the core was. */
static void shared_core_trace(shared_run_t *run)
{
  cli_run_t out;
  traced_on_one_core(run->dir, run->trace, SHARED, "shared_core", &out);
  run->not_computed = shared_not_computed(out.out);
  run_free(&out);
  run->crowded = 0;
  for (int rank = 0; rank < 2; rank++) {
    double wall, waited;
    char said[256];
    free(shared_timeline(run, rank, &wall, &waited, said));
    run->crowded = waited / wall > run->crowded || isnan(waited / wall) ? waited / wall : run->crowded;
  }
}

/* test_trc_mpi_shared_core_held_tracer_time's bounds on `run`. */
static void shared_core_judge(const shared_run_t *run)
{
  double end[2] = {NAN, NAN};
  char said[2][256];
  double unsure = 0; /* how far the held parts may be off: disturbance_adds_up's slack for the waits */
  for (int rank = 0; rank < 2; rank++) {
    double wall, waited;
    char *timeline = shared_timeline(run, rank, &wall, &waited, said[rank]);
    end[rank] = figure_after(timeline, "\n# end ");
    if (!isnan(waited))
      unsure = fmax(unsure, SHARED_OTHERS * fmax(0, waited - 0.5 * wall));
    CU_ASSERT(disturbance_adds_up(timeline, rank) >= 0.2);
    free(timeline);
  }
  CU_ASSERT(run->not_computed > 0 && run->not_computed < 0.1);
  const char *analyse[] = {"analyse", run->trace, "--csv", "analysed.csv", NULL};
  double t_par = csv_figure(run->dir, analyse, "analysed.csv", "t_par_s");
  int held = t_par >= end[1] - run->not_computed - unsure && t_par <= fmax(end[0], end[1]) + 0.05;
  CU_ASSERT(held);
  if (!held || !(run->not_computed > 0 && run->not_computed < 0.1))
    fprintf(stderr, "T_par %.6f s, the ranks' spans %.6f and %.6f s, %.6f s not computed; rank 0 %s; rank 1 %s\n",
            t_par, end[0], end[1], run->not_computed, said[0], said[1]);
}

static void shared_core_remove(const shared_run_t *run)
{
  char dir[sizeof run->dir], trace[sizeof run->trace]; /* copies of their sizes, which remove_folder's paths hold */
  snprintf(dir, sizeof dir, "%.*s", (int)sizeof dir - 1, run->dir);
  snprintf(trace, sizeof trace, "%.*s", (int)sizeof trace - 1, run->trace);
  remove_folder(trace);
  remove_folder(dir);
}

/* tests/data/tracer/shared_core.c on 2 ranks that share one core (taskset -c 0): each computes 0.2 s of its CPU time
 * in pieces of 25 us with a send, or an MPI_Isend and its MPI_Wait, after each, never blocking, so that at every moment
 * a rank is running or waiting for the core: its "# disturbance" CPU and WAITED add up to its WALL, the tracer's CPU
 * time out of both (to 0.6% and 1 ms, and more when others load the machine: disturbance_adds_up; -0.03% to +0.51%
 * over 28 ranks, 0.00% in most). A rank preempted inside the tracer's work between a call and the next computation
 * waits for the core there: the computation next to it keeps that wait, the gaps that simrun analyse removes keep the
 * tracer's CPU time alone, so that T_par is at least rank 1's span (its start-up, its first contact with rank 0, is not
 * removed) less the CPU time the ranks spent outside their pieces, which the program measures itself. Before, the gaps
 * held the waits: T_par 0.4 to 10.1 ms under that bound (13 runs of 13; 1.8 to 5.3 ms over it after, 10 runs), and CPU
 * + WAITED passed WALL by up to 1.0%: that wait, and the start-up's own time, came out of CPU, which then fell to the
 * computations' CPU time (its floor). A first form of the change lost the held part of the gap after an MPI_Isend's
 * or MPI_Wait's record, which the tracer's work after the call (trc_after_call) follows: CPU + WAITED +0.3% to +0.6%,
 * 0.00% since, both within this test's bounds, which the 1.4-ms waits of one or two such gaps do not pass. T_par is at
 * most the run's span (the later rank's end) and 50 ms: its first form held it to rank 1's, which rank 0 passed once
 * in a loaded suite; its lower bound is as unsure as the held parts, by disturbance_adds_up's slack for ranks that
 * waited for the core more than half their run (a suite's load of 4.9 put T_par 0.36 ms under it, rank 1 waiting
 * 0.70 s of 0.90, which allows 15 ms then and more now). A run in which a rank waited for the core more than 55% of
 * its wall time (two ranks on a core wait half of it, 51-52% on an idle machine; beyond, other processes took the
 * core: a suite's load of 3.95 made it 79% and 82%, and passed both bounds, by 0.005 and 4 ms; 61% passed CPU + WAITED
 * = WALL's by 10 ms, 57.6% by 8.5 ms) is run again, up to twice, and the least crowded run is judged (the last was:
 * beside a fresh clone's sanitised build, runs crowded 77%, 59% and 77%, the third judged, its CPU + WAITED 0.3 ms
 * past its bound, where the second was well within). */
static void test_trc_mpi_shared_core_held_tracer_time(void)
{
  shared_run_t runs[3];
  int ran = 0, best = 0;
  while (ran < 3) {
    shared_core_trace(&runs[ran]);
    best = runs[ran].crowded < runs[best].crowded ? ran : best;
    if (!(runs[ran++].crowded > SHARED_CROWDED)) /* NAN too: judged, its missing line failed */
      break;
    fprintf(stderr, "other processes took the core (a rank waited %.0f%% of its run)\n", 100 * runs[ran - 1].crowded);
  }
  for (int n = 0; n < ran; n++)
    if (n != best)
      shared_core_remove(&runs[n]);
  shared_core_judge(&runs[best]);
  shared_core_remove(&runs[best]);
}

/* tests/data/tracer/after_finalize.c on 2 ranks: each computes 0.3 s of its CPU time after MPI_Finalize, 0.02 s
 * before; at exit each says that work is in no trace (more than 0.1 s and a tenth of what it computed traced), and
 * the same program with all its work before MPI_Finalize says nothing, nor does it when rank 1 waits in MPI_Finalize
 * while rank 0 computes 0.3 s before it ("uneven": before, rank 1's spinning in the wrapper's own reduction was taken
 * for work after it, 0.44 s in a helper's run). Before, a program that computed after it (yorick-mpy at p = 1: 1.4 s,
 * beside a trace of 22 us) had its trace and no word. About 1.5 s. */
static void test_trc_mpi_work_after_finalize_said(void)
{
  char dir[1024];
  built_in_new_folder(dir, AFTER, "after_finalize");
  char trace[1100];
  snprintf(trace, sizeof trace, "%s/trace", dir);
  static const char *const args[] = {NULL, "before", "uneven"};
  for (int i = 0; i < 3; i++) {
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./after_finalize", "2", "trace", args[i], &run), 0);
    TU_ASSERT_RAN(&run);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "after done"));
    for (int rank = 0; rank < 2; rank++) {
      char said[128];
      snprintf(said, sizeof said, "simrun-trace: warning: rank %d: ", rank);
      const char *at = strstr(run.err, said);
      while (at && !strstr(at, " s of CPU time after MPI_Finalize ("))
        at = strstr(at + 1, said);
      double after = -1;
      if (at)
        sscanf(at + strlen(said), "%lf", &after);
      CU_ASSERT(i == 0 ? after >= 0.29 : at == NULL);
      if (!(i == 0 ? after >= 0.29 : at == NULL))
        fprintf(stderr, "run %d, rank %d: %s\n", i, rank, run.err);
    }
    run_free(&run);
    remove_folder(trace);
  }
  remove_folder(dir);
}

/* The wall seconds of the computations in `timeline` (format 2, docs/tracer.md: "ID GAP COMPUTE DURATION [POLLS]"
 * records in ns; a folded loop's "loop COUNT SLOTS FIRST LAST" and its slots' "= COMPUTE DURATION ...", mean seconds).
 */
static double computed_wall(const char *timeline)
{
  double seconds = 0, mean, count = 0;
  long long id, gap, compute, duration;
  for (const char *line = timeline; line; line = strchr(line + 1, '\n')) {
    const char *at = line[0] == '\n' ? line + 1 : line;
    if (sscanf(at, "loop %lf", &count) == 1 || at[0] == '#' || at[0] == 'd')
      continue;
    if (sscanf(at, "= %lf", &mean) == 1)
      seconds += count * mean;
    else if (sscanf(at, "%lld %lld %lld %lld", &id, &gap, &compute, &duration) == 4)
      seconds += 1e-9 * (double)compute;
  }
  return seconds;
}

/* One traced run of setup_shared.c (test_trc_mpi_setup_waits_are_the_tracers), its computations checked: the larger
 * of its ranks' disturbance_excess, their figures into `said`. */
static double setup_shared_run(char said[2][160])
{
  char dir[1024], trace[1100];
  cli_run_t run;
  traced_on_one_core(dir, trace, SETUP_CORE, "setup_shared", &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "setup done"));
  run_free(&run);
  double worst = -INFINITY;
  for (int rank = 0; rank < 2; rank++) {
    char name[32];
    snprintf(name, sizeof name, "timeline-%d.txt", rank);
    char *timeline = read_output(trace, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(timeline);
    double compute, excess = disturbance_excess(timeline, rank, &compute, said[rank]);
    worst = excess > worst || isnan(excess) ? excess : worst;
    double span = figure_after(timeline, "\n# end "), computed = computed_wall(timeline);
    CU_ASSERT(span > 0 && computed < 0.05 * span);
    if (!(computed < 0.05 * span))
      fprintf(stderr, "rank %d: %.6f s of computation in a span of %.6f s\n", rank, computed, span);
    free(timeline);
  }
  remove_folder(trace);
  remove_folder(dir);
  return worst;
}

/* tests/data/tracer/setup_shared.c on 2 ranks that share one core (taskset -c 0): 20 MPI_Comm_dup and MPI_Comm_free,
 * nothing between. After each duplicate the tracer's own two reductions (its number agreed, its cost) make a member
 * spin while its core-mate has the processor, then wait for it: a wait of the tracer's, which exists only traced and
 * is its time, not a computation's. The program computes nothing: its timelines' computations hold under 5% of each
 * rank's span (0.0% in 6 runs; the tracer of 4313cb4 kept each such wait next to its gap as the computation's: 24.6
 * to 25.6%, 6 runs of 6), and its "# disturbance" adds up (the waits out of both WAITED and WALL; -0.00%). About 1 s.
 * A rank that blocks, neither running nor waiting for the core, falls short of that sum, which cannot tell: beside a
 * loaded suite, a run's CPU + WAITED fell 4-9 ms short of WALL (a fresh clone's sanitised suite: 8.9 ms, 1 run in
 * some 20; 2 to 5.5 ms in 4 runs of 80 beside the build suite here, every rank's reductions running or waiting whole,
 * their CPU clock read around them). Such a run is traced again, up to twice: the closest run is judged, so that a
 * tracer whose sum misses every time (its reductions' waits left in WALL: some 0.1 s) still fails. */
static void test_trc_mpi_setup_waits_are_the_tracers(void)
{
  char said[2][160], best_said[2][160] = {"", ""};
  double best = INFINITY;
  for (int ran = 0; ran < 3 && !(best <= 0); ran++) {
    double excess = setup_shared_run(said);
    if (excess < best || isnan(excess)) {
      best = excess;
      memcpy(best_said, said, sizeof said);
    }
    if (!(excess <= 0))
      fprintf(stderr, "CPU + WAITED off WALL: %s; %s\n", said[0], said[1]);
  }
  CU_ASSERT(best <= 0);
  if (!(best <= 0))
    fprintf(stderr, "the closest run: %s; %s\n", best_said[0], best_said[1]);
}

/* tests/data/tracer/spawn.c's folder `trace` (in `dir`) analyses, replayed on `platform` unless NULL: the parents'
 * run, by hand 2 messages paired (their MPI_Sendrecv_replace); both folders removed. */
static void parents_analysed(const char *dir, const char *trace, const char *platform)
{
  cli_run_t run;
  const char *analyse[] = {"analyse", trace, platform ? "--replay-on" : NULL, platform, NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "(p = 2): 2 messages paired, 0 receives unpaired"));
  run_free(&run);
  remove_folder(trace);
  remove_folder(dir);
}

/* tests/data/tracer/spawn.c's parents traced, its children spawned without the preload ("bare"): the communicator
 * merged with them is theirs too, so the library makes no collective of its own on it (its MPI_Allreduce of a new
 * communicator's number and set-up cost, which the bare children never call: the parents waited there for ever, and
 * mpirun with them; MPIEXEC_TIMEOUT, Open MPI's limit on mpirun, ends such a run here in 120 s). The run ends,
 * prints what the children sent, and its folder analyses. */
static void test_trc_mpi_spawned_bare_children(void)
{
  char dir[1024];
  char trace[1100];
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(trace, sizeof trace, "%s/trace", dir);
  build(dir, SPAWN, "spawn");
  setenv("MPIEXEC_TIMEOUT", "120", 1);
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./spawn", "2", trace, "bare", &run), 0);
  unsetenv("MPIEXEC_TIMEOUT");
  TU_ASSERT_RAN(&run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "spawn: children sent 3"));
  CU_ASSERT_PTR_NULL(strstr(run.err, "MPI_Comm_spawn started")); /* no tracer in the children to say it */
  run_free(&run);
  parents_analysed(dir, trace, NULL);
}

/* Whether `what` is in `text` exactly once. */
static int once(const char *text, const char *what)
{
  const char *first = strstr(text, what);
  return first && !strstr(first + 1, what);
}

/* tests/data/tracer/spawn.c on 2 ranks: they spawn 2 children, whose own MPI_COMM_WORLD numbers them 0 and 1 too. The
 * children are not traced, and say so once (traced, they wrote over the parents' files in the folder, and their index
 * over the parents': "rank 0 cannot remove .../incomplete-0", no index of the parents, the children's run analysed
 * as the folder's). The folder is the parents' run: 2 ranks of 2 (the header), an index of both, by hand 2 messages
 * paired (the parents' MPI_Sendrecv_replace: rank 0's only TI messages, "isend 1 1 4" and "recv 1 1 4"). Its
 * communicator merged with the children is no "comm_def" (it was "comm_def 1 0 1 -32766 -32766", which the replay
 * refused), its broadcast no TI action but named; rank 0's messages with processes outside the run are no TI message
 * but named, 3 of them: its receive from the children's rank 0, its persistent send to a child, its receive from any
 * source that the child answered ("recv -1" would replay as from any source); and so are, named apart as sends that
 * returned an error, its sends to rank 4, which the merged communicator lacks, and to rank 2, which MPI_COMM_WORLD
 * lacks (they were "send 4" and "send 2", ranks the run lacks: simrun analyse refused the folder, as Rmpi's did); so
 * the run analyses and replays. */
static void test_trc_mpi_spawned_not_traced(void)
{
  char dir[1024];
  char trace[1100];
  cli_run_t run;
  traced_pair(dir, trace, SPAWN, "spawn", "simrun", &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "spawn: children sent 3"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "succeeded"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "simrun-trace: warning: the 2 process(es) MPI_Comm_spawn started are not "
                                         "traced"));
  CU_ASSERT(once(run.err, "MPI_Comm_spawn started"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "collectives with processes outside the run (MPI_Comm_spawn's, "
                                         "MPI_Comm_connect's): no TI action x1"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "messages with processes outside the run (MPI_Comm_spawn's, "
                                         "MPI_Comm_connect's): no TI action x3"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "sends that returned an error (MPI_ERRORS_RETURN, the error ignored): no TI "
                                         "action x2"));
  CU_ASSERT_PTR_NULL(strstr(run.err, "cannot remove"));
  CU_ASSERT_PTR_NULL(strstr(run.err, "no index.txt"));
  run_free(&run);
  char *index = read_output(trace, "index.txt");
  CU_ASSERT(index && strstr(index, "/rank-0.txt\n") && strstr(index, "/rank-1.txt\n"));
  free(index);
  char *messages = messages_of(trace, 0);
  CU_ASSERT(messages && strstr(messages, "0 isend 1 1 4\n0 recv 1 1 4\n") && !strstr(messages, "comm_def") &&
            !strstr(messages, " in ") && !strstr(messages, "send 4") && !strstr(messages, " send "));
  free(messages);
  for (int rank = 0; rank < 2; rank++) {
    char header[32];
    snprintf(header, sizeof header, "# rank %d of 2\n", rank);
    char *timeline = timeline_text(trace, rank ? "timeline-1.txt" : "timeline-0.txt");
    CU_ASSERT(timeline && strstr(timeline, header) && once(timeline, "# simrun measured timeline"));
    free(timeline);
  }
  parents_analysed(dir, trace, SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml");
}

/* The CPU seconds bench/trc_polling.c says it used ("polling CPU SECONDS TESTS") in `out`, or NAN. */
static double polling_cpu(const char *out)
{
  return figure_after(out, "polling CPU ");
}

/* The least CPU time of the untraced runs of test_trc_mpi_polls_without_tracer_cost so far, the least TI amounts of
 * its traced runs, and whether one traced run held its CPU time in its amounts and tracer-cost. */
typedef struct polls_seen {
  double untraced;
  double amounts;
  int accounted;
} polls_seen_t;

/* One attempt of test_trc_mpi_polls_without_tracer_cost: an untraced run of trc_polling in `dir`, then a traced one
 * into `trace`, taken into `*seen`, its POLLS checked against its poll amounts; whether the runs so far hold the test's
 * two bounds. */
static int polls_accounted(const char *dir, const char *trace, polls_seen_t *seen)
{
  cli_run_t run;
  const char *args[] = {"--allow-run-as-root", "-np", "1", "./trc_polling", NULL};
  CU_ASSERT_EQUAL_FATAL(run_program(dir, SIMRUN_MPIRUN, args, &run), 0);
  seen->untraced = fmin(seen->untraced, polling_cpu(run.out));
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./trc_polling", "1", trace, NULL, &run), 0);
  double traced = polling_cpu(run.out);
  run_free(&run);
  double amounts = processor_seconds(trace, 0);
  char *timeline = read_output(trace, "timeline-0.txt");
  double cost = figure_after(timeline, "# tracer-cost ");
  /* POLLS, the last field of "# disturbance": its runs of polls' CPU time, what their TI amounts give */
  const char *at = timeline ? strstr(timeline, "# disturbance ") : NULL;
  double field[8] = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  CU_ASSERT(at && sscanf(at, "# disturbance %lf %lf %lf %lf %lf %lf %lf %lf", &field[0], &field[1], &field[2],
                         &field[3], &field[4], &field[5], &field[6], &field[7]) == 8);
  ti_sums_t sums = {0};
  CU_ASSERT(ti_sums(trace, 0, 0, &sums) == 0 && sums.poll_seconds > 0);
  CU_ASSERT(fabs(field[7] - sums.poll_seconds) <= 1e-6 + 1e-6 * sums.poll_seconds);
  free(timeline);
  seen->amounts = fmin(seen->amounts, amounts);
  seen->accounted |= amounts + cost >= 0.95 * traced;
  int held = seen->amounts <= 1.15 * seen->untraced && seen->amounts >= 0.7 * seen->untraced && seen->accounted;
  if (!held)
    fprintf(stderr,
            "trc_polling: untraced %.6f s of CPU (least), traced %.6f s, TI amounts %.6f s (least %.6f), "
            "tracer-cost %.6f s\n",
            seen->untraced, traced, amounts, seen->amounts, cost);
  return held;
}

/* bench/trc_polling.c at p = 1 (2 x 10^6 MPI_Testany between pieces of 0.1 us of work, 20,000 messages to itself):
 * its TI trace's processor time is at most the untraced program's CPU time, the least of the untraced runs, plus 15%
 * (issue 47: the tracer's own time per poll leaked into the polls' amounts, +28% here, +42% on HPC Challenge) and at
 * least 70% of it (beside a test as heavy in a ctest -j2, six untraced runs took 0.141-0.146 s, inflated by the load,
 * where the least amounts were 0.113 s, -20%: the untraced runs share their machine as much), and the traced
 * run's CPU time is in its amounts or its `# tracer-cost` but for 5% at most (before: tracer-cost a fifth to two fifths
 * of what tracing added); its "# disturbance" line's POLLS is the CPU time its poll amounts give, to the microsecond
 * (simrun analyse --replay-on reads it: docs/analyse.md, "Shared cores"). The first bound compares runs with each
 * other, the least disturbed of each kind: beside the rest of the suite one traced run took 1.53x the untraced run's
 * CPU time (its own work slowed with the tracer's: TI amounts +14%), and on an AMD EPYC under KVM traced runs' amounts
 * were +14% to +27% one run in two, alone (the program's own work and tests slower traced: perf; with the tracer tests
 * beside, 1 in 6 such series of four failed), so up to six pairs of runs are made, until the least amounts are within
 * the bound of the least untraced time and one run holds the second. A sanitised build makes one pair and holds it to
 * nothing but a trace with amounts: its tracer's code is instrumented and the MPI library's is not, so the shares it
 * times are not the shipped tracer's (all six attempts' amounts 18% under the untraced time, once, in a suite under
 * load). */
static void test_trc_mpi_polls_without_tracer_cost(void)
{
  char dir[1024];
  char trace[1100];
  built_in(dir, trace, build, POLLING, "trc_polling");
  polls_seen_t seen = {.untraced = INFINITY, .amounts = INFINITY};
  int held = 0;
  for (int attempt = 0; attempt < (SANITIZED ? 1 : 6) && !held; attempt++) {
    held = polls_accounted(dir, trace, &seen);
    remove_folder(trace);
  }
  CU_ASSERT(held || SANITIZED);
  CU_ASSERT(isfinite(seen.amounts) && seen.amounts > 0);
  remove_folder(dir);
}

/* The end of `rank`'s last interval with tag `tag` that received a message in the analysed `trace`, or NAN. */
static double received_end(const met_trace_t *trace, int rank, int tag)
{
  const met_interval_t *iv = met_trace_intervals(trace, rank);
  double end = NAN;
  for (size_t i = 0; i < met_trace_count(trace, rank); i++)
    if (iv[i].tag == tag && iv[i].dir == MET_DIR_RECV)
      end = iv[i].end;
  return end;
}

/* tests/data/tracer/own_time_pair.c on 2 ranks (both timelines with the same "# run" line): rank 0's tracer time
 * (20,000 cheap calls) is large, rank 1's small.
 * With each rank's own time removed, rank 0's receive of the answer (tag 2) would end before rank 1 entered the send
 * of it, had rank 1's wait for "go" kept the part of it that rank 0's tracer time made: the reader removes that part
 * (most of the gaps), and a receive that would still end too early is made to end after its sender's entry (the
 * difference put back), so that each receive ends no earlier than its sender's entry, and each
 * late sender equals the gap from the receive's entry to its sender's, in the trace read (rank 0's about what rank 1
 * took to answer, rank 1's the loop of calls without the tracer's time).
 * analysed under the sanitisers' build (ctest -R test_trc in build-asan), whose tracer time is ten times this one's:
 * shifting each rank by its own time alone broke this there. About 1 s. */
/* One traced run of own_time_pair.c read into *info (dir and trace as traced_pair's), its checks that hold on any
 * machine made; rank 0's tracer time in *rank0. The run, or NULL (failed assertions). */
static met_trace_t *own_pair_run(char *dir, char *trace, met_timeline_info_t *info, double *rank0)
{
  traced_pair_quietly(dir, trace, OWN_PAIR, "own_time_pair", "simrun", "own time pair ok");
  met_trace_t *run = read_run(trace, info);
  if (!run)
    return NULL;
  CU_ASSERT(info->compensated);
  CU_ASSERT_EQUAL(info->matched, 2);
  char *first = timeline_text(trace, "timeline-0.txt");
  char *second = timeline_text(trace, "timeline-1.txt");
  const char *cost = first ? strstr(first, "# tracer-cost ") : NULL;
  *rank0 = cost ? atof(cost + 14) : NAN;
  const char *run0 = first ? strstr(first, "\n# run ") : NULL, *run1 = second ? strstr(second, "\n# run ") : NULL;
  CU_ASSERT(run0 && run1 && strcspn(run0 + 1, "\n") == strcspn(run1 + 1, "\n") && /* one run: rank 0's identity */
            strncmp(run0, run1, strcspn(run0 + 1, "\n")) == 0);
  free(first);
  free(second);
  return run;
}

/* Whether rank 1 of own_time_pair.c entered its receive of "go" before rank 0 entered the send: the late sender the
 * test is about. */
static int rank_1_waited(const met_trace_t *run)
{
  return entry_of(run, 1, 1) < entry_of(run, 0, 1);
}

static void test_trc_mpi_own_time_keeps_causality(void)
{
  char dir[1024];
  char trace[1100];
  met_timeline_info_t info;
  double rank0 = NAN;
  met_trace_t *run = own_pair_run(dir, trace, &info, &rank0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(run);
  /* rank 1's wait for "go", less rank 0's tracer time: most of it. Under load rank 0's own time grows with its
   * preemptions, which the reader need not all take out of rank 1's wait (the suite beside it: 3.2 of 6.6 ms, where a
   * quiet run gives 3.3 of 3.4), and rank 1 may lose its processor after the barrier for longer than rank 0 computes
   * and calls without the tracer, so that it does not wait at all (beside 8 busy loops, before rank 0 computed first:
   * 3 runs of 6, rank 1 entering its receive 10-18 ms after the barrier, rank 0's send 4-8 ms after it once its tracer
   * time was out; since, 8 of 8 waited): a run that misses either is made again, four times at most */
  for (int attempt = 1; attempt < 5 && !(rank0 > 0 && info.waits_removed > 0.5 * rank0 && rank_1_waited(run));
       attempt++) {
    fprintf(stderr,
            "own_time_pair: rank 0's tracer time %g s, waits removed %g s, put back %g s, rank 1's receive of go at "
            "%g s, rank 0's send at %g s; again\n",
            rank0, info.waits_removed, info.own_put_back, entry_of(run, 1, 1), entry_of(run, 0, 1));
    met_trace_free(run);
    remove_folder(trace);
    remove_folder(dir);
    run = own_pair_run(dir, trace, &info, &rank0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(run);
  }
  CU_ASSERT(rank0 > 0 && info.waits_removed > 0.5 * rank0 && rank_1_waited(run));
  for (int tag = 1; tag <= 2; tag++) {
    int sender = tag == 1 ? 0 : 1, receiver = 1 - sender;
    double entry = entry_of(run, sender, tag);
    CU_ASSERT(received_end(run, receiver, tag) >= entry);
    met_waits_t w;
    CU_ASSERT_EQUAL_FATAL(met_wait_compute(run, &w), 0);
    TU_ASSERT_CLOSE(met_wait_time(&w, receiver, MET_WAIT_LATE_SENDER), entry - entry_of(run, receiver, tag), 1e-9);
    met_wait_free(&w);
  }
  met_trace_free(run);
  remove_folder(trace);
  remove_folder(dir);
}

/* simrun analyse `trace` --replay-on the two hosts of 1 Gflop/s (the rate the runs are traced at): the relative
 * difference of the predicted T_par from the measured (the CSV's replay_diff: from the traced T_par of a quiet run,
 * from the nearer end of the range a disturbed run's CPU times give, 0 within it: docs/analyse.md), or NAN. */
static double replay_difference(const char *dir, const char *trace)
{
  const char *args[] = {"analyse", trace,        "--replay-on", SIMRUN_SOURCE_DIR "/tests/data/cli/two-hosts.xml",
                        "--csv",   "replay.csv", NULL};
  return csv_figure(dir, args, "replay.csv", "replay_diff");
}

/* The start-up before time 0, outside the trace (docs/tracer.md, "# start-up"), of rank `rank` in `trace`: the
 * process's age at its MPI_Init call into *age, MPI_Init to time 0 into *init. 0, or -1 without the line. */
static int startup_line(const char *trace, int rank, double *age, double *init)
{
  char name[64];
  snprintf(name, sizeof name, "timeline-%d.txt", rank);
  char *text = read_output(trace, name);
  const char *line = text ? strstr(text, "\n# start-up ") : NULL;
  int read = line && sscanf(line, "\n# start-up %lf %lf", age, init) == 2;
  free(text);
  return read ? 0 : -1;
}

/* tests/data/tracer/startup.c at p = 2, its processes sleeping 0.3 s before MPI_Init (`late`) or not: each rank's
 * "# start-up" line gives its process's age at its MPI_Init call (from /proc/self/stat's start, to 10 ms), 0.2 s or
 * more longer with the sleep (0.3 s less the clock's tick and the noise of two runs), within 2 s, and MPI_Init's own
 * time to time 0, within 0 to 5 s; simrun analyse says the last rank's in the run's line, the run lasting some 2.5 ms.
 */
static void test_trc_mpi_startup_recorded(void)
{
  char dir[1024];
  char trace[1100];
  built_in(dir, trace, build, STARTUP, "startup");
  double age[2][2], init[2][2];
  for (int late = 0; late < 2; late++) {
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./startup", "2", trace, late ? "late" : NULL, &run), 0);
    TU_ASSERT_RAN(&run);
    run_free(&run);
    for (int rank = 0; rank < 2; rank++) {
      CU_ASSERT_EQUAL_FATAL(startup_line(trace, rank, &age[late][rank], &init[late][rank]), 0);
      CU_ASSERT(init[late][rank] >= 0 && init[late][rank] < 5);
    }
  }
  for (int rank = 0; rank < 2; rank++)
    CU_ASSERT(age[1][rank] >= age[0][rank] + 0.2 && age[1][rank] >= 0.3 && age[1][rank] < 2 && age[0][rank] >= 0);
  const char *analyse[] = {"analyse", "trace", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, analyse, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  tu_unwrap(run.out);
  char said[160];
  int last = age[1][1] + init[1][1] > age[1][0] + init[1][0]; /* the rank that reached time 0 last */
  snprintf(said, sizeof said,
           "; before its time 0 and outside the trace, its last process to reach it ran %.3f s before calling "
           "MPI_Init, then %.3f s in MPI_Init (start-up",
           age[1][last], init[1][last]);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, said));
  run_free(&run);
  remove_folder(trace);
  remove_folder(dir);
}

/* A run of some 2.5 ms whose start-up is a large share of it (tests/data/tracer/startup.c: 0.6 ms of computation
 * before its first call, then 40 rounds of MPI_Comm_dup, MPI_Comm_split and two MPI_Comm_free, as a solver's set-up,
 * then 1.6 ms of computation and an MPI_Allreduce) is predicted within 10% of its measured T_par at p = 1 and 2
 * (docs/tracer-extras.md, "Start-up"): the set-up calls' processor time is in the TI trace's computation, and the
 * recorder's work at each entry is out of the calls' measured time. Before, the replay priced the set-up calls at
 * nothing and each measured call held some 1-2 us of the recorder's clock readings: 16-27% short (three runs each at a
 * load of 12 on two cores). On a loaded machine a run may lose its processor for a tenth of its time or more (25.6%
 * once at p = 2, beside the rest of the suite and three builds): such a run is compared with the range its CPU times
 * give, as simrun analyse says (beside check_docs, 8 runs of 8 at p = 2 were disturbed, their busiest cores' CPU time
 * 3.0-8.2 ms where quiet runs took 3.4-3.5 ms: compared with that, 5 of them were predicted 37-63% short; 7 fell within
 * their ranges), and the best of up to five runs is taken, each 0.5 s. About 3 s. */
static void test_trc_mpi_startup_predicted(void)
{
  char dir[1024];
  char trace[1100];
  built_in(dir, trace, build, STARTUP, "startup");
  for (int p = 1; p <= 2; p++) {
    double best = INFINITY;
    for (int attempt = 0; attempt < 5 && !(best <= 0.10); attempt++) {
      cli_run_t run;
      char np[8];
      snprintf(np, sizeof np, "%d", p);
      CU_ASSERT_EQUAL_FATAL(traced_run(dir, "./startup", np, trace, NULL, &run), 0);
      TU_ASSERT_RAN(&run);
      CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "startup done"));
      run_free(&run);
      best = fmin(best, fabs(replay_difference(dir, trace)));
    }
    CU_ASSERT(best <= 0.10);
    if (!(best <= 0.10))
      fprintf(stderr, "startup at p = %d: predicted %.1f%% from the measured T_par (or range)\n", p, 100 * best);
  }
  remove_folder(trace);
  remove_folder(dir);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_trc_mpi_ring_matmul_messages", test_trc_mpi_ring_matmul_messages},
      {"test_trc_mpi_calls_and_untraced_warning", test_trc_mpi_calls_and_untraced_warning},
      {"test_trc_mpi_io_and_windows_named", test_trc_mpi_io_and_windows_named},
      {"test_trc_mpi_collectives_alone_need_no_action", test_trc_mpi_collectives_alone_need_no_action},
      {"test_trc_mpi_buffered_sends_and_matched_ireceives", test_trc_mpi_buffered_sends_and_matched_ireceives},
      {"test_trc_mpi_waitall_of_some_requests", test_trc_mpi_waitall_of_some_requests},
      {"test_trc_mpi_waits_for_no_message", test_trc_mpi_waits_for_no_message},
      {"test_trc_mpi_nonblocking_collectives_paired", test_trc_mpi_nonblocking_collectives_paired},
      {"test_trc_mpi_nonblocking_forms_as_blocking", test_trc_mpi_nonblocking_forms_as_blocking},
      {"test_trc_mpi_intercommunicator_partners", test_trc_mpi_intercommunicator_partners},
      {"test_trc_mpi_any_source_receives", test_trc_mpi_any_source_receives},
      {"test_trc_mpi_requests_and_sub_communicators", test_trc_mpi_requests_and_sub_communicators},
      {"test_trc_mpi_duplicates_and_waited_requests", test_trc_mpi_duplicates_and_waited_requests},
      {"test_trc_mpi_probe_waits_for_late_sender", test_trc_mpi_probe_waits_for_late_sender},
      {"test_trc_mpi_rooted_collectives_wait_for_root", test_trc_mpi_rooted_collectives_wait_for_root},
      {"test_trc_mpi_sendrecv_ring_waits_for_slow_rank", test_trc_mpi_sendrecv_ring_waits_for_slow_rank},
      {"test_trc_mpi_persistent_messages_paired", test_trc_mpi_persistent_messages_paired},
      {"test_trc_mpi_folded_pingpong", test_trc_mpi_folded_pingpong},
      {"test_trc_mpi_fortran_program", test_trc_mpi_fortran_program},
      {"test_trc_mpi_f08_program", test_trc_mpi_f08_program},
      {"test_trc_mpi_serial_program_is_reported", test_trc_mpi_serial_program_is_reported},
      {"test_trc_mpi_aborted_run_is_refused", test_trc_mpi_aborted_run_is_refused},
      {"test_trc_mpi_killed_run_is_refused", test_trc_mpi_killed_run_is_refused},
      {"test_trc_mpi_exit_without_finalize_whole", test_trc_mpi_exit_without_finalize_whole},
      {"test_trc_mpi_span_library", test_trc_mpi_span_library},
      {"test_trc_mpi_thread_multiple", test_trc_mpi_thread_multiple},
      {"test_trc_mpi_full_disk_keeps_program_running", test_trc_mpi_full_disk_keeps_program_running},
      {"test_trc_mpi_unwritable_folder_keeps_program_running", test_trc_mpi_unwritable_folder_keeps_program_running},
      {"test_trc_mpi_large_files_compressed", test_trc_mpi_large_files_compressed},
      {"test_trc_mpi_own_time_removed", test_trc_mpi_own_time_removed},
      {"test_trc_mpi_work_after_a_call_is_the_recorders", test_trc_mpi_work_after_a_call_is_the_recorders},
      {"test_trc_mpi_nested_calls_in_the_outer_one", test_trc_mpi_nested_calls_in_the_outer_one},
      {"test_trc_mpi_own_time_keeps_causality", test_trc_mpi_own_time_keeps_causality},
      {"test_trc_mpi_receive_into_fresh_pages_faults", test_trc_mpi_receive_into_fresh_pages_faults},
      {"test_trc_mpi_polls_with_work_keep_their_processor_time",
       test_trc_mpi_polls_with_work_keep_their_processor_time},
      {"test_trc_mpi_polls_work_is_computation", test_trc_mpi_polls_work_is_computation},
      {"test_trc_mpi_polls_of_many_requests_no_work", test_trc_mpi_polls_of_many_requests_no_work},
      {"test_trc_mpi_wait_copies_not_computation", test_trc_mpi_wait_copies_not_computation},
      {"test_trc_mpi_shared_handles_name_pending_requests", test_trc_mpi_shared_handles_name_pending_requests},
      {"test_trc_mpi_polls_counted_at_every_rhythm", test_trc_mpi_polls_counted_at_every_rhythm},
      {"test_trc_mpi_children_work_counted", test_trc_mpi_children_work_counted},
      {"test_trc_mpi_children_not_preloaded", test_trc_mpi_children_not_preloaded},
      {"test_trc_mpi_shared_core_held_tracer_time", test_trc_mpi_shared_core_held_tracer_time},
      {"test_trc_mpi_setup_waits_are_the_tracers", test_trc_mpi_setup_waits_are_the_tracers},
      {"test_trc_mpi_work_after_finalize_said", test_trc_mpi_work_after_finalize_said},
      {"test_trc_mpi_spawned_not_traced", test_trc_mpi_spawned_not_traced},
      {"test_trc_mpi_spawned_bare_children", test_trc_mpi_spawned_bare_children},
      {"test_trc_mpi_polls_without_tracer_cost", test_trc_mpi_polls_without_tracer_cost},
      {"test_trc_mpi_startup_predicted", test_trc_mpi_startup_predicted},
      {"test_trc_mpi_startup_recorded", test_trc_mpi_startup_recorded},
      {NULL, NULL}};
  /* the cases match whole lines of simrun analyse's own output: one line each at the widest report (the lines
   * fitted to 80 columns are test_cli_layout's) */
  setenv("COLUMNS", "1000", 1);
  return tu_run("trc_mpi", cases);
}
