/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Collectives carried out on the replay layer (sim_coll.h plans them): every member of a group calls the same
 * collective, which becomes its messages, marked in the trace as one call (sim_mark.h). */
#ifndef SIM_COLL_RUN_H
#define SIM_COLL_RUN_H

#include "sim_coll.h"
#include "sim_replay.h"

/* Broadcast of `bytes` from `root` with the job's algorithm; every rank calls it. */
void sim_bcast(sim_rank_t *rank, int root, double bytes);
/* The same within `group` (for instance a row of a process grid): `root` is an index into the group, and every
 * member calls it. A broadcast that cannot allocate its plan fails the run (out of memory). */
void sim_bcast_group(sim_rank_t *rank, const sim_group_t *group, int root, double bytes);

/* Runs `call` on the calling rank, a member of `group`; every member calls it. Returns 0, or SIM_ENOMEM. */
int sim_coll_run(sim_rank_t *rank, const sim_group_t *group, const sim_coll_call_t *call);

#endif
