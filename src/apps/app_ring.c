/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ping-ring and broadcast skeletons (app_ring.h). Ping-ring: each lap, every rank receives the token from its left
 * neighbour and passes it to its right one; rank 0 starts the lap. On a quiet network a lap takes the sum of its p
 * messages' times T(l, d). Broadcast: each lap, rank 0's block goes to every rank by sim_bcast, the same plans as
 * Gauss-Jordan's row broadcasts. */
#include "app_ring.h"
#include "sim_coll.h"
#include "sim_coll_run.h"
#include "sim_error.h"

#include <stdlib.h>

typedef struct ring_arg {
  double bytes;
  long laps;
} ring_arg_t;

static int ring_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                        const char **bad_param)
{
  ring_arg_t *ring = malloc(sizeof *ring);
  if (!ring)
    return SIM_ENOMEM;
  ring->bytes = (double)app_point_long(point, "bytes", 1);
  ring->laps = app_point_long(point, "laps", 1);
  *arg = ring;
  return 0;
}

static void ring_program(sim_rank_t *rank, const void *arg)
{
  const ring_arg_t *ring = arg;
  int p = sim_rank_count(rank);
  int me = sim_rank_id(rank);
  if (p < 2)
    return;
  sim_phase(rank, "ring");
  for (long lap = 0; lap < ring->laps; lap++)
    if (me == 0) {
      sim_send(rank, 1, ring->bytes);
      sim_recv(rank, p - 1, ring->bytes);
    } else {
      sim_recv(rank, me - 1, ring->bytes);
      sim_send(rank, (me + 1) % p, ring->bytes);
    }
}

static void broadcast_program(sim_rank_t *rank, const void *arg)
{
  const ring_arg_t *block = arg;
  sim_phase(rank, "broadcast");
  for (long lap = 0; lap < block->laps; lap++)
    sim_bcast(rank, 0, block->bytes);
}

static const scn_param_spec_t ring_params[] = {
    {.name = "bytes",
     .kind = SCN_INT,
     .min = 1,
     .required = 1,
     .help = "the token's size, in bytes",
     .role = SCN_ROLE_SIZE},
    {.name = "laps",
     .kind = SCN_INT,
     .min = 1,
     .help = "times the token goes round (default 1)",
     .role = SCN_ROLE_SIZE},
};

static const scn_skeleton_spec_t ring_spec = {
    .name = "ping-ring", .params = ring_params, .nparams = sizeof ring_params / sizeof ring_params[0]};

const app_skeleton_t app_ring_skeleton = {
    .spec = &ring_spec, .views = MET_VIEW_MESSAGES, .prepare = ring_prepare, .program = ring_program, .release = free};

static const scn_param_spec_t broadcast_params[] = {
    {.name = "bytes",
     .kind = SCN_INT,
     .min = 1,
     .required = 1,
     .help = "the block's size, in bytes",
     .role = SCN_ROLE_SIZE},
    {.name = "broadcast",
     .kind = SCN_CHOICE,
     .choices = sim_bcast_names,
     .required = 1,
     .help = "broadcast algorithm: any of docs/broadcasts.md",
     .role = SCN_ROLE_BROADCAST},
    {.name = "laps",
     .kind = SCN_INT,
     .min = 1,
     .help = "broadcasts one after the other (default 1)",
     .role = SCN_ROLE_SIZE},
};

static const scn_skeleton_spec_t broadcast_spec = {
    .name = "broadcast", .params = broadcast_params, .nparams = sizeof broadcast_params / sizeof broadcast_params[0]};

const app_skeleton_t app_ring_broadcast_skeleton = {.spec = &broadcast_spec,
                                                    .views = MET_VIEW_MESSAGES,
                                                    .prepare = ring_prepare,
                                                    .program = broadcast_program,
                                                    .release = free};
