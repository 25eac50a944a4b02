/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sorting more records than memory should hold (an export's events, six an interval, of a run whose intervals are
 * spilled): records are kept in memory up to a bound, then each full buffer is sorted and written to an unnamed
 * temporary file as a run, and the runs are merged as they are read back. The order is the comparison's alone, so the
 * output does not depend on the bound when the comparison orders every pair of distinct records. */
#ifndef REP_SORT_H
#define REP_SORT_H

#include <stddef.h>

typedef struct rep_sort rep_sort_t;

/* A sorter of records of `size` bytes ordered by `cmp` (as qsort's), holding at most `hold` (>= 2) of them in memory
 * at a time. NULL when out of memory. Free with rep_sort_free. */
rep_sort_t *rep_sort_new(size_t size, size_t hold, int (*cmp)(const void *, const void *));

/* Adds a copy of `record`. 0, BAS_ENOMEM, or BAS_EIO when a full buffer cannot be written to the temporary file. */
int rep_sort_add(rep_sort_t *sort, const void *record);

/* Calls fn for every record added, in order, once (the sorter is then empty). 0, BAS_ENOMEM, BAS_EIO on a read or
 * write error of the temporary file, or what fn returned when not 0 (the walk then stops). */
int rep_sort_each(rep_sort_t *sort, int (*fn)(void *ctx, const void *record), void *ctx);

void rep_sort_free(rep_sort_t *sort); /* accepts NULL */

#endif
