/* Broadcast algorithms built on synchronous point-to-point messages (seed 001 §4.2, eqs. 14-15). */
#include "sim_coll.h"
#include "sim_replay.h"

#include <string.h>

const char *const sim_bcast_names[] = {"one-to-all", "neighbour", NULL};

int sim_bcast_parse(const char *name)
{
  for (int alg = 0; alg < SIM_BCAST_COUNT; alg++)
    if (strcmp(name, sim_bcast_names[alg]) == 0)
      return alg;
  return -1;
}

const char *sim_bcast_name(sim_bcast_alg_t alg)
{
  return alg < SIM_BCAST_COUNT ? sim_bcast_names[alg] : "unknown";
}

/* The non-optimised broadcast: the root sends to ranks 0, 1, ..., p-1 in turn, whatever their distance. */
static void bcast_one_to_all(sim_rank_t *rank, int root, double bytes)
{
  int me = sim_rank_id(rank);
  if (me != root) {
    sim_recv(rank, root, bytes);
    return;
  }
  for (int dst = 0; dst < sim_rank_count(rank); dst++)
    if (dst != root)
      sim_send(rank, dst, bytes);
}

/* The optimised broadcast: consecutive ranks are neighbours, so the row travels both ways along the chain, each rank
 * passing it on to the next one away from the root. The root serves its longer side first, so that the last rank
 * to receive it gets it as early as possible. */
static void bcast_neighbour(sim_rank_t *rank, int root, double bytes)
{
  int me = sim_rank_id(rank);
  int last = sim_rank_count(rank) - 1;
  if (me == root) {
    int up_first = last - root >= root;
    int first = up_first ? root + 1 : root - 1;
    int second = up_first ? root - 1 : root + 1;
    if (first >= 0 && first <= last)
      sim_send(rank, first, bytes);
    if (second >= 0 && second <= last)
      sim_send(rank, second, bytes);
    return;
  }
  int step = me > root ? 1 : -1;
  sim_recv(rank, me - step, bytes);
  if (me + step >= 0 && me + step <= last)
    sim_send(rank, me + step, bytes);
}

void sim_coll_bcast(sim_rank_t *rank, sim_bcast_alg_t alg, int root, double bytes)
{
  if (alg == SIM_BCAST_NEIGHBOUR)
    bcast_neighbour(rank, root, bytes);
  else
    bcast_one_to_all(rank, root, bytes);
}
