/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Message counts and per-(size, distance) message durations from the message groups the trace keeps (met_trace.h). */
#include "met_comm.h"
#include "bas_grow.h"
#include "bas_error.h"

#include <stdlib.h>

size_t met_comm_messages(const met_trace_t *trace)
{
  size_t comm = 0;
  for (int rank = 0; rank < met_trace_nranks(trace); rank++)
    comm += met_trace_comm_count(trace, rank);
  return comm;
}

static int by_size_then_hops(const void *a, const void *b)
{
  const met_msg_stat_t *x = a;
  const met_msg_stat_t *y = b;
  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? -1 : 1;
  return (x->hops > y->hops) - (x->hops < y->hops);
}

/* Merges one rank's group into the statistics, creating the entry if needed. Returns 0 or -1 (memory). */
static int merge_group(met_msg_stat_t **stats, size_t *count, size_t *cap, const met_msg_group_t *group)
{
  for (size_t g = 0; g < *count; g++) {
    met_msg_stat_t *s = &(*stats)[g];
    if (s->bytes == group->bytes && s->hops == group->hops) {
      s->mean += group->sum; /* sums until the end */
      s->min = group->min < s->min ? group->min : s->min;
      s->max = group->max > s->max ? group->max : s->max;
      s->wait_mean += group->wait_sum;
      s->wait_min = group->wait_min < s->wait_min ? group->wait_min : s->wait_min;
      s->wait_max = group->wait_max > s->wait_max ? group->wait_max : s->wait_max;
      s->count += group->count;
      return 0;
    }
  }
  if (bas_reserve((void **)stats, cap, *count, sizeof **stats, 16) != 0)
    return -1;
  (*stats)[(*count)++] = (met_msg_stat_t){.bytes = group->bytes,
                                          .hops = group->hops,
                                          .count = group->count,
                                          .mean = group->sum,
                                          .min = group->min,
                                          .max = group->max,
                                          .wait_mean = group->wait_sum,
                                          .wait_min = group->wait_min,
                                          .wait_max = group->wait_max};
  return 0;
}

/* Merges `rank`'s settled groups into the statistics. 0, or -1 when out of memory. */
static int merge_rank(const met_trace_t *trace, int rank, met_msg_stat_t **stats, size_t *count, size_t *cap)
{
  met_msg_group_t *groups;
  long ngroups = met_trace_msg_settled(trace, rank, &groups);
  int rc = ngroups < 0 ? -1 : 0;
  for (long i = 0; rc == 0 && i < ngroups; i++)
    rc = merge_group(stats, count, cap, &groups[i]);
  free(groups);
  return rc;
}

long met_comm_stats(const met_trace_t *trace, met_msg_stat_t **stats)
{
  size_t count = 0;
  size_t cap = 0;
  *stats = NULL;
  for (int rank = 0; rank < met_trace_nranks(trace); rank++)
    if (merge_rank(trace, rank, stats, &count, &cap) != 0) {
      free(*stats);
      *stats = NULL;
      return BAS_ENOMEM;
    }
  for (size_t g = 0; g < count; g++) {
    (*stats)[g].mean /= (double)(*stats)[g].count;
    (*stats)[g].wait_mean /= (double)(*stats)[g].count;
  }
  if (count)
    qsort(*stats, count, sizeof **stats, by_size_then_hops);
  return (long)count;
}
