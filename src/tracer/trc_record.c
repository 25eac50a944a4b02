/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracer's recorder (trc_record.h): clocks, the rank's two files and the untraced-call tally. Computation between
 * calls is timed twice: by the wall clock for the measured timeline (what happened, seed 000 §1.2's EPPA timeline) and
 * by the thread's CPU time (trc_cpu.h) times a flop rate for the TI trace (the work, whatever else shared the core).
 * The recorder's own time after each call is kept out of both (and summed, per rank), and a run of unsuccessful polls
 * is one record. */
#define _GNU_SOURCE /* realpath */
#include "trc_record.h"
#include "met_flops.h"
#include "trc_carry.h"
#include "trc_clock.h"
#include "trc_cpu.h"
#include "trc_fold.h"
#include "trc_folder.h"
#include "trc_out.h"
#include "trc_timeline.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { PHASE_DEPTH = 16, PHASE_LEN = 64, UNTRACED_KINDS = 64, FILE_BUFFER = 1 << 20 };
/* A rank's file beyond this much text (default; SIMRUN_TRACE_COMPRESS) is written as zstd (trc_out_compress_beyond):
 * the timeline (only simrun reads it) and, once it holds one of simrun's extensions (smpirun cannot read it then), the
 * TI trace. Below it, plain text at no cost (ScaLAPACK's xdlu at p = 4 writes about 2.3 MB per rank and file in 1 s).
 * Once the run has lasted COMPRESS_LATE seconds, the bound is COMPRESS_LATE_FROM: compressing (some 3 ms of CPU per
 * MB) then costs under a thousandth of the run per MB, and a long run's files stay small however many ranks it has (Ray
 * at p = 4, 50 s: four ranks of 4-5 MB of text, a 19 MB folder with the 4 MiB bound alone). */
#define COMPRESS_FROM      (4LL << 20)
#define COMPRESS_LATE      10.0
#define COMPRESS_LATE_FROM (1LL << 20)
/* Whatever the run's length, the default bound is at most COMPRESS_FOLDER / p: a folder of p ranks' two files, each
 * just below it in plain text, then holds at most 16 MiB (issue 25's check: folders under 20 MB), where the 4 MiB
 * bound alone allowed 32 MiB at p = 4. */
#define COMPRESS_FOLDER (8LL << 20)

/* A gap between two polls up to this long is part of the polling, not computation: a loop that only polls spends
 * well under a microsecond between calls; one that works between its tests, more than this. */
#define POLL_GAP 10e-6
/* Inside a run of polls the clock is read once per STRIDE_SPAN of its polls' mean period, at most every STRIDE_MAX-th
 * poll (trc_enter_poll): the polls between are counted, their times taken as the last reading's, so that the run's
 * times, and the entry of the call that ends it, are known to STRIDE_SPAN. A reading took 10-15 ns of a 100-ns poll
 * (rdtsc under KVM, bench/trc_polling.c: perf), most of the recorder's time in a dense run. */
#define STRIDE_SPAN 1e-6
#define STRIDE_MAX  16
/* After one unsuccessful poll in about this many (a draw between half and one and a half times it), the time to the
 * next poll's entry is read (trc_clock_now_ordered once the recorder is done with the poll, and at that entry): the
 * program's work between its polls, less the recorder's part of it (the wrapper's, the readings'), which a run of polls
 * holds (take_polls). The fence costs 60-150 ns of CPU a pair after work (trc_clock.h): 1-2 ns a poll so. Drawn, not
 * every 64th: a program that works once every 4, 8 or 64 tests had its times read at the same place of its loop each
 * time, its work then over the tests' or none of it (poll_work.c's 250x8, 1 us of work each 8 tests: 14.9, 17.7 and
 * 36.6 ms booked of 27.7-34.3 ms of work; drawn, 36.3-39.3 of 32.7-33.2). Where the run's polls come over 62 ns apart,
 * one in about 4 us of its mean period (BETWEEN_SPAN, BETWEEN_LEAST at least): a pair of fenced readings then costs
 * 2-4% of the run, and a run of a loop that tests 15 times after 29 us of work, some 930 polls, gets 230 times read,
 * not 14, of which one in 15 holds the work (with 14, the runs whose few times missed it booked none, those that held
 * it were capped at their span: 50-60% of the work booked). */
#define BETWEEN_EVERY 64
#define BETWEEN_SPAN  4e-6
#define BETWEEN_LEAST 4
/* The most a time between two polls can be that a run holds (time_between): the most CPU time a gap over STRIDE_MAX
 * unread polls keeps in the run (poll_gap). A longer one is left out; a shorter one over POLL_GAP is kept where the
 * CPU time of the span read around it holds it (between_kept), not where the rank was off its processor. */
#define BETWEEN_MAX (POLL_GAP * STRIDE_MAX)
/* The most the recorder's cost per poll can be (trc_measure_polls): an unsuccessful MPI_Test takes some 15 ns on this
 * machine and the recorder some 10 ns more (bench/tracer.sh); a difference beyond this is a disturbed measurement. */
#define POLL_COST_MAX 10e-6
/* The thread's CPU time is a system call (trc_cpu_now, about 0.7 us): it is read around a computation expected to last
 * at least this long (the previous one did), and at least once per CPU_EVERY of wall time. Shorter computations are
 * timed by the wall clock times the CPU share last measured. */
#define CPU_GAP   20e-6
#define CPU_EVERY 1e-3
/* The most of the recorder's own time in one gap between intervals that is its CPU time when it wrote nothing then
 * (held_in): its work after a call, a long computation's readings included (the CPU clock and page faults, two system
 * calls each side), took 8-10 us on this virtual machine (a traced MPB run); a longer gap was held up, the rank
 * preempted inside it (MPB at p = 4 on 2 cores: 131 of rank 0's 4,742 gaps over 50 us, 0.149 of its 0.179 s of own
 * time, where at p = 1 16 gaps held 0.002 s). */
#define OWN_CPU_MAX CPU_GAP
/* The CPU time of the rank's child processes (getrusage(RUSAGE_CHILDREN): the children it waited for, and theirs) is
 * read after a computation this long or longer: starting a child (fork, exec) and waiting for it takes longer (a
 * system("true") about 1 ms on this machine, by hand), and a reading (a system call, some 0.3 us) then costs under
 * 0.3% of the computation. */
#define CHILD_GAP 100e-6
/* The most CPU time a rank's thread has in a gap between two calls in which it lost its processor (poll_gap): the
 * rest of the call it was preempted in, the return to the next, and the caches refilled. By hand, a loop of clock
 * readings on 2 cores beside 3, 8 and 20 busy loops (KVM guest, 5 s each): of 2,045 gaps over 100 us of wall time with
 * under a tenth of it in CPU time, 14 held over 20 us, one 189 us, the others 53 us at most. A longer one ends the run
 * of polls as a computation of its own, its CPU time kept. */
#define DESCHEDULED_CPU 100e-6
/* The least computation written as a TI compute action on its own (seconds of CPU at the flop rate). */
#define COMPUTE_MIN 1e-5
/* The least mean computation per iteration written in a loop's body (flops): below, a "compute" line costs more than
 * it says. */
#define LOOP_FLOPS_MIN 0.5

typedef struct untraced {
  const char *name; /* a string literal of the wrappers */
  long count;
} untraced_t;

/* A computation interval ended by an entry, not yet in a record. */
typedef struct gap {
  int set;
  double start;
  double end;
  double flops;
} gap_t;

/* A run of unsuccessful polls not yet in a record. */
typedef struct poll_run {
  long count;
  double first; /* entry into the first poll */
  double last;  /* exit from the last, or entry into the call that ended the run */
  const char *name;
  int closed; /* a computation ended it; the next call or poll makes it a record */
  gap_t gap;  /* the computation before its first poll */
  /* The thread's CPU clock at the run's first reading and at its latest (poll_seen), with the wall times, and the
   * readings made for the run (none in a short run: trc_poll): its processor time (poll_run_flops). */
  double cpu_first;
  double wall_first;
  double cpu_seen;
  double wall_seen;
  int readings;
  /* A run not read from its start whose first reading ends a gap that lost the processor, or follows its first poll
   * held up (preempted inside the library) or the recorder's writing of the run before (trc_poll): their wall seconds
   * and the gap's CPU seconds (gap_cpu's, a lower bound; the poll's, some 15 ns, and the recorder's: none), which the
   * share before the first reading must not price (poll_work.c beside 8 busy loops: runs of 2-8 polls whose recorder
   * lost its processor for 10-14 ms were priced at that much CPU time, a fifth of the program's loop, 4 runs of 40) */
  double lead_gap;
  double lead_cpu;
  /* Polls whose clock is not read (trc_enter_poll): every `stride`-th poll of the run reads it, and `unread` have not
   * since the last that did */
  int stride;
  int unread;
  /* The times from the recorder's return from one of its polls to the next poll's entry (time_between): their sum
   * and count, and those read since a reading of the clock last kept the run (between_kept): under POLL_GAP, and
   * over it (`long`, kept only where that reading's span had as much CPU time) */
  double between;
  long betweens;
  double pending;
  long pendings;
  double pending_long;
  long pendings_long;
  long longs; /* of the times kept, those over POLL_GAP: the run shows work between its polls */
} poll_run_t;

/* What "# disturbance" compares at the start of the first computation and at the entry into MPI_Finalize
 * (disturbance_said), read together (read_counters): the run's preemptions inside the recorder's writes after that
 * entry (shared_core.c on a shared core: 1.4 ms each) counted in WAITED and not in WALL made CPU + WAITED pass WALL by
 * up to 1.2%. */
typedef struct counters {
  double waited; /* the thread's wait for a processor (waited_for_cpu), or NAN */
  double load;   /* the machine's load (/proc/loadavg, one minute), or NAN */
  double usage;  /* the process's CPU seconds (getrusage) */
  long switches; /* and its involuntary context switches */
} counters_t;

/* What trc_measure_polls measures, if anything: the recorder's CPU time per poll, or the time between two polls. */
typedef enum { MEASURE_NONE, MEASURE_COST, MEASURE_BETWEEN } measure_t;

typedef struct recorder {
  pid_t pid; /* the process that started recording: a child forked without exec shares its state and files */
  sigset_t signals_blocked; /* the recorded thread's at MPI_Init (trc_finish_at_exit) */
  int on;
  int failed; /* a file could not be written: no index */
  int rank;
  int size;
  char dir[PATH_MAX];
  trc_out_t *ti;
  trc_out_t *timeline;
  trc_timeline_t *lines; /* the timeline's encoder */
  double rate;           /* flop/s */
  const char *source;    /* where the rate came from */
  struct timespec origin;
  double origin_s;    /* the same in seconds */
  double last_exit;   /* wall time the current computation interval started */
  int call_exited;    /* last_exit is a recorded call's exit (resume after its line): trc_after_call may move it */
  int after_due;      /* trc_after_follows: the next trc_call leaves its resume to the wrapper's trc_after_call */
  double resume_from; /* that call's end, while its resume waits for trc_after_call; -1: none */
  double last_cpu;    /* thread CPU time then, when cpu_known */
  int cpu_known;      /* the CPU clock was read at last_exit */
  double cpu_wall;    /* wall time of the last CPU clock reading */
  double cpu_share;   /* CPU seconds per wall second of the last computation timed by both clocks */
  int long_compute;   /* the last computation, or the call after it, lasted CPU_GAP or more */
  int long_polls;     /* the last run of polls lasted CPU_GAP or more */
  double entry_cpu;   /* the thread's CPU clock read at the last entry (gap_cpu), or NAN */
  double returned;    /* the time the current call's PMPI call returned (trc_returned), or -1 */
  double outside_at;  /* where the wrapper's work before the next call's entry began (trc_call_outside_begins), or -1 */
  long fault_mark;    /* the thread's minor page faults at the last reading (gap_cpu, trc_call), or -1 */
  double flops;       /* computation not yet written as a TI action: phase changes do not split it */
  double own;         /* seconds spent in the recorder after the calls: kept out of the computation */
  double own_startup; /* of which the start-up's, time 0 to the first computation (trc_time_started) */
  double own_waited;  /* of which waits for a processor in the library's own reductions (trc_setup_call) */
  long own_writes;    /* the files' writes at the last own_time (trc_out_writes) */
  double delay_mark;  /* the thread's wait for a processor when a gap last read it (held_in), or NAN */
  double lead_held;   /* the first seconds of the current computation, a gap's held part (held_in) */
  double children;    /* the child processes' CPU seconds at the last reading (children_since) */
  double child_used;  /* their CPU seconds since MPI_Init */
  double child_count; /* of which counted as the rank's computation (within the computations' wall time) */
  double compute_cpu; /* the CPU seconds of the rank's computations, the children's counted included */
  double polls_cpu;   /* the CPU seconds of its runs of polls, what their TI amounts charge (poll_run_flops) */
  /* The times between two polls of a run (BETWEEN_EVERY): the poll to read its exit (`timing`, once `untimed` polls
   * went by since the last), that exit and its run's first entry (or -1), every such time's seconds and count over the
   * rank's runs, and the recorder's part of one (trc_measure_polls: between polls with no work); the poll count
   * `untimed` that makes the next time read, and the generator that draws it (next_timing) */
  int timing;
  long untimed;
  long timing_due;
  unsigned long long draws;
  double timed_exit;
  double timed_run;
  double between;
  long betweens;
  double between_short; /* of which those under POLL_GAP (between_kept) */
  long betweens_short;
  double between_own;
  double polls_work; /* the wall seconds of the runs of polls the timeline books as the work between them */
  trc_carry_t carry; /* what the caps of the runs since the last other call cut of their work (carried_work) */
  long polls_counted;
  counters_t started; /* at the start of the first computation (start_clocks) */
  int finished;       /* trc_finish read the process's CPU time, `finished_usage`, at the entry into MPI_Finalize */
  double finished_usage;
  double exit_usage;   /* and at its return (trc_finalize_returned; 0: not yet) */
  double clock_cost;   /* seconds between two consecutive wall clock readings (measure_clock) */
  double poll_cost;    /* the recorder's CPU seconds per unsuccessful poll (trc_measure_polls), else 2 clock_cost */
  measure_t measuring; /* trc_measure_polls runs: no record is written, no file's bound changed */
  double cpu_cost;     /* and CPU seconds between two of the thread's CPU clock */
  double setup_cpu;    /* the thread's CPU clock at the entry of the set-up call in progress (trc_enter_setup) */
  double setup_end;    /* and the wall time it returned (trc_setup_done) */
  double setup_delay;  /* and the thread's wait for a processor then (waited_for_cpu), or NAN */
  int computed;        /* a computation ended: the first one is not cut (its start is time 0's, which simrun analyse
                        * keeps) */
  poll_run_t polls;    /* count 0: none */
  gap_t gap;           /* the computation before the call being entered */
  trc_rec_t cur;       /* the last call's record, until the next call or poll run opens another */
  trc_fold_t *folder;  /* NULL: records are written as they come (SIMRUN_TRACE_FOLD=0, or out of memory) */
  int env_set;         /* trc_envelope gave the next call's message tag and communicator */
  int env_tag;
  int env_comm;
  long long env_req;             /* trc_envelope_request's, or -1 */
  unsigned long long env_others; /* trc_envelope_others' */
  int sr_set;                    /* trc_envelope_recv gave the next call's receive half */
  int sr_src;
  int sr_tag;
  double sr_bytes;
  char phase[PHASE_DEPTH][PHASE_LEN];
  int depth;          /* phase[depth] is the current label; phase[0] is "main" */
  int dropped_phases; /* begins beyond PHASE_DEPTH, ended without a label change */
  untraced_t untraced[UNTRACED_KINDS];
  int nuntraced;
  double rma_seconds;      /* in one-sided calls (trc_rma_exit) */
  int smpi_only;           /* SIMRUN_TRACE_FORMAT=smpi: no action smpirun cannot read */
  long long compress_from; /* SIMRUN_TRACE_COMPRESS: text beyond which a file is zstd; 0: never */
  int compress_given;      /* SIMRUN_TRACE_COMPRESS set: its bound holds for the whole run */
  int compress_late;       /* the bound became COMPRESS_LATE_FROM */
  int ti_compress;         /* the TI trace holds one of simrun's extensions: it may be zstd */
  char prefix[16];         /* "RANK ", which begins each TI line */
  size_t prefix_len;
  untraced_t refused[UNTRACED_KINDS]; /* simrun's actions left out for that, which make the trace unreplayable */
  int nrefused;
} recorder_t;

static recorder_t rec = {.phase = {"main"},
                         .cpu_share = 1,
                         .fault_mark = -1,
                         .timed_exit = -1,
                         .timing_due = BETWEEN_EVERY,
                         .env_req = -1,
                         .entry_cpu = NAN,
                         .returned = -1,
                         .outside_at = -1,
                         .resume_from = -1};

static void emit_plain(const trc_rec_t *r);
static void emit_loop(const trc_loop_t *l);

static double seconds(const struct timespec *t)
{
  return (double)t->tv_sec + 1e-9 * (double)t->tv_nsec;
}

double trc_now(void)
{
  return trc_clock_now() - rec.origin_s;
}

/* The thread's minor page faults so far (a system call, as the CPU clock), or -1. */
static long thread_faults(void)
{
  struct rusage u;
  return getrusage(RUSAGE_THREAD, &u) == 0 ? u.ru_minflt : -1;
}

/* The CPU seconds the rank's child processes used since the last call (those it waited for: RUSAGE_CHILDREN). */
static double children_since(void)
{
  struct rusage u;
  if (getrusage(RUSAGE_CHILDREN, &u) != 0)
    return 0;
  double now =
      (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  double since = now - rec.children;
  rec.children = now;
  return since > 0 ? since : 0;
}

/* Only the thread that initialised MPI is recorded (trc_owner_only), whatever the thread level; the calls of the
 * others are counted, and trc_finish says how many. Whether the calling thread is that one is a flag of its own, in
 * the static TLS block (the library's thread-locals are initial-exec: CMakeLists.txt): a poll asks three times, and
 * pthread_self through the PLT took some 5 ns of a poll's 15 (bench/trc_polling.c at p = 1, least of 8). */
static int owner_only;
static __thread int is_owner;
static atomic_ulong others;
/* The traced calls the thread is inside: 1 in a call, more when the MPI library calls back into the program and it
 * makes MPI calls there (an attribute's delete callback freeing another communicator inside MPI_Comm_free, as PETSc
 * and GetDP do). Those inner calls are part of the outer call's time and are not recorded: their record came before
 * the outer's, which started earlier, and the timeline's next gap was negative (docs/tracer.md). */
static __thread int depth;
/* What trc_enter returns for a call inside another: the end functions then record nothing. */
#define NESTED (-1.0)

void trc_owner_only(void)
{
  is_owner = 1;
  owner_only = 1;
}

/* Whether the calling thread records (the owner, recording on), outside the calls nested in another. */
static int records(void)
{
  return rec.on && (!owner_only || is_owner);
}

int trc_active(void)
{
  return records() && depth <= 1;
}

/* At the end of the call that entered at `start`: whether it is recorded; a nested call's end is only counted. */
static int leaving(double start)
{
  if (start == NESTED) {
    depth--;
    return 0;
  }
  depth = 0;
  return trc_active();
}

const char *trc_dir(void)
{
  return rec.dir;
}

/* The flop rate of met_flop_chains over 2^20 iterations (8.4e6 flops, a few ms on this machine's cores): what a
 * compute-bound loop of the program gets from one core, timed as simrun machine probe times it. */
static double calibrate(void)
{
  volatile double seed = 1.0000001;
  const long iterations = 1L << 20;
  double t0 = trc_cpu_clock();              /* before the wall clock is calibrated (trc_cpu_now reads it) */
  seed = met_flop_chains(seed, iterations); /* kept in a volatile: the loop stays */
  double elapsed = trc_cpu_clock() - t0;
  return elapsed > 0 ? MET_FLOPS_PER_ITERATION * (double)iterations / elapsed : 1e9;
}

/* The cost of a clock reading: the median gap between two consecutive readings, of CLOCK_READINGS pairs. The wall
 * clock's (trc_clock_now: the time-stamp counter, some 10 ns, or a vDSO call, 20-60 ns, on this machine): a computation
 * interval is bounded by two readings, the second half of one and the first half of the other inside it, that much is
 * the recorder's. The thread's CPU clock's (a system call, 0.2-0.5 us): those read inside a run of polls are the
 * recorder's (poll_run_flops). */
enum { CLOCK_READINGS = 31 };

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double measure_clock(double (*read)(void))
{
  double gaps[CLOCK_READINGS];
  for (int i = 0; i < CLOCK_READINGS; i++) {
    double a = read();
    gaps[i] = read() - a;
  }
  qsort(gaps, CLOCK_READINGS, sizeof *gaps, by_value);
  return gaps[CLOCK_READINGS / 2];
}

/* The rate from SIMRUN_TRACE_FLOPS, or calibrated; rec.source says which. */
static void choose_rate(void)
{
  const char *text = getenv("SIMRUN_TRACE_FLOPS");
  char *end = NULL;
  double given = text ? strtod(text, &end) : 0;
  if (text && end != text && *end == '\0' && given > 0 && given < 1e18) {
    rec.rate = given;
    rec.source = MET_FLOPS_GIVEN;
    return;
  }
  if (text && rec.rank == 0)
    fprintf(stderr, "simrun-trace: warning: SIMRUN_TRACE_FLOPS=%s is not a positive number of flop/s; calibrating\n",
            text);
  rec.rate = calibrate();
  rec.source = "calibrated: four multiply-add chains, 8.4e6 flops";
}

static trc_out_t *open_rank_file(const char *kind)
{
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s-%d.txt", rec.dir, kind, rec.rank);
  return trc_out_open(path, rec.rank, FILE_BUFFER);
}

/* Files of an earlier run with more ranks, and its index, would pass for part of this run: rank 0 removes them, and
 * the markers of its ranks >= size (the other ranks only write files of ranks below size). A file it cannot remove is
 * said once. */
static void remove_stale(void)
{
  char path[PATH_MAX + 300];
  snprintf(path, sizeof path, "%s/index.txt", rec.dir);
  if (unlink(path) != 0 && errno != ENOENT)
    fprintf(stderr, "simrun-trace: warning: cannot remove %s: %s\n", path, strerror(errno));
  DIR *dir = opendir(rec.dir);
  for (struct dirent *e = dir ? readdir(dir) : NULL; e; e = readdir(dir))
    if (trc_folder_rank_file(e->d_name) >= rec.size) {
      snprintf(path, sizeof path, "%s/%s", rec.dir, e->d_name);
      if (unlink(path) != 0)
        fprintf(stderr, "simrun-trace: warning: cannot remove %s of an earlier run: %s\n", path, strerror(errno));
    }
  if (dir)
    closedir(dir);
}

/* The path of rank `rank`'s marker (trc_folder.h). */
static void marker_path(char *path, size_t len, int rank)
{
  snprintf(path, len, "%s/" TRC_INCOMPLETE "-%d", rec.dir, rank);
}

/* Adds `why` to rank `rank`'s marker, when it is there, as a "why: " line (docs/tracer.md): simrun analyse quotes it
 * when it refuses the folder (met_timeline.c), so that the folder says why after the warning has scrolled away. A line
 * longer than the room is cut; a marker that cannot be written keeps the generic refusal. */
static void marker_why(int rank, const char *why)
{
  char path[PATH_MAX + 64];
  marker_path(path, sizeof path, rank);
  /* not O_CREAT: a marker removed stays removed; O_NONBLOCK: a FIFO put there does not hold the rank */
  int fd = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return;
  char line[320];
  int n = snprintf(line, sizeof line, "why: %s\n", why);
  size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
  line[len > 0 ? len - 1 : 0] = '\n';
  if (len > 0 && write(fd, line, len) != (ssize_t)len)
    fprintf(stderr, "simrun-trace: warning: rank %d cannot add why its files stop short to %s: %s\n", rec.rank, path,
            strerror(errno));
  close(fd);
}

void trc_marker_why(const char *why)
{
  if (rec.dir[0])
    marker_why(rec.rank, why);
}

void trc_markers_left_why(const char *why)
{
  for (int i = 0; i < rec.size && rec.dir[0]; i++)
    if (i != rec.rank)
      marker_why(i, why);
}

/* The rank's marker, made before its files are opened and removed by trc_finish only once they are closed whole: a
 * marker made first and removed last survives any way the rank can die, SIGKILL included, where a clean-up at exit or
 * files renamed at the end would need the dying rank's help. 0, or -1 after a warning (the rank is not traced). */
static int mark_incomplete(void)
{
  char path[PATH_MAX + 64];
  marker_path(path, sizeof path, rec.rank);
  FILE *marker = fopen(path, "w");
  int ok = marker && fprintf(marker,
                             "rank %d of %d has not finished: libsimrun-trace.so removes this file once the rank "
                             "wrote its files whole at MPI_Finalize; if it remains, the rank was killed, aborted or "
                             "could not write, and its files stop short (docs/tracer.md)\n",
                             rec.rank, rec.size) > 0;
  if (marker && fclose(marker) != 0)
    ok = 0;
  if (!ok)
    fprintf(stderr, "simrun-trace: warning: rank %d cannot write %s: %s; this run is not traced\n", rec.rank, path,
            strerror(errno));
  return ok ? 0 : -1;
}

static int open_files(void)
{
  const char *dir = getenv("SIMRUN_TRACE_DIR");
  if (!dir || !*dir)
    dir = "simrun-trace";
  if (trc_folder_check(dir, rec.rank == 0) != 0) /* before anything is made, written or removed there */
    return -1;
  /* said by rank 0 alone, as the gate's lines: every rank names the same folder (at p = 4, /proc/simrun-trace was
   * refused 4 times, in 4 lines) */
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    if (rec.rank == 0)
      fprintf(stderr, "simrun-trace: warning: cannot create %s: %s; this run is not traced\n", dir, strerror(errno));
    return -1;
  }
  if (!realpath(dir, rec.dir)) {
    if (rec.rank == 0)
      fprintf(stderr, "simrun-trace: warning: cannot use %s: %s; this run is not traced\n", dir, strerror(errno));
    return -1;
  }
  if (rec.rank == 0)
    remove_stale();
  if (mark_incomplete() != 0)
    return -1;
  rec.ti = open_rank_file("rank");
  rec.timeline = rec.ti ? open_rank_file("timeline") : NULL;
  if (!rec.timeline) {
    trc_out_close(rec.ti);
    rec.ti = NULL;
    return -1;
  }
  return 0;
}

/* The default bound `bytes` on a file's plain text, lowered to COMPRESS_FOLDER / p for the run's p ranks. */
static long long default_bound(long long bytes)
{
  long long folder = COMPRESS_FOLDER / (rec.size > 0 ? rec.size : 1);
  return bytes < folder ? bytes : folder;
}

/* SIMRUN_TRACE_FORMAT: "simrun" (default: SMPI's actions and simrun's extensions) or "smpi" (SMPI's only); and
 * SIMRUN_TRACE_COMPRESS, the bytes of text beyond which a file is zstd (0: never). */
static void choose_format(void)
{
  const char *bound = getenv("SIMRUN_TRACE_COMPRESS");
  char *end = NULL;
  rec.compress_from = bound ? strtoll(bound, &end, 10) : default_bound(COMPRESS_FROM);
  rec.compress_given = bound != NULL;
  if (bound && (end == bound || *end != '\0' || rec.compress_from < 0)) {
    if (rec.rank == 0)
      fprintf(stderr, "simrun-trace: warning: SIMRUN_TRACE_COMPRESS=%s is not a number of bytes; using %lld\n", bound,
              default_bound(COMPRESS_FROM));
    rec.compress_from = default_bound(COMPRESS_FROM);
    rec.compress_given = 0;
  }
  const char *format = getenv("SIMRUN_TRACE_FORMAT");
  rec.smpi_only = format && strcmp(format, "smpi") == 0;
  if (format && !rec.smpi_only && strcmp(format, "simrun") != 0 && rec.rank == 0)
    fprintf(stderr, "simrun-trace: warning: SIMRUN_TRACE_FORMAT=%s is neither smpi nor simrun; writing simrun's\n",
            format);
}

int trc_start(int rank, int size)
{
  rec.pid = getpid();
  pthread_sigmask(SIG_BLOCK, NULL, &rec.signals_blocked);
  rec.rank = rank;
  rec.size = size;
  rec.prefix_len = (size_t)snprintf(rec.prefix, sizeof rec.prefix, "%d ", rank);
  rec.draws = 0x9E3779B97F4A7C15ULL * (unsigned long long)(rank + 1); /* a golden-ratio multiple: never 0 */
  choose_format();
  if (open_files() != 0)
    return -1;
  choose_rate();
  children_since(); /* the children's CPU before MPI_Init is not the run's */
  trc_clock_init();
  rec.clock_cost = measure_clock(trc_clock_now);
  rec.poll_cost = 2 * rec.clock_cost;
  rec.cpu_cost = measure_clock(trc_cpu_now);
  trc_out_compress_beyond(rec.timeline, rec.compress_from);
  rec.lines = trc_timeline_new(rec.timeline);
  if (!rec.lines) {
    fprintf(stderr, "simrun-trace: warning: rank %d: out of memory; this run is not traced\n", rank);
    return -1;
  }
  const char *fold = getenv("SIMRUN_TRACE_FOLD");
  if (!fold || strcmp(fold, "0") != 0)
    rec.folder = trc_fold_new((trc_fold_out_t){.plain = emit_plain, .loop = emit_loop});
  rec.on = 1;
  trc_out_printf(
      rec.timeline,
      "# simrun measured timeline 2\n"
      "# rank %d of %d\n"
      "# program %s\n"
      "# clock: wall seconds (CLOCK_MONOTONIC) since the end of MPI_Init\n"
      "# own time: the gaps between intervals are the tracer's, which simrun analyse removes\n"
      "# communicators: their '# comm' lines give the members in the communicator's order\n"
      "# flop-rate %.6e flop/s (%s): rank-%d.txt's compute amounts are thread CPU seconds times this rate%s\n"
      "# d ID category phase peer bytes call [tag comm [request [others]]]: the fields of call ID; ID GAP COMPUTE "
      "DURATION [POLLS]: a computation GAP ns after the previous interval, then call ID, in ns\n"
      "# a send-receive's fields: ... call tag comm source tag bytes (its receive half as received)\n",
      rank, size, program_invocation_short_name, rec.rate, rec.source, rank,
      rec.smpi_only ? ", its runs of polls' with them (" MET_FLOPS_POLLS_COMPUTED ")" : "");
  trc_out_printf(rec.ti, "%d init\n", rank);
  trc_flush(); /* a run killed before MPI_Finalize leaves at least the headers */
  return rec.on ? 0 : -1;
}

/* The machine's load average over the last minute (/proc/loadavg), or NAN. */
static double machine_load(void)
{
  double load = NAN;
  FILE *in = fopen("/proc/loadavg", "r");
  if (in && fscanf(in, "%lf", &load) != 1)
    load = NAN;
  if (in)
    fclose(in);
  return load;
}

/* The process's CPU seconds (all its threads) and involuntary context switches so far. */
static double process_usage(long *switches)
{
  struct rusage u;
  if (getrusage(RUSAGE_SELF, &u) != 0) {
    *switches = 0;
    return 0;
  }
  *switches = u.ru_nivcsw;
  return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

static counters_t read_counters(void)
{
  counters_t c = {.waited = trc_cpu_waited(), .load = machine_load()};
  c.usage = process_usage(&c.switches);
  return c;
}

/* The current computation starts at `now`, the CPU clock read. */
static void start_clocks(double now)
{
  rec.started = read_counters();
  rec.delay_mark = rec.started.waited;
  rec.last_exit = now > 0 ? now : 0;
  rec.last_cpu = trc_cpu_now();
  rec.cpu_wall = rec.last_exit;
  rec.cpu_known = 1;
}

void trc_time_zero(long long *sec, long long *nsec)
{
  clock_gettime(CLOCK_MONOTONIC, &rec.origin);
  rec.origin_s = seconds(&rec.origin);
  *sec = rec.origin.tv_sec;
  *nsec = rec.origin.tv_nsec;
}

void trc_time_zero_at(long long sec, long long nsec)
{
  rec.origin = (struct timespec){.tv_sec = (time_t)sec, .tv_nsec = (long)nsec};
  rec.origin_s = seconds(&rec.origin);
}

void trc_time_started(void)
{
  if (!trc_active())
    return;
  start_clocks(trc_now());
  rec.own += rec.last_exit;
  rec.own_startup = rec.last_exit;
}

void trc_startup_said(double called, double age)
{
  if (!rec.on)
    return;
  double init = rec.origin_s - called;
  trc_out_printf(rec.timeline, "# start-up %.6f %.6f\n", age >= 0 ? age : -1.0, init > 0 ? init : 0.0);
}

void trc_run_id(const char *id)
{
  if (!rec.on)
    return;
  trc_out_printf(rec.timeline, "# run %s\n", id);
  trc_flush(); /* a rank killed early keeps it, as the headers: its file is then cut short, not another run's */
}

/* The TI trace holds one of simrun's extensions, which smpirun cannot read: it may become zstd. */
static void ti_may_compress(void)
{
  rec.ti_compress = 1;
  trc_out_compress_beyond(rec.ti, rec.compress_from);
}

/* After COMPRESS_LATE seconds of the run (at `now`), the default bound on plain text becomes COMPRESS_LATE_FROM. */
static void compress_when_late(double now)
{
  if (rec.compress_late || now < COMPRESS_LATE || rec.compress_given || rec.measuring)
    return;
  rec.compress_late = 1;
  rec.compress_from = default_bound(COMPRESS_LATE_FROM);
  trc_out_compress_beyond(rec.timeline, rec.compress_from);
  if (rec.ti_compress)
    trc_out_compress_beyond(rec.ti, rec.compress_from);
}

/* Writes the computation gathered so far as one TI compute action, before the next action, once it amounts to
 * COMPUTE_MIN seconds (or `all`): shorter ones are carried into the next, a shift of at most that much that keeps a
 * chatty program's trace to its messages. */
static void flush_compute(int all)
{
  if (rec.flops >= 1 && (all || rec.flops >= COMPUTE_MIN * rec.rate)) {
    trc_out_long(rec.ti, rec.rank);
    trc_out_str(rec.ti, " compute ");
    trc_out_long(rec.ti, llround(rec.flops));
    trc_out_char(rec.ti, '\n');
    rec.flops = 0;
  }
}

/* One TI action line, after the computation that preceded it. */
static void write_action(const char *ti, va_list ap)
{
  flush_compute(0);
  trc_out_long(rec.ti, rec.rank);
  trc_out_char(rec.ti, ' ');
  trc_out_vprintf(rec.ti, ti, ap);
  trc_out_char(rec.ti, '\n');
}

static void action(const char *ti, ...) __attribute__((format(printf, 1, 2)));
static void action(const char *ti, ...)
{
  va_list ap;
  va_start(ap, ti);
  write_action(ti, ap);
  va_end(ap);
}

/* A record's TI actions (`len` bytes of whole lines, the rank included), after the computation carried (`carry`) or
 * not (a loop's body, whose computation is its own): the carried computation is written, when due, before the first
 * line, and what it leaves (under COMPUTE_MIN) would not be due before the next. */
static void write_actions(const char *text, int len, int carry)
{
  if (carry && len > 0)
    flush_compute(0);
  trc_out_bytes(rec.ti, text, (size_t)len);
}

/* The page faults a call took (a loop's slot: their mean per iteration, `whole` 0), after its actions: simrun's
 * "faults COUNT", which ti-replay charges at the platform's simrun:page-fault-us (not with SIMRUN_TRACE_FORMAT=smpi,
 * whose trace smpirun replays: it would not price them). */
static void write_faults(double faults, int whole)
{
  if (faults <= 0 || rec.smpi_only)
    return;
  ti_may_compress();
  trc_out_bytes(rec.ti, rec.prefix, rec.prefix_len);
  if (whole) {
    trc_out_str(rec.ti, "faults ");
    const long long count[] = {llround(faults)};
    trc_out_line(rec.ti, count, 1);
  } else
    trc_out_printf(rec.ti, "faults %.6g\n", faults);
}

/* A record as it came: its computation's and its call's timeline lines, and its TI actions after the computation
 * (a run of polls as simrun's "poll COUNT"; none with SIMRUN_TRACE_FORMAT=smpi: SMPI's test action would
 * sleep). */
static void emit_plain(const trc_rec_t *r)
{
  trc_timeline_record(rec.lines, r);
  if (!rec.smpi_only && r->ti_len >= 0) { /* else its TI actions were written at once */
    rec.flops += r->flops;
    if (r->poll) { /* "poll COUNT FLOPS": its times are the timeline's record (to the nanosecond) */
      ti_may_compress();
      flush_compute(0);
      trc_out_bytes(rec.ti, rec.prefix, rec.prefix_len);
      trc_out_str(rec.ti, "poll ");
      const long long fields[] = {r->count, llround(r->poll_flops)};
      trc_out_line(rec.ti, fields, 2);
    }
    write_actions(r->ti, r->ti_len, 1);
  }
  write_faults((double)r->faults, 1); /* after the call's actions, however they were written */
}

/* The TI lines of a loop's body: per slot, its mean computation and its actions (a run of polls, its poll). */
static int loop_lines(const trc_loop_t *l)
{
  int lines = 0;
  for (int j = 0; j < l->nslots; j++) {
    lines += l->slots[j].flops / (double)l->count >= LOOP_FLOPS_MIN;
    lines += l->slots[j].rec.poll;
    for (int i = 0; i < l->slots[j].rec.ti_len; i++)
      lines += l->slots[j].rec.ti[i] == '\n';
    lines += l->slots[j].faults > 0;
  }
  return lines;
}

/* A loop (docs/tracer.md): in the timeline "loop COUNT SLOTS FIRST LAST" and one "= COMPUTE DURATION ..." line per
 * slot, the mean seconds of the computation before the call and of the call; in the TI trace (not with
 * SIMRUN_TRACE_FORMAT=smpi, whose actions were written at once) simrun's "loop COUNT LINES" and the body's LINES
 * actions, each slot's computation as its mean per iteration. */
static void emit_loop(const trc_loop_t *l)
{
  double n = (double)l->count;
  trc_timeline_loop(rec.lines, l);
  if (rec.smpi_only)
    return;
  int lines = loop_lines(l);
  if (lines == 0) { /* nothing to repeat in the TI trace: its computation is carried */
    for (int j = 0; j < l->nslots; j++)
      rec.flops += l->slots[j].flops;
    return;
  }
  flush_compute(1);
  ti_may_compress();
  action("loop %ld %d", l->count, lines);
  for (int j = 0; j < l->nslots; j++) {
    const trc_slot_t *s = &l->slots[j];
    if (s->flops / n >= LOOP_FLOPS_MIN)
      action("compute %.3f", s->flops / n);
    if (s->rec.poll)
      action("poll %lld %.3f", llround(s->polls / n), s->poll_flops / n);
    write_actions(s->rec.ti, s->rec.ti_len, 0);
    write_faults(s->faults / n, 0);
  }
}

/* Hands the last call's record on (to the folder, or written at once) and empties it. */
static void commit(void)
{
  trc_rec_t *r = &rec.cur;
  if (!r->has_call && !(r->c_end > r->c_start) && r->ti_len == 0 && r->flops == 0)
    return;
  if (rec.folder && !rec.measuring) /* measuring: a run of its polls a preemption cut, put back after */
    trc_fold_push(rec.folder, r);
  else if (!rec.measuring)
    emit_plain(r);
  r->c_start = r->c_end = r->flops = r->poll_flops = 0;
  r->faults = 0;
  r->has_call = r->poll = r->env = r->ti_len = r->continues = 0;
  r->req = -1;
  r->others = 0;
  r->sr = 0;
}

/* Opens the next record, with the computation `g` before its call. */
static void open_record(gap_t *g)
{
  commit();
  if (g->set) {
    rec.cur.c_start = g->start;
    rec.cur.c_end = g->end;
    rec.cur.flops = g->flops;
  }
  g->set = 0;
}

/* The run's CPU clock `cpu`, read at wall time `now`: at its first poll, after a gap that may have lost the
 * processor (CPU_GAP: a poll that lost it makes the gap to the next entry that long), once per CPU_EVERY. */
static void poll_seen(poll_run_t *f, double cpu, double now)
{
  if (f->readings++ == 0) {
    f->cpu_first = cpu;
    f->wall_first = now;
  }
  f->cpu_seen = cpu;
  f->wall_seen = now;
}

/* The run's processor time read from wall time `now` on (the CPU clock `cpu` then): what came before since its first
 * poll is a lead gap of none of the program's CPU time (a first poll held up, the recorder's own work). */
static void read_from(poll_run_t *f, double cpu, double now)
{
  f->readings = 0;
  f->lead_gap = now - f->first;
  f->lead_cpu = 0;
  poll_seen(f, cpu, now);
}

/* A reading of the clock keeps run `f` open after its pending times between two polls (time_between), over a span
 * of `cpu` seconds of CPU time: the times are the run's, those over POLL_GAP only when the span's CPU time holds them
 * all (else they held a preemption, a sleep, a wait for a processor: a run of tests back to back beside a program
 * that took rank 0's core 50 us in every 200 had 19-52% of its loop so booked as work, and one that slept 115 us after
 * every 500 tests nearly all of it; a reviewer's runs), and the rank's mean (run_work's fallback for a run with few
 * times of its own) only under POLL_GAP, as before they could be longer: a short run of tests back to back after a
 * phase of bursts was booked whole as work. A reading that ends the run leaves them to the computation after the run
 * (the polls after the last reading go with it), which holds them. */
static void between_kept(poll_run_t *f, double cpu)
{
  int worked = f->pending_long <= cpu;
  double kept = f->pending + (worked ? f->pending_long : 0);
  long count = f->pendings + (worked ? f->pendings_long : 0);
  f->between += kept;
  f->betweens += count;
  f->longs += worked ? f->pendings_long : 0;
  rec.between += kept;
  rec.betweens += count;
  rec.between_short += f->pending;
  rec.betweens_short += f->pendings;
  f->pending = f->pending_long = 0;
  f->pendings = f->pendings_long = 0;
}

/* The thread's CPU time now (trc_cpu_now): the entry's reading when gap_cpu made one, else a new one. */
static double cpu_at_entry(void)
{
  return isnan(rec.entry_cpu) ? trc_cpu_now() : rec.entry_cpu;
}

/* A run of polls' processor time at the flop rate: the polls and the work between them, which a replay charges
 * (docs/tracer.md, "Runs of polls"). The thread's CPU time between the run's first and last readings, then the rest of
 * its wall time at the share of it the thread had there (the last computation's, without two readings: a short run,
 * as a short computation) but for a lead gap, whose CPU time was read (at a load of 2-3, beside the suite, pricing a
 * descheduled gap at the share put a run's amounts at up to twice the traced program's CPU time), less the recorder's:
 * its measured cost per poll (trc_measure_polls) and the CPU clock readings after the first. */
static double poll_run_flops(const poll_run_t *f)
{
  double seen = f->readings > 0 ? f->cpu_seen - f->cpu_first : 0;
  double measured = f->readings > 0 ? f->wall_seen - f->wall_first : 0;
  double share = measured > 0 ? seen / measured : rec.cpu_share;
  double rest = f->last - f->first - measured - f->lead_gap; /* the lead gap's CPU is known */
  double cpu = seen + f->lead_cpu + (rest > 0 ? rest : 0) * fmin(fmax(share, 0), 1) - rec.poll_cost * (double)f->count -
               rec.cpu_cost * (f->readings > 1 ? f->readings - 1 : 0);
  return cpu > 0 ? cpu * rec.rate : 0;
}

/* The times between two polls read in a run from which its own mean is its work's, not the rank's (run_work): one
 * time read with an interrupt in it (some microseconds, against 30-1000 ns) would make a short run's work its whole
 * span. */
#define BETWEENS_OWN 4

/* The least work a poll that a run's mean time between two polls, less the recorder's part of one, books: under it,
 * the difference is that part's error, not the program's work. The recorder's part is measured at MPI_Init around
 * MPI_Testany of a null request, while a program's tests take other wrappers' paths: tests back to back read 27-30 ns
 * between two against a part of 21-27 ns, so that a wait by polling of 3-5 million tests after a working loop booked
 * 11-17 ms of work, 3.5 ns a poll, and tests back to back beside a co-runner up to 12 ms of a 38-ms loop (a reviewer's
 * programs). bench/trc_polling.c's ranks work some 60 ns between two tests. */
#define WORK_PER_POLL_MIN 10e-9

/* The program's work between the polls of run `f`, as its times read estimate it: its count less one times the mean
 * time between two of its polls read (BETWEENS_OWN of them or more), else between two of the rank's so far, less the
 * recorder's part of one, where that leaves WORK_PER_POLL_MIN or more; none before any was read. Where the recorder's
 * cost per poll is more than it measured (bench/trc_polling.c with no work between its tests: some 8 ns a poll more),
 * what is left of the run is in its polls, which a run of polls and nothing else is. */
static double run_work(const poll_run_t *f)
{
  int own = f->betweens >= BETWEENS_OWN;
  double between = own ? f->between : rec.between_short;
  long betweens = own ? f->betweens : rec.betweens_short;
  if (betweens == 0)
    return 0;
  double per_poll = between / (double)betweens - rec.between_own;
  return per_poll >= WORK_PER_POLL_MIN ? per_poll * (double)(f->count - 1) : 0;
}

/* Run `f`'s work, `estimate` (run_work) at most `cap` (its span and processor time), with what the caps of the runs
 * before it cut (trc_carry.h): a cap cuts only over-estimates, so that where few of a run's times hold the work (a loop
 * testing 17 times after each 66 us of work, its runs of 100-700 polls with 20-150 times read, one time in 17 holding
 * the work), the runs whose times held more of it than their share were cut to their spans, those whose times held
 * less kept their low estimates: 36-44 ms of 48-50 ms of work booked (poll_work.c's 40000x17, 9 runs). What a cap cut
 * goes to the next runs whose kept times held work, some over POLL_GAP, one in CARRY_SHARE of them at least, up to
 * their caps, and the call other than a poll that ends a run drops it (call_ended): the work of one loop is not
 * another's. A wait by polling after a working loop, with no other call between, took it before that share (a run of
 * 4 million tests back to back with 3 of its kept times over POLL_GAP, its tail's and interrupts': a reviewer's), and
 * so could a run whose tests cost 1 us of CPU each (Open MPI yielding the processor in them when ranks outnumber the
 * cores, 1.4-5 us a test), which a rule on processor time a poll let take it. */
#define CARRY_SHARE (2 * STRIDE_MAX)

static double carried_work(const poll_run_t *f, double estimate, double cap)
{
  return trc_carry_work(&rec.carry, estimate, cap, f->longs > 0 && f->longs * CARRY_SHARE >= f->betweens);
}

/* The pending run of polls becomes a record: the program's work between its polls (run_work), a computation from
 * the first poll's entry on, then one idle interval to the last poll's exit. */
static void take_polls(void)
{
  poll_run_t *f = &rec.polls;
  if (f->count == 0)
    return;
  open_record(&f->gap);
  trc_rec_t *r = &rec.cur;
  r->poll_flops = poll_run_flops(f);
  rec.polls_cpu += r->poll_flops / rec.rate;
  rec.long_polls = f->last - f->first >= CPU_GAP;
  r->has_call = r->poll = 1;
  r->start = f->first;
  /* the recorder's time inside the run (its cost per poll) is a gap after it, as after any call: the tracer's own
   * time, which "# tracer-cost" sums and simrun analyse removes */
  double own = fmin(rec.poll_cost * (double)f->count, f->last - f->first);
  r->end = f->last - own;
  rec.own += own;
  /* at most the run's span and processor time, which the program's work between its polls is part of */
  double work = carried_work(f, run_work(f), fmin(r->end - f->first, r->poll_flops / rec.rate));
  if (work > 0) {
    if (!(r->c_end > r->c_start))
      r->c_start = f->first;
    r->c_end = r->start = f->first + work;
    rec.polls_work += work;
  }
  rec.polls_counted += f->count;
  r->category = "idle";
  r->name = f->name;
  r->count = f->count;
  r->peer = -1;
  r->bytes = 0;
  f->count = 0;
  f->closed = 0;
  if (rec.smpi_only) /* SMPI has no poll action: its processor time is computation, written before the next action */
    rec.flops += r->poll_flops;
}

/* One more TI action of the current record: kept in it (folded with it), or written at once with
 * SIMRUN_TRACE_FORMAT=smpi, or when the record's actions outgrow it (what the folder holds is written first). */
static void add_action(const char *ti, va_list ap)
{
  trc_rec_t *r = &rec.cur;
  if (!rec.smpi_only && r->ti_len >= 0) {
    va_list again;
    va_copy(again, ap);
    size_t at = (size_t)r->ti_len + rec.prefix_len; /* after "RANK " */
    size_t room = at < TRC_REC_TI ? TRC_REC_TI - at : 0;
    int n = room ? trc_format(r->ti + at, room, ti, again) : -1;
    va_end(again);
    if (n < 0 && room) {
      va_copy(again, ap);
      n = vsnprintf(r->ti + at, room, ti, again);
      va_end(again);
    }
    if (n >= 0 && (size_t)n + 1 < room) {
      memcpy(r->ti + r->ti_len, rec.prefix, rec.prefix_len);
      r->ti_len = (int)at + n;
      r->ti[r->ti_len++] = '\n';
      return;
    }
    if (rec.folder)
      trc_fold_drain(rec.folder);
    rec.flops += r->flops;
    r->flops = 0;
    write_actions(r->ti, r->ti_len, 1);
    r->ti_len = -1;
  }
  write_action(ti, ap);
}

/* The child processes' CPU seconds since the last reading, counted as the rank's computation up to `room` seconds (the
 * computation's wall time its own thread left): the rank waited for them (system(), a pipe), so their work is on its
 * path; beyond it, they ran beside the rank's own work, which a replay leaves out (trc_finish says how much). */
static double children_counted(double room)
{
  double used = children_since();
  double counted = used < room ? used : room > 0 ? room : 0;
  rec.child_used += used;
  rec.child_count += counted;
  return counted;
}

/* The start-up's processor time (time 0 to the first call: the first computation, of `gap` wall and `cpu` CPU seconds):
 * with the time its thread was blocked, not runnable (its input read, a lock or a helper thread awaited: some 60-70 us
 * of MUMPS' dsimpletest's 100-120 us start-up), which a quiet machine takes as long, where the thread's CPU clock has
 * none of it: its wall time less the time it waited for a processor (preempted: waited_for_cpu). Not when it waited
 * for child processes, whose CPU time is counted instead (children_counted) and whose own waits for a processor
 * would pass for blocking. Only the start-up: a later computation is its CPU time, as docs/tracer.md says. */
static double startup_cpu(double gap, double cpu)
{
  double blocked = gap - cpu - (trc_cpu_waited() - rec.started.waited);
  return blocked > 0 ? cpu + blocked : cpu; /* NAN (no schedstat) compares false */
}

/* The CPU seconds of the computation interval of `gap` wall seconds ending now, last_exit + gap (the page faults read
 * with it, for the call it ends in: rec.fault_mark): the thread's CPU clock when it was read at the interval's start;
 * for an interval longer than expected, the CPU time since the last reading less the wall time before the interval
 * (under CPU_EVERY), a lower bound, short of what the rank was held off its processor there; else the wall time times
 * the last CPU share. A reading here is the last one from now on: a run of polls whose tests gave the processor away
 * (Open MPI yields in them when ranks outnumber cores) reads it after each such gap, so that the bound on a later
 * computation starts after the wait, not before (poll_rhythm.c's 2 ms beside a loaded suite: 16-21% short in 5 runs
 * of 100, test_trc_mpi_polls_counted_at_every_rhythm). */
static double gap_cpu(double gap)
{
  rec.entry_cpu = NAN;
  if (rec.cpu_known || gap >= CPU_GAP) {
    rec.entry_cpu = trc_cpu_now();
    rec.fault_mark = thread_faults();
    double cpu = rec.entry_cpu - rec.last_cpu - (rec.cpu_known ? 0 : rec.last_exit - rec.cpu_wall);
    rec.last_cpu = rec.entry_cpu;
    rec.cpu_wall = rec.last_exit + gap;
    cpu = cpu < 0 ? 0 : cpu > gap ? gap : cpu;
    return gap >= CHILD_GAP ? cpu + children_counted(gap - cpu) : cpu;
  }
  return gap > 0 ? gap * rec.cpu_share : 0;
}

/* Whether a gap of `gap` wall and `cpu` CPU seconds since a poll, over `polls` polls (those whose clock was not read,
 * trc_enter_poll, and the one that ends it), leaves them in one run: the polls came at once, POLL_GAP of CPU time
 * apart at most, or the rank was descheduled (on a loaded machine, for milliseconds, of which the thread's CPU clock
 * counts a tenth at most, and DESCHEDULED_CPU at most: a computation of 2 ms between two polls, at a tenth of a
 * processor among 20 busy loops, was taken for a descheduled poll). Over POLL_GAP for 16 unread polls, it cut runs of
 * tests back to back beside 4 busy loops every 10-20 ms (16 polls of 23-79 us, all CPU time: Open MPI yields the
 * processor in each when the ranks outnumber the cores), and the processor's waits in the recorder's system calls at
 * the cuts were then the computation's (poll_work.c back to back: 10-26 ms of 50 ms computation). The cost: up to 10 us
 * a poll of work between two readings is taken for polling, 160 us after 15 tests back to back (a rule that pooled only
 * where the thread lost its processor, or up to 20 us, left 1 run in 8 beside 4 busy loops at 26-35% computation: the
 * slowed polls often follow no context switch of their own gap nor of the one before). */
static int poll_gap(double cpu, double gap, int polls)
{
  return cpu <= POLL_GAP * polls || (cpu <= 0.1 * gap && cpu <= DESCHEDULED_CPU);
}

/* Ends the computation interval at `now` (wall): its timeline line and its flops. A gap in a run of polls that used
 * little CPU (poll_gap) stays in the run. */
static void end_compute(double now)
{
  double gap = now - rec.last_exit;
  double lead = rec.lead_held; /* the held part of the gap before it (gap_ended) */
  rec.lead_held = 0;
  double children = rec.child_count;
  double cpu = gap_cpu(gap);
  if (!rec.computed && rec.child_count == children) /* blocked waiting for a child: its CPU time is counted instead */
    cpu = startup_cpu(gap, cpu);
  double own_gap = gap - lead; /* the computation's own wall time */
  if (rec.polls.count > 0 && !rec.polls.closed && poll_gap(cpu, own_gap, rec.polls.unread + 1)) {
    rec.polls.last = now;
    if (gap >= CPU_GAP) { /* the rank was descheduled: the run's processor time is read, not extrapolated */
      if (rec.polls.readings == 0) {
        rec.polls.lead_gap = gap;
        rec.polls.lead_cpu = cpu;
      }
      poll_seen(&rec.polls, cpu_at_entry(), now);
    }
    rec.polls.unread = 0; /* the polls the gap spanned (poll_gap) */
    between_kept(&rec.polls, cpu);
    return;
  }
  rec.polls.closed = rec.polls.count > 0;
  /* at most 1: a thread runs on one processor at a time. CPU time read over a gap whose wall time the held part took
   * nearly whole (own_gap some ns) gave shares of 14: the short computations after it, timed at that share (gap_cpu),
   * were charged 14 times their wall time (poll_work.c at a load of 3-4: 0.41 s of computation in the TI trace of a
   * rank whose run lasted 0.065 s; test_trc_mpi_polls_with_work_keep_their_processor_time, 3 runs in 14) */
  if (rec.cpu_known && own_gap > 0)
    rec.cpu_share = fmin(cpu / own_gap, 1);
  rec.long_compute = own_gap >= CPU_GAP;
  double cut = rec.gap.set || !rec.computed ? 0 : fmin(rec.clock_cost, gap > 0 ? gap : 0); /* measure_clock */
  rec.computed = 1;
  rec.compute_cpu += cpu > cut ? cpu - cut : 0;
  double flops = (cpu > cut ? cpu - cut : 0) * rec.rate;
  if (rec.smpi_only) { /* the TI actions are written at once, after the computation carried */
    rec.flops += flops;
    flops = 0;
  }
  if (!rec.gap.set)
    rec.gap = (gap_t){.set = 1, .start = rec.last_exit + cut};
  rec.own += cut;
  rec.gap.end = now;
  rec.gap.flops += flops;
}

/* A file that failed (a full disk) ends recording: the program runs on, and no index is written. */
static void check_files(void)
{
  if (trc_out_failed(rec.ti) || trc_out_failed(rec.timeline)) {
    rec.on = 0;
    rec.failed = 1;
  }
}

/* The part of the recorder's gap `from` to `to` in which the rank was held off its processor, others running
 * (core-mates, when ranks share cores): beyond OWN_CPU_MAX in a gap where no file was written, at most what the thread
 * waited for a processor since the last gap read (run_delay) and the wall time less the CPU time since its CPU clock
 * read `cpu_at` at `wall_at`, before the gap (NAN: not read), to now. The recorder's long work is its CPU time: a
 * waitall's 1,000 completions, 0.1 ms, took 10 us of run_delay from before it on a loaded machine
 * (test_trc_mpi_work_after_a_call_is_the_recorders). Not the recorder's time: the computation next to the gap holds
 * it, as it holds the waits for a processor inside it, so that the run's times keep what the wait took (removed with
 * the gaps, it made MPB's T_par at p = 2 beside three busy loops 26% short of the run's span: 18.9 s of 25.7 s). A gap
 * over OWN_CPU_MAX has its clocks read here: the caller reads the CPU clock again after them. */
static double held_in(double from, double to, double cpu_at, double wall_at)
{
  double beyond = to - from - OWN_CPU_MAX;
  if (!(beyond > 0) || trc_out_writes() != rec.own_writes)
    return 0;
  double delay; /* NAN where Linux does not give it: none held */
  if (!isnan(cpu_at)) {
    /* read after a preemption in the gap: one in a system call before returns after it */
    double cpu = trc_cpu_now_waited(&delay);
    beyond = fmin(beyond, (trc_now() - wall_at) - (cpu - cpu_at));
  } else {
    delay = trc_cpu_waited();
  }
  double fresh = delay - rec.delay_mark;
  if (isfinite(delay))
    rec.delay_mark = delay;
  return fresh > 0 ? fmin(fresh, beyond) : 0;
}

/* The recorder's own time `from` to `to` less its `held` part (held_in): a gap between intervals, which simrun
 * analyse removes. */
static void own_time(double from, double to, double held)
{
  rec.own += to - from - held;
  rec.own_writes = trc_out_writes();
}

/* The recorder's gap after a call, `from` to `now`, ends (the CPU clock read at its end when due, `prev_cpu` at
 * `prev_wall` the reading before the gap): the next computation starts at its held part (held_in), whose check comes
 * last, as a preemption in a system call before it (the CPU clock's reading) holds the rank as long (shared_core.c:
 * 2-5 of a rank's 5-8 gaps of 1.4 ms so went unseen), and at the held part `carried` of the gap before, when this one
 * continues it (trc_after_call): the gaps' CPU parts together before, their held parts together after. */
static void gap_ended(double from, double now, double prev_cpu, double prev_wall, double carried)
{
  double held = held_in(from, now, prev_cpu, prev_wall);
  if (now - from > OWN_CPU_MAX) { /* held_in's readings are the recorder's time: the computation's CPU starts after */
    rec.last_cpu = trc_cpu_now();
    now = rec.cpu_wall = trc_now();
  }
  own_time(from, now, held);
  rec.last_exit = now - held - carried;
  rec.lead_held = held + carried;
}

/* At an exit at `now`: reads the CPU clock when the coming computation may be long, the recorder was held up
 * (`held_up`), or the clock has not been read for CPU_EVERY (between readings, the CPU clock drifts from the wall clock
 * by more than a poll's gap within milliseconds). Whether it read it. */
static int read_cpu_if_due(double now, int held_up)
{
  rec.cpu_known = rec.long_compute || held_up || now - rec.cpu_wall >= CPU_EVERY;
  if (rec.cpu_known) {
    rec.last_cpu = trc_cpu_now();
    rec.cpu_wall = now;
  }
  return rec.cpu_known;
}

/* The next computation interval starts now, after the recorder's own work since `since` (kept out of it): the clock
 * is read last, so that a CPU clock reading (a system call) is the recorder's time, not the computation's. The
 * recorder's work lasting CPU_GAP or more (its writes preempted: system calls are where another process takes the
 * processor) makes the CPU clock read after it: else the computation after it, timed as the CPU time since the last
 * reading less the wall time before it (gap_cpu), lost what the preemption took. dsimpletest at p = 2 on 2 cores had
 * 1 to 4 such computations a run, each timed at 0 for its 20-35 us (by hand, the gaps' readings printed). */
static void resume(double since)
{
  compress_when_late(since);
  check_files();
  double now = trc_now(), prev_cpu = rec.last_cpu, prev_wall = rec.cpu_wall;
  if (read_cpu_if_due(now, now - since >= CPU_GAP))
    now = trc_now();
  gap_ended(since, now, prev_cpu, prev_wall, 0);
}

/* The entry into a call at `now` (wall), the computation before it ended (`setup`: the thread's CPU clock read too,
 * trc_setup_call's). The recorder's work there (the thread's CPU clock and page faults read: two system calls, some
 * 2 us on a virtual machine whose CPU clock reading takes 1.2 us, by hand) is its own time, not the call's: the call
 * starts once it is done, and the computation just ended moves as much later, so that it still ends where the call
 * starts, after a longer gap, which simrun analyse removes as the tracer's (docs/tracer.md). Before, it stayed in every
 * call's interval: some 1 us per call of a short run's measured time, which no replay holds. Even without a system
 * call: left in the call, the recorder's work at entry (ten times longer under the sanitisers) made a receive enter
 * after its sender in test_trc_mpi_own_time_keeps_causality. */
static double enter(int setup)
{
  if (!records()) {
    if (rec.on)
      atomic_fetch_add_explicit(&others, 1, memory_order_relaxed);
    return 0;
  }
  if (depth++ > 0)
    return NESTED;
  rec.returned = -1;
  rec.call_exited = 0;
  /* the computation ends where the wrapper's work before the entry began (trc_call_outside_begins): that work is the
   * recorder's, as its own work at the entry is */
  double now = rec.outside_at >= rec.last_exit ? rec.outside_at : trc_now();
  rec.outside_at = -1;
  end_compute(now);
  if (setup)
    rec.setup_cpu = trc_cpu_now();
  if (!rec.gap.set) /* the computation stayed in a run of polls, whose own time is its measured cost per poll */
    return now;
  double start = trc_now();
  double held = held_in(now, start, rec.entry_cpu, now);
  if (start - now > OWN_CPU_MAX) { /* held_in's readings are the recorder's time, not the set-up call's nor a poll's */
    if (setup)
      rec.setup_cpu = trc_cpu_now();
    if (!isnan(rec.entry_cpu))
      rec.entry_cpu = trc_cpu_now();
    start = trc_now();
  }
  rec.gap.start += start - now - held; /* the computation keeps the held part, after its own end */
  rec.gap.end = start;
  own_time(now, start, held);
  return start;
}

double trc_enter(void)
{
  return enter(0);
}

double trc_enter_setup(void)
{
  return enter(1);
}

/* Draws the polls to go by before the next time between two is read in run `f`: about BETWEEN_EVERY, or one per
 * BETWEEN_SPAN of the run's mean period when that is fewer (BETWEEN_LEAST at least); xorshift64 (Marsaglia's 13, 7,
 * 17), seeded by the rank at trc_start. */
static void next_timing(const poll_run_t *f)
{
  unsigned long long x = rec.draws;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  rec.draws = x;
  double span = f->last - f->first;
  double fit = span > 0 ? BETWEEN_SPAN * (double)f->count / span : BETWEEN_EVERY;
  long every = fit >= BETWEEN_EVERY ? BETWEEN_EVERY : fit >= BETWEEN_LEAST ? (long)fit : BETWEEN_LEAST;
  rec.timing_due = every / 2 + (long)(x % (unsigned long long)every);
}

/* At the entry into a poll after one that read its exit (trc_poll), the time between them (trc_clock_now_ordered
 * again, before the recorder's work), pending for run `f` when it is still the run of that poll and the time is one a
 * run can hold (BETWEEN_MAX): a time kept in the run by the next reading of the clock is the run's (between_kept). Up
 * to BETWEEN_MAX, not POLL_GAP: the work of a loop that tests its requests 15 times, then computes 29 us, stays in a
 * run of polls (a gap read over 16 polls with 29 us of CPU), and its times over 10 us were left out, the work booked
 * idle (poll_work.c's 17500x15: 0.3 ms of 47 ms of work computation, 42-47 since). */
static void time_between(poll_run_t *f)
{
  double between = trc_clock_now_ordered() - rec.origin_s - rec.timed_exit;
  if (f->count > 0 && !f->closed && f->first == rec.timed_run && depth == 0 && between < BETWEEN_MAX) {
    int longer = between > POLL_GAP;
    *(longer ? &f->pending_long : &f->pending) += between;
    *(longer ? &f->pendings_long : &f->pendings) += 1;
  }
  rec.timed_exit = -1;
}

/* trc_enter for a call that may be an unsuccessful poll. Inside a run of polls still open, a gap since the last poll
 * that end_compute would keep in the run (shorter than CPU_GAP, the CPU clock not read at the last exit, so timed at
 * the last CPU share) leaves the recorder as enter leaves it: the run's last time is the entry, nothing else changes.
 * Only every f->stride-th such poll reads the clock: the others' entries are the last reading's, and the gap then read
 * spans them all, kept in the run as long as their sum is (a long one among them ends the run at the last reading,
 * the polls after it in the computation: a shift under STRIDE_SPAN). bench/trc_polling.c's MPI_Testany paid some 200
 * instructions and a clock reading of recorder per poll before (callgrind, perf): 45 ns on a 100-ns poll. Any other
 * case (a run's first poll, a gap that ends the run, a nested call) is enter's. */
double trc_enter_poll(void)
{
  if (!records()) /* another thread's call: nothing of the recorded thread's state is touched */
    return enter(0);
  poll_run_t *f = &rec.polls;
  rec.timing = 0;
  if (rec.timed_exit >= 0)
    time_between(f);
  if (f->count > 0 && !f->closed && !rec.cpu_known && !rec.gap.set && rec.computed && depth == 0) {
    if (f->unread + 1 < f->stride) {
      f->unread++;
      depth = 1;
      rec.timing = rec.untimed >= rec.timing_due; /* trc_poll reads the exit */
      return f->last;
    }
    double now = trc_now();
    double gap = now - rec.last_exit;
    double cpu = gap < CPU_GAP ? gap_cpu(gap) : 0; /* the last CPU share's estimate, no reading */
    if (gap < CPU_GAP && poll_gap(cpu, gap, f->unread + 1)) {
      double fit = gap > 0 ? STRIDE_SPAN * (f->unread + 1) / gap : STRIDE_MAX; /* STRIDE_SPAN over the mean period */
      f->stride = fit >= STRIDE_MAX ? STRIDE_MAX : fit >= 1 ? (int)fit : 1;
      f->unread = 0;
      depth = 1;
      f->last = now;
      between_kept(f, cpu);
      rec.timing = rec.untimed >= rec.timing_due || rec.measuring == MEASURE_BETWEEN; /* trc_poll reads the exit */
      return now;
    }
  }
  /* a poll entered as any call (a run's first, one after a long gap or a CPU clock reading) may be timed too: left
   * out, a run of a loop that tests 16 times after its work, as the clock is read every 16th, had its work's gap at
   * such a poll and none of its times held it (a reviewer's 40000x16: 7 us booked of 9.9 ms) */
  double start = enter(0);
  rec.timing = depth == 1 && rec.untimed >= rec.timing_due;
  return start;
}

void trc_call_outside_begins(void)
{
  if (depth == 0 && records())
    rec.outside_at = trc_now();
}

void trc_call_outside_ends(void)
{
  rec.outside_at = -1; /* not taken by an entry: a call the wrapper did not make */
  trc_after_call();
}

void trc_poll_outside_begins(void)
{
  if (depth == 0 && records() && rec.timed_exit >= 0)
    time_between(&rec.polls);
}

void trc_poll_outside_ends(void)
{
  if (depth == 0 && records() && rec.timed_exit >= 0)
    rec.timed_exit = trc_clock_now_ordered() - rec.origin_s;
}

static const char *category_name(trc_category_t category)
{
  static const char *const names[] = {"compute", "comm", "idle", "ctrl"};
  return names[category];
}

/* The message of record `r` (one call's line): `peer`, `bytes` and the envelope set since the last line (trc_envelope,
 * trc_envelope_request, trc_envelope_others), which is then cleared. */
static void take_message(trc_rec_t *r, int peer, double bytes)
{
  r->count = 1;
  r->peer = peer;
  r->bytes = bytes;
  r->env = rec.env_set;
  r->tag = rec.env_tag;
  r->comm = rec.env_comm;
  r->req = rec.env_req;
  r->others = rec.env_others;
  rec.env_set = 0;
  rec.env_req = -1;
  rec.env_others = 0;
}

/* trc_call's record of a call that ended at `now`, its TI action `ti` formatted with `ap`; the computation after it
 * resumes now, or at the wrapper's trc_after_call when `deferred` (trc_after_follows). */
static void call_ended(double now, double start, const char *name, trc_category_t category, int peer, double bytes,
                       const char *ti, va_list ap, int deferred)
{
  take_polls();
  trc_carry_drop(&rec.carry); /* the runs' work cut before it is not that of the runs after it (carried_work) */
  open_record(&rec.gap);
  trc_rec_t *r = &rec.cur; /* field by field: a compound literal would be built on the program's stack */
  r->has_call = 1;
  r->start = start;
  r->end = now;
  r->category = category_name(category);
  r->name = name;
  take_message(r, peer, bytes);
  r->sr = rec.sr_set;
  r->rsrc = rec.sr_src;
  r->rtag = rec.sr_tag;
  r->rbytes = rec.sr_bytes;
  rec.sr_set = 0;
  if (ti)
    add_action(ti, ap);
  /* after a long call the CPU clock is read (a reading is then under 1% of the call): a wait during which the rank
   * yielded its core (oversubscribed) must not count as the next computation's wall time before it (gap_cpu) */
  rec.long_compute |= now - start >= CPU_GAP;
  /* and the page faults it took: a receive into pages the rank had not touched yet takes one per page inside the call
   * (about 10 us each on this machine, docs/validation.md), which its message's time does not hold. Counted from the
   * last reading: at the call's entry when the CPU clock was read there, else at the last entry that read it or the
   * last long call's exit, at most some CPU_EVERY before, with only computations shorter than CPU_GAP between */
  if (now - start >= CPU_GAP) {
    long faults = thread_faults();
    r->faults = rec.fault_mark >= 0 && faults > rec.fault_mark ? faults - rec.fault_mark : 0;
    rec.fault_mark = faults;
  }
  if (deferred)
    rec.resume_from = now;
  else
    resume(now);
  rec.call_exited = 1;
}

int trc_returned(int rc)
{
  if (depth == 1 && records())
    rec.returned = trc_now();
  return rc;
}

void trc_after_follows(void)
{
  rec.after_due = 1;
}

void trc_call(double start, const char *name, trc_category_t category, int peer, double bytes, const char *ti, ...)
{
  int deferred = rec.after_due;
  rec.after_due = 0;
  if (!leaving(start))
    return;
  /* the PMPI call's return (trc_returned), when this call read it: what the wrapper did since is the recorder's */
  double now = rec.returned >= start ? rec.returned : trc_now();
  rec.returned = -1;
  va_list ap;
  va_start(ap, ti);
  call_ended(now, start, name, category, peer, bytes, ti, ap, deferred);
  va_end(ap);
}

void trc_call_more(double start, int peer, double bytes)
{
  if (start == NESTED || !trc_active())
    return;
  double at = rec.cur.end;
  commit();
  trc_rec_t *r = &rec.cur;
  r->has_call = r->continues = 1;
  r->c_start = r->c_end = r->start = r->end = at;
  take_message(r, peer, bytes); /* category and name: the call's, which commit leaves */
}

/* Not resume(), which may read the CPU clock (a system call) for a short work: a reading at the call's exit moves on
 * by the work's time, the thread's own, and one before is the wall time before last_exit away (gap_cpu); work of
 * CPU_GAP or more (a waitall's many completions, or preempted) reads the CPU clock after it, as resume does.
 * Formatting an MPI_Irecv's irecv after its call (some 30-45 ns) and a waitall's completions (their waits, their
 * entries forgotten) were the program's computation before. */
void trc_after_call(void)
{
  rec.after_due = 0;
  if (rec.resume_from >= 0) { /* the call's own resume, left to now (trc_after_follows): one gap, one reading */
    double since = rec.resume_from;
    rec.resume_from = -1;
    resume(since);
    return;
  }
  if (depth != 0 || !records() || !rec.call_exited) /* not after a poll (MPI_Testsome that found none) */
    return;
  /* the work starts where the call's gap ended (resume), after the held part it moved into the computation */
  double from = rec.last_exit + rec.lead_held;
  double now = trc_now(), prev_cpu = rec.last_cpu, prev_wall = rec.cpu_wall;
  if (now - from >= CPU_GAP) { /* long, or preempted (a waitall's 10^5 completions): the CPU clock read */
    rec.last_cpu = trc_cpu_now();
    rec.cpu_wall = now;
    rec.cpu_known = 1;
    now = trc_now();
  } else if (rec.cpu_known) {
    rec.last_cpu += now - from;
  }
  gap_ended(from, now, prev_cpu, prev_wall, rec.lead_held);
}

/* A set-up call's record (trc_setup_call), ended at `now`: its TI action `ti` ("%s" and the action, or NULL). */
static void setup_ended(double now, double start, const char *name, const char *ti, ...)
{
  va_list ap;
  va_start(ap, ti);
  call_ended(now, start, name, TRC_CTRL, -1, 0, ti, ap, 0);
  va_end(ap);
}

double trc_setup_done(double start)
{
  if (!trc_active() || start == NESTED)
    return 0;
  rec.setup_end = trc_now(); /* the call's end, before the CPU clock's reading */
  return fmin(fmax(trc_cpu_now_waited(&rec.setup_delay) - rec.setup_cpu - rec.cpu_cost, 0),
              fmax(rec.setup_end - start, 0)); /* less a reading */
}

void trc_setup_call(double start, const char *name, const char *ti, double cpu)
{
  if (!leaving(start))
    return;
  /* The library's own reductions since the call's end (trc_comm_made, the cost's) are the tracer's time: a wait for
   * the processor in them, a member spinning there while its core-mate runs, is not held (held_in), as it would be
   * in a replay's computation: it exists only traced. tests/data/tracer/setup_shared.c's 2 ranks on one core, before:
   * 12 ms of computation after each MPI_Comm_dup, the rest of a scheduler's slice (25% of the run's span). That wait
   * is not the tracer's CPU time (disturbance_said). */
  double delay = trc_cpu_waited();
  if (isfinite(delay))
    rec.delay_mark = delay;
  if (delay > rec.setup_delay) /* NAN compares false */
    rec.own_waited += delay - rec.setup_delay;
  setup_ended(rec.setup_end, start, name, ti ? "%s" : NULL, ti);
  rec.compute_cpu += cpu;
  /* the call's record holds the computation before its action (nothing in a replay, so the same place), unless its
   * actions were written at once (SMPI's format, a full record): then carried into the next computation */
  if (rec.smpi_only || rec.cur.ti_len < 0)
    rec.flops += cpu * rec.rate;
  else
    rec.cur.flops += cpu * rec.rate;
}

/* A poll due to be timed (rec.timing) reads its exit, after the recorder's work: the program's time from here to the
 * next poll of run `f` (time_between). */
static void time_exit(const poll_run_t *f)
{
  if (!rec.timing)
    return;
  rec.timed_exit = trc_clock_now_ordered() - rec.origin_s;
  rec.timed_run = f->first;
  rec.untimed = 0;
  rec.timing = 0;
  next_timing(f);
}

void trc_poll(double start, const char *name)
{
  if (!leaving(start))
    return;
  poll_run_t *f = &rec.polls;
  rec.untimed++;
  int closed = f->closed;
  rec.call_exited = 0;
  /* A poll inside a run reads no clock: its exit is taken as its entry, the poll's own time (some 15 ns) then counted
   * in the gap to the next entry, which stays in the run, or ends it as computation (POLL_GAP) 15 ns early. The
   * clock reading was half of what the recorder took per poll (bench/tracer.sh). */
  double now = f->count > 0 && !closed ? start : trc_now();
  if (closed)
    take_polls(); /* a computation ended the run before: it is a record, and this poll starts another */
  if (f->count == 0) {
    *f = (poll_run_t){.first = start, .name = name, .gap = rec.gap};
    /* its processor time is read from its start when its entry read the CPU clock, or the last run was long; a short
     * run is timed as a short computation: a reading (a system call, 0.7 us on this machine) took a seventh of
     * bench/trc_polling.c's runs at p = 2, some 50 polls between two messages */
    int held = now - start >= CPU_GAP; /* held up inside the library (preempted): a test's own work is some 15 ns */
    if (!isnan(rec.entry_cpu)) {
      poll_seen(f, rec.entry_cpu, start);
      if (held)
        poll_seen(f, trc_cpu_now(), now);
    } else if (held)
      read_from(f, trc_cpu_now(), now);
    else if (rec.long_polls)
      poll_seen(f, trc_cpu_now(), now);
    rec.gap.set = 0;
  }
  f->count++;
  f->last = now;
  rec.long_compute = 0;
  if (closed) {
    resume(now);       /* the recorder writes the run before: its time is not the new run's */
    if (rec.cpu_known) /* read after it (held up, or due) */
      read_from(f, rec.last_cpu, rec.cpu_wall);
    time_exit(f);
    return;
  }
  /* The next computation starts now: a poll writes nothing, so the few instructions above are not worth another
   * clock reading to keep them out of it. */
  rec.last_exit = now;
  rec.lead_held = 0;
  read_cpu_if_due(now, 0);
  if (rec.cpu_known)
    poll_seen(f, rec.last_cpu, now);
  time_exit(f);
}

/* The CPU time of `n` calls of `polls`, the least of POLL_TRIALS (the least of 3 trials of 2,000 polls was up to 4
 * times the cost under load), and the least of the trials' mean times between two polls (time_between: after every
 * poll that reads the clock while measuring them, MEASURE_BETWEEN) into *between, INFINITY where none was read. */
enum { POLL_TRIALS = 15 };

static double polls_cpu(void (*polls)(long n, int traced), long n, int traced, double *between)
{
  double least = INFINITY;
  *between = INFINITY;
  for (int i = 0; i < POLL_TRIALS; i++) {
    double sum = rec.between;
    long count = rec.betweens;
    double t0 = trc_cpu_now();
    polls(n, traced);
    least = fmin(least, trc_cpu_now() - t0);
    if (rec.betweens > count)
      *between = fmin(*between, (rec.between - sum) / (double)(rec.betweens - count));
  }
  return least;
}

void trc_measure_polls(void (*polls)(long n, int traced), long n)
{
  if (!trc_active() || n <= 0)
    return;
  recorder_t before = rec; /* the polls below only change the recorder's state, which is put back */
  rec.measuring = MEASURE_COST;
  rec.computed = 1; /* its polls make runs of polls, as a program's do after its first computation */
  double between, none;
  double traced = polls_cpu(polls, n, 1, &none);
  rec.measuring = MEASURE_BETWEEN; /* apart: timing a poll costs more than a program's one in BETWEEN_EVERY */
  polls_cpu(polls, n, 1, &between);
  rec = before;
  double plain = polls_cpu(polls, n, 0, &none);
  double cost = (traced - plain) / (double)n;
  if (cost > 0 && cost < POLL_COST_MAX)
    rec.poll_cost = cost;
  if (between < POLL_COST_MAX) /* nothing but the recorder's work between two of these polls */
    rec.between_own = between;
}

void trc_envelope(int tag, int comm)
{
  if (!trc_active()) /* another thread's call: not this thread's next record's */
    return;
  rec.env_set = 1;
  rec.env_tag = tag < 0 ? -1 : tag;
  rec.env_comm = comm;
}

void trc_envelope_recv(int source, int tag, double bytes)
{
  if (!trc_active())
    return;
  rec.sr_set = 1;
  rec.sr_src = source;
  rec.sr_tag = source < 0 || tag < 0 ? -1 : tag;
  rec.sr_bytes = source < 0 ? 0 : bytes;
}

void trc_envelope_request(long long request)
{
  if (!trc_active())
    return;
  rec.env_req = request;
}

void trc_envelope_others(unsigned long long mask)
{
  if (!trc_active())
    return;
  rec.env_others = mask;
}

void trc_action(const char *ti, ...)
{
  if (!trc_active())
    return;
  va_list ap;
  va_start(ap, ti);
  add_action(ti, ap);
  va_end(ap);
}

/* Counts one more `name` in the tally `list` of *n kinds. */
static void tally(untraced_t *list, int *n, const char *name)
{
  for (int i = 0; i < *n; i++) /* the same literal first: a one-sided loop's calls are counted on every call */
    if (list[i].name == name) {
      list[i].count++;
      return;
    }
  for (int i = 0; i < *n; i++)
    if (strcmp(list[i].name, name) == 0) {
      list[i].count++;
      return;
    }
  if (*n < UNTRACED_KINDS)
    list[(*n)++] = (untraced_t){.name = name, .count = 1};
}

void trc_untraced(const char *name)
{
  tally(rec.untraced, &rec.nuntraced, name);
}

double trc_rma_enter(void)
{
  return depth == 0 && records() ? trc_now() : NAN;
}

void trc_rma_exit(double start, const char *name)
{
  if (isnan(start)) /* trc_rma_enter found the thread recording, outside any traced call, which the PMPI call kept */
    return;
  rec.rma_seconds += trc_now() - start;
  trc_untraced(name);
}

int trc_smpi_only(void)
{
  return rec.smpi_only;
}

int trc_extension_allowed(const char *name)
{
  if (trc_active() && rec.smpi_only)
    tally(rec.refused, &rec.nrefused, name);
  return trc_active() && !rec.smpi_only;
}

void trc_extension(const char *name, const char *ti, ...)
{
  if (!trc_extension_allowed(name))
    return;
  ti_may_compress();
  va_list ap;
  va_start(ap, ti);
  add_action(ti, ap);
  va_end(ap);
}

/* Writes every record held, the computation before `now` (when ended) and a run of polls included. */
static void write_held(void)
{
  take_polls();
  open_record(&rec.gap);
  commit();
  if (rec.folder)
    trc_fold_drain(rec.folder);
}

/* Ends the computation interval, so that what follows carries the new label. */
static void phase_boundary(void)
{
  double now = trc_now();
  end_compute(now);
  write_held();
  resume(now);
}

void trc_phase_begin(const char *name)
{
  if (!trc_active())
    return;
  if (rec.depth + 1 >= PHASE_DEPTH) {
    rec.dropped_phases++;
    return;
  }
  phase_boundary();
  char *label = rec.phase[++rec.depth];
  snprintf(label, PHASE_LEN, "%s", name && *name ? name : "unnamed");
  for (char *c = label; *c; c++) /* one word of printable characters (simrun analyse refuses control characters) */
    if (*c == ' ' || iscntrl((unsigned char)*c))
      *c = '_';
  trc_timeline_phase(rec.lines, label);
}

void trc_phase_end(void)
{
  if (!trc_active())
    return;
  if (rec.dropped_phases > 0) {
    rec.dropped_phases--;
    return;
  }
  if (rec.depth == 0)
    return;
  phase_boundary();
  rec.depth--;
  trc_timeline_phase(rec.lines, rec.phase[rec.depth]);
}

void trc_timeline_note(const char *format, ...)
{
  if (!records())
    return;
  va_list ap;
  va_start(ap, format);
  trc_out_str(rec.timeline, "# ");
  trc_out_vprintf(rec.timeline, format, ap);
  trc_out_char(rec.timeline, '\n');
  va_end(ap);
}

/* The child processes' CPU time: in the timeline ("# children-cpu USED COUNTED COMPUTE", seconds: what they used, what
 * of it the TI trace counts as the rank's computation, and the rank's computation with it, which simrun analyse
 * reports) and, when they used any, one line on stderr with its share of the rank's computation. */
static void children_said(void)
{
  children_counted(0); /* children reaped since the last reading ran beside the rank's last calls */
  if (rec.child_used <= 0)
    return;
  trc_out_printf(rec.timeline, "# children-cpu %.6f %.6f %.6f\n", rec.child_used, rec.child_count, rec.compute_cpu);
  double share = rec.compute_cpu > 0 ? 100 * rec.child_count / rec.compute_cpu : 0;
  if (rec.child_used - rec.child_count < 0.01 * rec.child_used + 1e-3)
    fprintf(
        stderr,
        "simrun-trace: rank %d: its child processes used %.3f s of CPU, %.1f%% of its computation, counted in the TI "
        "trace's compute amounts (the rank waited for them)\n",
        rec.rank, rec.child_used, share);
  else
    fprintf(
        stderr,
        "simrun-trace: warning: rank %d: its child processes used %.3f s of CPU: %.3f s (%.1f%% of its "
        "computation) counted in the TI trace's compute amounts, the other %.3f s ran beside the rank's own work and "
        "a replay leaves it out\n",
        rec.rank, rec.child_used, rec.child_count, share, rec.child_used - rec.child_count);
}

/* The CPU time of this rank's other threads (a runtime's workers, OpenMP's), which the TI trace's compute amounts
 * (the recorded thread's CPU time) leave out: in the timeline ("# threads-cpu OTHERS MINE", seconds, which simrun
 * analyse repeats for the run) and on stderr when over 0.2 s and a twentieth of the process's (the thread that calls
 * MPI may spin in its waits as long as the others compute, so no larger share is safe; below, Open MPI's own helper
 * threads). Debian's StarPU mpi_cholesky computes in its workers while its progress thread, the one recorded, waits:
 * its replay predicted 0.0003-0.005 s of a 1.8-3.1 s run without a word (tests/data/tracer/threads.c, `serialized`);
 * PT-Scotch's dgord at p = 1, 0.26 s of its 0.67 s in other threads, was predicted 42% short, said only here. */
static void threads_said(void)
{
  long switches = 0;
  double mine = trc_cpu_clock(); /* as the process's usage is read: Linux's own accounts */
  double theirs = process_usage(&switches) - mine;
  if (!(theirs > 0.2 && theirs > 0.05 * (theirs + mine)))
    return;
  trc_out_printf(rec.timeline, "# threads-cpu %.6f %.6f\n", theirs, mine);
  fprintf(stderr,
          "simrun-trace: warning: rank %d: its other threads used %.2f s of CPU, the thread that calls MPI %.2f s: "
          "the TI trace's compute amounts are that thread's, so a replay leaves the others' work out\n",
          rec.rank, theirs, mine);
}

/* How much others disturbed the run (simrun analyse --replay-on says, docs/tracer.md "Analysing and replaying"): in the
 * timeline, "# disturbance LOAD_START LOAD_END SWITCHES CPU WALL WAITED COMPUTE POLLS", the machine's load at the start
 * of the first computation and at `end` (the entry into MPI_Finalize, `ended` read then), the rank's involuntary
 * context switches between them, its CPU seconds (its threads' and the children's it waited for) and wall seconds over
 * that span, the tracer's own time out of both (its CPU time out of the CPU seconds; the CPU seconds at least its
 * computations'), the seconds its recorded thread was runnable but waiting for a processor outside the tracer's own
 * reductions (run_delay: what others took from it, where wall less CPU also counts its sleeps and blocking reads, and
 * its other threads' CPU hides it; nan where Linux does not give it), and the CPU seconds of its computations (the TI
 * trace's compute amounts', the children's counted included), then of its runs of polls (their TI amounts'): the rest
 * of its CPU time it spent in MPI calls, spinning in their waits, which a partner others held off its processor
 * lengthens. */
static void disturbance_said(double end, const counters_t *ended)
{
  double waited = ended->waited - rec.started.waited;
  /* the own time, the gaps without their held parts (held_in), taken as the recorder's CPU time but for its waits for
   * a processor in its own reductions, which are out of WAITED (trc_setup_call); the start-up's, in the wall time from
   * time 0, is not in the CPU time, counted from the first computation on (start_clocks): out of it, it left the CPU
   * time of shared_core.c's ranks 3-12 ms short (test_trc_mpi_shared_core_held_tracer_time) */
  double cpu = ended->usage - rec.started.usage + rec.child_count - (rec.own - rec.own_startup - rec.own_waited);
  double wall = end - rec.own;
  waited -= rec.own_waited;
  cpu = fmax(cpu, rec.compute_cpu); /* it ran its computations at least */
  char waited_text[32] = "nan";
  if (isfinite(waited))
    snprintf(waited_text, sizeof waited_text, "%.6f", waited > 0 ? waited : 0);
  trc_out_printf(rec.timeline, "# disturbance %.2f %.2f %ld %.6f %.6f %s %.6f %.6f\n", rec.started.load, ended->load,
                 ended->switches - rec.started.switches, cpu > 0 ? cpu : 0, wall > 0 ? wall : 0, waited_text,
                 rec.compute_cpu, rec.polls_cpu);
}

/* What the runs of polls held of the program's work (take_polls), for simrun analyse to say: "# polls-work WORK POLLS
 * BETWEENS BETWEEN OWN", the wall seconds of the runs booked as the computation between their polls, the polls the
 * runs counted, the times between two polls read, their mean seconds and the recorder's part of one
 * (trc_measure_polls); zeros where the rank made no run of polls (the line says which tracer wrote the timeline:
 * simrun analyse says an older one's runs hold the work, run_polled). */
static void polls_work_said(void)
{
  trc_out_printf(rec.timeline, "# polls-work %.6f %ld %ld %.9f %.9f\n", rec.polls_work, rec.polls_counted, rec.betweens,
                 rec.betweens > 0 ? rec.between / (double)rec.betweens : 0, rec.between_own);
}

/* The note that ends tally entry `name`, "(...)" after the call's name, or "" (the name's length without it into
 * *call). */
static const char *note_of(const char *name, size_t *call)
{
  size_t len = strlen(name);
  const char *note = len > 0 && name[len - 1] == ')' ? strstr(name, " (") : NULL;
  *call = note ? (size_t)(note - name) : len;
  return note ? note + 1 : "";
}

/* The tally `list` of `n` kinds as text into `line` (`size` bytes, from `len` on): the calls that share a note
 * (one-sided windows, non-blocking collectives) together, each with its count, the note once after them
 * (OpenCoarrays' three window calls repeated it three times, a line of 379 characters). Returns the new length. */
static size_t tally_text(const untraced_t *list, int n, char *line, size_t size, size_t len)
{
  for (int i = 0; i < n && len < size; i++) {
    size_t call, other;
    const char *note = note_of(list[i].name, &call);
    int first = 1;
    for (int j = 0; j < i && first; j++)
      first = strcmp(note_of(list[j].name, &other), note) != 0;
    if (!first)
      continue; /* listed with the first entry of its note */
    const char *sep = i > 0 ? ";" : "";
    for (int j = i; j < n && len < size; j++)
      if (strcmp(note_of(list[j].name, &other), note) == 0) {
        len += (size_t)snprintf(line + len, size - len, "%s %.*s x%ld", sep, (int)other, list[j].name, list[j].count);
        sep = ",";
      }
    if (note[0] && len < size)
      len += (size_t)snprintf(line + len, size - len, " %s", note);
  }
  return len;
}

/* One line listing the tally `list` after `what` (tally_text), written at once so that the ranks' warnings do not
 * interleave on mpirun's stderr. */
static void warn_list(const untraced_t *list, int n, const char *what, const char *after)
{
  if (n == 0)
    return;
  char line[4096];
  size_t len = (size_t)snprintf(line, sizeof line, "simrun-trace: warning: rank %d: %s:", rec.rank, what);
  tally_text(list, n, line, sizeof line, len);
  fprintf(stderr, "%s%s\n", line, after);
}

/* The time in one-sided calls (trc_rma_exit) after the list of untraced calls, against the rank's run (`run`
 * seconds, time 0 to MPI_Finalize), into `text`; "" when there was none. */
static void rma_said(char *text, size_t size, double run)
{
  text[0] = '\0';
  if (rec.rma_seconds > 0)
    snprintf(text, size, "; one-sided calls took %.6f s, %.1f%% of the rank's run, in its computations",
             rec.rma_seconds, run > 0 ? 100 * rec.rma_seconds / run : 0);
}

/* The calls not in the TI trace (trc_untraced), for simrun analyse to name: "# untraced" and tally_text's list. */
static void untraced_said(const char *after)
{
  if (rec.nuntraced == 0)
    return;
  char line[4096] = "";
  tally_text(rec.untraced, rec.nuntraced, line, sizeof line, 0);
  trc_out_printf(rec.timeline, "# untraced%s%s\n", line, after);
}

void trc_flush(void)
{
  if (!trc_active())
    return;
  write_held();
  trc_out_flush(rec.ti);
  trc_out_flush(rec.timeline);
  check_files();
}

/* CPU seconds after MPI_Finalize beyond which a rank's work there is said (trc_after_finalize), and beyond this share
 * of what it computed traced: a program's teardown (Python's, some 10-50 ms) is not. */
#define AFTER_MIN   0.1
#define AFTER_SHARE 0.1

void trc_finalize_returned(void)
{
  long switches;
  if (rec.finished)
    rec.exit_usage = process_usage(&switches);
}

void trc_after_finalize(void)
{
  if (!rec.finished)
    return;
  long switches;
  /* from MPI_Finalize's return: inside it, a rank waits for the others (the wrapper's reduction, Open MPI's own), and
   * Open MPI's ranks spin there, which is no work of the program */
  double from = rec.exit_usage > 0 ? rec.exit_usage : rec.finished_usage;
  double after = process_usage(&switches) - from, traced = rec.finished_usage - rec.started.usage;
  if (after > AFTER_MIN && after > AFTER_SHARE * traced)
    fprintf(stderr,
            "simrun-trace: warning: rank %d: %.2f s of CPU time after MPI_Finalize (%.2f s while traced) are in no "
            "trace: the program computed after it, which a replay leaves out\n",
            rec.rank, after, traced > 0 ? traced : 0);
}

/* trc_finish's work, and with `at_exit` trc_finish_at_exit's: its line, with the exit `status`, before the end line,
 * and the marker kept when the rank's trace would not replay (other threads' calls), which at MPI_Finalize the ranks'
 * agreement catches. */
static int finish(int at_exit, int status)
{
  if (!rec.on && !rec.ti)
    return TRC_FAILED;
  char rma[160] = "";
  if (rec.on) {
    double now = trc_enter();
    counters_t ended = read_counters();
    rec.finished = 1;
    rec.finished_usage = ended.usage;
    write_held();
    trc_fold_free(rec.folder);
    rec.folder = NULL;
    flush_compute(1);
    trc_out_printf(rec.ti, "%d finalize\n", rec.rank);
    /* the library's own time after the calls, the gaps between the intervals, which simrun analyse removes (keeping
     * causality between the ranks: docs/tracer.md); their sum, for the record */
    trc_out_printf(rec.timeline, "# tracer-cost %.9f\n", rec.own);
    children_said();
    threads_said();
    rma_said(rma, sizeof rma, now);
    untraced_said(rma);
    disturbance_said(now, &ended);
    trc_cpu_close();
    polls_work_said();
    if (atomic_load(&others)) /* simrun analyse names such a folder (docs/tracer.md) */
      trc_out_printf(rec.timeline, "# calls from other threads %lu: not traced\n", atomic_load(&others));
    if (at_exit)
      trc_out_printf(rec.timeline, TRC_EXIT_LINE ", status %d\n", status);
    trc_out_printf(rec.timeline, "# end %.9f\n", now);
    trc_timeline_free(rec.lines);
    rec.lines = NULL;
    rec.on = 0;
  }
  warn_list(rec.untraced, rec.nuntraced, "calls not in the TI trace (replay will miss them)", rma);
  warn_list(rec.refused, rec.nrefused,
            "actions of simrun's TI extensions that SIMRUN_TRACE_FORMAT=smpi left out (smpirun has none)", "");
  unsigned long from_others = atomic_load(&others);
  if (from_others)
    fprintf(stderr,
            "simrun-trace: warning: rank %d: %lu MPI call(s) from threads other than the one that initialised MPI "
            "are not traced, so no index.txt is written: the trace would not replay; make the MPI calls from one "
            "thread to trace this program (PT-Scotch's threads: SCOTCH_PTHREAD_NUMBER=1)\n",
            rec.rank, from_others);
  int ok = !rec.failed;
  ok = trc_out_close(rec.ti) == 0 && ok;
  ok = trc_out_close(rec.timeline) == 0 && ok;
  rec.ti = rec.timeline = NULL;
  if (!ok && !rec.failed)
    fprintf(stderr, "simrun-trace: warning: rank %d could not write its files in %s whole\n", rec.rank, rec.dir);
  char marker[PATH_MAX + 64];
  marker_path(marker, sizeof marker, rec.rank);
  int kept = at_exit && from_others; /* the trace would not replay: MPI_Finalize's agreement cannot say so */
  if (ok && kept)
    marker_why(rec.rank, "it exited without calling MPI_Finalize after MPI calls from threads other than the one that "
                         "initialised MPI, which are not traced (the trace would not replay)");
  else if (ok && unlink(marker) != 0) { /* the rank's files are whole */
    fprintf(stderr, "simrun-trace: warning: rank %d cannot remove %s: %s\n", rec.rank, marker, strerror(errno));
    ok = 0;
  }
  return rec.failed || from_others ? TRC_FAILED_SAID : !ok ? TRC_FAILED : rec.nrefused ? TRC_NOT_SMPI : TRC_WHOLE;
}

int trc_finish(void)
{
  return finish(0, 0);
}

/* Why the process's exit cannot end the rank's files whole (trc_finish_at_exit), into `why` (`size` bytes): 0 when it
 * can, -1 when not. A signal blocked now that was not at MPI_Init and has a handler is one being handled (a handler
 * that called exit(), as a program's SIGTERM handler when mpirun stops the job; it may have interrupted the recorder);
 * a signal a program blocked for good to take it by sigwait or signalfd has none. */
static int exit_refused(char *why, size_t size)
{
  if (!records())
    snprintf(why, size, "from a thread other than the one that initialised MPI");
  else if (depth != 0)
    snprintf(why, size, "inside an MPI call");
  else {
    sigset_t now;
    if (pthread_sigmask(SIG_BLOCK, NULL, &now) != 0)
      return 0;
    for (int sig = 1; sig < NSIG; sig++) {
      struct sigaction act;
      if (sigismember(&now, sig) == 1 && sigismember(&rec.signals_blocked, sig) != 1 &&
          sigaction(sig, NULL, &act) == 0 && act.sa_handler != SIG_DFL && act.sa_handler != SIG_IGN) {
        snprintf(why, size, "from its handler of SIG%s (the run was interrupted)",
                 sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
        return -1;
      }
    }
    return 0;
  }
  return -1;
}

int trc_finish_at_exit(int status)
{
  if (!rec.on || getpid() != rec.pid)
    return TRC_FAILED;
  char why[96];
  if (exit_refused(why, sizeof why) != 0) {
    fprintf(stderr,
            "simrun-trace: warning: rank %d exited without calling MPI_Finalize, %s: its files stop short and its "
            "marker stays\n",
            rec.rank, why);
    char said[160];
    snprintf(said, sizeof said, "it exited without calling MPI_Finalize, %s", why);
    marker_why(rec.rank, said);
    return TRC_FAILED;
  }
  return finish(1, status);
}

int trc_markers_gone(void)
{
  for (int i = 1; i < rec.size; i++) { /* from the next rank on: the ranks after this one, if any, end later */
    char path[PATH_MAX + 64];
    marker_path(path, sizeof path, (rec.rank + i) % rec.size);
    if (access(path, F_OK) == 0 || errno != ENOENT)
      return 0;
  }
  return 1;
}
