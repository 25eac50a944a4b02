/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A rank's collective calls by (group, number): the index that finds the call a member made on a communicator among
 * calls kept in another order (a trace's spans, all groups mixed, by met_trace.c; its non-blocking collectives, in the
 * order they completed, by met_trace_nbc.c), built once for the calls there are (a cache, rebuilt when more came) and
 * searched by halves: a scan of every call per call was quadratic, 7 minutes to export 400,000 collectives on
 * sub-communicators. */
#ifndef MET_GROUP_INDEX_H
#define MET_GROUP_INDEX_H

#include <stddef.h>

/* One call's place: its group, its number there (or any increasing order: the spans' index), and its index among the
 * calls as kept. */
typedef struct met_group_key {
  unsigned group;
  size_t seq;
  size_t index;
} met_group_key_t;

/* An empty index is all zero ({0}); met_group_index_free makes it so again. */
typedef struct met_group_index {
  met_group_key_t *keys; /* by (group, seq, index) */
  size_t keyed;          /* the first this many calls are indexed */
} met_group_index_t;

/* The group and number of call `i` of `calls`. */
typedef void met_group_key_of_t(const void *calls, size_t i, unsigned *group, size_t *seq);

/* Indexes the first `n` of `calls` unless they are already: 0, or BAS_ENOMEM (the index as it was). */
int met_group_index_build(met_group_index_t *index, const void *calls, size_t n, met_group_key_of_t *key_of);
/* The position of the first key at (group, seq) or after it, index->keyed when none is. */
size_t met_group_index_from(const met_group_index_t *index, unsigned group, size_t seq);
/* The key at position `at` when there is one and it is of `group`, else NULL. */
const met_group_key_t *met_group_index_at(const met_group_index_t *index, size_t at, unsigned group);
void met_group_index_free(met_group_index_t *index);

#endif
