/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A rank's collective calls by (group, number): met_group_index.h. */
#include "met_group_index.h"
#include "bas_error.h"

#include <stdlib.h>

static int by_group_seq(const void *a, const void *b)
{
  const met_group_key_t *x = a, *y = b;
  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

int met_group_index_build(met_group_index_t *index, const void *calls, size_t n, met_group_key_of_t *key_of)
{
  if (index->keyed == n && (index->keys || n == 0))
    return 0;
  met_group_key_t *keys = realloc(index->keys, sizeof *keys * (n ? n : 1));
  if (!keys)
    return BAS_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    keys[i].index = i;
    key_of(calls, i, &keys[i].group, &keys[i].seq);
  }
  qsort(keys, n, sizeof *keys, by_group_seq);
  index->keys = keys;
  index->keyed = n;
  return 0;
}

size_t met_group_index_from(const met_group_index_t *index, unsigned group, size_t seq)
{
  const met_group_key_t at = {group, seq, 0};
  size_t lo = 0, hi = index->keyed;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (by_group_seq(&index->keys[mid], &at) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

const met_group_key_t *met_group_index_at(const met_group_index_t *index, size_t at, unsigned group)
{
  return at < index->keyed && index->keys[at].group == group ? &index->keys[at] : NULL;
}

void met_group_index_free(met_group_index_t *index)
{
  free(index->keys);
  *index = (met_group_index_t){0};
}
