/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Wait states after Scalasca's patterns: point-to-point waits from the direction of idle intervals, collective waits
 * from the members' entries into each call, matched by group and order; a measured run's non-blocking collectives'
 * from the waits that completed them. */
#include "met_wait.h"
#include "bas_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const wait_names[MET_WAIT_PATTERNS] = {"late_sender",    "late_receiver", "wait_barrier", "wait_nxn",
                                                          "late_broadcast", "early_reduce",  "early_scan"};
static const char *const wait_titles[MET_WAIT_PATTERNS] = {
    "Late Sender", "Late Receiver", "Wait at Barrier", "Wait at N x N", "Late Broadcast", "Early Reduce", "Early Scan"};

/* The wait state of each kind of collective (met_coll_kind_t). */
static const met_wait_pattern_t COLL_PATTERNS[MET_COLL_KINDS] = {[MET_COLL_BARRIER] = MET_WAIT_BARRIER,
                                                                 [MET_COLL_NXN] = MET_WAIT_NXN,
                                                                 [MET_COLL_ONE_TO_N] = MET_WAIT_LATE_BCAST,
                                                                 [MET_COLL_N_TO_ONE] = MET_WAIT_EARLY_REDUCE,
                                                                 [MET_COLL_PREFIX] = MET_WAIT_EARLY_SCAN};

/* One member's span of one collective call: the call is (group, seq), seq counting the rank's calls in the group; the
 * members in their group's order (met_coll_place), which a scan's waits follow. */
typedef struct entry {
  unsigned group;
  size_t seq;
  int rank;
  int place;    /* its index in the group's order */
  size_t index; /* into the rank's spans */
} entry_t;

static int by_call(const void *a, const void *b)
{
  const entry_t *x = a, *y = b;
  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  return x->place < y->place ? -1 : x->place > y->place;
}

static void add(met_waits_t *w, int rank, met_wait_pattern_t pattern, double seconds)
{
  if (seconds > 0)
    w->time[(size_t)rank * MET_WAIT_PATTERNS + pattern] += seconds;
}

/* Whether `iv` starts inside one of the rank's collective spans; *next walks the spans along the timeline. */
static int in_collective(const met_coll_t *colls, size_t count, size_t *next, const met_interval_t *iv)
{
  while (*next < count && colls[*next].end <= iv->start)
    (*next)++;
  return *next < count && colls[*next].start <= iv->start;
}

struct met_wait_walk {
  const met_trace_t *trace;
  met_waits_t w;
  size_t *next;  /* per rank: its first collective span that does not end before its intervals so far */
  size_t *first; /* per rank: its first span's place in `idle` */
  double *idle;  /* per span: the idle time of the rank's intervals that start in it, NAN while none does */
};

met_wait_walk_t *met_wait_walk_new(const met_trace_t *trace)
{
  met_wait_walk_t *walk = calloc(1, sizeof *walk);
  if (!walk)
    return NULL;
  walk->trace = trace;
  walk->w.nranks = met_trace_nranks(trace);
  walk->w.time = calloc((size_t)walk->w.nranks * MET_WAIT_PATTERNS, sizeof *walk->w.time);
  walk->next = calloc((size_t)walk->w.nranks, sizeof *walk->next);
  walk->first = calloc((size_t)walk->w.nranks + 1, sizeof *walk->first);
  for (int r = 0; walk->first && r < walk->w.nranks; r++) {
    size_t count;
    met_trace_colls(trace, r, &count);
    walk->first[r + 1] = walk->first[r] + count;
  }
  size_t spans = walk->first ? walk->first[walk->w.nranks] : 0;
  walk->idle = malloc((spans ? spans : 1) * sizeof *walk->idle);
  for (size_t i = 0; walk->idle && i < spans; i++)
    walk->idle[i] = NAN;
  if (walk->w.time && walk->next && walk->first && walk->idle)
    return walk;
  met_wait_walk_free(walk);
  return NULL;
}

void met_wait_walk_free(met_wait_walk_t *walk)
{
  if (!walk)
    return;
  met_wait_free(&walk->w);
  free(walk->next);
  free(walk->first);
  free(walk->idle);
  free(walk);
}

/* An interval inside one of the rank's collective spans adds its idle time, to the span's end, to that span's (which
 * caps the collective's wait: one_call); outside them, an idle interval on a message is point to point. */
void met_wait_walk_add(met_wait_walk_t *walk, int rank, const met_interval_t *iv)
{
  size_t ncolls;
  if (rank < 0 || rank >= walk->w.nranks)
    return;
  const met_coll_t *colls = met_trace_colls(walk->trace, rank, &ncolls);
  size_t *next = &walk->next[rank];
  if (in_collective(colls, ncolls, next, iv)) {
    double *idle = &walk->idle[walk->first[rank] + *next];
    double end = iv->end < colls[*next].end ? iv->end : colls[*next].end;
    *idle = (isnan(*idle) ? 0 : *idle) + (iv->category == MET_CAT_IDLE ? end - iv->start : 0);
  } else if (iv->category == MET_CAT_IDLE && iv->peer >= 0 && iv->dir != MET_DIR_NONE) {
    add(&walk->w, rank, iv->dir == MET_DIR_RECV ? MET_WAIT_LATE_SENDER : MET_WAIT_LATE_RECEIVER, iv->end - iv->start);
  }
}

static const met_coll_t *span_of(const met_trace_t *trace, const entry_t *e)
{
  size_t count;
  return &met_trace_colls(trace, e->rank, &count)[e->index];
}

/* The pattern of one call whose members' entries are e[0..n) (in the group's order): each member's loss, capped by its
 * time in the call and by the idle time of its intervals in it, when some are (a measured run's, whose reader moved
 * entries to keep causality after it split the calls); in a prefix reduction, until the last entry of the members
 * before it in that order (Scalasca's Early Scan). */
static void one_call(const met_wait_walk_t *walk, const entry_t *e, size_t n, met_waits_t *w)
{
  const met_trace_t *trace = walk->trace;
  const met_coll_t *first = span_of(trace, &e[0]);
  double last = 0, root_entry = -1, first_sender = -1, before = -1;
  for (size_t i = 0; i < n; i++) {
    const met_coll_t *c = span_of(trace, &e[i]);
    last = c->start > last ? c->start : last;
    if (e[i].rank == first->root)
      root_entry = c->start;
    else if (first_sender < 0 || c->start < first_sender)
      first_sender = c->start;
  }
  for (size_t i = 0; i < n; i++) {
    const met_coll_t *c = span_of(trace, &e[i]);
    double until = -1;
    if (first->kind == MET_COLL_BARRIER || first->kind == MET_COLL_NXN) {
      until = last;
    } else if (first->kind == MET_COLL_ONE_TO_N && e[i].rank != first->root) {
      until = root_entry;
    } else if (first->kind == MET_COLL_N_TO_ONE && e[i].rank == first->root) {
      until = first_sender;
    } else if (first->kind == MET_COLL_PREFIX) {
      until = before;
      before = c->start > before ? c->start : before;
    }
    met_wait_pattern_t pattern = met_wait_coll_pattern(first->kind);
    double idle = walk->idle[walk->first[e[i].rank] + e[i].index];
    double loss = (until < c->end ? until : c->end) - c->start;
    if (until > c->start)
      add(w, e[i].rank, pattern, isnan(idle) || loss < idle ? loss : idle);
  }
}

/* Every collective span as an entry, numbered within its rank and group (met_coll_seq); NULL when out of memory. */
static entry_t *entries(const met_trace_t *trace, size_t *n)
{
  *n = 0;
  for (int r = 0; r < met_trace_nranks(trace); r++) {
    size_t count;
    met_trace_colls(trace, r, &count);
    *n += count;
  }
  entry_t *e = malloc((*n ? *n : 1) * sizeof *e);
  if (!e)
    return NULL;
  size_t k = 0;
  for (int r = 0; r < met_trace_nranks(trace); r++) {
    size_t count;
    const met_coll_t *colls = met_trace_colls(trace, r, &count);
    for (size_t i = 0; i < count; i++, k++) {
      e[k] = (entry_t){.group = colls[i].group, .rank = r, .index = i, .place = met_coll_place(&colls[i], r)};
      if (met_coll_seq(trace, r, i, &e[k].seq) != 0) {
        free(e);
        return NULL;
      }
    }
  }
  qsort(e, *n, sizeof *e, by_call);
  return e;
}

static int collectives(met_wait_walk_t *walk)
{
  size_t n;
  entry_t *e = entries(walk->trace, &n);
  if (!e)
    return -1;
  for (size_t i = 0, j; i < n; i = j) {
    for (j = i + 1; j < n && e[j].group == e[i].group && e[j].seq == e[i].seq; j++)
      ;
    one_call(walk, &e[i], j - i, &walk->w);
  }
  free(e);
  return 0;
}

_Static_assert(MET_TRACE_WAIT_PATTERNS == MET_WAIT_PATTERNS, "met_trace.h sums met_wait.h's patterns");

int met_wait_compute(const met_trace_t *trace, met_waits_t *out)
{
  *out = (met_waits_t){0};
  const double *sums = met_trace_wait_sums(trace);
  if (met_trace_is_aggregate(trace) && !sums)
    return BAS_EINVAL;
  met_wait_walk_t *walk = met_wait_walk_new(trace);
  if (!walk)
    return BAS_ENOMEM;
  if (sums) { /* summed while read (met_trace_sum_waits) */
    memcpy(walk->w.time, sums, (size_t)walk->w.nranks * MET_WAIT_PATTERNS * sizeof *walk->w.time);
    *out = walk->w;
    walk->w = (met_waits_t){0};
    met_wait_walk_free(walk);
    return 0;
  }
  for (int r = 0; r < walk->w.nranks; r++) {
    const met_interval_t *ivs = met_trace_intervals(trace, r);
    for (size_t i = 0; i < met_trace_count(trace, r); i++)
      met_wait_walk_add(walk, r, &ivs[i]);
  }
  return met_wait_walk_end(walk, out);
}

/* A measured run's non-blocking collectives: each the wait its completing wait or test idled for its members, which
 * the reader that paired them measured (met_nbc_t.waited), as it sums them for an aggregate trace. */
static void nonblocking(met_wait_walk_t *walk)
{
  for (int r = 0; r < walk->w.nranks; r++) {
    size_t count;
    const met_nbc_t *nbcs = met_trace_nbcs(walk->trace, r, &count);
    for (size_t i = 0; i < count; i++)
      add(&walk->w, r, met_wait_coll_pattern(nbcs[i].kind), nbcs[i].waited);
  }
}

int met_wait_walk_end(met_wait_walk_t *walk, met_waits_t *out)
{
  *out = (met_waits_t){0};
  nonblocking(walk);
  int rc = collectives(walk) != 0 ? BAS_ENOMEM : 0;
  if (rc == 0) {
    *out = walk->w;
    walk->w = (met_waits_t){0};
  }
  met_wait_walk_free(walk);
  return rc;
}

void met_wait_free(met_waits_t *waits)
{
  free(waits->time);
  *waits = (met_waits_t){0};
}

double met_wait_time(const met_waits_t *waits, int rank, met_wait_pattern_t pattern)
{
  if (!waits->time || rank < 0 || rank >= waits->nranks || (unsigned)pattern >= MET_WAIT_PATTERNS)
    return 0.0;
  return waits->time[(size_t)rank * MET_WAIT_PATTERNS + pattern];
}

double met_wait_total(const met_waits_t *waits, met_wait_pattern_t pattern)
{
  double sum = 0;
  for (int r = 0; r < waits->nranks; r++)
    for (int k = 0; k < MET_WAIT_PATTERNS; k++)
      if (pattern == MET_WAIT_PATTERNS || (int)pattern == k)
        sum += met_wait_time(waits, r, (met_wait_pattern_t)k);
  return sum;
}

met_wait_pattern_t met_wait_coll_pattern(met_coll_kind_t kind)
{
  return (unsigned)kind < MET_COLL_KINDS ? COLL_PATTERNS[kind] : MET_WAIT_PATTERNS;
}

const char *met_wait_name(met_wait_pattern_t pattern)
{
  return (unsigned)pattern < MET_WAIT_PATTERNS ? wait_names[pattern] : NULL;
}

const char *met_wait_title(met_wait_pattern_t pattern)
{
  return (unsigned)pattern < MET_WAIT_PATTERNS ? wait_titles[pattern] : NULL;
}
