/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Messages' groups and one start per message (issue 47 item 4): each receiving end that counts a message paired with
 * the sending end it got it from, as MPI pairs them, whichever comes first, so that the message-time table measures
 * the transfer from the send's start and the exports draw the message from there (met_interval_t.sent). */
#include "bas_error.h"
#include "met_trace_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Which end of a message `iv` is for the pairing, `counted` when it counts its message (met_message_ends): 1 a
 * receiving end that counts it, 0 a sending end, -1 neither. */
static int end_kind(const met_interval_t *iv, int counted)
{
  if (iv->category == MET_CAT_COMM && iv->dir == MET_DIR_SEND && iv->peer >= 0)
    return 0;
  return iv->dir == MET_DIR_RECV && counted ? 1 : -1;
}

met_msg_group_t *met_trace_group(met_timeline_t *timeline, const met_interval_t *iv)
{
  met_msg_group_t *g = timeline->ngroups ? &timeline->groups[timeline->last_group] : NULL;
  if (g && g->bytes == iv->bytes && g->hops == iv->hops)
    return g;
  for (size_t i = 0; i < timeline->ngroups; i++)
    if (timeline->groups[i].bytes == iv->bytes && timeline->groups[i].hops == iv->hops) {
      timeline->last_group = i;
      return &timeline->groups[i];
    }
  met_msg_group_t *groups = grow(timeline->groups, &timeline->group_cap, timeline->ngroups + 1, sizeof *groups);
  if (!groups)
    return NULL;
  timeline->groups = groups;
  timeline->last_group = timeline->ngroups++;
  g = &groups[timeline->last_group];
  *g = (met_msg_group_t){.bytes = iv->bytes, .hops = iv->hops, .min = INFINITY, .wait_min = INFINITY};
  return g;
}

/* The lanes (met_trace_internal.h): looked up by envelope through an open-addressing table, made on demand. */
static size_t lane_hash(int from, unsigned comm, int receiving, int tag, size_t mask)
{
  /* the envelope's numbers packed, then splitmix64's finaliser (Steele et al. 2014), so that envelopes differing in
   * high bits only (tag = i << 16) spread over the low bits the table uses */
  unsigned long long h = ((unsigned long long)(unsigned)from << 32 | comm) ^
                         ((unsigned long long)(unsigned)tag << 1 | (unsigned)receiving) * 0x9e3779b97f4a7c15ull;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return (size_t)(h ^ (h >> 31)) & mask;
}

static bool lane_is(const met_lane_t *lane, int from, unsigned comm, int receiving, int tag)
{
  return lane->from == from && lane->comm == comm && lane->receiving == receiving && lane->tag == tag;
}

/* The lane of an envelope, or NULL. */
static met_lane_t *lane_find(const met_timeline_t *t, int from, unsigned comm, int receiving, int tag)
{
  if (!t->slot_cap)
    return NULL;
  for (size_t at = lane_hash(from, comm, receiving, tag, t->slot_cap - 1); t->lane_slots[at];
       at = (at + 1) & (t->slot_cap - 1))
    if (lane_is(&t->lanes[t->lane_slots[at] - 1], from, comm, receiving, tag))
      return &t->lanes[t->lane_slots[at] - 1];
  return NULL;
}

/* Puts lane number `l` into the table at its place. */
static void slot_put(met_timeline_t *t, size_t l)
{
  const met_lane_t *lane = &t->lanes[l];
  size_t at = lane_hash(lane->from, lane->comm, lane->receiving, lane->tag, t->slot_cap - 1);
  while (t->lane_slots[at])
    at = (at + 1) & (t->slot_cap - 1);
  t->lane_slots[at] = l + 1;
}

/* Room for one more lane: the lanes' array and a table at most half full. 0, or BAS_ENOMEM. */
static int lane_room(met_timeline_t *t)
{
  met_lane_t *lanes = grow(t->lanes, &t->lane_cap, t->nlanes + 1, sizeof *lanes);
  if (!lanes)
    return BAS_ENOMEM;
  t->lanes = lanes;
  if (2 * (t->nlanes + 1) <= t->slot_cap)
    return 0;
  size_t cap = t->slot_cap ? 2 * t->slot_cap : 16;
  size_t *slots = cap <= SIZE_MAX / sizeof *slots ? calloc(cap, sizeof *slots) : NULL;
  if (!slots)
    return BAS_ENOMEM;
  free(t->lane_slots);
  t->lane_slots = slots;
  t->slot_cap = cap;
  for (size_t l = 0; l < t->nlanes; l++)
    slot_put(t, l);
  return 0;
}

/* The lane of an envelope, made (with its group's, which chains the group's lanes) when it has none. NULL when out of
 * memory. */
static met_lane_t *lane_get(met_timeline_t *t, int from, unsigned comm, int receiving, int tag)
{
  met_lane_t *lane = lane_find(t, from, comm, receiving, tag);
  if (lane)
    return lane;
  if ((tag != MET_LANE_GROUP && !lane_get(t, from, comm, receiving, MET_LANE_GROUP)) || lane_room(t) != 0)
    return NULL;
  t->lanes[t->nlanes] = (met_lane_t){.from = from, .comm = comm, .receiving = receiving, .tag = tag};
  slot_put(t, t->nlanes);
  return &t->lanes[t->nlanes++];
}

/* Puts a lane that is to hold an end back into its group's chain, first, when an any-tag receive's walk took it out
 * (met_trace_pair's prune) or it is new. */
static void lane_chain(met_timeline_t *t, met_lane_t *lane)
{
  met_lane_t *group = lane_find(t, lane->from, lane->comm, lane->receiving, MET_LANE_GROUP);
  if (lane->chained || !group)
    return;
  lane->next = group->next;
  group->next = (size_t)(lane - t->lanes) + 1;
  lane->chained = 1;
}

static met_lane_t *partner(const met_timeline_t *t, const met_end_t *mine);
static met_end_t as_end(const met_interval_t *iv, int rank, int kind, size_t index, int *to);
static void prune(met_timeline_t *t, int from, unsigned comm);
static const met_end_t *lane_head(const met_lane_t *lane);

int met_trace_pair_room(met_trace_t *trace, int rank, const met_interval_t *iv, int counted, double *sent)
{
  int to, kind = end_kind(iv, counted);
  *sent = iv->start;
  if (kind < 0)
    return 0;
  met_end_t mine = as_end(iv, rank, kind, 0, &to);
  met_timeline_t *t = &trace->ranks[to];
  if (mine.receiving && mine.tag < 0)
    prune(t, mine.from, mine.comm);
  met_lane_t *other = partner(t, &mine);
  if (other && kind == 1) /* never after its end */
    *sent = lane_head(other)->start < iv->end ? lane_head(other)->start : iv->end;
  if (other) /* it pairs at once: nothing to hold, no lane made for it */
    return 0;
  met_lane_t *lane = lane_get(t, mine.from, mine.comm, mine.receiving, mine.tag);
  met_end_t *ends = lane ? grow(lane->ends, &lane->cap, lane->n + 1, sizeof *ends) : NULL;
  if (!ends)
    return BAS_ENOMEM;
  lane->ends = ends;
  lane_chain(t, lane);
  return 0;
}

/* Adds a transfer of `seconds` to `group`. */
static void add_transfer(met_msg_group_t *group, double seconds)
{
  group->transfers++;
  group->sum += seconds;
  group->min = seconds < group->min ? seconds : group->min;
  group->max = seconds > group->max ? seconds : group->max;
}

/* The receive `recv` of rank `rank` got the message whose send started at `sent`: its transfer counted, its
 * interval's `sent` set in a whole trace, and in a spilled one's file when it was held (else it is spilled with it). */
static void paired(met_trace_t *trace, int rank, const met_end_t *recv, double sent, int held)
{
  met_timeline_t *timeline = &trace->ranks[rank];
  double from = sent < recv->end ? sent : recv->end;
  met_interval_t key = {.bytes = recv->bytes, .hops = recv->hops};
  add_transfer(met_trace_group(timeline, &key), recv->end - from); /* it exists: the receive made it */
  if (!trace->aggregate)
    timeline->items[recv->index].sent = from;
  else if (trace->spill && held)
    trace->spill_failed |= met_trace_spill_sent(trace, recv->index, from) != 0;
}

/* The oldest end held in `lane`, or NULL. */
static const met_end_t *lane_head(const met_lane_t *lane)
{
  return lane && lane->head < lane->n ? &lane->ends[lane->head] : NULL;
}

/* The lane whose head is the end that `mine`, to be held in `t`, pairs with (as MPI pairs them: the oldest that
 * matches), or NULL: for a receive from tag T the sends of tag T, from any tag the oldest head of every tag's; for a
 * send of tag T the older head of the receives from T and from any tag. */
static met_lane_t *partner(const met_timeline_t *t, const met_end_t *mine)
{
  met_lane_t *best = NULL;
  if (!mine->receiving) {
    met_lane_t *lanes[2] = {lane_find(t, mine->from, mine->comm, 1, mine->tag),
                            lane_find(t, mine->from, mine->comm, 1, -1)};
    for (int k = 0; k < 2; k++)
      if (lane_head(lanes[k]) && (!lane_head(best) || lane_head(lanes[k])->seq < lane_head(best)->seq))
        best = lanes[k];
    return best;
  }
  if (mine->tag >= 0) {
    met_lane_t *lane = lane_find(t, mine->from, mine->comm, 0, mine->tag);
    return lane_head(lane) ? lane : NULL;
  }
  const met_lane_t *group = lane_find(t, mine->from, mine->comm, 0, MET_LANE_GROUP);
  for (size_t l = group ? group->next : 0; l; l = t->lanes[l - 1].next)
    if (lane_head(&t->lanes[l - 1]) && (!lane_head(best) || lane_head(&t->lanes[l - 1])->seq < lane_head(best)->seq))
      best = &t->lanes[l - 1];
  return best;
}

/* Takes the head of `lane`, compacting its array once half of it is taken, freeing it once empty (a lane stays for
 * its envelope, a few dozen bytes: programs that give each message a tag of its own make one per tag that waited). */
static met_end_t lane_pop(met_lane_t *lane)
{
  met_end_t head = lane->ends[lane->head++];
  if (lane->head == lane->n) {
    free(lane->ends);
    lane->ends = NULL;
    lane->head = lane->n = lane->cap = 0;
  } else if (lane->head > lane->n / 2) {
    memmove(lane->ends, lane->ends + lane->head, (lane->n - lane->head) * sizeof *lane->ends);
    lane->n -= lane->head;
    lane->head = 0;
  }
  return head;
}

/* `iv` of `rank` as an end held in its receiver's timeline (which *to gets), at `index` in a whole trace; `kind` is
 * end_kind's. */
static met_end_t as_end(const met_interval_t *iv, int rank, int kind, size_t index, int *to)
{
  *to = kind ? rank : iv->peer;
  return (met_end_t){.from = kind ? iv->peer : rank,
                     .tag = iv->tag < 0 ? -1 : iv->tag, /* any tag (a receive's); a send's never meets MET_LANE_GROUP */
                     .comm = iv->comm,
                     .receiving = kind,
                     .start = iv->start,
                     .end = iv->end,
                     .bytes = iv->bytes,
                     .hops = iv->hops,
                     .index = index};
}

/* Takes the empty lanes of the sends from `from` on `comm` out of their group's chain, so that an any-tag receive's
 * walk is as long as the tags that have a send waiting (met_trace_pair_room, before its walk). */
static void prune(met_timeline_t *t, int from, unsigned comm)
{
  met_lane_t *group = lane_find(t, from, comm, 0, MET_LANE_GROUP);
  for (size_t *link = group ? &group->next : NULL; link && *link;) {
    met_lane_t *lane = &t->lanes[*link - 1];
    if (lane->head < lane->n) {
      link = &lane->next;
      continue;
    }
    *link = lane->next;
    lane->next = 0;
    lane->chained = 0;
  }
}

void met_trace_pair(met_trace_t *trace, int rank, const met_interval_t *iv, size_t index, int counted)
{
  int kind = end_kind(iv, counted);
  if (kind < 0) {
    if (counted) /* no direction: no send to pair with */
      add_transfer(met_trace_group(&trace->ranks[rank], iv), iv->end - iv->start);
    return;
  }
  int to;
  met_end_t mine = as_end(iv, rank, kind, index, &to);
  met_timeline_t *timeline = &trace->ranks[to];
  met_lane_t *lane = partner(timeline, &mine); /* as met_trace_pair_room found it: nothing held changed since */
  if (!lane) {                                 /* room made by met_trace_pair_room */
    met_lane_t *own = lane_find(timeline, mine.from, mine.comm, mine.receiving, mine.tag);
    mine.seq = timeline->held_seq++;
    own->ends[own->n++] = mine;
    return;
  }
  met_end_t other = lane_pop(lane);
  paired(trace, to, kind ? &mine : &other, kind ? other.start : mine.start, !kind);
}

long met_trace_msg_settled(const met_trace_t *trace, int rank, met_msg_group_t **groups)
{
  *groups = NULL;
  if (!valid_rank(trace, rank) || trace->ranks[rank].ngroups == 0)
    return 0;
  met_timeline_t copy = trace->ranks[rank];
  copy.group_cap = copy.ngroups;
  copy.groups = malloc(copy.ngroups * sizeof *copy.groups);
  if (!copy.groups)
    return BAS_ENOMEM;
  memcpy(copy.groups, trace->ranks[rank].groups, copy.ngroups * sizeof *copy.groups);
  for (size_t l = 0; l < copy.nlanes; l++)
    for (size_t i = copy.lanes[l].head; copy.lanes[l].receiving && i < copy.lanes[l].n; i++) {
      const met_end_t *e = &copy.lanes[l].ends[i];
      met_interval_t key = {.bytes = e->bytes, .hops = e->hops};
      add_transfer(met_trace_group(&copy, &key), e->end - e->start);
    }
  *groups = copy.groups;
  return (long)copy.ngroups;
}
