/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Marks collective calls in the run's trace (met_coll_t), so that the wait-state analysis (met_wait.h) knows which
 * stretch of each member's timeline one call took: the collectives library calls sim_mark_enter as a call starts on a
 * member and sim_mark_leave as it ends there. */
#ifndef SIM_MARK_H
#define SIM_MARK_H

#include "met_trace.h"
#include "sim_replay.h"

typedef struct sim_mark {
  sim_rank_t *rank;
  const sim_group_t *group;
  met_coll_kind_t kind;
  met_coll_call_t call;
  int root; /* an index into the group, or -1 */
  double entered;
} sim_mark_t;

/* The calling rank's index in `group` (a rank outside it ends the run: the collectives' callers never pass one). */
int sim_mark_index(const sim_rank_t *rank, const sim_group_t *group);

/* Scalasca's class of an MPI collective: barrier, N x N, 1-to-N (broadcast, scatter), N-to-1 (reduce, gather). */
met_coll_kind_t sim_mark_kind(sim_coll_kind_t kind);
/* The MPI operation of a call of `kind`, its variable-count form ("v") when it has per-member `counts`. */
met_coll_call_t sim_mark_call(sim_coll_kind_t kind, int counts);

/* The calling member enters a call of `kind` (operation `call`) within `group`; `root` is an index into the group
 * (ignored by kinds without a root). */
sim_mark_t sim_mark_enter(sim_rank_t *rank, const sim_group_t *group, met_coll_kind_t kind, met_coll_call_t call,
                          int root);
/* It leaves the call: records the span (a recorder that runs out of memory fails the run) and returns `rc`, the
 * call's own result, so that a call can end with `return sim_mark_leave(&mark, rc)`. */
int sim_mark_leave(const sim_mark_t *mark, int rc);

#endif
