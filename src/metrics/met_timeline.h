/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The reader of measured timelines: the timeline-I.txt files that libsimrun-trace.so writes for each rank of a real
 * MPI run (format in docs/tracer.md), read into the trace model so that the lost-cycle views analyse a measured run as
 * they analyse a simulated one (Lemeire's EPPA, seed 000 §1.2). No SimGrid, no MPI. */
#ifndef MET_TIMELINE_H
#define MET_TIMELINE_H

#include "met_trace.h"

#include <stddef.h>

/* The ranks whose CPU seconds met_timeline_info_t keeps one by one (the first ones of a larger run). */
enum { MET_TL_CPU_RANKS = 1024 };

/* One rank's use of its processor over its span ("# disturbance", docs/tracer.md), kept so that ranks that shared a
 * core can be summed and a core's waits told from its partners' (simrun analyse --replay-on). */
typedef struct met_tl_usage {
  double cpu;      /* its CPU seconds, 0 where its file does not say */
  double wall;     /* its wall seconds (WALL), 0 where its file does not say */
  double lost;     /* the seconds it waited for a processor (WAITED), else its wall less CPU seconds, 0 where unsaid */
  double switches; /* its involuntary context switches (SWITCHES), 0 where unsaid */
  double compute;  /* the CPU seconds of its computations (COMPUTE), NAN where no line gives them */
  double polls;    /* the CPU seconds of its runs of polls (POLLS), NAN where no line gives them */
  double polls_work;  /* of their wall seconds, those the timeline books as the work between the polls ("# polls-work
                       * WORK"), NAN where no line gives them (an older tracer: its runs hold the work) */
  double own;         /* its tracer's CPU seconds ("# tracer-cost" less "# disturbance"'s HELD), 0 where unsaid */
  double rate;        /* the flop rate its TI amounts are CPU seconds times ("# flop-rate"), NAN where unsaid */
  int rate_given;     /* that rate was SIMRUN_TRACE_FLOPS's, not calibrated */
  int polls_computed; /* its TI compute amounts hold its runs of polls' CPU too (MET_FLOPS_POLLS_COMPUTED) */
} met_tl_usage_t;

/* What the reader found beyond the intervals. */
typedef struct met_timeline_info {
  size_t matched;         /* messages whose two ends were paired */
  size_t unmatched;       /* receives (or ends given up) that stayed as the file gives them */
  size_t given_up;        /* sends and non-blocking collectives no wait completed, given up (a rank keeps its 4,096
                           * latest outstanding operations): their messages are paired all the same */
  size_t unreceived;      /* sends no receive took (their messages pending when the run ended) */
  size_t collectives;     /* collectives paired across the ranks: barriers, N x N and rooted, blocking or
                           * not, and scans */
  int colls_unpaired;     /* the members' collective calls on a communicator differ: pairing stopped there */
  int colls_held;         /* a rank held more intervals than the reader keeps waiting for a collective's members:
                           * pairing stopped there (met_tl_match_colls_held) */
  size_t scans_unordered; /* scan calls on communicators whose order of members is not known to be the world's (a
                           * split that reorders them, or an older tracer's "# comm" line): kept as measured */
  size_t colls_undefined; /* collectives on sub-communicators no "# comm" line defines (an older tracer's): kept as
                           * the files give them */
  size_t starts;          /* MPI_Start and MPI_Startall lines that give none of the messages they started (an older
                           * tracer's), which are then not paired */
  double tracer_cost;     /* seconds the tracer says it spent inside itself, summed over the ranks ("# tracer-cost S"
                           * lines); NAN when the files do not say */
  double tracer_held;     /* of it, the ranks' seconds held off their processors (HELD: docs/tracer.md), summed */
  int compensated;        /* every file says that its gaps are the tracer's own time ("# own time: the gaps ..."): they
                           * were removed, and causality kept (docs/tracer.md, "The library's own time") */
  double own_gaps;        /* when compensated: the seconds of gaps removed, summed over the ranks */
  double own_put_back;    /* then, keeping causality: how much later the ranks that waits their own tracer time had
                           * hidden put back end, summed over them (each at most its own gaps: T_par at most the span) */
  double waits_removed;   /* and how much earlier the ranks that waited for partners their tracer time delayed end */
  size_t clock_moved;     /* the clock condition (a receive ends after its send: met_timeline_clock.h): receives that */
  double clock_max;       /* ended before their sends and were moved, the largest move and their sum, seconds, and */
  double clock_total;     /* the intervals that came after them on their ranks, moved as much */
  size_t clock_later;
  double child_cpu;     /* the ranks' child processes' CPU seconds ("# children-cpu USED COUNTED COMPUTE"), summed */
  double child_counted; /* of which the TI trace counts as the ranks' computation */
  double child_of;      /* the ranks' computation, in CPU seconds, those counted included */
  char untraced[512];   /* the lowest rank's calls not in the TI trace, as the tracer named them ("# untraced LIST") */
  int untraced_rank;
  int untraced_ranks;  /* the ranks whose file names such calls */
  double threads_cpu;  /* the CPU seconds of the ranks' other threads ("# threads-cpu OTHERS MINE"), summed, which */
  double threads_mine; /* the TI trace leaves out, and of the threads that call MPI in those ranks */
  int exited_ranks;    /* ranks whose file says they ended at their process's exit, MPI_Finalize never called */
  int exited_failed;   /* of them, those whose exit status was not 0 */
  int exited_status;   /* the first such rank's status */
  double startup_age;  /* of the rank whose process took the longest to reach time 0, the seconds it ran before it */
  double startup_init; /* called MPI_Init (NAN: not known) and from that call to time 0 ("# start-up AGE INIT"):
                        * outside the trace; both NAN when the files do not say */
  int usage_ranks;     /* ranks whose file says how others disturbed it ("# disturbance ...", docs/tracer.md) */
  double load_least;   /* of them, the machine's least and greatest load at time 0 and MPI_Finalize */
  double load_most;
  double switches;    /* their involuntary context switches, summed */
  double cpu_wall;    /* their wall seconds from time 0 to MPI_Finalize, summed */
  double cpu_lost;    /* the wall seconds they did not run (wall less CPU, each at least 0), summed */
  int waited_ranks;   /* of them, ranks whose line gives WAITED (run_delay) */
  double cpu_waited;  /* their seconds runnable but waiting for a processor, summed */
  double cpu_busiest; /* the greatest rank's CPU seconds over that span (its children's counted) */
  met_tl_usage_t usage[MET_TL_CPU_RANKS]; /* each rank's (rank < MET_TL_CPU_RANKS) */
  char program[256];                      /* rank 0's "# program NAME" line, or "" */
  int error; /* when no trace is returned, its code (bas_error.h): BAS_EDATA for a folder or file that
              * is not a whole run's, BAS_EIO or BAS_ENOMEM for this machine's limits and faults; else 0 */
} met_timeline_info_t;

/* met_timeline_stream's flags: a full trace rather than sums; a run whose ranks did not all finish read anyway; sums
 * whose intervals go to a temporary file (met_trace_new_spilled: for a long run's pictures and exports). */
enum { MET_TL_KEEP = 1, MET_TL_PARTIAL = 2, MET_TL_SPILL = 4 };

/* Reads folder `dir` in one pass (each file in format 1 or 2, docs/tracer.md): timeline-0.txt, whose header gives the
 * number of ranks P, then timeline-1.txt .. timeline-(P-1).txt, all open at once and read in the order of their
 * intervals' start times, so that memory grows with P and the messages in flight, not with the run's length. Each
 * interval becomes one of the trace's (category and phase as written; peer, bytes; no hops nor compute parts: a
 * measurement cannot tell them), split by the wait state rules of docs/tracer.md into the wait for a partner (idle) and
 * the transfer (communication). With MET_TL_KEEP in `flags` the trace is a full one (timelines, wait states), otherwise
 * an aggregate one (met_trace_new_aggregate), spilled with MET_TL_SPILL. `info` may be NULL. Returns a new trace (free
 * with met_trace_free), or NULL with one message in err, "FILE:LINE: what is wrong; how to fix" ("FILE: ..." when no
 * line is to blame): a missing rank, a malformed or out-of-order line, a loop of more than 2^32 iterations (with
 * MET_TL_KEEP, loops that unfold to more than 2^19 calls in the run), out of memory, or (with MET_TL_SPILL, BAS_EIO)
 * a temporary file that could not be written. A file cut short (a run killed before MPI_Finalize: no "# end" line,
 * perhaps half a last line) is refused when the tracer's marker of a rank that did not finish is there (incomplete-N),
 * unless MET_TL_PARTIAL is in `flags`; without a marker (a tracer before them, a hand-made folder) or with
 * MET_TL_PARTIAL it is read up to its last whole line: the trace is returned and err names the first such file and
 * line ("FILE:LINE: cut short: ..."); err is "" when every file is whole. */
met_trace_t *met_timeline_stream(const char *dir, int flags, met_timeline_info_t *info, char *err, size_t errlen);

/* The bytes the timelines of folder `dir` would take unfolded: the files' sizes, and for each loop (docs/tracer.md)
 * 96 bytes (a computation's and a call's line) per slot and iteration. Files are scanned for loops only while the sum
 * stays at most `limit`: a larger sum is returned once known. 0 when the folder cannot be listed (the reader then says
 * why). */
double met_timeline_bytes(const char *dir, double limit);

/* The program folder `dir`'s run traced, from its timeline-0.txt's "# program" line among the comments at its head
 * (control characters shown as '?'), into name[0..size): 1, or 0 when the file cannot be read or gives none (a tracer
 * before that line, a hand-made folder), without a word: the reader says what is wrong with the file. */
int met_timeline_program(const char *dir, char *name, size_t size);

#endif
