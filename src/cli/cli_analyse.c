/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `simrun analyse`: reads measured runs (met_timeline.h, in one pass each), takes T_seq from a measured sequential
 * time, the traced sequential run less the tracer's own time, or the measured computation, and prints the views of a
 * simulated study that a measurement can give (Lemeire's EPPA, seed 000 §1.1-1.2) through the report module: the
 * lost-cycle table with one row per run (metrics as functions of p, Fig. 1.7), the per-process tables, and the output
 * formats of simrun run's table (cli_formats.h) that it takes; the views it cannot give are left out with the reason.
 */
#include "cli_analyse.h"
#include "bas_error.h"
#include "bas_temp.h"
#include "cli_binding.h"
#include "cli_exit.h"
#include "cli_formats.h"
#include "cli_layout.h"
#include "cli_replay.h"
#include "cli_results.h"
#include "cli_signal.h"
#include "met_comm.h"
#include "met_timeline.h"
#include "rep_report.h"
#include "sim_run.h"
#include "stu_measured.h"
#include "stu_replay.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

enum { MAX_RUNS = 64 };

/* A folder whose timelines are larger than this is read into an aggregate trace (per-rank sums, memory independent of
 * the run's length, its wait states summed while read), spilled (its intervals in a temporary file) when an output
 * draws or exports its timelines and $TMPDIR has room (SPILL_ROOM), else without them, and the report says so. */
#define KEEP_BYTES (32.0 * 1024 * 1024)

/* The room a spilled run takes in $TMPDIR, per byte of its timelines unfolded: its file, 64 bytes an interval, and with
 * --paje the trace's events sorted there too, six of 40 bytes an interval, at 40 bytes of unfolded timelines an
 * interval (met_timeline_bytes counts 96 bytes a loop's slot and iteration, one or two intervals; HPC Challenge's,
 * ABySS's, Ray's and loop-sums' folders came to 46.9 to 52.7). Where the file fills up all the same, the run is read
 * again as sums (read_run). */
#define SPILL_ROOM      (64.0 / 40)
#define SPILL_ROOM_PAJE ((64.0 + 6 * 40) / 40)

/* How a run was read (runs_t.read). */
enum { READ_SUMS = 0, READ_WHOLE, READ_SPILLED, READ_SUMS_NO_ROOM };

typedef struct analyse_opts {
  const char *dirs[MAX_RUNS];
  int ndirs;
  const char *seq;          /* --seq DIR|SECONDS, or NULL */
  const char *seq_time;     /* --seq-time SECONDS, or NULL */
  const char *replay_on;    /* --replay-on PLATFORM, or NULL */
  const char *platform;     /* --platform FILE: the bottleneck view of the trace's operations on it, or NULL */
  int untraced_p[MAX_RUNS]; /* --untraced P=SECONDS: the untraced wall time of the run at p */
  double untraced[MAX_RUNS];
  int nuntraced;
  cli_outputs_t outputs; /* the output formats' paths (cli_formats.h) */
  int catch_signals;     /* cli_context_t's: a replay's signals are caught */
  int width;             /* --width N, or 0 (cli_layout.h) */
  int full;              /* --full: every table of the report */
  int partial;           /* --partial: a run whose ranks did not all finish is read up to where they stopped */
} analyse_opts_t;

/* What a run's ranks lost to others (run_lost): seconds of their wait for a processor beyond their core-mates' time,
 * whether core-mates were counted, and whether the run may have had more ranks than cores. */
typedef struct lost {
  double seconds;
  int mates;
  int crowded;
  int worst;          /* the preempted rank that lost the most, -1 where not known (lost_to_others) or crowded */
  double worst_share; /* its loss, beyond what its core-mates ran, over the longest rank's wall time */
} lost_t;

/* How long a run's ranks' computations were blocked (run_blocked): seconds over the ranks, NAN where a rank's file
 * does not give its computations' CPU time or its wait for a processor, and their share of its T_par; the rank
 * blocked longest and its seconds. */
typedef struct blocked {
  double seconds;
  double share;
  int rank;
  double most;
  double crowded; /* beyond them, the seconds the cores had no CPU time left for (run_blocked): waits for a processor
                   * that the ranks' WAITED does not hold (their children's) */
} blocked_t;

/* Where a run's ranks were (cli_binding.h): its binding lines, whether index.txt could be read for them, and each
 * rank's core as the replay places them (core[0..p-1]: cli_binding_cores, paired by their waits or not), or NULL where
 * the binding does not say. */
typedef struct cores {
  cli_binding_t binding;
  int read;
  int *core;
  int paired;
} cores_t;

/* The measured runs, sorted by p, and where T_seq comes from. */
typedef struct runs {
  met_trace_t *traces[MAX_RUNS];
  met_timeline_info_t info[MAX_RUNS];
  int read[MAX_RUNS]; /* READ_*: whole, or as per-rank sums (KEEP_BYTES), spilled or not */
  const char *dirs[MAX_RUNS];
  int p[MAX_RUNS]; /* each run's ranks */
  cores_t cores[MAX_RUNS];
  lost_t lost[MAX_RUNS];
  blocked_t blocked[MAX_RUNS];
  char program[256]; /* the traced program's name, or its folder's */
  int n;
  double t_seq; /* one T_seq for every run */
  char seq_source[4200];
} runs_t;

static void usage(FILE *out)
{
  fprintf(out,
          "Usage: simrun analyse DIR [DIR...] [OPTIONS]\n"
          "\n"
          "Analyses real MPI runs traced by libsimrun-trace.so (docs/analyse.md): each DIR holds one run's\n"
          "timeline-I.txt files, read in one pass. Time a rank spent blocked in a send, receive, wait, poll or\n"
          "collective (barrier, N x N, rooted, scan) until its partners arrived is idling, the rest of the call\n"
          "communication (Scalasca's wait states); a poll with no one to wait for (at p = 1) is control. Prints\n"
          "the lost-cycle table of Lemeire's EPPA (T_par, speedup, efficiency, overhead ratios of control,\n"
          "communication, idling and the parallel anomaly, granularity) with one row per run, so that runs at\n"
          "several p give the metrics as functions of p, then every run's per-process table and the time of each\n"
          "phase the program labelled (simrun_phase.h) by category. A measurement gives no bottleneck view\n"
          "(without --platform) and no split of the anomaly into true anomaly and imbalance: they are left out of\n"
          "every output, with why.\n"
          "\n"
          "Options:\n"
          "  --seq-time SECONDS  the sequential time T_seq, measured untraced (the program's time at p = 1 from\n"
          "                      the end of MPI_Init to MPI_Finalize, which libsimrun-span.so prints)\n"
          "  --seq DIR|SECONDS   T_seq from the run traced at p = 1 in DIR (its T_par less the tracer's own time,\n"
          "                      where the tracer recorded it), or a time in seconds as --seq-time. Without either,\n"
          "                      a run at p = 1 among the DIRs serves so; else the measured computation of the run\n"
          "                      with the smallest p (whose parallel anomaly is then 0). The report says which,\n"
          "                      and whether others disturbed that run (its speedups are then too high)\n"
          "  --replay-on PLATFORM  also replay each run's TI trace (index.txt) on PLATFORM with ti-replay (each\n"
          "                      collective as Open MPI 4.1 chose its algorithm: collectives = openmpi) and print\n"
          "                      the predicted T_par beside the measured one, with the difference (and both into\n"
          "                      the CSV, JSON and HTML: t_replay_s, t_measured_s; drawn by --svg) and whether\n"
          "                      the run was disturbed (its ranks preempted for over 10%% of their wall time,\n"
          "                      or, its ranks no more than its cores, one for over 10%% of the run's, beyond what\n"
          "                      the ranks the replay puts on their cores ran:\n"
          "                      then the measured time is its busiest core's CPU time, its ranks' there summed,\n"
          "                      or, where the trace gives the ranks' computations, a range LEAST-MOST whose\n"
          "                      LEAST discounts what its waits spun while others were preempted: the CSV's\n"
          "                      t_measured_least_s); how long the ranks' computations were blocked (sleeps,\n"
          "                      reads, waits outside MPI), which the replay leaves out: a \"Blocked:\" line\n"
          "                      with the prediction plus them when 5%% of T_par or more (the CSV's blocked_s);\n"
          "                      ranks placed by the binding the trace recorded (bound: on those cores' hosts\n"
          "                      core-C; unbound and oversubscribed: sharing cores as the ranks' waits for a\n"
          "                      processor show, else on core i mod the cores, with a line saying what that\n"
          "                      means and, where ranks share a core, the range a quiet run takes by the CPU\n"
          "                      time they spent polling and in MPI calls and, unbound, their computations'\n"
          "                      spread: t_replay_least_s, t_replay_most_s); messages between ranks on one\n"
          "                      host that the platform prices over the host's links (a <cluster> without\n"
          "                      loopback_bw): a \"Same host:\" line and its warning (same_host); the\n"
          "                      computations' CPU time and rank 0's host's time for them (compute_cpu_s,\n"
          "                      compute_replay_s), a \"Speed:\" line where a rank's flop rate is over 5%% from\n"
          "                      that host's speed (speed)\n"
          "  --untraced P=SECONDS  the untraced run's time at p = P from the end of MPI_Init to MPI_Finalize (the\n"
          "                      span a trace covers: libsimrun-span.so preloaded prints it; mpirun's wall time\n"
          "                      also holds the start-up before MPI_Init), the measured time --replay-on compares\n"
          "                      with (else the traced run's T_par or CPU time); once for each p, each the p of a\n"
          "                      DIR's run, and only with --replay-on (a time left unused is refused)\n"
          "  --platform FILE     also give the bottleneck view (seed 001 Table 5's components) of each run's TI\n"
          "                      trace replayed on FILE, the trace's compute amounts and messages priced there, in\n"
          "                      the report and the CSV, JSON and SVG outputs\n"
          "  --partial           read a run whose ranks did not all finish (killed, aborted: the tracer's\n"
          "                      incomplete-N markers) up to where each stopped, with one warning naming the\n"
          "                      first file cut short; without it such a folder is refused\n");
  cli_formats_usage(out, CLI_COMMAND_ANALYSE);
  cli_layout_usage(out);
  fprintf(out,
          "  -h, --help          show this help and exit\n"
          "A FILE of '-' is standard output (one of them at most); the report then goes to standard error. No\n"
          "output may replace a file of a trace folder or another output, and each must be writable: checked\n"
          "before any folder is read. The outputs are written under temporary names and renamed together once all\n"
          "are complete.\n"
          "\n"
          "Exit status: 0 success, 1 an output failed while being written, 2 bad usage, a bad trace folder or an\n"
          "output that cannot be written.\n");
}

static int fail(const char *fmt, const char *arg)
{
  fprintf(stderr, "simrun: error: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return EXIT_INPUT;
}

/* Adds "P=SECONDS" to opts' untraced times; NULL, or what is wrong with it (malformed, one too many, a p given twice,
 * which would leave one of the two times unused). */
static const char *add_untraced(analyse_opts_t *opts, const char *text)
{
  int p = 0, used = 0;
  double seconds = 0;
  if (opts->nuntraced == MAX_RUNS || sscanf(text, "%d=%lf%n", &p, &seconds, &used) != 2 || text[used] != '\0' ||
      p < 1 || !(seconds > 0) || isinf(seconds))
    return "expected P=SECONDS (the untraced run's time from MPI_Init to MPI_Finalize at p ranks), at most 64";
  for (int i = 0; i < opts->nuntraced; i++)
    if (opts->untraced_p[i] == p)
      return "that p has a time already; give one --untraced per p";
  opts->untraced_p[opts->nuntraced] = p;
  opts->untraced[opts->nuntraced++] = seconds;
  return NULL;
}

/* Fills opts; -1 to go on, or an exit status. */
static int parse(int argc, char **argv, analyse_opts_t *opts)
{
  static const struct option longopts[] = {{"seq", required_argument, NULL, 's'},
                                           {"seq-time", required_argument, NULL, 't'},
                                           {"replay-on", required_argument, NULL, 'r'},
                                           {"untraced", required_argument, NULL, 'u'},
                                           {"platform", required_argument, NULL, 'f'},
                                           {"width", required_argument, NULL, 'W'},
                                           {"full", no_argument, NULL, 'F'},
                                           {"partial", no_argument, NULL, 'P'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  struct option all[sizeof longopts / sizeof longopts[0] + CLI_MAX_FORMATS]; /* and the output formats' options */
  cli_formats_options(CLI_COMMAND_ANALYSE, longopts, all);
  const char **slot[] = {
      ['s'] = &opts->seq, ['t'] = &opts->seq_time, ['r'] = &opts->replay_on, ['f'] = &opts->platform};
  opts->outputs.command = CLI_COMMAND_ANALYSE;
  opterr = 0;
  optind = 0; /* glibc starts afresh: an earlier call's parse may have stopped inside a group */
  for (int c; (c = getopt_long(argc, argv, ":h", all, NULL)) != -1;) {
    if (c == 'h') {
      usage(stdout);
      return EXIT_OK;
    }
    if (c == ':')
      return fail("option '%s' needs a value; see simrun analyse --help", argv[optind - 1]);
    if (c == '?')
      return fail("unknown option '%s'; see simrun analyse --help", argv[optind - 1]);
    const char *wrong = c == 'u' ? add_untraced(opts, optarg) : NULL;
    if (wrong) {
      fprintf(stderr, "simrun: error: --untraced %s: %s\n", optarg, wrong);
      return EXIT_INPUT;
    }
    char message[160];
    if (c == 'W' && cli_layout_width(optarg, &opts->width, message, sizeof message) != 0)
      return fail("%s; see simrun analyse --help", message);
    if (c >= CLI_FORMAT_OPTION)
      cli_format_set(&opts->outputs, &cli_formats[c - CLI_FORMAT_OPTION], optarg);
    else if (c == 'F')
      opts->full = 1;
    else if (c == 'P')
      opts->partial = 1;
    else if (c != 'u' && c != 'W')
      *slot[c] = optarg;
  }
  for (; optind < argc; optind++) {
    if (opts->ndirs == MAX_RUNS)
      return fail("more than 64 trace folders, from '%s' on; analyse at most 64 runs at once", argv[optind]);
    opts->dirs[opts->ndirs++] = argv[optind];
  }
  if (opts->ndirs == 0)
    return fail("%sno trace folder given; usage: simrun analyse DIR [DIR...], see simrun analyse --help", "");
  if (opts->seq && opts->seq_time)
    return fail("%s--seq and --seq-time both give T_seq; give one", "");
  if (opts->nuntraced > 0 && !opts->replay_on)
    return fail("%s--untraced gives the measured time that --replay-on compares its prediction with; add --replay-on "
                "PLATFORM (simrun machine probe writes this machine's)",
                "");
  return -1;
}

/* Every --untraced P must be the p of a run read: else its time would be left unused, and that run compared with its
 * traced T_par instead. 0, or EXIT_INPUT after the error line. */
static int check_untraced(const analyse_opts_t *opts, const runs_t *runs)
{
  for (int u = 0; u < opts->nuntraced; u++) {
    int found = 0;
    char ps[MAX_RUNS * 12] = "";
    for (int i = 0; i < runs->n; i++) {
      found |= runs->p[i] == opts->untraced_p[u];
      snprintf(ps + strlen(ps), sizeof ps - strlen(ps), "%s%d", i ? ", " : "", runs->p[i]);
    }
    if (!found) {
      fprintf(stderr,
              "simrun: error: --untraced %d=%g: no run at p = %d among the folders (p = %s); give the p of a run\n",
              opts->untraced_p[u], opts->untraced[u], opts->untraced_p[u], ps);
      return EXIT_INPUT;
    }
  }
  return EXIT_OK;
}

/* What reading may put in $TMPDIR: the room a spilled run takes per byte of its unfolded timelines (0: no output draws
 * or exports them, so no run is spilled), and the room left there for the runs still to read. */
typedef struct spill_budget {
  double per_byte;
  double room;
} spill_budget_t;

/* The budget of the outputs asked for: $TMPDIR's (else /tmp's) free room, 0 when it cannot be written. */
static spill_budget_t spill_budget(const cli_outputs_t *outputs)
{
  spill_budget_t b = {0, 0};
  if (cli_outputs_need(outputs, CLI_NEEDS_WHOLE_TRACES | CLI_NEEDS_TIMELINES))
    b.per_byte = cli_outputs_need(outputs, CLI_NEEDS_SORTED_EVENTS) ? SPILL_ROOM_PAJE : SPILL_ROOM;
  const char *dir = bas_temp_dir();
  struct statvfs fs;
  if (b.per_byte > 0 && access(dir, W_OK | X_OK) == 0 && statvfs(dir, &fs) == 0)
    b.room = (double)fs.f_bavail * (double)fs.f_frsize;
  return b;
}

/* How to read folder `dir`: whole when its timelines are small, else as sums, spilled when an output draws or exports
 * the timelines and the budget has room for them (then taken from it). */
static int how_to_read(const char *dir, spill_budget_t *budget)
{
  double spillable = budget->per_byte > 0 ? budget->room / budget->per_byte : 0;
  double bytes = met_timeline_bytes(dir, spillable > KEEP_BYTES ? spillable : KEEP_BYTES); /* unfolded */
  if (bytes <= KEEP_BYTES)
    return READ_WHOLE;
  if (budget->per_byte == 0)
    return READ_SUMS;
  if (bytes > spillable)
    return READ_SUMS_NO_ROOM;
  budget->room -= bytes * budget->per_byte;
  return READ_SPILLED;
}

/* Why folder `dir`'s run has no time, into `err`: a run that did not finish (`stopped`, read with --partial) lost
 * what its ranks' buffers held; else it recorded none (ranks that only initialised MPI). */
static void no_time(char *err, size_t size, const char *dir, int stopped)
{
  if (stopped)
    snprintf(err, size,
             "%s/timeline-0.txt: no record of the run reached its files before it stopped (a rank writes its records "
             "when its buffer of 1 MiB fills and at MPI_Finalize: a run stopped by a signal or an abort loses what its "
             "buffers held); trace it again and let it reach MPI_Finalize",
             dir);
  else
    snprintf(
        err, size,
        "%s/timeline-0.txt: the run recorded no time (no interval of any rank lasts); trace a run that computes or "
        "communicates",
        dir);
}

/* Reads one folder as *read says (how_to_read), a run whose ranks did not all finish only with --partial; NULL after
 * printing its error (a run that recorded no time has no metrics). */
static met_trace_t *read_run(const char *dir, const analyse_opts_t *opts, spill_budget_t *budget,
                             met_timeline_info_t *info, int *read)
{
  char err[8400];
  *read = how_to_read(dir, budget);
  int flags = (*read == READ_WHOLE     ? MET_TL_KEEP
               : *read == READ_SPILLED ? MET_TL_SPILL
                                       : 0) |
              (opts->partial ? MET_TL_PARTIAL : 0);
  met_trace_t *trace = met_timeline_stream(dir, flags, info, err, sizeof err);
  if (!trace && *read == READ_SPILLED && info->error == BAS_EIO) { /* $TMPDIR filled up: read again, as sums alone */
    *read = READ_SUMS_NO_ROOM;                                     /* said by sums_not_exported */
    trace = met_timeline_stream(dir, flags & ~MET_TL_SPILL, info, err, sizeof err);
  }
  if (trace && !(met_trace_end(trace) > 0)) {
    no_time(err, sizeof err, dir, err[0] != '\0');
    met_trace_free(trace);
    trace = NULL;
  }
  if (!trace)
    fprintf(stderr, "simrun: error: %s\n", err);
  else if (err[0]) /* a run killed before MPI_Finalize, read with --partial or left by a tracer before the markers */
    fprintf(stderr, "simrun: warning: %s\n", err);
  return trace;
}

/* A traced run was disturbed when its ranks lost over DISTURBED of their wall time (from time 0 to MPI_Finalize, the
 * tracer's own time out) to others and were preempted (involuntary context switches): Open MPI's ranks spin in their
 * waits, so on a machine with a core per rank and nothing else to run they run nearly all of it, while runs under a
 * load of 6-16 were predicted 10% off or more (issue 47) and lost most of it (97% at p = 3 under a load of 11 to 14 on
 * this 2-core machine, by hand). */
#define DISTURBED 0.10

/* Whether every rank's file gives the time its thread waited for a processor (run_delay), which is then what it
 * lost; else what it lost is its wall time less its CPU time, which also counts its sleeps and blocking reads and
 * which its other threads' CPU time hides. */
static int waits_known(const met_timeline_info_t *info)
{
  return info->waited_ranks == info->usage_ranks;
}

static double lost_seconds(const met_timeline_info_t *info)
{
  return waits_known(info) ? info->cpu_waited : info->cpu_lost;
}

/* The share of a run's wall time its `p` ranks lost to others, or NAN when a rank's file does not say
 * ("# disturbance", docs/tracer.md). */
static double lost_share(const met_timeline_info_t *info, int p)
{
  if (info->usage_ranks < p || !(info->cpu_wall > 0))
    return NAN;
  return lost_seconds(info) / info->cpu_wall;
}

/* What a disturbed run's ranks lost, to follow "its ranks" (p = 1: "its rank"), into `text`: "waited for a processor
 * for 53.2% of their wall time (2.740 of 5.153 s, 1169 involuntary context switches" (the parenthesis left open). */
static void lost_text(char *text, size_t size, const met_timeline_info_t *info, int p, double seconds)
{
  snprintf(text, size, "%s for %.1f%% of %s wall time (%.3f of %.3f s, %.0f involuntary context switches",
           waits_known(info) ? "waited for a processor" : "did not run", 100 * seconds / info->cpu_wall,
           p == 1 ? "its" : "their", seconds, info->cpu_wall, info->switches);
}

/* The seconds the `p` ranks lost to other work: each rank's wait for a processor beyond what the ranks on its core
 * (core[i], cli_binding_cores) ran, their CPU and tracer time (while one runs, its core-mates wait), summed; without
 * the cores or without each rank's wait, what they lost (lost_seconds). Ranks of an oversubscribed run on a quiet
 * machine wait for their core-mates alone: Quantum ESPRESSO's pw.x at p = 4 bound two to a core waited 1.806 s where
 * its core-mate ran 1.782 s, and so for each rank, so that its run was its own, not disturbed by others. out->mates
 * says whether core-mates were counted; out->worst and worst_share, where each rank's wait and core are known, which
 * rank lost the most so and that loss's share of the longest rank's wall time (at most its own wall time: a rank that
 * ended early, 2 ms lost of its 10, is not a tenth of a 10-s run), of the ranks preempted (involuntary switches). */
static double lost_to_others(const met_timeline_info_t *info, int p, const int *core, lost_t *out)
{
  out->mates = 0;
  out->worst = -1;
  out->worst_share = 0;
  if (p > MET_TL_CPU_RANKS || info->usage_ranks < p)
    return lost_seconds(info);
  int each = core && waits_known(info);
  double lost = 0, span = 0; /* the longest rank's wall time: a rank's loss counts against the run's */
  for (int i = 0; i < p; i++)
    span = fmax(span, info->usage[i].wall);
  for (int i = 0; i < p; i++) {
    double ran = 0;
    for (int j = 0; each && j < p; j++)
      if (j != i && core[j] == core[i]) {
        ran += info->usage[j].cpu + fmax(0, info->usage[j].own); /* a hostile HELD beyond the cost: none */
        out->mates = 1;
      }
    double mine = fmax(0, info->usage[i].lost - ran);
    lost += mine;
    if (each && info->usage[i].switches >= 1 && fmin(mine, info->usage[i].wall) > out->worst_share * span) {
      out->worst = i;
      out->worst_share = fmin(mine, info->usage[i].wall) / span;
    }
  }
  return each ? lost : lost_seconds(info);
}

/* The cores of the `p` ranks of the run in `dir` (cores_t): its binding read from its index.txt (one that cannot be
 * read places nothing: --replay-on refuses a missing one once its folder is read, check_index, and one whose binding
 * lines are wrong before, check_replays). */
static cores_t run_cores(const char *dir, const met_timeline_info_t *info, int p)
{
  char err[8600];
  cores_t c = {.read = cli_binding_read(dir, &c.binding, err, sizeof err) == 0};
  const met_tl_usage_t *usage = p <= MET_TL_CPU_RANKS && info->usage_ranks >= p ? info->usage : NULL;
  c.core = c.read && c.binding.nranks == p ? malloc((size_t)p * sizeof *c.core) : NULL;
  if (c.core && !cli_binding_cores(&c.binding, usage, c.core, &c.paired)) {
    free(c.core);
    c.core = NULL;
  }
  return c;
}

/* What the `p` ranks of a run whose cores are `c` lost to others. */
static lost_t run_lost(const cores_t *c, const met_timeline_info_t *info, int p)
{
  lost_t lost = {0, 0, 0, -1, 0};
  lost.seconds = lost_to_others(info, p, c->core, &lost);
  lost.crowded = p > 1 && !(c->read && c->binding.nranks == p && !c->binding.oversubscribed); /* maybe */
  if (lost.crowded) { /* ranks that may share a core wait for their core-mates where the placement was assumed */
    lost.worst = -1;
    lost.worst_share = 0;
  }
  return lost;
}

/* A run's computations were blocked, for the report, when its ranks' blocked seconds reach BLOCKED of its T_par: each
 * may lengthen a replay's T_par by as much (its rank's computation, on the run's critical path). */
#define BLOCKED 0.05

/* The CPU seconds of what rank `u`'s timeline books as computation: its computations', and of its runs of polls' the
 * work between their polls ("# polls-work", docs/tracer.md "Runs of polls"), at most their CPU time. */
static double computed_cpu(const met_tl_usage_t *u)
{
  return u->compute + (isnan(u->polls_work) || isnan(u->polls) ? 0 : fmin(u->polls_work, u->polls));
}

/* How long the `p` ranks' computations were blocked: neither running (their CPU time, "# disturbance"'s COMPUTE, their
 * child processes' counted, and the work between their polls: computed_cpu) nor waiting for a processor (WAITED, over
 * the rank's whole span: what is left is at least its computations' blocked time), less what the ranks' other threads
 * ran meanwhile: sleeps, reads of files or pipes, waits for something outside MPI. The TI trace gives computations as
 * CPU time (docs/tracer.md), so a replay has none of it: GARLI 2.1's Garli-mpi, when its runs were done before, sleeps
 * 1 s then 2 s between barriers (a 4.0-s run predicted 0.0014 s, "not disturbed", by hand). On one node whose binding
 * lines give its online cores, at most the CPU time the node had left over the run for work: its cores times T_par less
 * the ranks' computations' CPU seconds (their children's counted; not what the ranks spun or polled in MPI calls, which
 * yields a shared core to work), since a computation that waits for a child process waiting for a processor is blocked
 * too, and a quiet run takes that wait no less (ffindex_apply_mpi at p = 3 on 2 cores, each rank waiting for its xz:
 * "blocked for 1.390 s, 65.1% of its T_par", where their computations used 3.993 of the cores' 4.273 CPU seconds). */
static blocked_t run_blocked(const met_trace_t *trace, const met_timeline_info_t *info, int p, const cores_t *c)
{
  blocked_t b = {NAN, NAN, -1, 0, 0};
  if (p > MET_TL_CPU_RANKS || info->usage_ranks < p || !waits_known(info)) /* without WAITED, lost holds the blocks */
    return b;
  double sum = 0;
  for (int rank = 0; rank < p; rank++) {
    const met_tl_usage_t *u = &info->usage[rank];
    if (isnan(u->compute))
      return b;
    double mine = fmax(0, met_trace_category_time(trace, rank, MET_CAT_COMPUTE) - computed_cpu(u) - u->lost);
    sum += mine;
    if (mine > b.most) {
      b.most = mine;
      b.rank = rank;
    }
  }
  b.seconds = fmax(0, sum - (info->threads_cpu > 0 ? info->threads_cpu : 0));
  if (c->read && c->binding.nodes == 1 && c->binding.online > 0) {
    double used = 0; /* their computations', not what they spun or polled: that yields the core to work */
    for (int rank = 0; rank < p; rank++)
      used += computed_cpu(&info->usage[rank]);
    double left = fmax(0, c->binding.online * met_trace_end(trace) - used);
    b.crowded = fmax(0, b.seconds - left);
    b.seconds -= b.crowded;
    b.most = fmin(b.most, b.seconds);
  }
  b.share = b.seconds / met_trace_end(trace);
  return b;
}

/* The share of their wall time the `p` ranks lost to others, or NAN where a rank's file does not say. */
static double others_share(const met_timeline_info_t *info, int p, const lost_t *lost)
{
  return isnan(lost_share(info, p)) ? NAN : lost->seconds / info->cpu_wall;
}

/* Whether others disturbed the run (see DISTURBED): its ranks together, or one of them alone over DISTURBED of the
 * run's wall time, which may be the one the run waited for (rheolef's dirichlet at p = 2: rank 0, the others' wait,
 * lost 17.5% of its wall time, 0.476 s, the ranks 9.1% of theirs, and the run read "not disturbed" beside a
 * prediction 17.3% short of it, by 0.47 s); not where ranks may share cores unplaced (lost_t's crowded: five unbound
 * ranks on 2 cores of a quiet machine, placed i mod 2 by assumption, read rank 1 "19.8%" lost waiting for its true
 * core-mates). */
static int others_disturbed(const met_timeline_info_t *info, int p, const lost_t *lost)
{
  return (others_share(info, p, lost) > DISTURBED || lost->worst_share > DISTURBED) && info->switches >= 1;
}

/* After a disturbed run's lost_text, when one rank alone made it disturbed (its ranks together lost at most
 * DISTURBED of their wall time, `share`): which one and how much of the run's wall time (lost_to_others). */
static void worst_text(FILE *out, const lost_t *lost, int p, double share)
{
  if (p > 1 && !(share > DISTURBED) && lost->worst >= 0 && lost->worst_share > DISTURBED)
    fprintf(out, "; rank %d alone %.1f%% of the run's wall time", lost->worst, 100 * lost->worst_share);
}

/* After T_seq's source: when the sequential run was disturbed, that T_seq holds its rank's waits for a processor. */
static void seq_disturbed(runs_t *runs, const met_timeline_info_t *info)
{
  lost_t lost_alone = {lost_seconds(info), 0, 0, -1, 0}; /* one rank: no core-mates */
  if (!others_disturbed(info, 1, &lost_alone))
    return;
  char lost[200];
  lost_text(lost, sizeof lost, info, 1, lost_seconds(info));
  size_t at = strlen(runs->seq_source);
  snprintf(runs->seq_source + at, sizeof runs->seq_source - at,
           "; that run was disturbed: its rank %s: other work), which T_seq holds, so the speedups and efficiencies "
           "against it are too high: give the untraced time with --seq-time, or trace p = 1 again on a quiet machine",
           lost);
}

/* A run's line on how others disturbed it (nothing when they did not). */
static void run_disturbed(FILE *out, const met_timeline_info_t *info, int p, const lost_t *lost)
{
  if (!others_disturbed(info, p, lost))
    return;
  char text[200];
  lost_text(text, sizeof text, info, p, lost->seconds);
  fprintf(out, "; disturbed: its %s %s", p == 1 ? "rank" : "ranks", text);
  worst_text(out, lost, p, others_share(info, p, lost));
  fprintf(out, ": %s), which its times hold (--replay-on PLATFORM compares a prediction with its CPU time)",
          lost->mates     ? "each rank's beyond what its core-mates ran"
          : lost->crowded ? "other work, or more ranks than cores"
                          : "other work");
}

/* On a run whose binding lines say a node ran more ranks than it has online cores, what its ranks waited for a
 * processor (WAITED, summed), taking turns on the cores: the measured computations and calls hold it, so that the
 * anomaly and idle columns do (tachyon at p = 4 on 2 cores: anomaly 0.87 x T_seq beside 0.02 at p = 2, not a word).
 * Nothing where the files do not give the waits, or the run is not oversubscribed. */
static void run_crowded(FILE *out, const runs_t *runs, int i)
{
  const met_timeline_info_t *info = &runs->info[i];
  const cli_binding_t *b = &runs->cores[i].binding;
  int p = runs->p[i];
  double share = lost_share(info, p);
  if (!runs->cores[i].read || b->nranks != p || !b->oversubscribed || !waits_known(info) || isnan(share))
    return;
  fprintf(out,
          "; oversubscribed (%d ranks on %s%d online cores): its ranks waited %.3f s for a processor, %.1f%% of their "
          "wall time, taking turns on the cores, which their computations and calls hold (the anomaly and idle "
          "columns)",
          b->node_ranks, b->nodes > 1 ? "a node of " : "", b->online, lost_seconds(info), 100 * share);
}

/* Whether run folder `dir` has its TI trace index. */
static int has_index(const char *dir)
{
  char index[4200];
  snprintf(index, sizeof index, "%s/index.txt", dir);
  return access(index, R_OK) == 0;
}

/* With --replay-on or --platform, run folder `dir`'s index.txt, checked once the folder is read (so that a run that
 * did not finish, or whose calls the tracer could not all record, is refused for that cause first). 0 or
 * EXIT_INPUT. */
static int check_index(const analyse_opts_t *opts, const char *dir)
{
  if ((!opts->replay_on && !opts->platform) || has_index(dir))
    return EXIT_OK;
  return fail("%s/index.txt: no TI trace index, so --replay-on or --platform has nothing to replay "
              "(libsimrun-trace.so writes it when every rank reached MPI_Finalize, or every rank ended its files at "
              "its exit without it, and the TI trace holds the run: its warnings at MPI_Finalize or exit say why "
              "not); trace the run again",
              dir);
}

/* Whether the folders given hold runs of one program, by their timelines' "# program" (met_timeline_program; a folder
 * without one, an older tracer's, is taken for any), looked at before any folder is read whole, so that a folder of
 * gigabytes is not read to be refused: EXIT_OK, else EXIT_INPUT with one line naming a folder of each. Before, a
 * folder of NWChem at p = 1 and one of FreeFem++ at p = 2 were analysed as one program's runs: FreeFem++'s speedup
 * against NWChem's T_seq, under NWChem's name. */
static int mixed_programs(const analyse_opts_t *opts)
{
  char first[256] = "", other[256];
  int at = -1;
  for (int i = 0; i < opts->ndirs; i++) {
    if (!met_timeline_program(opts->dirs[i], at < 0 ? first : other, sizeof first))
      continue;
    if (at < 0)
      at = i;
    else if (strcmp(first, other) != 0) {
      fprintf(stderr,
              "simrun: error: %s: a run of %s, where %s is a run of %s: one analysis takes the runs of one program "
              "at their p; analyse each program's folders apart\n",
              opts->dirs[i], other, opts->dirs[at], first);
      return EXIT_INPUT;
    }
  }
  return EXIT_OK;
}

/* Reads every folder into runs, sorted by p (stable). 0, or the exit status of the reader's code: EXIT_INPUT for a
 * folder that is not a whole run's, EXIT_RUNTIME for this machine's limits and faults (bas_error.h). */
static int read_runs(const analyse_opts_t *opts, spill_budget_t budget, runs_t *runs)
{
  cli_signal_step("reading", "while reading the trace folders");
  if (mixed_programs(opts) != EXIT_OK)
    return EXIT_INPUT;
  for (int i = 0; i < opts->ndirs; i++) {
    met_timeline_info_t info;
    int read;
    met_trace_t *trace = read_run(opts->dirs[i], opts, &budget, &info, &read);
    if (!trace)
      return info.error ? bas_error_status(info.error) : EXIT_INPUT; /* 0: a run that recorded no time */
    int at = runs->n++;
    for (; at > 0 && met_trace_nranks(runs->traces[at - 1]) > met_trace_nranks(trace); at--) {
      runs->traces[at] = runs->traces[at - 1];
      runs->info[at] = runs->info[at - 1];
      runs->read[at] = runs->read[at - 1];
      runs->dirs[at] = runs->dirs[at - 1];
    }
    runs->traces[at] = trace;
    runs->info[at] = info;
    runs->read[at] = read;
    runs->dirs[at] = opts->dirs[i];
    if (check_index(opts, opts->dirs[i]) != EXIT_OK) /* the caller frees the runs read */
      return EXIT_INPUT;
  }
  for (int i = 0; i < runs->n; i++) {
    runs->p[i] = met_trace_nranks(runs->traces[i]);
    runs->cores[i] = run_cores(runs->dirs[i], &runs->info[i], runs->p[i]);
    runs->lost[i] = run_lost(&runs->cores[i], &runs->info[i], runs->p[i]);
    runs->blocked[i] = run_blocked(runs->traces[i], &runs->info[i], runs->p[i], &runs->cores[i]);
  }
  const char *base = strrchr(runs->dirs[0], '/');
  snprintf(runs->program, sizeof runs->program, "%s",
           runs->info[0].program[0] ? runs->info[0].program
           : base && base[1]        ? base + 1
                                    : runs->dirs[0]);
  return 0;
}

/* T_seq from a traced sequential run: its T_par less the tracer's own time, where the tracer recorded it and the
 * reader did not remove it already. */
static int seq_from_run(runs_t *runs, const met_trace_t *trace, const met_timeline_info_t *info, const char *dir,
                        const char *how)
{
  double t_par = met_trace_end(trace);
  double cost = isnan(info->tracer_cost) || info->compensated ? 0 : info->tracer_cost;
  runs->t_seq = t_par - cost;
  if (!(runs->t_seq > 0))
    return fail("%s: the traced sequential run lasted no time once the tracer's own time is taken out; give T_seq "
                "with --seq-time",
                dir);
  if (info->compensated)
    snprintf(runs->seq_source, sizeof runs->seq_source,
             "the run traced at p = 1 in %s (%s), its T_par, the tracer's own time (%.6f s) removed", dir, how,
             info->own_gaps);
  else if (isnan(info->tracer_cost))
    snprintf(runs->seq_source, sizeof runs->seq_source,
             "the run traced at p = 1 in %s (%s), its T_par; its timelines do not record the tracer's own time, so "
             "T_seq includes it: give the untraced time with --seq-time",
             dir, how);
  else
    snprintf(runs->seq_source, sizeof runs->seq_source,
             "the run traced at p = 1 in %s (%s), its T_par %.6f s less the tracer's own time %.6f s", dir, how, t_par,
             cost);
  seq_disturbed(runs, info);
  return 0;
}

/* When T_seq is the measured computation of `trace` (`info` its reader's, `blocked` its run_blocked) and its ranks'
 * computations ran for less CPU time than their wall time, by over a tenth, while they waited for a processor at
 * least half that gap (ranks that took turns on shared cores, other work, or their child processes' waits: the
 * seconds blocked beyond the CPU time the cores had left; not a blocking read, which a sequential run waits too),
 * says so after runs->seq_source: T_seq holds those waits. Not when other threads worked (their CPU is not in
 * COMPUTE). */
static void seq_shared(runs_t *runs, const met_trace_t *trace, const met_timeline_info_t *info,
                       const blocked_t *blocked)
{
  int p = met_trace_nranks(trace);
  double wall = 0, cpu = 0, waited = 0;
  for (int rank = 0; rank < p; rank++) {
    if (rank >= MET_TL_CPU_RANKS || isnan(info->usage[rank].compute))
      return;
    wall += met_trace_category_time(trace, rank, MET_CAT_COMPUTE);
    cpu += computed_cpu(&info->usage[rank]);
    waited += info->usage[rank].lost;
  }
  waited += blocked->crowded;
  if (!(cpu < 0.9 * wall) || waited < 0.5 * (wall - cpu) || info->threads_cpu > 0)
    return;
  size_t at = strlen(runs->seq_source);
  snprintf(runs->seq_source + at, sizeof runs->seq_source - at,
           "; its computations ran %.3f s but used %.3f s of CPU (%.0f%% of their time not running: ranks that took "
           "turns on shared cores, %sor other work), which T_seq holds, so the speedups and efficiencies against it "
           "may be too high: give the sequential time with --seq-time, or a run traced at p = 1",
           wall, cpu, 100 * (1 - cpu / wall), info->child_cpu > 0 ? "child processes waiting for a processor, " : "");
}

/* T_seq when nothing is given: a run at p = 1 among the folders, else the measured computation of the smallest p. */
static int seq_by_default(runs_t *runs)
{
  const met_trace_t *first = runs->traces[0];
  if (met_trace_nranks(first) == 1)
    return seq_from_run(runs, first, &runs->info[0], runs->dirs[0], "no --seq-time");
  for (int rank = 0; rank < met_trace_nranks(first); rank++)
    runs->t_seq +=
        met_trace_category_time(first, rank, MET_CAT_COMPUTE) + met_trace_category_time(first, rank, MET_CAT_IO);
  snprintf(runs->seq_source, sizeof runs->seq_source,
           "the measured computation of %s (p = %d), the run with the smallest p (no --seq-time and no run at p = "
           "1: its parallel anomaly is 0 by construction)",
           runs->dirs[0], met_trace_nranks(first));
  seq_shared(runs, first, &runs->info[0], &runs->blocked[0]);
  return runs->t_seq > 0 ? 0 : fail("%s: the run computed for no time; give T_seq with --seq-time", runs->dirs[0]);
}

/* An untraced time (--untraced, --seq-time) longer than the traced run's T_par by more than this share and
 * UNTRACED_SLACK seconds, though tracing lengthens a run, is a wall time of the whole program, it seems, which the
 * report says (with their start-up before MPI_Init, six Debian programs' predictions at p = 1, 2 and 4 read -8% to
 * -42% against mpirun's wall time, pvbatch's -24% to -40%, where against their spans pvbatch's read -0.9% to -2.7%). */
#define UNTRACED_LONGER 0.2
#define UNTRACED_SLACK  0.05

/* Whether the untraced time `given` is far longer than the traced run's T_par `traced` (UNTRACED_LONGER). */
static int far_longer(double given, double traced)
{
  return given > traced * (1 + UNTRACED_LONGER) + UNTRACED_SLACK;
}

/* After a T_seq given in seconds, when a run at p = 1 among the folders (the shortest, if several) took far less
 * (far_longer): says so after runs->seq_source, with what the time should be. */
static void seq_far_longer(runs_t *runs)
{
  int shortest = -1;
  for (int i = 0; i < runs->n; i++)
    if (met_trace_nranks(runs->traces[i]) == 1 &&
        (shortest < 0 || met_trace_end(runs->traces[i]) < met_trace_end(runs->traces[shortest])))
      shortest = i;
  double traced = shortest >= 0 ? met_trace_end(runs->traces[shortest]) : NAN;
  if (!far_longer(runs->t_seq, traced))
    return;
  size_t at = strlen(runs->seq_source);
  snprintf(runs->seq_source + at, sizeof runs->seq_source - at,
           "; it is %.1f%% longer than the T_par of %s, traced at p = 1 (%.6f s), which tracing only lengthens: "
           "unless others slowed the untraced run, the speedups and efficiencies against it are too high, T_seq being "
           "the untraced run's time from the end of MPI_Init to MPI_Finalize (libsimrun-span.so preloaded prints "
           "it), not mpirun's wall time, which also holds the start-up before MPI_Init that no trace holds",
           100 * (runs->t_seq / traced - 1), runs->dirs[shortest], traced);
}

/* T_seq from --seq-time or --seq: a number of seconds, or the traced sequential run in that folder. */
static int choose_t_seq(const analyse_opts_t *opts, runs_t *runs)
{
  const char *seq = opts->seq_time ? opts->seq_time : opts->seq;
  const char *flag = opts->seq_time ? "--seq-time" : "--seq";
  if (!seq)
    return seq_by_default(runs);
  char *end = NULL;
  double seconds = strtod(seq, &end);
  if (end != seq && *end == '\0') {
    if (!(seconds > 0) || isinf(seconds) || seq[strspn(seq, "0123456789.+eE")]) { /* decimal: no hexadecimal */
      fprintf(stderr, "simrun: error: %s %s: give a time in seconds > 0%s\n", flag, seq,
              opts->seq_time ? "" : " or the folder of a run traced at p = 1");
      return EXIT_INPUT;
    }
    runs->t_seq = seconds;
    snprintf(runs->seq_source, sizeof runs->seq_source, "a measured sequential time, given (%s %s)", flag, seq);
    seq_far_longer(runs);
    return 0;
  }
  if (opts->seq_time)
    return fail("--seq-time %s: give the untraced sequential run's time in seconds (for a traced run's folder, --seq)",
                seq);
  met_timeline_info_t info;
  int read;
  spill_budget_t none = {0, 0};
  met_trace_t *trace = read_run(seq, opts, &none, &info, &read);
  if (!trace)
    return EXIT_INPUT;
  int p = met_trace_nranks(trace);
  int rc = p == 1 ? seq_from_run(runs, trace, &info, seq, "--seq") : EXIT_INPUT;
  met_trace_free(trace);
  if (p != 1)
    fprintf(stderr, "simrun: error: --seq %s: that run has p = %d; give a run traced at p = 1 or a time in seconds\n",
            seq, p);
  return rc;
}

/* Whether run `i`'s blocked time is worth a word (BLOCKED). */
static int run_was_blocked(const runs_t *runs, int i)
{
  return runs->blocked[i].share >= BLOCKED; /* NAN: not known */
}

/* The run's line on its blocked computations (nothing when short, run_was_blocked). */
static void run_blocked_clause(FILE *out, const runs_t *runs, int i)
{
  const blocked_t *b = &runs->blocked[i];
  if (!run_was_blocked(runs, i))
    return;
  fprintf(out,
          "; its ranks' computations were blocked for %.3f s (%.1f%% of its T_par; neither running nor waiting for a "
          "processor: sleeps, reads of files or pipes, waits for something outside MPI; rank %d the longest, %.3f "
          "s%s), which the TI trace's compute amounts, CPU time, leave out: a replay misses it",
          b->seconds, 100 * b->share, b->rank, b->most,
          runs->info[i].threads_cpu > 0 ? ", less what their other threads ran" : "");
}

/* The share of the ranks' CPU time in their runs of polls from which the run's line says that the classes count them as
 * waiting, the program's work between its tests included (run_polled). */
#define POLLED 0.2

/* The run's line on its runs of polls (`info`'s ranks' POLLS against their CPU, `p` ranks), when they took POLLED of
 * the CPU time or more: how much of them the timelines book as the program's work between its tests, an estimate from
 * the time read between two tests now and then (docs/tracer.md, "Runs of polls"), or, from an older tracer, that each
 * run is one interval from its first test to its last, idle (ctrl where no partner is awaited), whatever the program
 * did between its tests (bench/trc_polling.c, whose ranks work some 60 of each 75 ns between two tests, read so at p =
 * 2 as 6.4% efficient, idle 14.4 times T_seq). */
static void run_polled(FILE *out, const met_timeline_info_t *info, int p)
{
  double polls = 0, cpu = 0, work = 0;
  for (int rank = 0; rank < p; rank++) {
    if (rank >= MET_TL_CPU_RANKS || isnan(info->usage[rank].polls))
      return;
    polls += info->usage[rank].polls;
    cpu += info->usage[rank].cpu;
    double mine = info->usage[rank].polls_work; /* NAN from an older tracer's file (fmin would drop it) */
    work += isnan(mine) ? NAN : fmin(mine, info->usage[rank].wall); /* within its span, whatever a file says */
  }
  polls = fmin(polls, cpu); /* a part of CPU (docs/tracer.md); CPU 0 where the files do not say: nothing */
  if (!(polls >= 0.0005 && polls >= POLLED * cpu))
    return;
  fprintf(out, "; its ranks' runs of polls used %.3f s of their %.3f s of CPU (%.1f%%), ", polls, cpu,
          100 * polls / cpu);
  if (isnan(work))
    fprintf(out, "each counted as one wait from its first test to its last (idle, or ctrl where no partner is "
                 "awaited), any work the program did between its tests included: a program that works between its "
                 "tests is busier than its classes say (an older tracer's files: trace the run again to tell them "
                 "apart)");
  else
    fprintf(out,
            "%.3f s of their time the program's work between its tests, counted as computation (an estimate: "
            "the mean time between two tests, read at one in 64, less the tracer's part)",
            work);
}

/* The clause of run line `info` (p = `p`) on its ranks that ended at their exit without MPI_Finalize, if any, and on
 * those of them whose exit status says the program failed: "its rank ended at its exit" at p = 1. */
static void run_exited(FILE *out, const met_timeline_info_t *info, int p)
{
  int k = info->exited_ranks, one = k == 1;
  if (k == 0)
    return;
  if (p == 1)
    fprintf(out, "; its rank");
  else
    fprintf(out, "; %d of its %d ranks", k, p);
  fprintf(out,
          " ended at %s exit without calling MPI_Finalize (the program returned from main or called exit(); mpirun "
          "said the job ended improperly): %s there",
          one ? "its" : "their", one ? "its trace ends" : "their traces end");
  if (info->exited_failed > 0 && one)
    fprintf(out, ", with an exit status that says the program failed (%d)", info->exited_status);
  else if (info->exited_failed > 0)
    fprintf(out, ", %d of them with an exit status that says the program failed (%d)", info->exited_failed,
            info->exited_status);
}

/* The run's start-up (before its time 0: its processes' start to their MPI_Init call, then MPI_Init) is worth a clause
 * from this share of its T_par on (MPI_Init alone took 0.22 to 0.48 s here: a shorter share would be said of nearly
 * every run of a few seconds). */
#define STARTUP_SHARE 0.1

/* The run's start-up in seconds ("# start-up" lines: of the process that took the longest to reach time 0, what it ran
 * before its MPI_Init call, if known, plus that call's time to time 0), or NAN when its files do not say. */
static double startup_of(const met_timeline_info_t *info)
{
  if (isnan(info->startup_init))
    return NAN;
  return (isnan(info->startup_age) ? 0 : info->startup_age) + info->startup_init;
}

/* The run's line on its start-up, outside the trace, when it is STARTUP_SHARE of `t_par` or more. */
static void run_startup(FILE *out, const met_timeline_info_t *info, double t_par)
{
  if (!(startup_of(info) >= STARTUP_SHARE * t_par))
    return;
  fprintf(out, "; before its time 0 and outside the trace, its last process to reach it ");
  if (!isnan(info->startup_age))
    fprintf(out, "ran %.3f s before calling MPI_Init, then ", info->startup_age);
  fprintf(out, "%.3f s in MPI_Init (start-up, which a wall time of the whole program holds)", info->startup_init);
}

/* Per run (its T_par `t_par`), what the pairing of messages and collectives found and whether its timeline was kept. */
static void print_run(FILE *out, const runs_t *runs, int i, double t_par)
{
  const met_timeline_info_t *info = &runs->info[i];
  fprintf(out,
          "  %s (p = %d): %zu message%s paired, %zu receive%s unpaired, %zu collective%s paired (barriers, N x N and "
          "rooted, blocking or not, and scans)",
          runs->dirs[i], runs->p[i], info->matched, info->matched == 1 ? "" : "s", info->unmatched,
          info->unmatched == 1 ? "" : "s", info->collectives, info->collectives == 1 ? "" : "s");
  if (info->colls_unpaired)
    fprintf(out, " (then the members' collective calls on a communicator differ: its later ones stay as measured)");
  if (info->colls_held)
    fprintf(out,
            " (then a rank kept more intervals than the reader holds waiting for a collective's other members: that "
            "communicator's later collectives stay as measured)");
  if (info->unreceived)
    fprintf(out, "; %zu send%s no receive took (pending when the run ended: a replay drops %s with a warning)",
            info->unreceived, info->unreceived == 1 ? "" : "s", info->unreceived == 1 ? "it" : "them");
  if (info->given_up)
    fprintf(out,
            "; %zu send%s and non-blocking collective%s that no wait or test in the timelines completed, beyond the "
            "4096 latest a rank keeps outstanding, given up (paired all the same; a program that never completes its "
            "requests, or a tracer before shared handles were told apart: trace the run again)",
            info->given_up, info->given_up == 1 ? "" : "s", info->given_up == 1 ? "" : "s");
  if (info->colls_undefined)
    fprintf(out,
            "; %zu collective call%s on sub-communicators the files do not define (a tracer before '# comm' lines: "
            "trace the run again to pair them; beyond the 2^20 communicators or 2^22 members the reader keeps; or a "
            "member or root the definition does not have) stay%s as measured",
            info->colls_undefined, info->colls_undefined == 1 ? "" : "s", info->colls_undefined == 1 ? "s" : "");
  if (info->scans_unordered)
    fprintf(out,
            "; %zu scan call%s on communicators that order their members otherwise than the world (or whose '# "
            "comm' line an older tracer wrote: trace the run again) stay%s as measured",
            info->scans_unordered, info->scans_unordered == 1 ? "" : "s", info->scans_unordered == 1 ? "s" : "");
  if (info->starts)
    fprintf(out,
            "; %zu MPI_Start and MPI_Startall call%s give none of the messages they started (they started no "
            "request, or ones the tracer does not write: persistent collectives; or an older libsimrun-trace.so "
            "wrote every start: trace the run again to pair them): those messages are not paired nor in the exports",
            info->starts, info->starts == 1 ? "" : "s");
  if (info->compensated)
    fprintf(out,
            "; the tracer's own time, %.6f s over the ranks (the gaps between intervals), removed from the run's "
            "times, then %.6f s put back (waits a rank's own tracer time had hidden: a receive, wait or collective "
            "ends no earlier than its partner's entry, and no call later than its end as read) and %.6f s of waiting "
            "for partners that their tracer time had delayed removed",
            info->own_gaps, info->own_put_back, info->waits_removed);
  else if (!isnan(info->tracer_cost))
    fprintf(out, "; the tracer's own time, %.6f s over the ranks, kept out of its intervals", info->tracer_cost);
  /* what of it was a wait for a processor, which a tracer of November 2026 left in the gaps (HELD, docs/tracer.md) */
  if (info->tracer_held >= 0.0005 && !isnan(info->tracer_cost))
    fprintf(out, "; %.6f s of the tracer's own time the ranks were held off their processors in it, others running",
            info->tracer_held);
  if (info->clock_moved > 0)
    fprintf(out,
            "; the clock condition (the ranks' clocks differ, and folded loops' iterations are unfolded at their "
            "mean period: a receive ends 1 ns after its send at the earliest): %zu "
            "receives moved later, by %.3f us at most (%.3f us in all), %zu calls after them started later",
            info->clock_moved, info->clock_max * 1e6, info->clock_total * 1e6, info->clock_later);
  if (info->child_cpu > 0)
    fprintf(out,
            "; the ranks' child processes used %.3f s of CPU, %.3f s of it (%.1f%% of the ranks' computation) counted "
            "as the ranks' computation in the TI trace%s",
            info->child_cpu, info->child_counted, info->child_of > 0 ? 100 * info->child_counted / info->child_of : 0,
            info->child_counted < 0.99 * info->child_cpu ? ", the rest ran beside their work: a replay leaves it out"
                                                         : " (the ranks waited for them)");
  if (info->untraced_ranks > 0)
    fprintf(out,
            "; calls not in the TI trace, which a replay misses (%d rank%s; rank %d's, as the tracer named them): %s",
            info->untraced_ranks, info->untraced_ranks == 1 ? "" : "s", info->untraced_rank, info->untraced);
  if (info->threads_cpu > 0)
    fprintf(
        out,
        "; the ranks' other threads used %.3f s of CPU beside the %.3f s of the threads that call MPI, which the TI "
        "trace's compute amounts leave out: a replay misses their work",
        info->threads_cpu, info->threads_mine);
  run_exited(out, info, runs->p[i]);
  run_startup(out, info, t_par);
  run_disturbed(out, info, runs->p[i], &runs->lost[i]);
  run_crowded(out, runs, i);
  run_blocked_clause(out, runs, i);
  run_polled(out, info, runs->p[i]);
  if (runs->read[i] != READ_WHOLE)
    fprintf(out, "; read as per-rank sums (timelines over %.0f MiB, the wait states summed as read)%s",
            KEEP_BYTES / (1024 * 1024),
            runs->read[i] == READ_SPILLED        ? ", its intervals in a temporary file for the pictures and exports"
            : runs->read[i] == READ_SUMS_NO_ROOM ? ": no room for its intervals in $TMPDIR, so no timeline picture, "
                                                   "Paje trace or OTF2 archive"
                                                 : "");
  fprintf(out, "\n");
}

static void print_runs(FILE *out, const analyse_opts_t *opts, const runs_t *runs, const stu_study_t *study)
{
  fprintf(out, "Measured runs of %s (libsimrun-trace.so):\n", runs->program);
  for (int i = 0; i < runs->n; i++)
    print_run(out, runs, i, study->points[i].t_par);
  fprintf(out, "T_seq = %.6f s: %s\n", runs->t_seq, runs->seq_source);
  if (opts->platform)
    fprintf(out,
            "Bottleneck view: each run's operations on %s (its TI trace replayed by ti-replay: compute amounts at the "
            "hosts' speed, messages by the platform's model), in every output\n",
            opts->platform);
  fprintf(out, "\n");
}

/* Closes `own`, the memory stream of *text, and writes what it holds to `out` within `width` columns as the report
 * lays out its own (rep_fit_lines: a table split into column groups, a wider line wrapped); frees *text. 0, or -1 when
 * out of memory. */
static int fit_lines(FILE *out, FILE *own, char **text, int width)
{
  int rc = fclose(own) == 0 ? 0 : -1;
  if (rc == 0)
    rep_fit_lines(out, *text, width);
  free(*text);
  *text = NULL;
  return rc;
}

/* The outputs' checks of the table (cli_formats.h) before any folder is read: no output may replace a file of a trace
 * folder or another output, each can be written and each folder made. 0, or EXIT_INPUT after the error line. */
static int check_outputs(const analyse_opts_t *opts, cli_outputs_t *outputs)
{
  cli_input_folder_t folders[MAX_RUNS + 1];
  size_t n = 0;
  for (int i = 0; i < opts->ndirs; i++)
    folders[n++] = (cli_input_folder_t){"a file of the trace folder", opts->dirs[i]};
  if (opts->seq)
    folders[n++] = (cli_input_folder_t){"a file of the --seq folder", opts->seq};
  const cli_run_facts_t facts = {.folders = folders, .nfolders = n, .per_process = -1, .no_cache = 1};
  return cli_outputs_prepare(&opts->outputs, &facts, outputs);
}

/* The untraced time given for p, or NAN. */
static double untraced_at(const analyse_opts_t *opts, int p)
{
  for (int i = 0; i < opts->nuntraced; i++)
    if (opts->untraced_p[i] == p)
      return opts->untraced[i];
  return NAN;
}

/* What ranks that share a core spent where the replay cannot tell work from waiting, the most on one core as the replay
 * placed them (rank i on hosts[i]), in seconds: polls, the CPU time of their runs of polls, which the replay charges
 * as work while a rank that polls on a shared core yields it to a core-mate that computes (Ray at p = 4 bound two to a
 * core, 44.5 s a core: the replay 66.8 s, the run 53.2); calls, the rest of their CPU time beyond their computations,
 * spent in MPI calls (copies, reductions, spinning; and the CPU time of other threads and children the trace does not
 * count as computation), which it charges to none while on a shared core it is a core-mate's loss (Quantum ESPRESSO's
 * pw.x likewise, 1.20 s a core: the replay 2.28 s, the run 3.35); spread, unbound, the busiest core's computations
 * beyond an even share of them, which Linux evens out by moving ranks. Each the most over the cores, not one core's.
 * floor, the least a quiet run takes by its computations' CPU time: the busiest rank's, and the busiest core's, less
 * its spread when unbound (mplrs at p = 3 on 2 cores, master and consumer polling on one core beside the one worker
 * computing 2.0 s on the other: the replay's 2.03 s less 1.98 s of polling and 1.01 s of spread gave a quiet run "0 to
 * 2.04 s"). Figures: docs/analyse.md, "Shared cores". */
typedef struct shared_cpu {
  double polls;
  double calls;
  double spread;
  double floor;
  int floor_rank; /* floor is the busiest rank's computations (else the busiest core's, or their even share) */
} shared_cpu_t;

/* One run's replay (replay_run): the predicted T_par and the replay's word on messages between ranks on one host
 * (cli_replayed_t), the least and the most CPU seconds a quiet run's busiest core takes by the measurement, as the
 * replay placed the ranks (core_cpu_range), and the least and the most a quiet run's T_par may be where it put ranks
 * on one core (shared_band; else NAN), with what they spent there. */
typedef struct replay {
  cli_replayed_t replayed;
  double core_least;
  double core_most;
  shared_cpu_t cpu;
  double band_least;
  double band_most;
} replay_t;

/* Whether ranks i and j share a core as the replay placed them (hosts NULL: each rank its own). */
static int same_core(char (*hosts)[32], int i, int j)
{
  return hosts ? strcmp(hosts[i], hosts[j]) == 0 : i == j;
}

/* What core `core` (the one rank `core` is on) used by the measurement: its ranks' CPU seconds, their computations'
 * (NAN when a rank's line does not give them: COMPUTE), their runs of polls' (NAN likewise: POLLS) and the rest, each
 * rank's beyond its computations and polls (their MPI calls': shared_cpu), and what the ranks on the other cores lost
 * to others or spent in their tracer (its own time, "# tracer-cost"; the part of it they were preempted in counted
 * twice: the least end is a bound). */
typedef struct core_use {
  double cpu;
  double compute;
  double polls;
  double calls;
  double others;
} core_use_t;

static core_use_t core_use(const met_timeline_info_t *info, int p, char (*hosts)[32], int core)
{
  core_use_t use = {0, 0, 0, 0, 0};
  for (int j = 0; j < p; j++) {
    const met_tl_usage_t *u = &info->usage[j];
    if (same_core(hosts, core, j)) {
      use.cpu += u->cpu;
      use.compute += u->compute;
      use.polls += u->polls;
      use.calls += fmax(0, u->cpu - u->compute - u->polls);
    } else
      use.others += u->lost + fmax(0, u->own);
  }
  return use;
}

/* The CPU seconds of the run's busiest core as the replay placed its ranks (rank i on hosts[i]), in *most: the CPU
 * times of the ranks on one core summed, what a quiet machine takes when ranks share a core (each spins or computes
 * while the other waits for its turn: mpgrafic at p = 4 on 2 cores used 0.37, 0.36, 0.39 and 0.37 s, 0.76 s a core,
 * where its busiest rank's 0.39 s stood against a replay that ran two ranks a core); the busiest rank's when the
 * ranks were not placed (hosts NULL: ti-replay's own placement, unknown here) or their files do not give each rank's.
 * In *least, the least a quiet run takes by the same measurement: over the cores, the greatest of a core's
 * computations' CPU seconds plus the rest of its CPU seconds (spent in MPI calls, spinning in their waits) less what
 * the ranks on the other cores lost to others or spent in their tracer (each second a partner waited for a processor
 * or traced may have lengthened this core's waits by as much: LIGGGHTS at p = 2 beside two busy loops, LOAD=2
 * WHICH=liggghts bench/here.sh 1 1 2, used 8.202 CPU s on its busiest rank, the range 1.367 to 8.202 s, quiet
 * untraced runs 1.325 s; tests/data/tracer/startup.c at p = 2 beside check_docs, its rank 1 spun 8.3 ms while rank 0's
 * tracer started for 8.7 ms, 4.7 of them preempted: the least end was 6.4 ms where quiet runs take 3.4); *most where a
 * rank's line does not give its computations'. */
static void core_cpu_range(const met_timeline_info_t *info, int p, char (*hosts)[32], double *least, double *most)
{
  *least = *most = info->cpu_busiest;
  if (p > MET_TL_CPU_RANKS || info->usage_ranks < p)
    return;
  double high = 0, low = 0;
  for (int i = 0; i < p; i++) {
    core_use_t use = core_use(info, p, hosts, i);
    high = fmax(high, use.cpu);
    low = fmax(low, use.compute + fmax(0, use.cpu - use.compute - use.others)); /* fmax leaves a NAN out */
  }
  *most = high;
  *least = high;
  for (int i = 0; i < p; i++)
    if (isnan(info->usage[i].compute))
      return;
  *least = fmin(low, high);
}

/* The shared CPU time (shared_cpu_t) of the placed ranks' cores into *out. 1 when two ranks share a core and every
 * rank's line gives its computations' and its polls' CPU times; else 0. */
static int shared_cpu(const met_timeline_info_t *info, int p, char (*hosts)[32], int bound, shared_cpu_t *out)
{
  *out = (shared_cpu_t){0, 0, 0, 0, 0};
  if (!hosts || p > MET_TL_CPU_RANKS || info->usage_ranks < p)
    return 0;
  int shared = 0, cores = 0;
  double computed = 0, busiest = 0, rank_most = 0;
  for (int i = 0; i < p; i++) {
    if (isnan(info->usage[i].compute) || isnan(info->usage[i].polls))
      return 0;
    computed += info->usage[i].compute;
    rank_most = fmax(rank_most, info->usage[i].compute);
    int first = 1; /* rank i is its core's first: the cores are counted once */
    for (int j = 0; j < i; j++)
      first = first && !same_core(hosts, i, j);
    shared = shared || !first;
    cores += first;
    if (!first)
      continue;
    core_use_t use = core_use(info, p, hosts, i);
    out->polls = fmax(out->polls, use.polls);
    out->calls = fmax(out->calls, use.calls);
    busiest = fmax(busiest, use.compute);
  }
  out->spread = bound ? 0 : fmax(0, busiest - computed / cores);
  out->floor = fmax(rank_most, busiest - out->spread);
  out->floor_rank = rank_most >= busiest - out->spread;
  return shared;
}

/* The least a quiet run takes by the replay alone, where it put ranks on one core: the predicted T_par less the most
 * a core spent polling and the computations' spread. */
static double band_replayed(const replay_t *r)
{
  return fmax(0, r->replayed.t_par - r->cpu.polls - r->cpu.spread);
}

/* Where the replay put ranks on one core: what they spent there (out->cpu, shared_cpu), and the least and the most a
 * quiet run may take: band_replayed, but never under the computations' floor, and the predicted T_par plus the most a
 * core spent in MPI calls; else NAN. */
static void shared_band(const met_timeline_info_t *info, int p, char (*hosts)[32], int bound, replay_t *out)
{
  int shared = shared_cpu(info, p, hosts, bound, &out->cpu);
  out->band_least = shared ? fmax(band_replayed(out), out->cpu.floor) : NAN;
  out->band_most = shared ? fmax(out->replayed.t_par + out->cpu.calls, out->band_least) : NAN;
}

/* The sentence on a replay that put ranks on one core (shared_band), after the placement's line in r->placement (or
 * alone: ranks bound to one CPU without oversubscribing its node, a cpuset's, have none): the range a quiet run falls
 * in, why, and where the measured time is; above it, what may be beyond it: the replay's own error (0.1-5% short at p
 * = 1 and 2 on Debian's programs) or others' work (r->lost_share), not the ranks' `switches` (involuntary), whose cost
 * (the switches, the caches refilled) is in their CPU times. Meep, MPB and Elk at p = 4 on 2 cores, unbound, were
 * 2.8-4.4% above it while the tracer's own time took the time a rank was held off its core inside it out of its CPU
 * time (HELD, docs/tracer.md): 4 of 6 runs above, 0 of 6 since. */
static void band_text(const replay_t *replay, int p, double switches, stu_replay_t *r)
{
  if (isnan(replay->band_least))
    return;
  char polls[160] = "", spread[160] = ""; /* polling and spread only where there is some */
  if (replay->cpu.polls >= 0.0005)
    snprintf(polls, sizeof polls,
             "%.6f s of a core's CPU polling, which the replay charges as work though a polling rank yields its core, "
             "and ",
             replay->cpu.polls);
  if (replay->cpu.spread >= 0.0005)
    snprintf(spread, sizeof spread,
             "; the busiest core computed %.6f s beyond an even share, which Linux evens out by moving unbound ranks",
             replay->cpu.spread);
  int above = r->measured > r->predicted_most, below = r->measured < r->predicted_least;
  const char *where = above ? "above" : below ? "below" : "within";
  char cost[320] = "", lost[96] = "";
  if (!isnan(r->lost_share))
    snprintf(lost, sizeof lost, " (%s ranks lost %.1f%% of their wall time to it)",
             r->untraced ? "the traced run's" : "its", 100 * r->lost_share);
  if (above)
    snprintf(cost, sizeof cost,
             ": beyond it, the replay's own error or others' work%s; the cost of the ranks' %.0f involuntary context "
             "switches is in the CPU times it is made of",
             lost, switches);
  else if (below && r->disturbed) /* a loaded trace's CPU times: gerris at p = 4 beside two busy loops, +70% */
    snprintf(cost, sizeof cost,
             ": below it, the CPU times it is made of, which the disturbance of the traced run inflated (the "
             "preemptions cost CPU time too), or the replay's own error");
  char floor[160] = ""; /* the computations' floor, where it is the least end */
  if (replay->band_least > band_replayed(replay))
    snprintf(floor, sizeof floor, "no less than the CPU time of %s; ",
             replay->cpu.floor_rank   ? "its busiest rank's computations"
             : replay->cpu.spread > 0 ? "an even share of its computations over the cores"
                                      : "the computations on its busiest core");
  size_t at = strlen(r->placement);
  char lead[32];
  snprintf(lead, sizeof lead, at ? ". " : "p = %d: ", p);
  snprintf(r->placement + at, sizeof r->placement - at,
           "%sRanks sharing a core spent %s%.6f s in MPI calls beyond their computations, which the replay charges "
           "to none though core-mates lose it%s: by these alone, a %s takes %.6f to %.6f s (%sthe replay's own error "
           "aside), and the measured %.6f s is %s it%s (docs/analyse.md, \"Shared cores\")",
           lead, polls, replay->cpu.calls, spread,
           r->disturbed ? "run of the traced run's CPU times (a disturbed run's: a quiet one's may be shorter)"
                        : "quiet run",
           r->predicted_least, r->predicted_most, floor, r->measured, where, cost);
}

/* Run `dir`'s replay on the --replay-on platform, its ranks placed on the `cores` read with the run, into
 * *out, the placement's line in `note` ("" where the replay keeps ti-replay's own). 0, or an exit status after the
 * error line, or CLI_EXIT_STOPPED (a signal: no line yet). */
static int replay_run(const char *platform, const char *dir, const met_timeline_info_t *info, int p,
                      const cores_t *cores, replay_t *out, char *note, size_t notelen)
{
  note[0] = '\0';
  char err[8600];
  char(*hosts)[32] = cores->core ? malloc((size_t)p * sizeof *hosts) : NULL;
  int placed = hosts && cli_binding_place(&cores->binding, cores->core, cores->paired, platform, hosts, note, notelen);
  core_cpu_range(info, p, placed ? hosts : NULL, &out->core_least, &out->core_most);
  int rc = cli_replay_time(platform, dir, p, placed ? hosts : NULL, &out->replayed, err, sizeof err);
  shared_band(info, p, rc == EXIT_OK && placed ? hosts : NULL, cores->binding.bound, out);
  free(hosts);
  if (rc != EXIT_OK && rc != CLI_EXIT_STOPPED)
    fprintf(stderr, "simrun: error: %s\n", err);
  return rc;
}

/* The column saying whether others disturbed a run and how much of their wall time its ranks lost to them. */
static void disturbance_cell(FILE *out, const stu_replay_t *r)
{
  if (isnan(r->lost_share))
    fprintf(out, "  - (not recorded)\n");
  else
    fprintf(out, "  %s, %.1f%% lost\n", r->disturbed ? "yes" : "no", 100 * r->lost_share);
}

/* The measured time as the table gives it, in `text`: a range LEAST-MOST to 4 significant digits (the column's 17
 * characters hold it, a run of milliseconds' 0.001234-0.002536 too, so that the row fits 80 columns; the CSV has every
 * digit), or one time to 6 decimals where the measurement gives one or its ends print alike. Returns whether it is a
 * range. */
static int measured_text(const stu_replay_t *r, char *text, size_t size)
{
  char most[32];
  snprintf(text, size, "%.4g", r->least);
  snprintf(most, sizeof most, "%.4g", r->measured);
  if (r->least < r->measured && strcmp(text, most) != 0) {
    snprintf(text + strlen(text), size - strlen(text), "-%s", most);
    return 1;
  }
  snprintf(text, size, "%.6f", r->measured);
  return 0;
}

/* Whether the table gives the measured time as a range (measured_text). */
static int ranged(const stu_replay_t *r)
{
  char text[80];
  return measured_text(r, text, sizeof text);
}

/* What a disturbed run's measured time is, after its line's figures: one CPU time, or a range of them (the table's
 * row gives it). */
static void measured_on_cpu(FILE *out, const stu_replay_t *r, double t_par)
{
  if (!ranged(r)) {
    fprintf(out,
            ": measured is its CPU time on its busiest core (the CPU times of the ranks the replay put on one core "
            "summed; unplaced, its busiest rank's), not its wall time, %.6f s: a run whose ranks lost over %.0f%% of "
            "their wall time to preemption is compared on CPU time",
            t_par, 100 * DISTURBED);
  } else {
    fprintf(out,
            ": measured is the range a quiet run's T_par falls in by this measurement, not its wall time, %.6f s: at "
            "most its busiest core's CPU time (the CPU times of the ranks the replay put on one core summed; "
            "unplaced, its busiest rank's), at least a core's computations' CPU time and what its waits spun beyond "
            "what the ranks on the other cores lost or spent in the tracer (a second a partner waited for a processor "
            "or traced may lengthen a wait by as much): a run whose ranks lost over %.0f%% of their wall time to "
            "preemption is compared on CPU time",
            t_par, 100 * DISTURBED);
  }
  fprintf(out, ". The preemptions cost CPU time too (caches refilled, the switches themselves), so a quiet run may be "
               "shorter still: trace it again on a quiet machine to know");
}

/* The "Disturbed:" line on a run others disturbed, without its label, in r->disturbance ("" for another run): how much
 * CPU its ranks lost, with what evidence, and the rule its measured time then follows. 0, or -1 out of memory. */
static int disturbance_text(const analyse_opts_t *opts, const met_timeline_info_t *info, const stu_point_t *point,
                            const lost_t *lost, stu_replay_t *r)
{
  r->disturbance[0] = '\0';
  int p = point->p;
  if (!r->disturbed)
    return 0;
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (!out)
    return -1;
  char text_lost[200];
  lost_text(text_lost, sizeof text_lost, info, p, lost->seconds);
  fprintf(out, "p = %d: its %s %s", p, p == 1 ? "rank" : "ranks", text_lost);
  worst_text(out, lost, p, others_share(info, p, lost));
  fprintf(out, ", the machine's load %.2f to %.2f%s)", info->load_least, info->load_most,
          lost->mates     ? "; each rank's beyond what its core-mates ran"
          : lost->crowded ? "; more ranks than cores count too"
                          : "");
  if (isnan(untraced_at(opts, p)))
    measured_on_cpu(out, r, point->t_par);
  else /* gerris at p = 4 beside two busy loops: its computations took 70% more CPU time, predicted +63.5% */
    fprintf(out,
            ": the prediction is made of its CPU times, which hold what the preemptions cost too (caches refilled, the "
            "switches themselves), so a quiet run may be shorter than predicted: trace it again on a quiet machine to "
            "know (or the untraced run given was disturbed as well)");
  int rc = fclose(out) == 0 ? 0 : -1;
  if (rc == 0)
    snprintf(r->disturbance, sizeof r->disturbance, "%s", text);
  free(text);
  return rc;
}

/* The replay's word on run p's messages between ranks on one host that crossed the host's links (the warning the
 * replay also gave) into r->same_host, "p = P: " first, as the other lines under the table say which run; or "". */
static void same_host_text(int p, const replay_t *replay, stu_replay_t *r)
{
  r->same_host[0] = '\0';
  if (replay->replayed.same_host[0])
    snprintf(r->same_host, sizeof r->same_host, "p = %d: %s", p, replay->replayed.same_host);
}

/* A replay's computations differ from the run's when a rank's flop rate (its "# flop-rate": calibrated at MPI_Init, or
 * SIMRUN_TRACE_FLOPS) is over SPEED_OFF from the speed of the platform's host: on the probed platform of the machine
 * traced, its calibrations are within 2% of the probe's rate when quiet (cp2k.popt's H2O at p = 1 to 4: 4.71e9 to
 * 4.89e9 against 4.80e9 flop/s), while a run whose rank 0 calibrated 3.93e9 (its host busy with other machines, by
 * hand) took 41% more CPU for its computations and was predicted -12.5% as "not disturbed". */
#define SPEED_OFF 0.05

/* "RATE flop/s", or "LEAST to MOST flop/s" when the ranks' rates print apart, into `text`. */
static void rates_text(char *text, size_t size, double least, double most)
{
  char high[32];
  snprintf(text, size, "%.3g", least);
  snprintf(high, sizeof high, "%.3g", most);
  if (strcmp(text, high) != 0)
    snprintf(text + strlen(text), size - strlen(text), " to %s", high);
  snprintf(text + strlen(text), size - strlen(text), " flop/s");
}

/* What the ranks' computations were when traced: their CPU seconds (each rank's "# disturbance" COMPUTE, and POLLS
 * where its TI amounts hold its runs of polls: SIMRUN_TRACE_FORMAT=smpi), their flops at each rank's rate, the least
 * and most rate, and whether SIMRUN_TRACE_FLOPS gave every rate. */
typedef struct traced_compute {
  double cpu;
  double flops;
  double least;
  double most;
  int given;
} traced_compute_t;

/* Run p's traced computations into *t. 0, or -1 where a rank's file does not give them. */
static int traced_compute(int p, const met_timeline_info_t *info, traced_compute_t *t)
{
  *t = (traced_compute_t){.least = INFINITY, .given = 1};
  for (int rank = 0; rank < p; rank++) {
    const met_tl_usage_t *u = rank < MET_TL_CPU_RANKS ? &info->usage[rank] : NULL;
    if (!u || isnan(u->compute) || isnan(u->rate) || (u->polls_computed && isnan(u->polls)))
      return -1;
    double cpu = u->compute + (u->polls_computed ? u->polls : 0);
    t->cpu += cpu;
    t->flops += cpu * u->rate;
    t->least = fmin(t->least, u->rate);
    t->most = fmax(t->most, u->rate);
    t->given &= u->rate_given;
  }
  return 0;
}

/* Run p's computations as traced and as replayed (the replay's T_seq: the trace's compute amounts at the speed of
 * rank 0's host, which is their flops over it) into r, NAN where unknown; and when a rank's rate is over SPEED_OFF from
 * that speed, the "Speed:" line without its label into r->speed ("" otherwise). */
static void speed_text(int p, const met_timeline_info_t *info, const replay_t *replay, stu_replay_t *r)
{
  traced_compute_t t;
  r->compute_cpu = NAN;
  r->compute_replayed = replay->replayed.t_seq;
  r->speed[0] = '\0';
  if (traced_compute(p, info, &t) != 0)
    return;
  r->compute_cpu = t.cpu;
  double replayed = r->compute_replayed, speed = t.flops / replayed;
  if (!(t.cpu > 0) || !(replayed > 0) || !isfinite(speed) ||
      (fabs(t.least / speed - 1) <= SPEED_OFF && fabs(t.most / speed - 1) <= SPEED_OFF))
    return;
  char rates[96];
  rates_text(rates, sizeof rates, t.least, t.most);
  snprintf(r->speed, sizeof r->speed,
           "p = %d: its computations, %.6f s of CPU when traced, take %.6f s at the %.3g flop/s of rank 0's host "
           "(%.1f%% %s), against the tracer's flop rates, %s (%s): where the ranks' hosts compute at that speed, "
           "the replay runs each rank's computations, and its runs of polls, faster or slower by its rate's ratio "
           "to it, and its T_par differs from the run's by up to as much. %s, SIMRUN_TRACE_FLOPS=%.6g, to replay "
           "the CPU time measured",
           p, t.cpu, replayed, speed, 100 * fabs(replayed / t.cpu - 1), replayed < t.cpu ? "less" : "more", rates,
           t.given ? "SIMRUN_TRACE_FLOPS's" : "their calibrations at MPI_Init",
           t.given ? "Trace with the platform's speed"
                   : "On the platform simrun machine probe wrote of the machine traced (its cores at one speed), the "
                     "machine then ran at another speed than when probed (other load on its host, its clock): trace "
                     "again, or with its speed",
           speed);
}

/* Run `i`'s blocked seconds into r->blocked and, when worth a word (run_was_blocked), its "Blocked:" line without its
 * label into r->blocking ("" otherwise): the prediction plus them, the most a run that blocks as long may take. */
static void blocking_text(const analyse_opts_t *opts, const runs_t *runs, int i, stu_replay_t *r)
{
  r->blocked = runs->blocked[i].seconds;
  r->blocking[0] = '\0';
  if (run_was_blocked(runs, i))
    snprintf(r->blocking, sizeof r->blocking,
             "p = %d: the prediction leaves out the %.3f s its ranks' computations were blocked, neither running nor "
             "waiting for a processor (sleeps, reads, waits outside MPI), which a run on %s that blocks as long adds "
             "to its T_par where they are on its critical path: up to %.6f s",
             runs->p[i], r->blocked, opts->replay_on, r->predicted + r->blocked);
}

/* Run `i`'s "Untraced:" line into r->untraced_note when the untraced time given for it (`untraced`) is far longer
 * than its traced T_par `traced`, with its start-up where its files give it (`info`); else "". */
static void untraced_text(int p, double untraced, double traced, const met_timeline_info_t *info, stu_replay_t *r)
{
  r->untraced_note[0] = '\0';
  if (!far_longer(untraced, traced))
    return;
  int at = snprintf(r->untraced_note, sizeof r->untraced_note,
                    "p = %d: %.6f s given, %.1f%% longer than the traced run's T_par (%.6f s), which tracing only "
                    "lengthens: unless others slowed the untraced run, it is not what --untraced takes, the time from "
                    "the end of MPI_Init to MPI_Finalize (libsimrun-span.so preloaded prints it), but a wall time such "
                    "as mpirun's, which also holds the start-up before it",
                    p, untraced, 100 * (untraced / traced - 1), traced);
  double startup = startup_of(info);
  if (at > 0 && (size_t)at < sizeof r->untraced_note && startup > 0 && untraced > startup)
    snprintf(r->untraced_note + at, sizeof r->untraced_note - (size_t)at,
             " (the traced run's %s to its time 0 alone took %.3f s; mpirun's own start and the processes' end after "
             "MPI_Finalize add more)",
             isnan(info->startup_age) ? "MPI_Init" : "start-up from its last process's start", startup);
}

/* A row of the table: p, the measured time (measured_text) and which, the prediction, how far apart
 * (stu_replay_diff: "within" a range; also a measured time within the range a quiet run takes where the replay put
 * ranks on one core, shared_band, which the placement's line explains: a helper's PETSc CG at p = 4 on 2 cores read
 * -23.6% there, and "within" only below the table), then the disturbance cell. */
static void replay_row(FILE *out, int p, const stu_replay_t *r)
{
  char measured[80], difference[32];
  int range = measured_text(r, measured, sizeof measured);
  double diff = stu_replay_diff(r);
  int banded = r->measured >= r->predicted_least && r->measured <= r->predicted_most; /* NAN: no band */
  if ((range && diff == 0) || (!range && banded))
    snprintf(difference, sizeof difference, "within");
  else
    snprintf(difference, sizeof difference, "%+.1f%%", 100 * diff);
  fprintf(out, "%6d %17s %-12s %13.6f %11s", p, measured,
          r->untraced ? "(untraced)"
          : r->on_cpu ? "(traced CPU)"
                      : "(traced)",
          r->predicted, difference);
  disturbance_cell(out, r);
}

/* --replay-on: each run's TI trace replayed on the platform, its T_par beside the measured one (the untraced time
 * where --untraced gives it, else the traced run's: its T_par, or, when others disturbed it, the range of its busiest
 * core's CPU time, core_cpu_range), whether the run was disturbed, then a line per disturbed run and per run whose
 * binding placed its ranks; all given to the study's points for the CSV, JSON and HTML page (stu_replay.h). 0, or an
 * exit status when a replay failed, or CLI_EXIT_STOPPED. */
static int print_replays(FILE *out, const analyse_opts_t *opts, const runs_t *runs, stu_study_t *study)
{
  fprintf(out, "\nReplayed on %s (ti-replay of each run's TI trace, docs/ti-replay.md)\n", opts->replay_on);
  fprintf(out, "%6s %17s %-12s %13s %11s  %s\n", "p", "measured (s)", "", "predicted (s)", "difference", "disturbed");
  for (size_t i = 0; i < study->npoints; i++) {
    const met_timeline_info_t *info = &runs->info[i];
    int p = study->points[i].p;
    double untraced = untraced_at(opts, p);
    replay_t replay;
    stu_replay_t r;
    int rc =
        replay_run(opts->replay_on, runs->dirs[i], info, p, &runs->cores[i], &replay, r.placement, sizeof r.placement);
    if (rc != EXIT_OK)
      return rc;
    int others = others_disturbed(info, p, &runs->lost[i]);
    int on_cpu = isnan(untraced) && others;
    /* a core does at most the run's wall time of work: ranks the replay puts on one core whose CPU times add up to
     * more ran on other cores too (unbound: Linux moved them; dgord at p = 3 on 2 cores, 0.797 s of CPU on "core 0"
     * in a 0.607 s run, which made a -10.9% prediction read -32.2%) */
    double most = fmin(replay.core_most, study->points[i].t_par);
    r.predicted = replay.replayed.t_par;
    r.measured = !isnan(untraced) ? untraced : on_cpu ? most : study->points[i].t_par;
    r.untraced = !isnan(untraced);
    untraced_text(p, untraced, study->points[i].t_par, info, &r);
    r.on_cpu = on_cpu;
    r.least = on_cpu ? fmin(replay.core_least, most) : r.measured;
    r.predicted_least = replay.band_least;
    r.predicted_most = replay.band_most;
    r.lost_share = others_share(info, p, &runs->lost[i]);
    same_host_text(p, &replay, &r);
    speed_text(p, info, &replay, &r);
    r.disturbed = others;
    band_text(&replay, p, info->switches, &r);
    blocking_text(opts, runs, i, &r);
    if (disturbance_text(opts, info, &study->points[i], &runs->lost[i], &r) != 0 ||
        stu_replay_set(&study->points[i], &r) != 0)
      return fail("%sout of memory", "");
    replay_row(out, p, &r);
  }
  for (int k = 0; k < STU_REPLAY_LINES; k++)
    for (size_t i = 0; i < study->npoints; i++) {
      const char *line = stu_replay_text(stu_replay(&study->points[i]), &stu_replay_lines[k]);
      if (line[0])
        fprintf(out, "%s: %s\n", stu_replay_lines[k].label, line);
    }
  return EXIT_OK;
}

/* The report on `out`: this command's lines on the runs (kept for the HTML page, study->runs_text), the study's
 * report, then --replay-on's table and lines, all within the report's width (cli_layout_options). 0, or an exit status
 * (print_replays'). */
static int print_report(FILE *out, const analyse_opts_t *opts, const runs_t *runs, stu_study_t *study)
{
  const rep_print_options_t layout = cli_layout_options(out, opts->width, opts->full);
  char *text = NULL;
  size_t len = 0;
  FILE *own = open_memstream(&text, &len);
  if (!own)
    return fail("%sout of memory", "");
  print_runs(own, opts, runs, study);
  int kept = fflush(own) == 0 && (study->runs_text = strdup(text)) != NULL;
  if (fit_lines(out, own, &text, layout.width) != 0 || !kept)
    return fail("%sout of memory", "");
  rep_print_with(out, study, &layout); /* with each run's phases (the study's phases view), with --full */
  if (!opts->replay_on)
    return EXIT_OK;
  if (!(own = open_memstream(&text, &len)))
    return fail("%sout of memory", "");
  int status = print_replays(own, opts, runs, study);
  if (fit_lines(out, own, &text, layout.width) != 0 && status == EXIT_OK)
    status = fail("%sout of memory", "");
  return status;
}

/* --platform: each run's bottleneck view from its TI trace replayed on the platform, given to the study so that the
 * report, CSV, JSON and SVG show it. 0, or the exit status of a replay that failed (after its line), or
 * CLI_EXIT_STOPPED. */
static int add_breakdowns(const analyse_opts_t *opts, const runs_t *runs, stu_study_t *study)
{
  met_breakdown_t *views = calloc(study->npoints, sizeof *views);
  if (!views)
    return fail("%sout of memory", "");
  int status = EXIT_OK;
  for (size_t i = 0; status == EXIT_OK && i < study->npoints; i++) {
    char err[8600];
    status = cli_replay_breakdown(opts->platform, runs->dirs[i], study->points[i].p, &views[i], err, sizeof err);
    if (status != EXIT_OK && status != CLI_EXIT_STOPPED)
      fprintf(stderr, "simrun: error: %s\n", err);
  }
  if (status == EXIT_OK && stu_measured_set_breakdowns(study, views) != 0)
    status = fail("%sout of memory", "");
  free(views);
  return status;
}

/* With --replay-on: the platform and the binding lines of every run with an index must be right before anything is
 * read or printed (check_index checks that the index is there once its folder is read). 0, or an exit status after
 * the error line (EXIT_INPUT for the user's files), or CLI_EXIT_STOPPED when a signal came while a platform loaded. */
static int check_replays(const analyse_opts_t *opts)
{
  if (!opts->replay_on && !opts->platform)
    return EXIT_OK;
  const char *const given[2] = {opts->replay_on, opts->platform}, *const flag[2] = {"--replay-on", "--platform"};
  struct stat st;
  for (int k = 0; k < 2; k++) /* a folder is readable too, and SimGrid then fails after the report is printed */
    if (given[k] && (access(given[k], R_OK) != 0 || stat(given[k], &st) != 0 || S_ISDIR(st.st_mode))) {
      fprintf(stderr,
              "simrun: error: %s %s: cannot read that platform file; give a SimGrid platform (simrun machine probe "
              "writes this machine's)\n",
              flag[k], given[k]);
      return EXIT_INPUT;
    }
  for (int k = 0; k < 2; k++) { /* loaded and checked as a run does: a platform SimGrid refuses, or a wrong property of
                                 * simrun's, was said after the report, which stood half-printed */
    char err[8600];
    size_t hosts = 0;
    int rc = given[k] ? sim_run_probe(given[k], &hosts, err, sizeof err) : 0;
    if (rc == BAS_EINTR)
      return CLI_EXIT_STOPPED;
    if (rc != 0) {
      fprintf(stderr, "simrun: error: %s\n", err);
      return bas_error_status(rc);
    }
  }
  for (int i = 0; i < opts->ndirs; i++) {
    char err[8600];
    cli_binding_t binding = {0}; /* its binding lines, checked before anything is printed */
    if (opts->replay_on && has_index(opts->dirs[i]) && cli_binding_read(opts->dirs[i], &binding, err, sizeof err) != 0)
      return fail("%s", err);
    cli_binding_free(&binding);
  }
  return EXIT_OK;
}

/* A run read as per-rank sums for want of room in $TMPDIR has no intervals for the pictures and exports `outputs`
 * asks for: one line each on stderr, so that an archive without it is not a surprise (the report says it too). */
static void sums_not_exported(const runs_t *runs)
{
  for (int i = 0; i < runs->n; i++)
    if (runs->read[i] == READ_SUMS_NO_ROOM)
      fprintf(stderr,
              "simrun: warning: %s: its timelines hold over %.0f MiB and %s cannot be written or has too little room "
              "for them (%.1f to %.1f times their size): the timeline pictures, Paje trace and OTF2 archive hold "
              "nothing of this run; set TMPDIR to a writable folder with room\n",
              runs->dirs[i], KEEP_BYTES / (1024 * 1024), bas_temp_dir(), SPILL_ROOM, SPILL_ROOM_PAJE);
}

/* Reads, analyses and reports; `runs` is freed by the caller (the traces the study kept are its own then). */
static int analyse(const analyse_opts_t *opts, runs_t *runs)
{
  cli_outputs_t outputs;
  int status = check_outputs(opts, &outputs);
  if (status == EXIT_OK)
    status = check_replays(opts);
  if (status == EXIT_OK)
    status = read_runs(opts, spill_budget(&outputs), runs);
  if (status == EXIT_OK)
    sums_not_exported(runs);
  if (status == EXIT_OK)
    status = check_untraced(opts, runs);
  if (status == EXIT_OK)
    status = choose_t_seq(opts, runs);
  if (status == CLI_EXIT_STOPPED || (status == EXIT_OK && cli_signal_stop())) /* while checking or reading */
    return cli_signal_report();
  if (status != EXIT_OK)
    return status;
  stu_study_t *study = stu_measured_new(runs->program, runs->traces, (size_t)runs->n, runs->t_seq);
  for (int i = 0; study && i < runs->n; i++)
    if (study->points[i].trace) /* the study frees it */
      runs->traces[i] = NULL;
  if (!study)
    return fail("%sout of memory", "");
  status = opts->platform ? add_breakdowns(opts, runs, study) : EXIT_OK;
  if (status == EXIT_OK) {
    FILE *out = cli_report_stream(&outputs);
    status = print_report(out, opts, runs, study);
    fflush(out);
  }
  if (status == EXIT_OK) /* in one transaction, rolled back by a signal (a long run's Paje trace takes seconds) */
    status = cli_outputs_write(study, &outputs);
  stu_free(study);
  if (status == CLI_EXIT_STOPPED || (status == EXIT_OK && cli_signal_stop()))
    status = cli_signal_report();
  return status;
}

int cli_analyse_main(const cli_context_t *ctx, int argc, char **argv)
{
  analyse_opts_t opts = {.catch_signals = ctx->catch_signals};
  int status = parse(argc, argv, &opts);
  if (status >= 0)
    return status;
  runs_t *runs = calloc(1, sizeof *runs);
  if (!runs)
    return fail("%sout of memory", "");
  if (opts.catch_signals) /* for the whole command: a signal while reading, replaying (whose child ends, its folder
                           * removed: cli_replay.h) or writing stops it the same way (cli_signal.h) */
    cli_signal_catch();
  status = analyse(&opts, runs);
  fflush(stdout); /* while SIGPIPE is still caught: a reader gone by now means 141, not a death by SIGPIPE */
  status = status == EXIT_OK && cli_signal_status() ? cli_signal_status() : status;
  if (opts.catch_signals)
    cli_signal_release();
  for (int i = 0; i < runs->n; i++) {
    met_trace_free(runs->traces[i]);
    cli_binding_free(&runs->cores[i].binding);
    free(runs->cores[i].core);
  }
  free(runs);
  return status;
}
