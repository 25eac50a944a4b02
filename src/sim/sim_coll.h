/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Collective algorithms as plans of point-to-point operations, pure functions of their parameters (carried out on the
 * replay layer by sim_coll_run.h): the broadcasts, selectable by name in any scenario, over all ranks or over a group
 * of them (a row or a column of a process grid; cost models: docs/broadcasts.md), and the other collectives of MPI
 * with SMPI's algorithms (docs/ti-replay.md). */
#ifndef SIM_COLL_H
#define SIM_COLL_H

typedef enum sim_bcast_alg {
  SIM_BCAST_ONE_TO_ALL = 0, /* the root sends to every other member in turn (seed 001 eq. 14) */
  SIM_BCAST_NEIGHBOUR,      /* relay along the chain of members, every hop to the next one (seed 001 eq. 15) */
  SIM_BCAST_BINOMIAL,       /* binomial tree: ceil(log2 n) rounds, each holder sends to one new member (seed 003 §3) */
  SIM_BCAST_PIPELINE,       /* the neighbour relay with the data cut into segments of SIM_BCAST_SEGMENT_BYTES */
  SIM_BCAST_SCATTER_RING,   /* binomial scatter of n pieces, then a ring allgather (van de Geijn) */
  SIM_BCAST_MESH,           /* neighbour relay along the root's row of the mesh, then down every column */
  SIM_BCAST_COUNT
} sim_bcast_alg_t;

/* The largest segment of the pipelined chain: the data is cut into ceil(bytes / 128) equal segments. 128 bytes sits at
 * the T800's packet size (120 bytes, seed 001 §3.2), near the optimum for Gauss-Jordan rows (docs/broadcasts.md). */
#define SIM_BCAST_SEGMENT_BYTES 128.0

/* The algorithms' names as written in scenarios ("one-to-all", "neighbour", "binomial", "pipelined-chain",
 * "scatter-allgather", "mesh"), NULL-terminated. */
extern const char *const sim_bcast_names[];

/* The algorithm called `name`, or -1. */
int sim_bcast_parse(const char *name);

/* The ranks taking part in a collective, in the group's order (a chain for the neighbour relay). Borrowed. */
typedef struct sim_group {
  const int *members;
  int count;
} sim_group_t;

/* What a broadcast does, as a pure function of its parameters: exposed so that tests can check every algorithm
 * (each member receives every byte exactly once, only sends bytes it holds, and sends match receives). */
typedef struct sim_coll_plan {
  sim_bcast_alg_t alg;
  int count; /* members */
  int root;  /* index of the root */
  double bytes;
  /* Mesh coordinates of each member's host (the mesh algorithm only), or NULL: members then form a virtual grid of
   * ceil(sqrt(count)) columns in group order. Borrowed. */
  const int *rows;
  const int *cols;
} sim_coll_plan_t;

/* One operation of a member: send (or receive) bytes [offset, offset + bytes) of the data to (from) member `peer`.
 * A blocking operation (post = 0) ends when the message is over; a posted one (post = 1) only starts it, and the next
 * operation with peer SIM_COLL_WAITALL waits for every message started so far. A received piece replaces the
 * receiver's copy, or with `combine` is reduced into it (reductions). */
typedef struct sim_coll_op {
  int send;
  int peer;
  double offset;
  double bytes;
  int post;
  int combine;
  int more; /* the message goes on in the next operation, with the same peer and direction: pieces of one packed
               message (Bruck's alltoall), run as one message of their summed bytes */
} sim_coll_op_t;

#define SIM_COLL_WAITALL (-1)

typedef void (*sim_coll_emit_fn)(void *ctx, const sim_coll_op_t *op);

/* Calls emit(ctx, op) for each of member `me`'s operations, in the order the member performs them; all of them block
 * until the partner takes part (synchronous messages). Returns 0, or SIM_ENOMEM before emitting anything. */
int sim_coll_plan(const sim_coll_plan_t *plan, int me, sim_coll_emit_fn emit, void *ctx);

/* The other collectives of MPI, as SMPI's trace replay runs them (smpi_replay.cpp), with some of the algorithms of
 * SMPI's library, named as SMPI names them (--cfg=smpi/<kind>:<name>). The first name of each kind is SMPI 3.32's
 * default (smpi_default_selector.cpp). Algorithms that post messages (every default but the broadcast's) need
 * sim_post_at_own_clock. */
typedef enum sim_coll_kind {
  SIM_COLL_BARRIER = 0,    /* no data */
  SIM_COLL_BCAST,          /* `bytes` from the root to every member; the algorithms of sim_bcast_alg_t */
  SIM_COLL_REDUCE,         /* `bytes` from every member, reduced at the root */
  SIM_COLL_ALLREDUCE,      /* `bytes` from every member, reduced at every member */
  SIM_COLL_GATHER,         /* `bytes` (counts[i] when given) from every member to the root */
  SIM_COLL_ALLGATHER,      /* the same to every member */
  SIM_COLL_SCATTER,        /* `bytes` (counts[i]) from the root to every member */
  SIM_COLL_ALLTOALL,       /* `bytes` from every member to every other one (counts: to each, counts2: from each) */
  SIM_COLL_REDUCE_SCATTER, /* counts[i] bytes of the reduction of every member's sum(counts) bytes end at member i;
                            * `bytes`: the size of one element (SMPI's default chooses by the count of elements) */
  SIM_COLL_SCAN,           /* `bytes`: member i gets the reduction of members 0..i (exclusive scans move the same) */
  SIM_COLL_KINDS
} sim_coll_kind_t;

/* The names of kind's algorithms, NULL-terminated (the broadcast's are sim_bcast_names, whose default is not
 * SMPI's: the skeletons' broadcasts keep one-to-all; sim_coll_default_bcast is SMPI's). */
extern const char *const *const sim_coll_alg_names[SIM_COLL_KINDS];
extern const char *const sim_coll_barrier_names[];   /* default (ompi_basic_linear), ompi_bruck, ompi_tree */
extern const char *const sim_coll_reduce_names[];    /* default (SMPI's ireduce: linear), flat_tree, binomial */
extern const char *const sim_coll_allreduce_names[]; /* default = redbcast (reduce + binomial bcast), rdb, lr */
extern const char *const sim_coll_gather_names[];    /* default (igather: linear), ompi_binomial */
extern const char *const sim_coll_allgather_names[]; /* default (iallgather: linear), ring, rdb */
extern const char *const sim_coll_scatter_names[];   /* default (iscatter: linear), ompi_binomial */
extern const char *const sim_coll_alltoall_names[];  /* default (ompi's: bruck for small blocks, else basic_linear),
                                                        pair, ring, bruck, basic_linear */
extern const char *const sim_coll_reduce_scatter_names[]; /* default (reduce + scatter, or mpich_pair), mpich_pair */
extern const char *const sim_coll_kind_names[SIM_COLL_KINDS]; /* "barrier", "bcast", "reduce", ... as SMPI's cfg */
#define SIM_COLL_DEFAULT_BCAST SIM_BCAST_BINOMIAL             /* SMPI 3.32: bcast__default is bcast__binomial_tree */

/* The algorithm of `kind` called `name`, or -1. */
int sim_coll_alg_parse(sim_coll_kind_t kind, const char *name);

typedef struct sim_coll_call {
  sim_coll_kind_t kind;
  int alg; /* an index into sim_coll_alg_names[kind] (a sim_bcast_alg_t for broadcasts) */
  int root;
  double bytes;
  const double *counts;  /* NULL, or bytes per member (gatherv, allgatherv, scatterv, alltoallv, reduce-scatter) */
  const double *counts2; /* alltoallv: bytes this member receives from each member */
} sim_coll_call_t;

/* Calls emit(ctx, op) for each of member `me`'s operations among `count` members, in order. Pure, as
 * sim_coll_plan. Returns 0, or SIM_ENOMEM before emitting anything. */
int sim_coll_plan_call(const sim_coll_call_t *call, int count, int me, sim_coll_emit_fn emit, void *ctx);

#endif
