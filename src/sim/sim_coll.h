/* Broadcast algorithms over the replay layer's point-to-point messages, selectable by name in any scenario, over all
 * ranks or over a group of them (a row or a column of a process grid). */
#ifndef SIM_COLL_H
#define SIM_COLL_H

typedef struct sim_rank sim_rank_t;

typedef enum sim_bcast_alg {
  SIM_BCAST_ONE_TO_ALL = 0, /* the root sends to every other member in turn (seed 001 eq. 14) */
  SIM_BCAST_NEIGHBOUR,      /* relay along the chain of members, every hop to the next one (seed 001 eq. 15) */
  SIM_BCAST_BINOMIAL,       /* binomial tree: ceil(log2 n) rounds, each holder sends to one new member (seed 003 §3) */
  SIM_BCAST_COUNT
} sim_bcast_alg_t;

/* The algorithms' names as written in scenarios ("one-to-all", "neighbour", "binomial"), NULL-terminated. */
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
 * be a member. Every member calls it with the same arguments. */
void sim_coll_bcast(sim_rank_t *rank, const sim_group_t *group, sim_bcast_alg_t alg, int root, double bytes);

#endif
