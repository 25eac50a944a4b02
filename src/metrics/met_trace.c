/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace model: per-rank timelines of categorised intervals, with the lost-cycle accounting of seed 000 eqs. 1.5
 * and 1.7 (gaps count as idling, so every rank's categories add up to T_par); the file format is met_trace_io.c's,
 * the DSM annex met_trace_annex.c's. */
#include "met_ce.h"
#include "bas_error.h"
#include "bas_temp.h"
#include "met_trace_internal.h"

#include <string.h>

static const char *const category_names[MET_CAT_COUNT] = {"compute", "io", "ctrl", "comm", "idle"};

met_trace_t *met_trace_new(int nranks)
{
  if (nranks < 1)
    return NULL;
  met_trace_t *trace = calloc(1, sizeof *trace);
  if (!trace)
    return NULL;
  trace->ranks = aligned_alloc(_Alignof(met_timeline_t), (size_t)nranks * sizeof *trace->ranks);
  if (!trace->ranks) {
    free(trace);
    return NULL;
  }
  memset(trace->ranks, 0, (size_t)nranks * sizeof *trace->ranks);
  trace->nranks = nranks;
  return trace;
}

void met_trace_free(met_trace_t *trace)
{
  if (!trace)
    return;
  for (int r = 0; r < trace->nranks; r++) {
    free(trace->ranks[r].items);
    free(trace->ranks[r].groups);
    free(trace->ranks[r].phase_time);
    free(trace->ranks[r].colls);
    met_group_index_free(&trace->ranks[r].coll_keys);
    for (size_t l = 0; l < trace->ranks[r].nlanes; l++)
      free(trace->ranks[r].lanes[l].ends);
    free(trace->ranks[r].lanes);
    free(trace->ranks[r].lane_slots);
    if (trace->nbcs) {
      free(trace->nbcs[r].items);
      met_group_index_free(&trace->nbcs[r].keys);
    }
  }
  free(trace->nbcs);
  for (int u = 0; trace->units && u < trace->nranks * MET_UNIT_COUNT; u++)
    free(trace->units[u].items);
  free(trace->units);
  free(trace->requests);
  met_ce_sums_free(trace->ce);
  free(trace->waits);
  for (size_t i = 0; i < trace->nphases; i++)
    free(trace->phases[i]);
  free(trace->phases);
  met_trace_calls_free(trace);
  free(trace->ranks);
  if (trace->spill)
    fclose(trace->spill);
  free(trace);
}

met_trace_t *met_trace_new_aggregate(int nranks)
{
  met_trace_t *trace = met_trace_new(nranks);
  if (trace)
    trace->aggregate = 1;
  return trace;
}

met_trace_t *met_trace_new_spilled(int nranks)
{
  met_trace_t *trace = met_trace_new_aggregate(nranks);
  if (trace && !(trace->spill = bas_temp_file())) {
    met_trace_free(trace);
    return NULL;
  }
  return trace;
}

int met_trace_is_aggregate(const met_trace_t *trace)
{
  return trace->aggregate;
}

int met_trace_nranks(const met_trace_t *trace)
{
  return trace->nranks;
}

int met_trace_phase_id(met_trace_t *trace, const char *name)
{
  for (size_t i = 0; i < trace->nphases; i++)
    if (strcmp(trace->phases[i], name) == 0)
      return (int)i;
  if (append_name(&trace->phases, &trace->nphases, &trace->phase_cap, name) != 0)
    return BAS_ENOMEM;
  return (int)trace->nphases - 1;
}

const char *met_trace_phase_name(const met_trace_t *trace, int id)
{
  return id >= 0 && (size_t)id < trace->nphases ? trace->phases[id] : NULL;
}

int met_trace_phase_count(const met_trace_t *trace)
{
  return (int)trace->nphases;
}

/* Whether `iv` may follow `timeline`'s last interval: in order, well-formed, with known phase and peer ids. */
static bool valid_interval(const met_trace_t *trace, const met_timeline_t *timeline, const met_interval_t *iv)
{
  if (!valid_amount(iv->end) || !(iv->start >= timeline->last_end) || iv->end < iv->start)
    return false;
  if ((unsigned)iv->category >= MET_CAT_COUNT || !valid_phase(trace, iv->phase))
    return false;
  if (iv->peer != -1 && !valid_rank(trace, iv->peer))
    return false;
  if ((unsigned)iv->dir > MET_DIR_RECV || (iv->dir != MET_DIR_NONE && iv->peer == -1))
    return false;
  if (!valid_amount(iv->bytes) || iv->hops < 0 || iv->tag < -1 || !valid_call(trace, iv->call))
    return false;
  for (int k = 0; k < MET_PART_COUNT; k++)
    if (!valid_amount(iv->parts[k]))
      return false;
  return true;
}

int met_trace_grow_phases(met_timeline_t *timeline, size_t rows)
{
  if (rows <= timeline->phase_rows)
    return 0;
  double *more = realloc(timeline->phase_time, rows * MET_CAT_COUNT * sizeof *more);
  if (!more)
    return BAS_ENOMEM;
  memset(more + timeline->phase_rows * MET_CAT_COUNT, 0, (rows - timeline->phase_rows) * MET_CAT_COUNT * sizeof *more);
  timeline->phase_time = more;
  timeline->phase_rows = rows;
  return 0;
}

/* Counts the message whose counted end (met_message_ends) `iv` is in its group: 0, or -1 when out of memory. */
static int count_message(met_timeline_t *timeline, const met_interval_t *iv)
{
  met_msg_group_t *group = met_trace_group(timeline, iv);
  if (!group)
    return -1;
  double len = iv->end - iv->start;
  group->count++;
  group->wait_sum += len;
  group->wait_min = len < group->wait_min ? len : group->wait_min;
  group->wait_max = len > group->wait_max ? len : group->wait_max;
  timeline->comm_count++;
  return 0;
}

/* Whether `iv` carries a compute split (parts are never negative: valid_interval). */
static bool has_parts(const met_interval_t *iv)
{
  for (int k = 0; k < MET_PART_COUNT; k++)
    if (iv->parts[k] != 0)
      return true;
  return false;
}

static int keep(met_trace_t *trace, int rank, const met_interval_t *iv, int counted);

/* An empty interval (none of a message's ends, which are kept even empty: an eager send, a receive its rank's
 * computation hid) is dropped, but a call's first piece is held: the call's next piece starts the call, and where the
 * next interval is not one (a call of no time, as a measured run's clock may give one: 3 of hpcc's 30,000 at p = 4),
 * the piece goes in before it, so that every call has its interval (and the exports its region). */
int met_trace_add(met_trace_t *trace, int rank, const met_interval_t *iv)
{
  if (!valid_rank(trace, rank) || !valid_interval(trace, &trace->ranks[rank], iv))
    return BAS_EINVAL;
  int from, to;
  int counted = met_message_ends(iv, rank, &from, &to);
  met_timeline_t *timeline = &trace->ranks[rank];
  int empty = iv->end == iv->start && !counted && !(iv->category == MET_CAT_COMM && iv->dir == MET_DIR_SEND);
  if (timeline->call_dropped && iv->call != -timeline->call_dropped && (!empty || iv->call > 0)) {
    int rc = keep(trace, rank, &timeline->dropped, 0);
    if (rc != 0)
      return rc;
  }
  if (empty && iv->call > 0) {
    timeline->call_dropped = iv->call;
    timeline->dropped = *iv;
  }
  return empty ? 0 : keep(trace, rank, iv, counted);
}

int met_trace_end_calls(met_trace_t *trace)
{
  for (int r = 0; r < trace->nranks; r++) {
    met_timeline_t *timeline = &trace->ranks[r];
    int rc = timeline->call_dropped ? keep(trace, r, &timeline->dropped, 0) : 0;
    if (rc != 0)
      return rc;
  }
  return 0;
}

/* Keeps `iv` (valid: met_trace_add), `counted` whether it counts a message. */
static int keep(met_trace_t *trace, int rank, const met_interval_t *iv, int counted)
{
  met_timeline_t *timeline = &trace->ranks[rank];
  if ((size_t)iv->phase >= timeline->phase_rows && met_trace_grow_phases(timeline, (size_t)iv->phase + 1) != 0)
    return BAS_ENOMEM;
  if (!trace->aggregate) {
    met_interval_t *items = grow(timeline->items, &timeline->cap, timeline->count + 1, sizeof *items);
    if (!items)
      return BAS_ENOMEM;
    timeline->items = items;
  }
  met_interval_t kept = *iv;
  if (kept.call < 0 && timeline->call_dropped == -kept.call)
    kept.call = -kept.call;
  size_t at = trace->aggregate ? trace->nspilled : timeline->count; /* where it is kept */
  if (met_trace_pair_room(trace, rank, iv, counted, &kept.sent) != 0 || (counted && count_message(timeline, iv) != 0))
    return BAS_ENOMEM;
  if (trace->spill && met_trace_spill(trace, rank, &kept) != 0) {
    trace->spill_failed = 1;
    return BAS_EIO;
  }
  if (!trace->aggregate)
    timeline->items[timeline->count++] = kept;
  met_trace_pair(trace, rank, iv, at, counted);
  if (iv->call != 0) /* only a call's own piece can follow its dropped first: a computation need not touch it */
    timeline->call_dropped = 0;
  double len = iv->end - iv->start;
  timeline->last_end = iv->end;
  timeline->busy += len;
  timeline->category[iv->category] += len;
  timeline->phase_time[(size_t)iv->phase * MET_CAT_COUNT + iv->category] += len;
  if (has_parts(iv)) /* adding zeros would change no sum, but touch a line of the timeline */
    for (int k = 0; k < MET_PART_COUNT; k++)
      timeline->any_parts[k] += iv->parts[k];
  if (iv->end > trace->end)
    trace->end = iv->end;
  return 0;
}

int met_trace_coll_add(met_trace_t *trace, int rank, const met_coll_t *coll)
{
  if (!valid_rank(trace, rank))
    return BAS_EINVAL;
  met_timeline_t *timeline = &trace->ranks[rank];
  /* an aggregate trace keeps no span (ncolls stays 0): its timeline's line is then not read, a cache miss per call */
  double prev_end = keeps_colls(trace) && timeline->ncolls ? timeline->colls[timeline->ncolls - 1].end : 0.0;
  if (!valid_amount(coll->end) || !(coll->start >= prev_end) || coll->end < coll->start ||
      (unsigned)coll->kind >= MET_COLL_KINDS || (unsigned)coll->call >= MET_CALLS ||
      (coll->root != -1 && !valid_rank(trace, coll->root)) || !valid_amount(coll->bytes) ||
      !valid_amount(coll->received) || coll->place < 0 || coll->place > trace->nranks)
    return BAS_EINVAL;
  if (!keeps_colls(trace))
    return 0;
  met_coll_t *items = grow(timeline->colls, &timeline->coll_cap, timeline->ncolls + 1, sizeof *items);
  if (!items)
    return BAS_ENOMEM;
  timeline->colls = items;
  items[timeline->ncolls++] = *coll;
  trace->coll_bytes |= coll->bytes > 0 || coll->received > 0;
  trace->coll_grouped |= coll->group != 0;
  trace->coll_placed |= coll->place != 0;
  return 0;
}

int met_coll_place(const met_coll_t *span, int rank)
{
  return span->place > 0 ? span->place - 1 : rank;
}

int met_trace_sum_waits(met_trace_t *trace)
{
  if (!trace->aggregate)
    return BAS_EINVAL;
  if (!trace->waits)
    trace->waits = calloc((size_t)trace->nranks * MET_TRACE_WAIT_PATTERNS, sizeof *trace->waits);
  return trace->waits ? 0 : BAS_ENOMEM;
}

void met_trace_add_wait(met_trace_t *trace, int rank, int pattern, double seconds)
{
  if (trace->waits && valid_rank(trace, rank) && pattern >= 0 && pattern < MET_TRACE_WAIT_PATTERNS && seconds > 0)
    trace->waits[(size_t)rank * MET_TRACE_WAIT_PATTERNS + (size_t)pattern] += seconds;
}

const double *met_trace_wait_sums(const met_trace_t *trace)
{
  return trace->waits;
}

const met_coll_t *met_trace_colls(const met_trace_t *trace, int rank, size_t *count)
{
  *count = valid_rank(trace, rank) ? trace->ranks[rank].ncolls : 0;
  return *count ? trace->ranks[rank].colls : NULL;
}

/* Span `i`'s group, its index its order there. */
static void span_key(const void *spans, size_t i, unsigned *group, size_t *seq)
{
  *group = ((const met_coll_t *)spans)[i].group;
  *seq = i;
}

/* `timeline`'s spans by group (met_group_index.h), a cache, so `timeline` changes behind a const trace
 * (met_coll_moved's): 0, or BAS_ENOMEM. */
static int index_groups(met_timeline_t *timeline)
{
  return met_group_index_build(&timeline->coll_keys, timeline->colls, timeline->ncolls, span_key);
}

/* The first of `timeline`'s keys at (group, index) or after. */
static size_t key_from(const met_timeline_t *timeline, unsigned group, size_t index)
{
  return met_group_index_from(&timeline->coll_keys, group, index);
}

/* `timeline`'s span number `k` among its spans of group `group` (at index `k` when no span has another group); NULL
 * when it has fewer. */
static const met_coll_t *group_span(const met_trace_t *trace, const met_timeline_t *timeline, unsigned group, size_t k)
{
  if (!trace->coll_grouped)
    return k < timeline->ncolls ? &timeline->colls[k] : NULL;
  const met_group_key_t *key = met_group_index_at(&timeline->coll_keys, key_from(timeline, group, 0) + k, group);
  return key ? &timeline->colls[key->index] : NULL;
}

int met_coll_seq(const met_trace_t *trace, int rank, size_t index, size_t *seq)
{
  *seq = index;
  if (!valid_rank(trace, rank) || index >= trace->ranks[rank].ncolls)
    return BAS_EINVAL;
  if (!trace->coll_grouped)
    return 0;
  met_timeline_t *own = (met_timeline_t *)&trace->ranks[rank]; /* its index, a cache: see index_groups */
  if (index_groups(own) != 0)
    return BAS_ENOMEM;
  unsigned group = own->colls[index].group;
  *seq = key_from(own, group, index) - key_from(own, group, 0);
  return 0;
}

void met_coll_moved(const met_trace_t *trace, int rank, size_t index, double *sent, double *received)
{
  *sent = *received = 0;
  if (!valid_rank(trace, rank) || index >= trace->ranks[rank].ncolls || !trace->coll_bytes)
    return;
  for (int r = 0; trace->coll_grouped && r < trace->nranks; r++)
    if (index_groups((met_timeline_t *)&trace->ranks[r]) != 0) /* a cache: see index_groups */
      return;
  const met_timeline_t *own = &trace->ranks[rank];
  const met_coll_t *span = &own->colls[index];
  size_t k; /* its number among the rank's spans of its group */
  if (met_coll_seq(trace, rank, index, &k) != 0)
    return;
  met_coll_peers_t peers = {.members = 1};
  for (int r = 0; r < trace->nranks; r++)
    met_coll_peer_add(&peers, span, rank, r, r == rank ? NULL : group_span(trace, &trace->ranks[r], span->group, k));
  met_coll_rule(span, rank, &peers, sent, received);
}

void met_coll_peer_add(met_coll_peers_t *peers, const met_coll_t *mine, int rank, int r, const met_coll_t *their)
{
  if (!their)
    return;
  int earlier = met_coll_place(their, r) < met_coll_place(mine, rank);
  peers->others += their->bytes;
  peers->before += earlier ? their->bytes : 0;
  peers->members++;
  peers->later += !earlier;
}

void met_coll_rule(const met_coll_t *span, int rank, const met_coll_peers_t *peers, double *sent, double *received)
{
  *sent = *received = 0;
  double others = peers->others;
  int members = peers->members;
  int root = span->root == rank;
  double share = span->call == MET_CALL_ALLTOALL ? span->bytes / members : span->bytes;
  if (span->kind == MET_COLL_ONE_TO_N) {
    *sent = root ? others : 0;
    *received = root ? 0 : span->bytes;
  } else if (span->kind == MET_COLL_N_TO_ONE) {
    *sent = root ? 0 : span->bytes;
    *received = root ? others : 0;
  } else if (span->call == MET_CALL_ALLTOALLV) { /* its line gives both: no member's sums say who sent whom what */
    *sent = span->bytes;
    *received = span->received;
  } else if (span->kind == MET_COLL_NXN && span->call == MET_CALL_REDUCE_SCATTER) {
    *sent = others; /* its contribution to every other member's block, which each line gives */
    *received = span->bytes * (members - 1);
  } else if (span->kind == MET_COLL_NXN) {
    *sent = share * (members - 1);
    *received = span->call == MET_CALL_ALLTOALL ? others / members : others;
  } else if (span->kind == MET_COLL_PREFIX) { /* its block to each later member, each earlier one's to it */
    *sent = span->bytes * peers->later;
    *received = peers->before;
  }
}

size_t met_trace_count(const met_trace_t *trace, int rank)
{
  return valid_rank(trace, rank) ? trace->ranks[rank].count : 0;
}

const met_interval_t *met_trace_intervals(const met_trace_t *trace, int rank)
{
  return valid_rank(trace, rank) ? trace->ranks[rank].items : NULL;
}

double met_trace_end(const met_trace_t *trace)
{
  return trace->end;
}

double met_trace_category_time(const met_trace_t *trace, int rank, met_category_t category)
{
  if (!valid_rank(trace, rank))
    return 0.0;
  if ((unsigned)category >= MET_CAT_COUNT)
    return 0.0;
  const met_timeline_t *timeline = &trace->ranks[rank];
  double in_category = timeline->category[category];
  return category == MET_CAT_IDLE ? in_category + (trace->end - timeline->busy) : in_category;
}

double met_trace_phase_time(const met_trace_t *trace, int rank, int phase, met_category_t category)
{
  if (!valid_rank(trace, rank) || phase < 0 || (size_t)phase >= trace->ranks[rank].phase_rows ||
      (unsigned)category >= MET_CAT_COUNT)
    return 0.0;
  return trace->ranks[rank].phase_time[(size_t)phase * MET_CAT_COUNT + category];
}

int met_message_ends(const met_interval_t *iv, int rank, int *from, int *to)
{
  if (iv->category != MET_CAT_COMM || iv->dir == MET_DIR_SEND || (iv->dir == MET_DIR_NONE && iv->peer < rank))
    return 0;
  *from = iv->dir == MET_DIR_RECV ? iv->peer : rank;
  *to = iv->dir == MET_DIR_RECV ? rank : iv->peer;
  return 1;
}

size_t met_trace_comm_count(const met_trace_t *trace, int rank)
{
  return valid_rank(trace, rank) ? trace->ranks[rank].comm_count : 0;
}

void met_trace_add_anomaly(met_trace_t *trace, int rank, met_anomaly_t seconds)
{
  if (!valid_rank(trace, rank))
    return;
  trace->ranks[rank].anomaly += seconds.anomaly;
  trace->ranks[rank].host_speed += seconds.host;
}

double met_trace_anomaly(const met_trace_t *trace, int rank)
{
  return valid_rank(trace, rank) ? trace->ranks[rank].anomaly : 0.0;
}

double met_trace_host_speed(const met_trace_t *trace, int rank)
{
  return valid_rank(trace, rank) ? trace->ranks[rank].host_speed : 0.0;
}

double met_trace_any_part_time(const met_trace_t *trace, int rank, met_part_t part)
{
  if (!valid_rank(trace, rank) || (unsigned)part >= MET_PART_COUNT)
    return 0.0;
  return trace->ranks[rank].any_parts[part];
}

const char *met_category_name(met_category_t category)
{
  return (unsigned)category < MET_CAT_COUNT ? category_names[category] : NULL;
}

static const char *const call_names[MET_CALLS] = {[MET_CALL_BARRIER] = "MPI_Barrier",
                                                  [MET_CALL_BCAST] = "MPI_Bcast",
                                                  [MET_CALL_REDUCE] = "MPI_Reduce",
                                                  [MET_CALL_ALLREDUCE] = "MPI_Allreduce",
                                                  [MET_CALL_GATHER] = "MPI_Gather",
                                                  [MET_CALL_GATHERV] = "MPI_Gatherv",
                                                  [MET_CALL_ALLGATHER] = "MPI_Allgather",
                                                  [MET_CALL_ALLGATHERV] = "MPI_Allgatherv",
                                                  [MET_CALL_SCATTER] = "MPI_Scatter",
                                                  [MET_CALL_SCATTERV] = "MPI_Scatterv",
                                                  [MET_CALL_ALLTOALL] = "MPI_Alltoall",
                                                  [MET_CALL_ALLTOALLV] = "MPI_Alltoallv",
                                                  [MET_CALL_REDUCE_SCATTER] = "MPI_Reduce_scatter",
                                                  [MET_CALL_SCAN] = "MPI_Scan",
                                                  [MET_CALL_EXSCAN] = "MPI_Exscan"};

const char *met_coll_call_name(met_coll_call_t call)
{
  return call > MET_CALL_UNNAMED && call < MET_CALLS ? call_names[call] : NULL;
}

met_coll_call_t met_coll_call_of(const char *name)
{
  for (int c = MET_CALL_BARRIER; name && c < MET_CALLS; c++)
    if (strcmp(name, call_names[c]) == 0)
      return (met_coll_call_t)c;
  return name && strcmp(name, "MPI_Reduce_scatter_block") == 0 ? MET_CALL_REDUCE_SCATTER : MET_CALL_UNNAMED;
}
