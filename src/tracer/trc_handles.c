/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pending requests' handles and how many requests hold each (trc_handles.h): a table of open addressing with
 * linear probing, at most half full, whose removals shift the entries after them back (no tombstones), so that a run
 * of a million sends and tests keeps it as small as the requests in flight. Written here, not taken from a library:
 * the tracer is preloaded into the program traced and links nothing the program might also link (glib's
 * GHashTable) or that keeps no count (POSIX hsearch, which cannot remove). */
#include "trc_handles.h"

#include <stdlib.h>

typedef struct slot {
  uint64_t handle;
  long count; /* 0: the slot is empty */
} slot_t;

static slot_t *slots;
static size_t cap;    /* a power of two, or 0 */
static size_t used;   /* slots of a count */
static size_t shared; /* slots of a count over 1 */

/* The slot `handle` hashes to: its bits mixed by Fibonacci hashing's multiplier (Knuth), high bits kept (a pointer's
 * low bits are its alignment's zeros). */
static size_t home(uint64_t handle)
{
  return (size_t)((handle * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

/* The slot of `handle`, or the empty one where it would go. */
static size_t slot_of(uint64_t handle)
{
  size_t i = home(handle);
  while (slots[i].count > 0 && slots[i].handle != handle)
    i = (i + 1) & (cap - 1);
  return i;
}

/* Room for one more handle, the table doubled and filled again when half full. 0, or -1 when out of memory. */
static int room(void)
{
  if (2 * (used + 1) <= cap)
    return 0;
  size_t old_cap = cap, bigger = cap ? 2 * cap : 64;
  slot_t *old = slots, *fresh = calloc(bigger, sizeof *fresh);
  if (!fresh)
    return -1;
  slots = fresh;
  cap = bigger;
  for (size_t k = 0; k < old_cap; k++)
    if (old[k].count > 0)
      slots[slot_of(old[k].handle)] = old[k];
  free(old);
  return 0;
}

int trc_handles_add(uint64_t handle)
{
  if (room() != 0)
    return -1;
  slot_t *s = &slots[slot_of(handle)];
  used += s->count == 0;
  shared += s->count == 1;
  *s = (slot_t){handle, s->count + 1};
  return 0;
}

void trc_handles_remove(uint64_t handle)
{
  if (cap == 0)
    return;
  size_t i = slot_of(handle);
  if (slots[i].count == 0)
    return; /* not counted (out of memory when added) */
  shared -= slots[i].count == 2;
  if (--slots[i].count > 0)
    return;
  used--;
  /* backward shift: each entry after the hole that may move there does, until an empty slot */
  for (size_t j = (i + 1) & (cap - 1); slots[j].count > 0; j = (j + 1) & (cap - 1)) {
    size_t want = home(slots[j].handle);
    if (((j - want) & (cap - 1)) >= ((j - i) & (cap - 1))) {
      slots[i] = slots[j];
      slots[j].count = 0;
      i = j;
    }
  }
}

int trc_handles_shared(uint64_t handle)
{
  return shared > 0 && slots[slot_of(handle)].count > 1;
}

void trc_handles_reset(void)
{
  free(slots);
  slots = NULL;
  cap = used = shared = 0;
}
