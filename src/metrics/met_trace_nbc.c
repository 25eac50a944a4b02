/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A measured run's non-blocking collective calls (met_trace.h, met_nbc_t): kept per rank in the order they completed,
 * for the OTF2 archive's NonBlockingCollectiveRequest and NonBlockingCollectiveComplete events, with the bytes each
 * member moved by met_coll_moved's rules. */
#include "met_trace_internal.h"

#include <ctype.h>
#include <stdio.h>

static int nbc_valid(const met_trace_t *trace, int rank, const met_nbc_t *nbc)
{
  const struct met_nbc_list *own = trace->nbcs ? &trace->nbcs[rank] : NULL;
  double previous = own && own->n ? own->items[own->n - 1].completed : 0.0;
  return isfinite(nbc->posted) && nbc->posted >= 0 && isfinite(nbc->completed) && nbc->completed >= nbc->posted &&
         nbc->completed >= previous && (unsigned)nbc->kind < MET_COLL_KINDS && (unsigned)nbc->call < MET_CALLS &&
         (nbc->root == -1 || (nbc->root >= 0 && nbc->root < trace->nranks)) && isfinite(nbc->bytes) && nbc->bytes >= 0;
}

int met_trace_nbc_add(met_trace_t *trace, int rank, const met_nbc_t *nbc)
{
  if (rank < 0 || rank >= trace->nranks || !nbc_valid(trace, rank, nbc))
    return BAS_EINVAL;
  if (!keeps_colls(trace))
    return 0;
  if (!trace->nbcs && !(trace->nbcs = calloc((size_t)trace->nranks, sizeof *trace->nbcs)))
    return BAS_ENOMEM;
  struct met_nbc_list *own = &trace->nbcs[rank];
  met_nbc_t *items = grow(own->items, &own->cap, own->n + 1, sizeof *items);
  if (!items)
    return BAS_ENOMEM;
  own->items = items;
  items[own->n++] = *nbc;
  return 0;
}

const met_nbc_t *met_trace_nbcs(const met_trace_t *trace, int rank, size_t *count)
{
  *count = rank >= 0 && rank < trace->nranks && trace->nbcs ? trace->nbcs[rank].n : 0;
  return *count ? trace->nbcs[rank].items : NULL;
}

/* `list`'s call of `group` and number `seq`, looked for outward from `near` (the members complete a communicator's
 * calls in much the same order), or NULL. */
static const met_nbc_t *find_call(const struct met_nbc_list *list, size_t near, unsigned group, size_t seq)
{
  near = near < list->n ? near : list->n - 1; /* list->n of 0: no round */
  for (size_t d = 0; d < list->n; d++) {
    size_t up = near + d, down = near >= d ? near - d : list->n;
    if (up < list->n && list->items[up].group == group && list->items[up].seq == seq)
      return &list->items[up];
    if (down < list->n && list->items[down].group == group && list->items[down].seq == seq)
      return &list->items[down];
    if (up >= list->n && down >= list->n)
      break;
  }
  return NULL;
}

void met_nbc_moved(const met_trace_t *trace, int rank, size_t index, double *sent, double *received)
{
  *sent = *received = 0;
  size_t count;
  const met_nbc_t *own = met_trace_nbcs(trace, rank, &count);
  if (index >= count)
    return;
  const met_nbc_t *nbc = &own[index];
  double others = 0;
  int members = 1;
  for (int r = 0; r < trace->nranks; r++) {
    const met_nbc_t *their = r == rank ? NULL : find_call(&trace->nbcs[r], index, nbc->group, nbc->seq);
    others += their ? their->bytes : 0;
    members += their != NULL;
  }
  const met_coll_t call = {.kind = nbc->kind, .call = nbc->call, .root = nbc->root, .bytes = nbc->bytes};
  met_coll_rule(&call, rank, others, members, sent, received);
}

met_coll_call_t met_nbc_call_of(const char *name)
{
  char blocking[64];
  if (!name || strncmp(name, "MPI_I", 5) != 0 || !islower((unsigned char)name[5]) || strlen(name) >= sizeof blocking)
    return MET_CALL_UNNAMED;
  snprintf(blocking, sizeof blocking, "MPI_%c%s", toupper((unsigned char)name[5]), name + 6);
  return met_coll_call_of(blocking);
}
