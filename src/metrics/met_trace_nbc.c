/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A measured run's non-blocking collective calls (met_trace.h, met_nbc_t): kept per rank in the order they completed,
 * for the OTF2 archive's NonBlockingCollectiveRequest and NonBlockingCollectiveComplete events and the Paje trace's
 * Collective events, with the bytes each member moved by met_coll_moved's rules once every member has the call. */
#include "met_trace_internal.h"

#include <ctype.h>
#include <stdio.h>

static int nbc_valid(const met_trace_t *trace, int rank, const met_nbc_t *nbc)
{
  const struct met_nbc_list *own = trace->nbcs ? &trace->nbcs[rank] : NULL;
  double previous = own && own->n ? own->items[own->n - 1].completed : 0.0;
  return isfinite(nbc->posted) && nbc->posted >= 0 && isfinite(nbc->completed) && nbc->completed >= nbc->posted &&
         nbc->completed >= previous && (unsigned)nbc->kind < MET_COLL_KINDS && (unsigned)nbc->call < MET_CALLS &&
         (nbc->root == -1 || (nbc->root >= 0 && nbc->root < trace->nranks)) && isfinite(nbc->bytes) &&
         nbc->bytes >= 0 && isfinite(nbc->received) && nbc->received >= 0 && nbc->members >= 1 &&
         isfinite(nbc->waited) && nbc->waited >= 0 && nbc->members <= trace->nranks;
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

/* Call `i`'s group and number there. */
static void nbc_key(const void *calls, size_t i, unsigned *group, size_t *seq)
{
  *group = ((const met_nbc_t *)calls)[i].group;
  *seq = ((const met_nbc_t *)calls)[i].seq;
}

/* Builds `list`'s keys for its items (met_group_index.h: a cache). 0, or BAS_ENOMEM. */
static int index_calls(struct met_nbc_list *list)
{
  return met_group_index_build(&list->keys, list->items, list->n, nbc_key);
}

/* `list`'s call of `group` and number `seq` (its keys built), or NULL. */
static const met_nbc_t *find_call(const struct met_nbc_list *list, unsigned group, size_t seq)
{
  const met_group_key_t *key = met_group_index_at(&list->keys, met_group_index_from(&list->keys, group, seq), group);
  return key && key->seq == seq ? &list->items[key->index] : NULL;
}

int met_nbc_moved(const met_trace_t *trace, int rank, size_t index, double *sent, double *received)
{
  *sent = *received = 0;
  size_t count;
  const met_nbc_t *own = met_trace_nbcs(trace, rank, &count);
  if (index >= count)
    return 0;
  for (int r = 0; r < trace->nranks; r++)
    if (index_calls(&((met_trace_t *)trace)->nbcs[r]) != 0) /* a cache: see index_calls */
      return 0;
  const met_nbc_t *nbc = &own[index];
  const met_coll_t call = met_nbc_coll(nbc);
  met_coll_peers_t peers = {.members = 1};
  for (int r = 0; r < trace->nranks; r++) {
    const met_nbc_t *their = r == rank ? NULL : find_call(&trace->nbcs[r], nbc->group, nbc->seq);
    if (their && their->call == nbc->call && their->kind == nbc->kind && their->root == nbc->root) {
      const met_coll_t theirs = met_nbc_coll(their);
      met_coll_peer_add(&peers, &call, rank, r, &theirs);
    }
  }
  if (peers.members != nbc->members)
    return 0;
  met_coll_rule(&call, rank, &peers, sent, received);
  return 1;
}

met_coll_t met_nbc_coll(const met_nbc_t *nbc)
{
  return (met_coll_t){.kind = nbc->kind,
                      .call = nbc->call,
                      .root = nbc->root,
                      .group = nbc->group,
                      .bytes = nbc->bytes,
                      .received = nbc->received};
}

met_coll_call_t met_nbc_call_of(const char *name)
{
  char blocking[64];
  if (!name || strncmp(name, "MPI_I", 5) != 0 || !islower((unsigned char)name[5]) || strlen(name) >= sizeof blocking)
    return MET_CALL_UNNAMED;
  snprintf(blocking, sizeof blocking, "MPI_%c%s", toupper((unsigned char)name[5]), name + 6);
  return met_coll_call_of(blocking);
}
