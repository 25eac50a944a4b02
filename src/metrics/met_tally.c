/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Counts of message ends by envelope (met_tally.h): a hash table of counts, open addressing with linear probing. Keys
 * stay when their count falls to 0 (no tombstones to manage) and go when the table is rebuilt, which happens when
 * half its slots hold keys: at twice the size while most keys count ends, else at the same size without the zeros.
 * Written here because the C library's hsearch has one table per process and no removal, and the project takes no
 * other container library. */
#include "met_tally.h"
#include "bas_error.h"

#include <stdint.h>
#include <stdlib.h>

struct met_tally_slot {
  int comm;
  int tag;
  int source;
  unsigned count;
  int used;
};

enum { FIRST_CAP = 64 };

static size_t slot_of(size_t cap, int comm, int tag, int source)
{
  uint64_t h = (uint64_t)(uint32_t)comm * 0x9e3779b97f4a7c15u ^ (uint64_t)(uint32_t)tag * 0xc2b2ae3d27d4eb4fu ^
               (uint64_t)(uint32_t)source * 0x165667b19e3779f9u;
  h ^= h >> 29; /* splitmix64's finaliser */
  h *= 0xbf58476d1ce4e5b9u;
  h ^= h >> 32;
  return (size_t)h & (cap - 1);
}

/* The slot of the envelope, or the empty slot where it would go. */
static met_tally_slot_t *find(const met_tally_t *t, int comm, int tag, int source)
{
  size_t i = slot_of(t->cap, comm, tag, source);
  while (t->slots[i].used && !(t->slots[i].comm == comm && t->slots[i].tag == tag && t->slots[i].source == source))
    i = (i + 1) & (t->cap - 1);
  return &t->slots[i];
}

/* Rebuilds the table for one more key: 0, or -1 out of memory (the table unchanged). */
static int rebuild(met_tally_t *t)
{
  size_t live = 0;
  for (size_t i = 0; i < t->cap; i++)
    live += t->slots[i].used && t->slots[i].count > 0;
  size_t cap = t->cap ? t->cap : FIRST_CAP;
  while (4 * (live + 1) > cap)
    cap *= 2;
  met_tally_t grown = {.slots = calloc(cap, sizeof *grown.slots), .cap = cap, .wild = t->wild};
  if (!grown.slots)
    return -1;
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i].used && t->slots[i].count > 0) {
      *find(&grown, t->slots[i].comm, t->slots[i].tag, t->slots[i].source) = t->slots[i];
      grown.keys++;
    }
  free(t->slots);
  *t = grown;
  return 0;
}

int met_tally_add(met_tally_t *t, int comm, int tag, int source)
{
  if (tag < 0 || source < 0) {
    t->wild++;
    return 0;
  }
  if (2 * (t->keys + 1) > t->cap && rebuild(t) != 0)
    return BAS_ENOMEM;
  met_tally_slot_t *s = find(t, comm, tag, source);
  if (!s->used) {
    *s = (met_tally_slot_t){.comm = comm, .tag = tag, .source = source, .used = 1};
    t->keys++;
  }
  s->count++;
  return 0;
}

void met_tally_remove(met_tally_t *t, int comm, int tag, int source)
{
  if (tag < 0 || source < 0) {
    t->wild--;
    return;
  }
  met_tally_slot_t *s = find(t, comm, tag, source);
  if (s->used && s->count > 0)
    s->count--;
}

int met_tally_may_hold(const met_tally_t *t, int comm, int tag, int source)
{
  if (t->wild > 0)
    return 1;
  if (!t->slots)
    return 0;
  const met_tally_slot_t *s = find(t, comm, tag, source);
  return s->used && s->count > 0;
}

void met_tally_free(met_tally_t *t)
{
  free(t->slots);
  *t = (met_tally_t){0};
}
