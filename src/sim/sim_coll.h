/* Broadcast algorithms over the replay layer's point-to-point messages, selectable by name in any scenario. */
#ifndef SIM_COLL_H
#define SIM_COLL_H

typedef struct sim_rank sim_rank_t;

typedef enum sim_bcast_alg {
  SIM_BCAST_ONE_TO_ALL = 0, /* the root sends to every other rank in turn (seed 001 eq. 14) */
  SIM_BCAST_NEIGHBOUR,      /* relay along the chain of ranks, every hop to a neighbour (seed 001 eq. 15) */
  SIM_BCAST_COUNT
} sim_bcast_alg_t;

/* The algorithms' names as written in scenarios ("one-to-all", "neighbour"), NULL-terminated, for scn specs. */
extern const char *const sim_bcast_names[];

/* The algorithm called `name`, or -1. */
int sim_bcast_parse(const char *name);
const char *sim_bcast_name(sim_bcast_alg_t alg);

/* Runs broadcast `alg` of `bytes` from `root` on the calling rank. */
void sim_coll_bcast(sim_rank_t *rank, sim_bcast_alg_t alg, int root, double bytes);

#endif
