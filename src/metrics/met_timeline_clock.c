/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The clock condition of a measured run (met_timeline_clock.h): per rank, the times its sends went into the trace
 * until their receives ask for them, and where its last interval ended. Memory: the sends whose receives did not yet
 * go in. */
#include "met_timeline_clock.h"
#include "bas_error.h"
#include "bas_grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Sends kept whose receive never asked (unpaired sends, eager ones whose receive the timeline lacks): beyond twice
 * this many, the older half is forgotten, so that memory does not grow with the run's length. */
enum { SENT_KEPT = 1 << 12 };

typedef struct sent {
  long long id;
  double at; /* NAN once asked for */
} sent_t;

typedef struct clock_rank {
  sent_t *sent; /* in the order of their numbers, from `head` */
  size_t head, n, cap;
  long long emitted; /* the number of its last interval (or operation) in the trace, -1 before the first */
  double last;       /* the end of its last interval placed */
  int raised;        /* whether an interval of the call going in was made to start later */
} clock_rank_t;

struct met_tl_clock {
  int nranks;
  clock_rank_t *ranks;
  met_tl_clock_counts_t counts;
};

met_tl_clock_t *met_tl_clock_new(int nranks)
{
  met_tl_clock_t *c = calloc(1, sizeof *c);
  if (!c || !(c->ranks = calloc((size_t)nranks, sizeof *c->ranks))) {
    free(c);
    return NULL;
  }
  c->nranks = nranks;
  for (int r = 0; r < nranks; r++) {
    c->ranks[r].emitted = -1;
    c->ranks[r].last = -INFINITY;
  }
  return c;
}

void met_tl_clock_free(met_tl_clock_t *c)
{
  if (!c)
    return;
  for (int r = 0; r < c->nranks; r++)
    free(c->ranks[r].sent);
  free(c->ranks);
  free(c);
}

void met_tl_clock_place(met_tl_clock_t *c, int rank, double *start, double *end)
{
  clock_rank_t *r = &c->ranks[rank];
  if (*start < r->last) { /* a receive's move reached past it */
    *start = r->last;
    r->raised = 1;
  }
  *end = fmax(*end, *start);
  r->last = *end;
}

double met_tl_clock_last(const met_tl_clock_t *c, int rank)
{
  return c->ranks[rank].last;
}

void met_tl_clock_emitted(met_tl_clock_t *c, int rank, long long id)
{
  if (id > c->ranks[rank].emitted)
    c->ranks[rank].emitted = id;
}

int met_tl_clock_sent_out(const met_tl_clock_t *c, int sender, long long id)
{
  return id < 0 || sender < 0 || sender >= c->nranks || c->ranks[sender].emitted >= id;
}

/* Drops the sends asked for at the front; moves the rest to the front once they are at most half the storage. */
static void compact(clock_rank_t *r)
{
  while (r->head < r->n && isnan(r->sent[r->head].at))
    r->head++;
  if (r->head > 0 && r->head >= r->n / 2) {
    memmove(r->sent, r->sent + r->head, (r->n - r->head) * sizeof *r->sent);
    r->n -= r->head;
    r->head = 0;
  }
}

int met_tl_clock_record(met_tl_clock_t *c, int sender, long long id, double at)
{
  clock_rank_t *r = &c->ranks[sender];
  compact(r);
  if (r->n - r->head >= 2 * SENT_KEPT) /* never asked for: forget the older half */
    r->head += SENT_KEPT;
  compact(r);
  if (bas_reserve((void **)&r->sent, &r->cap, r->n, sizeof *r->sent, 16) != 0)
    return BAS_ENOMEM;
  r->sent[r->n++] = (sent_t){id, at};
  return 0;
}

/* bsearch's order of sends: by number. */
static int by_id(const void *key, const void *item)
{
  long long id = *(const long long *)key, other = ((const sent_t *)item)->id;
  return (id > other) - (id < other);
}

double met_tl_clock_sent(met_tl_clock_t *c, int sender, long long id, double entry)
{
  clock_rank_t *r = &c->ranks[sender]; /* numbers grow with the place: a binary search */
  sent_t *found = r->n > r->head ? bsearch(&id, r->sent + r->head, r->n - r->head, sizeof *r->sent, by_id) : NULL;
  if (!found || isnan(found->at)) {
    c->counts.unknown++;
    return entry;
  }
  double at = found->at;
  found->at = NAN;
  return at;
}

double met_tl_clock_late(double end, double sent)
{
  double due = sent + MET_TL_TICK;
  return end < due ? due - end : 0; /* 0 for NAN */
}

void met_tl_clock_done(met_tl_clock_t *c, int rank, double moved)
{
  c->counts.later += (size_t)c->ranks[rank].raised;
  c->ranks[rank].raised = 0;
  if (moved <= 0)
    return;
  c->counts.receives++;
  c->counts.total += moved;
  c->counts.max = fmax(c->counts.max, moved);
}

met_tl_clock_counts_t met_tl_clock_counts(const met_tl_clock_t *c)
{
  return c->counts;
}
