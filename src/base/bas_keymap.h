/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A map from 64-bit keys to the numbers 1.. of the items a caller keeps in its own array (bas_keymap.c): open
 * addressing, at most half full, the keys hashed with a seed drawn per map so that no input's keys can crowd one run
 * of slots. For the tables that a file names things in (communicators by key or group), which a long or hostile file
 * may make large. */
#ifndef BAS_KEYMAP_H
#define BAS_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct bas_keymap bas_keymap_t;

/* An empty map, NULL when out of memory; free with bas_keymap_free (accepts NULL). */
bas_keymap_t *bas_keymap_new(void);
void bas_keymap_free(bas_keymap_t *map);

/* The number `key` maps to, 0 when none. */
size_t bas_keymap_get(const bas_keymap_t *map, uint64_t key);

/* Maps `key` to `number` (> 0), replacing what it mapped to. 0, or BAS_ENOMEM (the map is then unchanged). */
int bas_keymap_put(bas_keymap_t *map, uint64_t key, size_t number);

#endif
