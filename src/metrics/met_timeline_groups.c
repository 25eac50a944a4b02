/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The communicators of a measured run's collectives and their instances in progress (met_timeline_groups.h). Memory:
 * per group its members, two counters a member, and the instances some member has not passed yet. */
#include "met_timeline_groups.h"
#include "bas_error.h"
#include "bas_grow.h"
#include "bas_keymap.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The most communicators kept (some 100 bytes each at the least), and the most members of all of them (some 20 bytes
 * each: a hostile file of "# comm KEY 0:1:P" lines with new keys would otherwise cost 20 P bytes a line): a file's
 * further "# comm" lines define none, and their collectives stay as the files give them, as on a communicator no file
 * defines. */
enum { GROUPS_MAX = 1 << 20, MEMBERS_MAX = 1 << 22 };

typedef struct group {
  int size;                /* its members */
  int *members;            /* their world ranks, increasing (NULL for the world: rank r is member r) */
  long *read;              /* per member (by its place in `members`): its collectives on the group read so far */
  long *done;              /* and those gone into the trace */
  int stopped;             /* no longer paired */
  int unordered;           /* its communicator orders its members otherwise (as its definition gave them), or its
                            * definition did not give their order (an older tracer's file) */
  met_tl_instance_t *inst; /* instances base .. base + n - 1 */
  long base;
  size_t n, cap;
} group_t;

struct met_tl_groups {
  int nranks;
  group_t *groups;
  int count, cap;
  int any_stopped;
  long long members;  /* the members of all the groups but the world's */
  bas_keymap_t *keys; /* the groups but the world's by key (a program may make a communicator an iteration) */
};

static int new_group(met_tl_groups_t *g, int *members, int size)
{
  if (g->count == g->cap) {
    int cap = g->cap ? 2 * g->cap : 8;
    group_t *more = realloc(g->groups, sizeof *more * (size_t)cap);
    if (!more)
      return -1;
    g->groups = more;
    g->cap = cap;
  }
  group_t *x = &g->groups[g->count];
  *x = (group_t){.size = size, .members = members};
  x->read = calloc((size_t)size, sizeof *x->read);
  x->done = calloc((size_t)size, sizeof *x->done);
  if (!x->read || !x->done) {
    free(x->read);
    free(x->done);
    return -1;
  }
  return g->count++;
}

met_tl_groups_t *met_tl_groups_new(int nranks)
{
  met_tl_groups_t *g = calloc(1, sizeof *g);
  if (g)
    g->nranks = nranks;
  if (g && (!(g->keys = bas_keymap_new()) || new_group(g, NULL, nranks) != 0)) {
    met_tl_groups_free(g);
    return NULL;
  }
  return g;
}

void met_tl_groups_free(met_tl_groups_t *g)
{
  if (!g)
    return;
  for (int i = 0; i < g->count; i++) {
    free(g->groups[i].members);
    free(g->groups[i].read);
    free(g->groups[i].done);
    free(g->groups[i].inst);
  }
  free(g->groups);
  bas_keymap_free(g->keys);
  free(g);
}

static int by_rank(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The place of world rank `rank` among `group`'s members, or -1. */
static int place(const group_t *x, int rank)
{
  if (!x->members)
    return rank >= 0 && rank < x->size ? rank : -1;
  const int *at = bsearch(&rank, x->members, (size_t)x->size, sizeof *x->members, by_rank);
  return at ? (int)(at - x->members) : -1;
}

static group_t *keyed(const met_tl_groups_t *g, int key)
{
  size_t at = bas_keymap_get(g->keys, (uint64_t)key);
  return at ? &g->groups[at] : NULL;
}

const char *met_tl_groups_define(met_tl_groups_t *g, int rank, int key, const int *members, int n, int in_order,
                                 int *oom)
{
  *oom = 0;
  if (key <= 0 || n < 1 || n > g->nranks)
    return "a communicator's key must be a whole number > 0 and its members 1 to the run's ranks";
  int *sorted = malloc(sizeof *sorted * (size_t)n);
  if (!sorted) {
    *oom = 1;
    return "out of memory";
  }
  memcpy(sorted, members, sizeof *sorted * (size_t)n);
  qsort(sorted, (size_t)n, sizeof *sorted, by_rank);
  int mine = 0;
  for (int i = 0; i < n; i++) {
    if (sorted[i] < 0 || sorted[i] >= g->nranks || (i > 0 && sorted[i] == sorted[i - 1])) {
      free(sorted);
      return "a communicator's members must be distinct ranks of the run";
    }
    mine |= sorted[i] == rank;
  }
  if (!mine) {
    free(sorted);
    return "the communicator does not have the rank whose file defines it";
  }
  int unordered = !in_order;
  for (int i = 1; i < n; i++)
    unordered |= members[i] < members[i - 1];
  group_t *known = keyed(g, key);
  if (known) {
    if (known->size != n || memcmp(known->members, sorted, sizeof *sorted * (size_t)n) != 0 ||
        known->unordered != unordered)
      met_tl_groups_stop(g, (int)(known - g->groups)); /* two communicators, one key: neither can be paired */
    free(sorted);
    return NULL;
  }
  if (g->count > GROUPS_MAX || g->members + n > MEMBERS_MAX) {
    free(sorted);
    return NULL;
  }
  int group = new_group(g, sorted, n);
  if (group >= 0)
    g->groups[group].unordered = unordered;
  if (group < 0 || bas_keymap_put(g->keys, (uint64_t)key, (size_t)group) != 0) {
    if (group >= 0) { /* its arrays and members go with it */
      g->count--;
      free(g->groups[group].read);
      free(g->groups[group].done);
    }
    free(sorted);
    *oom = 1;
    return "out of memory";
  }
  g->members += n;
  return NULL;
}

int met_tl_groups_of(const met_tl_groups_t *g, int key, int rank)
{
  if (key == 0)
    return 0;
  const group_t *x = keyed(g, key);
  return x && place(x, rank) >= 0 ? (int)(x - g->groups) : -1;
}

int met_tl_groups_size(const met_tl_groups_t *g, int group)
{
  return g->groups[group].size;
}

const int *met_tl_groups_members(const met_tl_groups_t *g, int group)
{
  return g->groups[group].members;
}

int met_tl_groups_ordered(const met_tl_groups_t *g, int group)
{
  return !g->groups[group].unordered;
}

int met_tl_groups_join(met_tl_groups_t *g, int group, int rank, long *k)
{
  group_t *x = &g->groups[group];
  int at = place(x, rank);
  *k = x->stopped || at < 0 ? -1 : x->read[at]++;
  while (*k >= 0 && x->n <= (size_t)(*k - x->base)) {
    if (bas_reserve((void **)&x->inst, &x->cap, x->n, sizeof *x->inst, 2) != 0)
      return BAS_ENOMEM;
    x->inst[x->n++] = (met_tl_instance_t){.root_at = NAN, .root_raw = NAN, .leaf_at = NAN, .leaf_raw = NAN};
  }
  return 0;
}

met_tl_instance_t *met_tl_groups_instance(const met_tl_groups_t *g, int group, long k)
{
  const group_t *x = &g->groups[group];
  if (x->stopped || k < x->base || (size_t)(k - x->base) >= x->n)
    return NULL;
  return &x->inst[k - x->base];
}

void met_tl_groups_done(met_tl_groups_t *g, int group, int rank)
{
  group_t *x = &g->groups[group];
  int at = place(x, rank);
  if (at < 0)
    return;
  x->done[at]++;
  long least = x->done[0];
  for (int i = 1; i < x->size && least > x->base; i++)
    least = x->done[i] < least ? x->done[i] : least;
  size_t gone = least > x->base ? (size_t)(least - x->base) : 0;
  gone = x->stopped ? x->n : gone > x->n ? x->n : gone;
  if (gone == 0)
    return;
  memmove(x->inst, x->inst + gone, (x->n - gone) * sizeof *x->inst);
  x->n -= gone;
  x->base += (long)gone;
  if (x->n == 0) { /* a communicator used once, or no longer: its instances' room back */
    free(x->inst);
    x->inst = NULL;
    x->cap = 0;
  }
}

void met_tl_groups_stop(met_tl_groups_t *g, int group)
{
  g->groups[group].stopped = 1;
  g->any_stopped = 1;
}

int met_tl_groups_any_stopped(const met_tl_groups_t *g)
{
  int left = 0;
  for (int i = 0; i < g->count; i++)
    left |= g->groups[i].n > 0;
  return g->any_stopped || left;
}
