/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Messages' groups and one start per message (issue 47 item 4): each receiving end that counts a message paired with
 * the sending end it got it from, as MPI pairs them, whichever comes first, so that the message-time table measures
 * the transfer from the send's start and the exports draw the message from there (met_interval_t.sent). */
#include "bas_error.h"
#include "met_trace_internal.h"

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

int met_trace_pair_room(met_trace_t *trace, int rank, const met_interval_t *iv, int counted)
{
  int kind = end_kind(iv, counted);
  if (kind < 0)
    return 0;
  met_timeline_t *to = &trace->ranks[kind ? rank : iv->peer];
  met_end_t *held = grow(to->held, &to->held_cap, to->nheld + 1, sizeof *held);
  if (!held)
    return BAS_ENOMEM;
  to->held = held;
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

/* Whether the held end `e` is the other end of `mine`, a receive when `receiving`. */
static bool pairs(const met_end_t *e, const met_end_t *mine)
{
  if (e->receiving == mine->receiving || e->from != mine->from || e->comm != mine->comm)
    return false;
  int recv_tag = mine->receiving ? mine->tag : e->tag;
  int send_tag = mine->receiving ? e->tag : mine->tag;
  return recv_tag < 0 || recv_tag == send_tag;
}

/* `iv` of `rank` as an end held in its receiver's timeline (which *to gets), at `index` in a whole trace; `kind` is
 * end_kind's. */
static met_end_t as_end(const met_interval_t *iv, int rank, int kind, size_t index, int *to)
{
  *to = kind ? rank : iv->peer;
  return (met_end_t){.from = kind ? iv->peer : rank,
                     .tag = iv->tag,
                     .comm = iv->comm,
                     .receiving = kind,
                     .start = iv->start,
                     .end = iv->end,
                     .bytes = iv->bytes,
                     .hops = iv->hops,
                     .index = index};
}

/* The held end that `mine`, to be held in `timeline`, pairs with: its index, or -1. */
static long partner(const met_timeline_t *timeline, const met_end_t *mine)
{
  for (size_t i = 0; i < timeline->nheld; i++)
    if (pairs(&timeline->held[i], mine))
      return (long)i;
  return -1;
}

double met_trace_sent(const met_trace_t *trace, int rank, const met_interval_t *iv, int counted)
{
  int to, kind = end_kind(iv, counted);
  if (kind != 1)
    return iv->start;
  met_end_t mine = as_end(iv, rank, kind, 0, &to);
  long i = partner(&trace->ranks[to], &mine);
  double sent = i < 0 ? iv->start : trace->ranks[to].held[i].start;
  return sent < iv->end ? sent : iv->end;
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
  long i = partner(timeline, &mine);
  if (i < 0) {
    timeline->held[timeline->nheld++] = mine; /* room made by met_trace_pair_room */
    return;
  }
  met_end_t other = timeline->held[i];
  memmove(&timeline->held[i], &timeline->held[i + 1], (timeline->nheld - (size_t)i - 1) * sizeof *timeline->held);
  timeline->nheld--;
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
  for (size_t i = 0; i < copy.nheld; i++)
    if (copy.held[i].receiving) {
      met_interval_t key = {.bytes = copy.held[i].bytes, .hops = copy.held[i].hops};
      add_transfer(met_trace_group(&copy, &key), copy.held[i].end - copy.held[i].start);
    }
  *groups = copy.groups;
  return (long)copy.ngroups;
}
