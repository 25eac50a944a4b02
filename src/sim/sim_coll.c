/* Broadcast algorithms built on synchronous point-to-point messages: one-to-all and neighbour relay (seed 001 §4.2,
 * eqs. 14-15), binomial tree (seed 003 §3: lambda_p^q = ceil(log2 q) lambda). Members are addressed by their index in
 * the group; ranks are looked up only to send and receive. */
#include "sim_coll.h"
#include "sim_replay.h"

#include <string.h>
#include <xbt/asserts.h>

const char *const sim_bcast_names[] = {"one-to-all", "neighbour", "binomial", NULL};

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

/* The calling rank's index in the group. */
static int my_index(const sim_rank_t *rank, const sim_group_t *group)
{
  int me = sim_rank_id(rank);
  for (int i = 0; i < group->count; i++)
    if (group->members[i] == me)
      return i;
  xbt_die("rank %d takes part in a broadcast of a group it is not in", me);
}

/* The non-optimised broadcast: the root sends to members 0, 1, ..., n-1 in turn, whatever their distance. */
static void bcast_one_to_all(sim_rank_t *rank, const sim_group_t *g, int me, int root, double bytes)
{
  if (me != root) {
    sim_recv(rank, g->members[root], bytes);
    return;
  }
  for (int i = 0; i < g->count; i++)
    if (i != root)
      sim_send(rank, g->members[i], bytes);
}

/* The optimised broadcast: the data travels both ways along the chain of members, each passing it on to the next one
 * away from the root. The root serves its longer side first, so that the last member gets it as early as possible. */
static void bcast_neighbour(sim_rank_t *rank, const sim_group_t *g, int me, int root, double bytes)
{
  int last = g->count - 1;
  if (me == root) {
    int up_first = last - root >= root;
    int first = up_first ? root + 1 : root - 1;
    int second = up_first ? root - 1 : root + 1;
    if (first >= 0 && first <= last)
      sim_send(rank, g->members[first], bytes);
    if (second >= 0 && second <= last)
      sim_send(rank, g->members[second], bytes);
    return;
  }
  int step = me > root ? 1 : -1;
  sim_recv(rank, g->members[me - step], bytes);
  if (me + step >= 0 && me + step <= last)
    sim_send(rank, g->members[me + step], bytes);
}

/* Binomial tree on the members relative to the root: in round k (mask = 2^k) every member below mask that has the
 * data sends it to the member mask further on. A member receives once, from its relative index minus its lowest set
 * bit, then sends to relative + mask for the masks below that bit, largest first (as MPICH does). */
static void bcast_binomial(sim_rank_t *rank, const sim_group_t *g, int me, int root, double bytes)
{
  int n = g->count;
  int rel = (me - root + n) % n;
  int mask = 1;
  while (mask < n && !(rel & mask))
    mask <<= 1;
  if (rel != 0)
    sim_recv(rank, g->members[(rel - mask + root) % n], bytes);
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n)
      sim_send(rank, g->members[(rel + mask + root) % n], bytes);
}

void sim_coll_bcast(sim_rank_t *rank, const sim_group_t *group, sim_bcast_alg_t alg, int root, double bytes)
{
  int me = my_index(rank, group);
  if (group->count < 2)
    return;
  if (alg == SIM_BCAST_NEIGHBOUR)
    bcast_neighbour(rank, group, me, root, bytes);
  else if (alg == SIM_BCAST_BINOMIAL)
    bcast_binomial(rank, group, me, root, bytes);
  else
    bcast_one_to_all(rank, group, me, root, bytes);
}
