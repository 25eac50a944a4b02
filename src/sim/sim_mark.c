/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Collective spans in the trace: a member's entry and exit of one call, with its Scalasca class, root and group (the
 * communicator, as a number every member computes alike). */
#include "sim_mark.h"
#include "sim_error.h"
#include "sim_replay.h"

#include <stdint.h>
#include <xbt/asserts.h>

int sim_mark_index(const sim_rank_t *rank, const sim_group_t *group)
{
  int me = sim_rank_id(rank);
  if (me < group->count && group->members[me] == me) /* the whole run's group, at every broadcast */
    return me;
  for (int i = 0; i < group->count; i++)
    if (group->members[i] == me)
      return i;
  xbt_die("rank %d takes part in a broadcast of a group it is not in", me);
}

/* The place of the calling member of a call of `kind` in `group` (met_coll_t.place): 0 where its order does not
 * matter (only a scan's waits and bytes follow it) or is the ranks' own (the world's, a group of ascending ranks), else
 * 1 + its index. Only a scan on another group walks the group: a walk at every collective on every member is p^2
 * comparisons a call of the world's (4.3 x 10^9 at 65,536 ranks, by arithmetic), which the first form of this made. */
static int place_of(const sim_rank_t *rank, const sim_group_t *group, met_coll_kind_t kind)
{
  if (kind != MET_COLL_PREFIX || group == sim_rank_world(rank))
    return 0;
  for (int i = 1; i < group->count; i++)
    if (group->members[i] < group->members[i - 1])
      return 1 + sim_mark_index(rank, group);
  return 0;
}

met_coll_kind_t sim_mark_kind(sim_coll_kind_t kind)
{
  switch (kind) {
  case SIM_COLL_BARRIER:
    return MET_COLL_BARRIER;
  case SIM_COLL_BCAST:
  case SIM_COLL_SCATTER:
    return MET_COLL_ONE_TO_N;
  case SIM_COLL_REDUCE:
  case SIM_COLL_GATHER:
    return MET_COLL_N_TO_ONE;
  case SIM_COLL_ALLREDUCE:
  case SIM_COLL_ALLGATHER:
  case SIM_COLL_ALLTOALL:
  case SIM_COLL_REDUCE_SCATTER:
    return MET_COLL_NXN;
  default:
    return MET_COLL_PREFIX; /* scans */
  }
}

met_coll_call_t sim_mark_call(sim_coll_kind_t kind, int counts)
{
  static const met_coll_call_t calls[SIM_COLL_KINDS][2] = {
      [SIM_COLL_BARRIER] = {MET_CALL_BARRIER, MET_CALL_BARRIER},
      [SIM_COLL_BCAST] = {MET_CALL_BCAST, MET_CALL_BCAST},
      [SIM_COLL_REDUCE] = {MET_CALL_REDUCE, MET_CALL_REDUCE},
      [SIM_COLL_ALLREDUCE] = {MET_CALL_ALLREDUCE, MET_CALL_ALLREDUCE},
      [SIM_COLL_GATHER] = {MET_CALL_GATHER, MET_CALL_GATHERV},
      [SIM_COLL_ALLGATHER] = {MET_CALL_ALLGATHER, MET_CALL_ALLGATHERV},
      [SIM_COLL_SCATTER] = {MET_CALL_SCATTER, MET_CALL_SCATTERV},
      [SIM_COLL_ALLTOALL] = {MET_CALL_ALLTOALL, MET_CALL_ALLTOALLV},
      [SIM_COLL_REDUCE_SCATTER] = {MET_CALL_REDUCE_SCATTER, MET_CALL_REDUCE_SCATTER},
      [SIM_COLL_SCAN] = {MET_CALL_SCAN, MET_CALL_SCAN}};
  return (unsigned)kind < SIM_COLL_KINDS ? calls[kind][counts != 0] : MET_CALL_UNNAMED;
}

/* 0 for a group of all the run's ranks; otherwise FNV-1a (32 bits) of its members in order, never 0. Groups with the
 * same members in the same order (a duplicated communicator) share their number, so their calls must not interleave. */
static unsigned group_key(const sim_rank_t *rank, const sim_group_t *group)
{
  if (group->count == sim_rank_count(rank))
    return 0;
  uint32_t h = 2166136261u;
  for (int i = 0; i < group->count; i++)
    for (int b = 0; b < 4; b++)
      h = (h ^ ((uint32_t)group->members[i] >> (8 * b) & 0xffu)) * 16777619u;
  return h ? h : 1;
}

sim_mark_t sim_mark_enter(sim_rank_t *rank, const sim_group_t *group, met_coll_kind_t kind, met_coll_call_t call,
                          int root)
{
  int rooted = kind == MET_COLL_ONE_TO_N || kind == MET_COLL_N_TO_ONE;
  sim_rank_collective(rank, 1);
  return (sim_mark_t){.rank = rank,
                      .group = group,
                      .kind = kind,
                      .call = call,
                      .root = rooted && root >= 0 && root < group->count ? root : -1,
                      .entered = sim_rank_clock(rank)};
}

int sim_mark_leave(const sim_mark_t *mark, int rc)
{
  sim_rank_collective(mark->rank, 0);
  met_coll_t span = {.start = mark->entered,
                     .end = sim_rank_clock(mark->rank),
                     .kind = mark->kind,
                     .call = mark->call,
                     .root = mark->root >= 0 ? mark->group->members[mark->root] : -1,
                     .group = group_key(mark->rank, mark->group),
                     .place = place_of(mark->rank, mark->group, mark->kind)};
  if (met_trace_coll_add(sim_rank_trace(mark->rank), sim_rank_id(mark->rank), &span) != 0)
    sim_rank_fail(mark->rank, SIM_ENOMEM, "the recorder could not store a collective call (out of memory)");
  return rc;
}
