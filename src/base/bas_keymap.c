/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The key map (bas_keymap.h): slots of (key, number), number 0 for an empty one; grown to twice its size, and every
 * entry placed again, before it would be more than half full. */
#include "bas_keymap.h"
#include "bas_error.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef struct slot {
  uint64_t key;
  size_t number;
} slot_t;

struct bas_keymap {
  slot_t *slots;
  size_t nslots; /* a power of two, or 0 */
  size_t count;
  uint64_t seed;
};

bas_keymap_t *bas_keymap_new(void)
{
  bas_keymap_t *map = calloc(1, sizeof *map);
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (map)
    map->seed = ((uint64_t)now.tv_nsec << 20 ^ (uint64_t)now.tv_sec ^ (uint64_t)getpid() << 40) * 0x9e3779b97f4a7c15ULL;
  return map;
}

void bas_keymap_free(bas_keymap_t *map)
{
  if (map)
    free(map->slots);
  free(map);
}

/* splitmix64's finaliser of the key and the seed: every bit of the key moves every bit of the slot (a multiplier and a
 * mask let 100,000 crafted keys share one run of slots: 37 s to read them). */
static size_t slot_of(const slot_t *slots, size_t nslots, uint64_t seed, uint64_t key)
{
  uint64_t z = key + seed;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  size_t at = (size_t)z & (nslots - 1);
  while (slots[at].number != 0 && slots[at].key != key)
    at = (at + 1) & (nslots - 1);
  return at;
}

size_t bas_keymap_get(const bas_keymap_t *map, uint64_t key)
{
  return map->nslots ? map->slots[slot_of(map->slots, map->nslots, map->seed, key)].number : 0;
}

/* Room for one more entry: 0, or BAS_ENOMEM. */
static int make_room(bas_keymap_t *map)
{
  if (2 * (map->count + 1) <= map->nslots)
    return 0;
  size_t n = map->nslots ? 2 * map->nslots : 16;
  slot_t *slots = calloc(n, sizeof *slots);
  if (!slots)
    return BAS_ENOMEM;
  for (size_t i = 0; i < map->nslots; i++)
    if (map->slots[i].number != 0)
      slots[slot_of(slots, n, map->seed, map->slots[i].key)] = map->slots[i];
  free(map->slots);
  map->slots = slots;
  map->nslots = n;
  return 0;
}

int bas_keymap_put(bas_keymap_t *map, uint64_t key, size_t number)
{
  size_t at = map->nslots ? slot_of(map->slots, map->nslots, map->seed, key) : 0;
  if (map->nslots && map->slots[at].number != 0) {
    map->slots[at].number = number;
    return 0;
  }
  if (make_room(map) != 0)
    return BAS_ENOMEM;
  map->slots[slot_of(map->slots, map->nslots, map->seed, key)] = (slot_t){key, number};
  map->count++;
  return 0;
}
