/* Broadcast algorithms over the replay layer's point-to-point messages, selectable by name in any scenario, over all
 * ranks or over a group of them (a row or a column of a process grid). Cost models: docs/broadcasts.md. */
#ifndef SIM_COLL_H
#define SIM_COLL_H

typedef struct sim_rank sim_rank_t;

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
const char *sim_bcast_name(sim_bcast_alg_t alg);

/* The ranks taking part in a collective, in the group's order (a chain for the neighbour relay). Borrowed. */
typedef struct sim_group {
  const int *members;
  int count;
} sim_group_t;

/* Runs broadcast `alg` of `bytes` from group member `root` (an index into the group) on the calling rank, which must
 * be a member. Every member calls it with the same arguments. Returns 0, or SIM_ENOMEM (nothing was sent). */
int sim_coll_bcast(sim_rank_t *rank, const sim_group_t *group, sim_bcast_alg_t alg, int root, double bytes);

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

/* One operation of a member: send (or receive) bytes [offset, offset + bytes) of the data to (from) member `peer`. */
typedef struct sim_coll_op {
  int send;
  int peer;
  double offset;
  double bytes;
} sim_coll_op_t;

typedef void (*sim_coll_emit_fn)(void *ctx, const sim_coll_op_t *op);

/* Calls emit(ctx, op) for each of member `me`'s operations, in the order the member performs them; all of them block
 * until the partner takes part (synchronous messages). Returns 0, or SIM_ENOMEM before emitting anything. */
int sim_coll_plan(const sim_coll_plan_t *plan, int me, sim_coll_emit_fn emit, void *ctx);

#endif
