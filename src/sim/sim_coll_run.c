/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Collectives carried out on the replay layer: a plan's operations become the calling rank's messages, blocking ones at
 * once and posted ones as requests until the next wait, inside the collective's marks (sim_mark); and the skeletons'
 * broadcast and barrier over every rank. */
#include "sim_coll_run.h"
#include "bas_grow.h"
#include "sim_error.h"
#include "sim_mark.h"
#include "sim_replay.h"

#include <stdlib.h>
#include <string.h>

/* A broadcast's operations, gathered from its plan before the first is carried out: the plan's frames are then off
 * the rank's stack while it waits in its messages, and every resume of a rank touches each line of its stack below
 * the wait again, a cache miss each between two turns of a rank (docs/scale.md). Planning calls no SimGrid. */
typedef struct bcast_op {
  double bytes;
  int peer; /* in the group */
  int send;
} bcast_op_t;

enum { BCAST_OPS_INLINE = 2 }; /* a relay's member has two operations, its root two */

/* Kept small: it is in the frame of the rank's every broadcast message. */
typedef struct gathered {
  bcast_op_t *ops; /* `inline_ops`, or on the heap beyond BCAST_OPS_INLINE */
  int count;
  int cap;
  bcast_op_t inline_ops[BCAST_OPS_INLINE];
} gathered_t;

static void gather(void *ctx, const sim_coll_op_t *op)
{
  gathered_t *g = ctx;
  if (g->count == g->cap) {
    int cap = 4 * g->cap;
    bcast_op_t *more =
        g->ops == g->inline_ops ? malloc((size_t)cap * sizeof *more) : realloc(g->ops, (size_t)cap * sizeof *more);
    if (!more) {
      g->cap = -1; /* failed: nothing more is gathered */
      return;
    }
    if (g->ops == g->inline_ops)
      memcpy(more, g->inline_ops, sizeof g->inline_ops);
    g->ops = more;
    g->cap = cap;
  }
  g->ops[g->count++] = (bcast_op_t){.bytes = op->bytes, .peer = op->peer, .send = op->send};
}

/* Frees what gathering allocated. */
static void release(gathered_t *g)
{
  if (g->ops != g->inline_ops)
    free(g->ops);
}

/* Carries out the gathered operations, blocking each in turn; frees what gathering allocated. */
static inline void execute(sim_rank_t *rank, const sim_group_t *group, gathered_t *g)
{
  for (int i = 0; i < g->count; i++) {
    int peer = group->members[g->ops[i].peer];
    if (g->ops[i].send)
      sim_send(rank, peer, g->ops[i].bytes);
    else
      sim_recv(rank, peer, g->ops[i].bytes);
  }
  release(g);
}

/* The members' mesh coordinates into rows and cols (n each); 0, or -1 when some member's host has none. */
static int group_coords(const sim_rank_t *rank, const sim_group_t *group, int *rows, int *cols)
{
  for (int i = 0; i < group->count; i++)
    if (sim_rank_coords(rank, group->members[i], &rows[i], &cols[i]) != 0)
      return -1;
  return 0;
}

/* Gathers the calling rank's operations of broadcast `alg` into `g` (set up empty): 0, or SIM_ENOMEM with nothing
 * left allocated. Out of line, so that the plan's frame is gone before the first message. */
__attribute__((noinline)) static int plan_bcast(const sim_rank_t *rank, const sim_group_t *group, sim_bcast_alg_t alg,
                                                int root, double bytes, gathered_t *g)
{
  sim_coll_plan_t plan = {.alg = alg, .count = group->count, .root = root, .bytes = bytes};
  int *coords = NULL;
  if (alg == SIM_BCAST_MESH && group->count > 1) {
    coords = malloc(2 * (size_t)group->count * sizeof *coords);
    if (!coords)
      return SIM_ENOMEM;
    if (group_coords(rank, group, coords, coords + group->count) == 0) {
      plan.rows = coords;
      plan.cols = coords + group->count;
    }
  }
  int rc = sim_coll_plan(&plan, sim_mark_index(rank, group), gather, g);
  free(coords);
  if (rc == 0 && g->cap < 0)
    rc = SIM_ENOMEM;
  if (rc != 0)
    release(g);
  return rc;
}

/* Runs broadcast `alg` of `bytes` from group member `root` (an index into the group) on the calling rank, which must
 * be a member. Every member calls it with the same arguments. Returns 0, or SIM_ENOMEM (nothing was sent). Inlined
 * into its callers, so that a broadcast's messages wait one frame below the skeleton's. */
static inline int bcast(sim_rank_t *rank, const sim_group_t *group, sim_bcast_alg_t alg, int root, double bytes)
{
  gathered_t g = {.cap = BCAST_OPS_INLINE};
  g.ops = g.inline_ops;
  int rc = plan_bcast(rank, group, alg, root, bytes, &g);
  if (rc == 0)
    execute(rank, group, &g);
  return rc;
}

/* Carries out a plan's operations: blocking ones at once, posted ones as requests until the next wait. */
typedef struct run_ctx {
  sim_rank_t *rank;
  const sim_group_t *group;
  sim_request_t **pending;
  size_t npending;
  size_t cap;
  double packed; /* the bytes of the pieces of the message under way (sim_coll_op_t.more) */
  int failed;
} run_ctx_t;

static void run_op(void *ctx, const sim_coll_op_t *op)
{
  run_ctx_t *run = ctx;
  if (op->peer == SIM_COLL_WAITALL) {
    for (size_t i = 0; i < run->npending; i++)
      sim_wait(run->rank, run->pending[i]);
    run->npending = 0;
    return;
  }
  run->packed += op->bytes;
  if (op->more)
    return;
  double bytes = run->packed;
  run->packed = 0;
  int peer = run->group->members[op->peer];
  if (!op->post) {
    (op->send ? sim_send : sim_recv)(run->rank, peer, bytes);
    return;
  }
  if (bas_reserve((void **)&run->pending, &run->cap, run->npending, sizeof *run->pending, 16) != 0) {
    run->failed = 1;
    return;
  }
  sim_request_t *req = (op->send ? sim_isend : sim_irecv)(run->rank, peer, bytes);
  if (req)
    run->pending[run->npending++] = req;
}

int sim_coll_run(sim_rank_t *rank, const sim_group_t *group, const sim_coll_call_t *call)
{
  sim_mark_t mark = sim_mark_enter(rank, group, sim_mark_kind(call->kind),
                                   sim_mark_call(call->kind, call->counts != NULL), call->root);
  if (call->kind == SIM_COLL_BCAST)
    return sim_mark_leave(&mark, bcast(rank, group, (sim_bcast_alg_t)call->alg, call->root, call->bytes));
  run_ctx_t run = {.rank = rank, .group = group};
  int rc = sim_coll_plan_call(call, group->count, sim_mark_index(rank, group), run_op, &run);
  run_op(&run, &(sim_coll_op_t){.peer = SIM_COLL_WAITALL});
  free(run.pending);
  return sim_mark_leave(&mark, rc != 0 ? rc : run.failed ? SIM_ENOMEM : 0);
}

void sim_bcast(sim_rank_t *rank, int root, double bytes)
{
  sim_bcast_group(rank, sim_rank_world(rank), root, bytes);
}

void sim_bcast_group(sim_rank_t *rank, const sim_group_t *group, int root, double bytes)
{
  sim_mark_t mark = sim_mark_enter(rank, group, MET_COLL_ONE_TO_N, MET_CALL_BCAST, root);
  if (sim_mark_leave(&mark, bcast(rank, group, sim_rank_bcast_alg(rank), root, bytes)) != 0)
    sim_rank_fail(rank, SIM_ENOMEM, "a broadcast could not allocate its plan (out of memory)");
}
