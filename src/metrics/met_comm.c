/* Message counts and per-(size, distance) message durations from the COMM intervals of a trace. */
#include "met_comm.h"

#include <stdlib.h>

size_t met_comm_messages(const met_trace_t *trace)
{
  size_t comm = 0;
  for (int rank = 0; rank < met_trace_nranks(trace); rank++)
    comm += met_trace_comm_count(trace, rank);
  return comm / 2;
}

static int by_size_then_hops(const void *a, const void *b)
{
  const met_msg_stat_t *x = a;
  const met_msg_stat_t *y = b;
  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? -1 : 1;
  return (x->hops > y->hops) - (x->hops < y->hops);
}

/* Adds one COMM interval (half a message) to its group, creating the group if needed. Returns 0 or -1 (memory). */
static int add_interval(met_msg_stat_t **stats, size_t *count, size_t *cap, const met_interval_t *iv)
{
  double duration = iv->end - iv->start;
  for (size_t g = 0; g < *count; g++) {
    met_msg_stat_t *s = &(*stats)[g];
    if (s->bytes == iv->bytes && s->hops == iv->hops) {
      s->mean += duration; /* a sum until the end */
      s->min = duration < s->min ? duration : s->min;
      s->max = duration > s->max ? duration : s->max;
      s->count++;
      return 0;
    }
  }
  if (*count == *cap) {
    size_t grown = *cap ? 2 * *cap : 16;
    met_msg_stat_t *more = realloc(*stats, grown * sizeof *more);
    if (!more)
      return -1;
    *stats = more;
    *cap = grown;
  }
  (*stats)[(*count)++] = (met_msg_stat_t){.bytes = iv->bytes, .hops = iv->hops, .count = 1, .mean = duration,
                                           .min = duration, .max = duration};
  return 0;
}

long met_comm_stats(const met_trace_t *trace, met_msg_stat_t **stats)
{
  size_t count = 0;
  size_t cap = 0;
  *stats = NULL;
  for (int rank = 0; rank < met_trace_nranks(trace); rank++) {
    const met_interval_t *iv = met_trace_intervals(trace, rank);
    for (size_t i = 0; i < met_trace_count(trace, rank); i++)
      if (iv[i].category == MET_CAT_COMM && add_interval(stats, &count, &cap, &iv[i]) != 0) {
        free(*stats);
        *stats = NULL;
        return -1;
      }
  }
  for (size_t g = 0; g < count; g++) {
    (*stats)[g].mean /= (double)(*stats)[g].count;
    (*stats)[g].count /= 2; /* both ends of each message were counted */
  }
  if (count)
    qsort(*stats, count, sizeof **stats, by_size_then_hops);
  return (long)count;
}
