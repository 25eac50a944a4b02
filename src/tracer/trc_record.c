/* The tracer's recorder (trc_record.h): clocks, the rank's two files and the untraced-call tally. Computation between
 * calls is timed twice: by the wall clock for the measured timeline (what happened, seed 000 §1.2's EPPA timeline) and
 * by the thread's CPU clock times a flop rate for the TI trace (the work, whatever else shared the core). */
#define _GNU_SOURCE /* realpath */
#include "trc_record.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum { PHASE_DEPTH = 16, PHASE_LEN = 64, UNTRACED_KINDS = 32, FILE_BUFFER = 1 << 20 };

typedef struct untraced {
  const char *name; /* a string literal of the wrappers */
  long count;
} untraced_t;

typedef struct recorder {
  int on;
  int rank;
  int size;
  char dir[PATH_MAX];
  FILE *ti;
  FILE *timeline;
  double rate;        /* flop/s */
  const char *source; /* where the rate came from */
  struct timespec origin;
  double last_exit; /* wall time the current computation interval started */
  double last_cpu;  /* thread CPU time then */
  double flops;     /* computation not yet written as a TI action: phase changes do not split it */
  char phase[PHASE_DEPTH][PHASE_LEN];
  int depth;          /* phase[depth] is the current label; phase[0] is "main" */
  int dropped_phases; /* begins beyond PHASE_DEPTH, ended without a label change */
  untraced_t untraced[UNTRACED_KINDS];
  int nuntraced;
} recorder_t;

static recorder_t rec = {.phase = {"main"}};

static double seconds(const struct timespec *t)
{
  return (double)t->tv_sec + 1e-9 * (double)t->tv_nsec;
}

double trc_now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return seconds(&t) - seconds(&rec.origin);
}

static double cpu_now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return seconds(&t);
}

int trc_active(void)
{
  return rec.on;
}

const char *trc_dir(void)
{
  return rec.dir;
}

/* The flop rate of four independent multiply-add chains over 2^20 iterations (8.4e6 flops, a few ms on this
 * machine's cores): what a compute-bound loop of the program gets from one core. */
static double calibrate(void)
{
  volatile double seed = 1.0000001;
  double a = seed, b = seed, c = seed, d = seed, m = seed * 0.9999999, k = 1e-9;
  const long iterations = 1L << 20;
  double t0 = cpu_now();
  for (long i = 0; i < iterations; i++) {
    a = a * m + k;
    b = b * m + k;
    c = c * m + k;
    d = d * m + k;
  }
  double elapsed = cpu_now() - t0;
  seed = a + b + c + d; /* keeps the loop */
  return elapsed > 0 ? 8.0 * (double)iterations / elapsed : 1e9;
}

/* The rate from SIMRUN_TRACE_FLOPS, or calibrated; rec.source says which. */
static void choose_rate(void)
{
  const char *text = getenv("SIMRUN_TRACE_FLOPS");
  char *end = NULL;
  double given = text ? strtod(text, &end) : 0;
  if (text && end != text && *end == '\0' && given > 0 && given < 1e18) {
    rec.rate = given;
    rec.source = "SIMRUN_TRACE_FLOPS";
    return;
  }
  if (text && rec.rank == 0)
    fprintf(stderr, "simrun-trace: warning: SIMRUN_TRACE_FLOPS=%s is not a positive number of flop/s; calibrating\n",
            text);
  rec.rate = calibrate();
  rec.source = "calibrated: four multiply-add chains, 8.4e6 flops";
}

static FILE *open_rank_file(const char *kind)
{
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s-%d.txt", rec.dir, kind, rec.rank);
  FILE *f = fopen(path, "w");
  if (!f)
    fprintf(stderr, "simrun-trace: warning: rank %d cannot write %s: %s; this run is not traced\n", rec.rank, path,
            strerror(errno));
  else
    setvbuf(f, NULL, _IOFBF, FILE_BUFFER);
  return f;
}

static int open_files(void)
{
  const char *dir = getenv("SIMRUN_TRACE_DIR");
  if (!dir || !*dir)
    dir = "simrun-trace";
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "simrun-trace: warning: cannot create %s: %s; this run is not traced\n", dir, strerror(errno));
    return -1;
  }
  if (!realpath(dir, rec.dir)) {
    fprintf(stderr, "simrun-trace: warning: cannot use %s: %s; this run is not traced\n", dir, strerror(errno));
    return -1;
  }
  rec.ti = open_rank_file("rank");
  rec.timeline = rec.ti ? open_rank_file("timeline") : NULL;
  if (!rec.timeline) {
    if (rec.ti)
      fclose(rec.ti);
    rec.ti = NULL;
    return -1;
  }
  return 0;
}

int trc_start(int rank, int size)
{
  rec.rank = rank;
  rec.size = size;
  if (open_files() != 0)
    return -1;
  choose_rate();
  clock_gettime(CLOCK_MONOTONIC, &rec.origin);
  rec.last_exit = 0;
  rec.last_cpu = cpu_now();
  rec.on = 1;
  fprintf(rec.timeline,
          "# simrun measured timeline 1\n"
          "# rank %d of %d\n"
          "# program %s\n"
          "# clock: wall seconds (CLOCK_MONOTONIC) since the end of MPI_Init\n"
          "# flop-rate %.6e flop/s (%s): rank-%d.txt's compute amounts are thread CPU seconds times this rate\n"
          "# start end category phase peer bytes call\n",
          rank, size, program_invocation_short_name, rec.rate, rec.source, rank);
  fprintf(rec.ti, "%d init\n", rank);
  trc_flush(); /* a run killed before MPI_Finalize leaves at least the headers */
  return 0;
}

/* One timeline line; a partner that is no rank (MPI_PROC_NULL, MPI_ANY_SOURCE) is written -1. */
static void write_interval(double start, double end, const char *category, int peer, double bytes, const char *name)
{
  /* seconds with 9 decimals, as "%.9f" writes them, from whole nanoseconds: integers format several times faster */
  long long from = llround(start * 1e9);
  long long to = llround(end * 1e9);
  fprintf(rec.timeline, "%lld.%09lld %lld.%09lld %s %s %d %lld %s\n", from / 1000000000, from % 1000000000,
          to / 1000000000, to % 1000000000, category, rec.phase[rec.depth], peer < 0 ? -1 : peer, (long long)bytes,
          name);
}

/* Ends the computation interval at `now` (wall) and `cpu` (CPU). */
static void end_compute(double now, double cpu)
{
  if (now > rec.last_exit)
    write_interval(rec.last_exit, now, "compute", -1, 0, "-");
  rec.flops += (cpu - rec.last_cpu) * rec.rate;
}

/* Writes the computation gathered so far as one TI compute action, before the next action. */
static void flush_compute(void)
{
  if (rec.flops >= 1)
    fprintf(rec.ti, "%d compute %.0f\n", rec.rank, rec.flops);
  rec.flops = 0;
}

double trc_enter(void)
{
  if (!rec.on)
    return 0;
  double now = trc_now();
  end_compute(now, cpu_now());
  return now;
}

static const char *category_name(trc_category_t category)
{
  static const char *const names[] = {"compute", "comm", "idle", "ctrl"};
  return names[category];
}

/* One TI action line, after the computation that preceded it. */
static void write_action(const char *ti, va_list ap)
{
  flush_compute();
  fprintf(rec.ti, "%d ", rec.rank);
  vfprintf(rec.ti, ti, ap);
  putc('\n', rec.ti);
}

void trc_call(double start, const char *name, trc_category_t category, int peer, double bytes, const char *ti, ...)
{
  if (!rec.on)
    return;
  double now = trc_now();
  write_interval(start, now, category_name(category), peer, bytes, name);
  if (ti) {
    va_list ap;
    va_start(ap, ti);
    write_action(ti, ap);
    va_end(ap);
  }
  rec.last_exit = now;
  rec.last_cpu = cpu_now();
}

void trc_action(const char *ti, ...)
{
  if (!rec.on)
    return;
  va_list ap;
  va_start(ap, ti);
  write_action(ti, ap);
  va_end(ap);
}

void trc_untraced(const char *name)
{
  for (int i = 0; i < rec.nuntraced; i++)
    if (strcmp(rec.untraced[i].name, name) == 0) {
      rec.untraced[i].count++;
      return;
    }
  if (rec.nuntraced < UNTRACED_KINDS)
    rec.untraced[rec.nuntraced++] = (untraced_t){.name = name, .count = 1};
}

/* Ends the computation interval, so that what follows carries the new label. */
static void phase_boundary(void)
{
  double now = trc_now();
  double cpu = cpu_now();
  end_compute(now, cpu);
  rec.last_exit = now;
  rec.last_cpu = cpu;
}

void trc_phase_begin(const char *name)
{
  if (!rec.on)
    return;
  if (rec.depth + 1 >= PHASE_DEPTH) {
    rec.dropped_phases++;
    return;
  }
  phase_boundary();
  char *label = rec.phase[++rec.depth];
  snprintf(label, PHASE_LEN, "%s", name && *name ? name : "unnamed");
  for (char *c = label; *c; c++)
    if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
      *c = '_';
}

void trc_phase_end(void)
{
  if (!rec.on)
    return;
  if (rec.dropped_phases > 0) {
    rec.dropped_phases--;
    return;
  }
  if (rec.depth == 0)
    return;
  phase_boundary();
  rec.depth--;
}

/* One line, written at once so that the ranks' warnings do not interleave on mpirun's stderr. */
static void warn_untraced(void)
{
  if (rec.nuntraced == 0)
    return;
  char line[4096];
  size_t len =
      (size_t)snprintf(line, sizeof line,
                       "simrun-trace: warning: rank %d: calls not in the TI trace (replay will miss them):", rec.rank);
  for (int i = 0; i < rec.nuntraced && len < sizeof line; i++)
    len += (size_t)snprintf(line + len, sizeof line - len, " %s x%ld", rec.untraced[i].name, rec.untraced[i].count);
  fprintf(stderr, "%s\n", line);
}

void trc_flush(void)
{
  if (!rec.on)
    return;
  fflush(rec.ti);
  fflush(rec.timeline);
}

int trc_finish(void)
{
  if (!rec.on)
    return -1;
  double now = trc_enter();
  flush_compute();
  fprintf(rec.ti, "%d finalize\n", rec.rank);
  fprintf(rec.timeline, "# end %.9f\n", now);
  rec.on = 0;
  warn_untraced();
  int ok = !ferror(rec.ti) && !ferror(rec.timeline);
  ok = fclose(rec.ti) == 0 && ok;
  ok = fclose(rec.timeline) == 0 && ok;
  if (!ok)
    fprintf(stderr, "simrun-trace: warning: rank %d could not write its files in %s whole\n", rec.rank, rec.dir);
  return ok ? 0 : -1;
}
