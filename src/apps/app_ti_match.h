/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the ti-replay skeleton (app_ti*.c): MPI's matching by (source, tag) on top of the replay layer's, which
 * matches the messages between two ranks in the order they are posted. Before the run, every rank's lines are read
 * once: for each ordered pair whose messages or receives carry more than one tag, the sender's tags in order (a
 * folded loop's body once, with its count). During the run a receiver binds each receive of such a pair to a message
 * as MPI does (the earliest message not yet taken whose tag it accepts) and posts the layer's receives in message
 * order, a message passed over kept posted as MPI's unexpected message until a receive takes it. Nothing outside
 * src/apps/app_ti*.c includes it. */
#ifndef APP_TI_MATCH_H
#define APP_TI_MATCH_H

#include "app_ti_trace.h"
#include "sim_ti.h"

/* Every pair's sender tags, shared by the ranks and read-only during the run. */
typedef struct app_ti_match app_ti_match_t;

/* Reads the `n` ranks' lines of `trace`: *match stays NULL when no pair needs it (every message and receive of the
 * trace carries one tag, or any tag: the layer's order is then MPI's). Lines that are not well formed are skipped
 * (the replay reports them). 0, or SIM_ENOMEM. */
int app_ti_match_build(const sim_ti_trace_t *trace, int n, app_ti_match_t **match);
void app_ti_match_free(app_ti_match_t *match);

/* The rank's sources whose tags it matches (tr->sources): 0, or SIM_ENOMEM when out of memory. */
int app_ti_match_open(app_ti_rank_t *tr, const app_ti_match_t *match);
/* Waits for the messages the rank took as unexpected and no receive took, then frees tr->sources. */
void app_ti_match_close(app_ti_rank_t *tr);

/* The rank's slot of source `src` when it matches its tags, else -1 (the layer's order is MPI's). */
int app_ti_match_slot(const app_ti_rank_t *tr, int src);

/* What a receive of `tag` (or SIM_TI_ANY_TAG) from the slot's source binds to (app_ti_match_bind). */
typedef enum app_ti_bound {
  APP_TI_BOUND_KEPT,  /* a message already posted as unexpected: its request is *req */
  APP_TI_BOUND_NEXT,  /* the next message: the caller posts its receive now, as usual */
  APP_TI_BOUND_NEVER, /* no message of the source has that tag: MPI would wait forever */
} app_ti_bound_t;
/* Binds a receive of `tag` from the slot's source: *msg the message's number, or -1 for APP_TI_BOUND_NEVER. The
 * messages before it that no receive took are posted as unexpected first. -1 when out of memory. */
int app_ti_match_bind(app_ti_rank_t *tr, int slot, int tag, long long *msg, sim_request_t **req, app_ti_bound_t *bound);
/* For a receive bound to nothing and waited for: every message left of the source posted as unexpected, then a
 * receive that no message matches, which blocks the rank so that the run ends naming it. NULL once the rank failed:
 * out of memory, or more than 2^20 messages left to post (the failure then says what the receive waits for). */
sim_request_t *app_ti_match_never(app_ti_rank_t *tr, int slot);
/* Gives message `msg` (its request `req`) back as unexpected, its receive cancelled: -1 when out of memory. */
int app_ti_match_release(app_ti_rank_t *tr, int slot, long long msg, sim_request_t *req);
/* Whether a receive of `tag` accepts message `msg` of the slot's source. */
int app_ti_match_accepts(const app_ti_rank_t *tr, int slot, int tag, long long msg);

#endif
