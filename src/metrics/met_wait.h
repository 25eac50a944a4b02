/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Wait states, named and defined as Scalasca names them (its pattern reference, "Performance properties"): per rank
 * and per pattern, the time a rank lost waiting for another, from the idle intervals of the trace (point to point) and
 * its collective spans (met_coll_t). Independent of SimGrid: skeletons, replays and hand-made traces alike. */
#ifndef MET_WAIT_H
#define MET_WAIT_H

#include "met_trace.h"

typedef enum met_wait_pattern {
  MET_WAIT_LATE_SENDER = 0, /* a receiver blocked before the matching send was posted */
  MET_WAIT_LATE_RECEIVER,   /* a sender blocked in a synchronous (rendezvous) send before the receive was posted */
  MET_WAIT_BARRIER,         /* in a barrier, from the rank's entry until the last member entered */
  MET_WAIT_NXN,             /* the same in an N x N collective (allreduce, allgather, alltoall, reduce-scatter) */
  MET_WAIT_LATE_BCAST,      /* a non-root member of a 1-to-N collective, from its entry until the root entered */
  MET_WAIT_EARLY_REDUCE,    /* the root of an N-to-1 collective, from its entry until the first sender entered */
  MET_WAIT_EARLY_SCAN,      /* a member of a scan or exscan, from its entry until the last member before it entered */
  MET_WAIT_PATTERNS
} met_wait_pattern_t;

/* Seconds lost per rank and pattern. */
typedef struct met_waits {
  int nranks;
  double *time; /* nranks x MET_WAIT_PATTERNS, row-major by rank */
} met_waits_t;

/* The wait states of a full trace into *out (free with met_wait_free). Point to point: an IDLE interval with a peer and
 * a direction outside the rank's collective spans is late sender when the rank received, late receiver when it sent.
 * Collectives: the members' spans of one call (met_coll_t) give their entries; each pattern's time is capped by the
 * rank's time in the call and by the idle time of its intervals that start in the call, when some do. Idle inside a
 * collective span belongs to the collective's pattern, never to the point-to-point ones. A prefix reduction's members
 * come in the order of their world ranks. An aggregate trace has no intervals: its sums made while it was read by these
 * rules (met_trace_sum_waits) are copied. Returns 0, or BAS_EINVAL for an aggregate trace without such sums or when out
 * of memory (*out is then empty). */
int met_wait_compute(const met_trace_t *trace, met_waits_t *out);
void met_wait_free(met_waits_t *waits); /* accepts an empty one */

/* The same, the intervals given one by one (those of a spilled trace, met_trace_spill_walk): a walk over `trace`
 * (borrowed: its ranks and collective spans), each rank's intervals added in time order (ranks in any interleaving),
 * then ended into *out, which frees the walk (0, or -1 out of memory: *out is then empty). new: NULL when out of
 * memory; free: a walk abandoned, accepts NULL. */
typedef struct met_wait_walk met_wait_walk_t;
met_wait_walk_t *met_wait_walk_new(const met_trace_t *trace);
void met_wait_walk_add(met_wait_walk_t *walk, int rank, const met_interval_t *iv);
int met_wait_walk_end(met_wait_walk_t *walk, met_waits_t *out);
void met_wait_walk_free(met_wait_walk_t *walk);

/* Seconds `rank` lost in `pattern`; 0 out of range. */
double met_wait_time(const met_waits_t *waits, int rank, met_wait_pattern_t pattern);
/* Over all ranks: the pattern's total, or with MET_WAIT_PATTERNS every pattern's. */
double met_wait_total(const met_waits_t *waits, met_wait_pattern_t pattern);

/* Column names ("late_sender", "late_receiver", "wait_barrier", "wait_nxn", "late_broadcast", "early_reduce",
 * "early_scan") and Scalasca's titles ("Late Sender", ..., "Wait at N x N", ..., "Early Scan"); NULL out of range. */
const char *met_wait_name(met_wait_pattern_t pattern);
const char *met_wait_title(met_wait_pattern_t pattern);

/* The pattern of a collective of `kind` (a barrier's Wait at Barrier, a broadcast's Late Broadcast...), which
 * met_wait_compute gives its waits and a measured run's reader its sums; MET_WAIT_PATTERNS out of range. */
met_wait_pattern_t met_wait_coll_pattern(met_coll_kind_t kind);

#endif
