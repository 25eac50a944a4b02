/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The collective module's inside, shared by its plans (sim_coll.c: the broadcasts, sim_coll_mpi.c: MPI's other
 * collectives) and by nothing else: how a plan emits its operations, and the binomial tree both use. */
#ifndef SIM_COLL_OPS_H
#define SIM_COLL_OPS_H

#include "sim_coll.h"

#include <math.h>

typedef struct out {
  sim_coll_emit_fn emit;
  void *ctx;
} out_t;

/* Emits one operation on bytes [from, to) of the data. */
static inline void put(const out_t *out, int send, int peer, double from, double to)
{
  sim_coll_op_t op = {.send = send, .peer = peer, .offset = from, .bytes = to - from};
  out->emit(out->ctx, &op);
}

/* Emits one posted operation (combine: a received piece is reduced into the receiver's). */
static inline void post(const out_t *out, int send, int peer, double from, double to, int combine)
{
  sim_coll_op_t op = {.send = send, .peer = peer, .offset = from, .bytes = to - from, .post = 1, .combine = combine};
  out->emit(out->ctx, &op);
}

static inline void wait_all(const out_t *out)
{
  sim_coll_op_t op = {.peer = SIM_COLL_WAITALL};
  out->emit(out->ctx, &op);
}

/* Boundary s of `bytes` cut into k parts of whole bytes, as equal as can be: part s is [cut(s), cut(s + 1)). */
static inline double cut(double bytes, int k, int s)
{
  return s >= k ? bytes : floor(bytes * s / k);
}

/* The lowest set bit of relative index `rel`; n rounded up to a power of two for the root (rel = 0). */
static inline int low_bit(int rel, int n)
{
  int mask = 1;
  while (mask < n && !(rel & mask))
    mask <<= 1;
  return mask;
}

/* Binomial tree on the members relative to the root: in round k (mask = 2^k) every member below mask that has the
 * data sends it to the member mask further on. A member receives once, from its relative index minus its lowest set
 * bit, then sends to relative + mask for the masks below that bit, largest first (as MPICH does). When scattering,
 * each message carries only the pieces of the receiver's subtree. */
void sim_coll_binomial_tree(const sim_coll_plan_t *plan, int me, int scatter, const out_t *out);

#endif
