/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An aggregate trace filled with sums rather than intervals: what a program evaluated in closed form across ranks
 * (sim_replay_closed.h) found, added where met_trace_add would have added its intervals one by one. */
#include "met_trace_internal.h"
#include "bas_error.h"

/* The rank's timeline in an aggregate trace, or NULL. */
static met_timeline_t *aggregate_timeline(met_trace_t *trace, int rank)
{
  return trace->aggregate && valid_rank(trace, rank) ? &trace->ranks[rank] : NULL;
}

int met_trace_add_total(met_trace_t *trace, int rank, int phase, met_category_t category, double seconds,
                        const double *parts)
{
  met_timeline_t *timeline = aggregate_timeline(trace, rank);
  if (!timeline || !valid_phase(trace, phase) || (unsigned)category >= MET_CAT_COUNT || !valid_amount(seconds))
    return BAS_EINVAL;
  for (int k = 0; parts && k < MET_PART_COUNT; k++)
    if (!valid_amount(parts[k]))
      return BAS_EINVAL;
  if (met_trace_grow_phases(timeline, (size_t)phase + 1) != 0)
    return BAS_ENOMEM;
  timeline->busy += seconds;
  timeline->category[category] += seconds;
  timeline->phase_time[(size_t)phase * MET_CAT_COUNT + category] += seconds;
  for (int k = 0; parts && k < MET_PART_COUNT; k++)
    timeline->any_parts[k] += parts[k];
  return 0;
}

int met_trace_add_messages(met_trace_t *trace, int rank, const met_msg_group_t *group)
{
  met_timeline_t *timeline = aggregate_timeline(trace, rank);
  if (!timeline || !valid_amount(group->bytes) || group->hops < 0 || !valid_amount(group->sum) ||
      !valid_amount(group->min) || !valid_amount(group->max) || !valid_amount(group->wait_sum) ||
      !valid_amount(group->wait_min) || !valid_amount(group->wait_max) || group->count == 0 ||
      group->transfers != group->count)
    return BAS_EINVAL;
  met_msg_group_t *g = met_trace_group(timeline, &(met_interval_t){.bytes = group->bytes, .hops = group->hops});
  if (!g)
    return BAS_ENOMEM;
  g->count += group->count;
  g->transfers += group->transfers;
  g->sum += group->sum;
  g->min = group->min < g->min ? group->min : g->min;
  g->max = group->max > g->max ? group->max : g->max;
  g->wait_sum += group->wait_sum;
  g->wait_min = group->wait_min < g->wait_min ? group->wait_min : g->wait_min;
  g->wait_max = group->wait_max > g->wait_max ? group->wait_max : g->wait_max;
  timeline->comm_count += group->count;
  return 0;
}

int met_trace_add_end(met_trace_t *trace, int rank, double end)
{
  met_timeline_t *timeline = aggregate_timeline(trace, rank);
  if (!timeline || !valid_amount(end) || !(end >= timeline->last_end))
    return BAS_EINVAL;
  timeline->last_end = end;
  if (end > trace->end)
    trace->end = end;
  return 0;
}
