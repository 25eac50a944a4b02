/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to met_timeline: the clock condition of a measured run, kept as its intervals go into the trace. The ranks'
 * clocks are aligned to a few microseconds only (and a folded loop's iterations take their mean times), so a receive
 * may end before its message was sent: a trace viewer cannot draw that message (ViTE aborts). Each message's receive
 * is made to end no earlier than its send plus MET_TL_TICK, and its rank's later intervals start no earlier than it
 * ends: the forward pass of Rabenseifner's controlled logical clock (R. Rabenseifner, "The controlled logical clock -
 * a global time for trace based software monitoring of parallel applications in workstation clusters", Proc. 5th
 * EUROMICRO PDP, 1997, pp. 477-484), as Scalasca applies it to MPI traces (D. Becker, R. Rabenseifner, F. Wolf,
 * J. Linford, "Scalable timestamp synchronization for event traces of message-passing applications", Parallel
 * Computing 35(12), 2009, 595-607): an event's corrected time is the latest of its own, the previous event's corrected
 * time, and for a receive its send's corrected time plus l_min. Its controller gamma, the share of a local interval
 * kept after a jump, is 0 here (Scalasca takes 0.99999 and refines in later passes): the following intervals absorb
 * the move (each starts no earlier than the previous ends, shortened as much), so that T_par stays within the
 * timelines' span, which the analysis of a measured run promises (docs/tracer.md), rather than every later interval
 * of the rank moving by the jump (a 200-lap ring at p = 4 whose loops' mean iterations break the condition by up to
 * 5 us took T_par from 12.6 ms to 14.2 ms so). There is no backward amortization: the receive's call lengthens rather
 * than its rank's earlier intervals moving. The pass propagates: a send moved later moves its receive in turn, as the
 * receive waits (met_timeline_match.c) until its send went into the trace. */
#ifndef MET_TIMELINE_CLOCK_H
#define MET_TIMELINE_CLOCK_H

#include <stddef.h>

/* The minimal latency l_min of a message: one tick of the tracer's clock (nanoseconds, CLOCK_MONOTONIC: docs/tracer.md)
 * and of an OTF2 archive's timer (rep_otf2.c), so that a receive's timestamp is always after its send's. A larger,
 * physical figure (the probed platform's latency) would need a platform that `simrun analyse` does not require. */
#define MET_TL_TICK 1e-9

typedef struct met_tl_clock met_tl_clock_t;

/* What keeping the clock condition did to a run. */
typedef struct met_tl_clock_counts {
  size_t receives; /* receives that ended before their send plus MET_TL_TICK, made to end then */
  size_t later;    /* the calls after those on their ranks that started before they ended, made to start then */
  double max;      /* the largest move of one receive, seconds */
  double total;    /* the moves summed over the receives, seconds */
  size_t unknown;  /* receives whose send's time in the trace was not kept (checked against its entry instead) */
} met_tl_clock_counts_t;

/* NULL when out of memory. */
met_tl_clock_t *met_tl_clock_new(int nranks);
void met_tl_clock_free(met_tl_clock_t *c); /* accepts NULL */

/* Places interval [*start, *end] of `rank`, the next to go into the trace (a call goes in as one or more): no earlier
 * than the end of the rank's previous one when a receive's move reached past it (*end then no earlier than *start). */
void met_tl_clock_place(met_tl_clock_t *c, int rank, double *start, double *end);

/* The end of `rank`'s last interval placed, or -INFINITY before the first. */
double met_tl_clock_last(const met_tl_clock_t *c, int rank);

/* `rank`'s intervals and operations numbered up to `id` (met_timeline_match.c numbers them in order on each rank) have
 * gone into the trace. */
void met_tl_clock_emitted(met_tl_clock_t *c, int rank, long long id);

/* Whether the send numbered `id` of rank `sender` has gone into the trace (or cannot be waited for: id < 0). */
int met_tl_clock_sent_out(const met_tl_clock_t *c, int sender, long long id);

/* Records that send `id` of `sender` went into the trace at `at` (the time an export writes its message as sent).
 * Beyond 2^13 sends whose receive never asked for them (unpaired), the older half is forgotten. 0, or BAS_ENOMEM out
 * of memory. */
int met_tl_clock_record(met_tl_clock_t *c, int sender, long long id, double at);

/* The time send `id` of `sender` went into the trace, forgotten once asked; `entry` (its entry as the rules see it)
 * when it was not kept, counted as unknown. */
double met_tl_clock_sent(met_tl_clock_t *c, int sender, long long id, double entry);

/* A receive ending at `end` whose message was sent at `sent` (NAN: none known): how much later it must end (0 when it
 * ends at sent + MET_TL_TICK or later). */
double met_tl_clock_late(double end, double sent);

/* A call of `rank` went into the trace with its receive moved by `moved` (0: none): counted, and among the calls made
 * to start later when it was. */
void met_tl_clock_done(met_tl_clock_t *c, int rank, double moved);

/* What keeping the clock condition did so far: receives moved, the largest move and their sum, calls made later. */
met_tl_clock_counts_t met_tl_clock_counts(const met_tl_clock_t *c);

#endif
