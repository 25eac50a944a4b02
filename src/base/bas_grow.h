/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Room for one more item in an array that grows one item at a time, by doubling (bas_grow.c): the one helper of the
 * arrays of the timeline reader, its communicators, the OTF2 export's, the message statistics and samples, the
 * pictures' segments, the tables' cells and a collective's pending requests. */
#ifndef BAS_GROW_H
#define BAS_GROW_H

#include <stddef.h>

/* Makes room in *items, an array of *cap items of `size` bytes holding `n` (n <= *cap), for one more: when full,
 * *cap doubles (from `first` when 0) and *items is reallocated. 0, or BAS_ENOMEM (out of memory, or the new size would
 * pass SIZE_MAX bytes): *items and *cap are then unchanged. */
int bas_reserve(void **items, size_t *cap, size_t n, size_t size, size_t first);

#endif
