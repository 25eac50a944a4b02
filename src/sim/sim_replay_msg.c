/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay layer's messages: synchronous rendezvous at the ranks' own clocks, posted and eager messages with their
 * requests (isend, irecv, test, wait), each recorded as its idle wait and its transfer (seed 000 §1.1.3). */
#include "bas_grow.h"
#include "sim_replay.h"
#include "sim_replay_comm.h"
#include "sim_replay_world.h"
#include "sim_ti.h"

#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/asserts.h>

/* Which of a peer slot's mailboxes carries the rank's messages of `bytes` to (`sending`) or from its peer, in the
 * order of slot_box: the collective ones inside a collective call; eager ones by their own when they start moving as
 * sent (both ends know a message is eager by its size). */
static int box_kind(const sim_world_t *world, int coll, int sending, double bytes)
{
  int eager = world->eager_at_send && bytes < world->eager_below;
  return 4 * eager + 2 * (coll != 0) + (sending != 0);
}

static sg_mailbox_t slot_box(const sim_peer_t *slot, int kind)
{
  switch (kind) {
  case 0:
    return slot->from;
  case 1:
    return slot->to;
  case 2:
    return slot->coll_from;
  case 3:
    return slot->coll_to;
  case 4:
    return slot->eager_from;
  case 5:
    return slot->eager_to;
  case 6:
    return slot->coll_eager_from;
  default:
    return slot->coll_eager_to;
  }
}

/* The mailbox of the rank's messages of `bytes` to (`sending`) or from `peer`, from the rank's last ones when there
 * (SimGrid's mailboxes live as long as the run), else from the peer's slot. */
static sg_mailbox_t mailbox(sim_rank_t *rank, int peer, int sending, double bytes)
{
  int kind = box_kind(rank->world, rank->in_coll, sending, bytes);
  long key = (long)peer * SIM_BOX_KINDS + kind + 1;
  for (int i = 0; i < SIM_RANK_BOXES; i++)
    if (rank->boxes[i].key == key)
      return rank->boxes[i].box;
  const sim_peer_t *slot = sim_replay_peer_slot(rank, peer);
  sg_mailbox_t box = slot_box(slot, kind);
  memmove(&rank->boxes[1], &rank->boxes[0], (SIM_RANK_BOXES - 1) * sizeof rank->boxes[0]);
  rank->boxes[0] = (sim_box_t){.key = key, .box = box};
  return box;
}

/* The slot of `t` that holds channel `key`, or the empty one where it goes. */
static sim_channel_t *probe(const sim_channels_t *t, int key)
{
  unsigned h = (unsigned)key * 0x9E3779B1u; /* Knuth's multiplicative hash; its high bits folded onto the low */
  unsigned i = (h ^ h >> 16) & t->mask;
  while (t->slots[i].key != key && t->slots[i].key != 0)
    i = (i + 1) & t->mask;
  return &t->slots[i];
}

/* Doubles `t` (16 slots when it has none); -1 when out of memory. */
static int grow(sim_channels_t *t)
{
  unsigned size = t->mask ? 2 * (t->mask + 1) : 16;
  sim_channels_t bigger = {.slots = calloc(size, sizeof(sim_channel_t)), .used = t->used, .mask = size - 1};
  if (!bigger.slots)
    return -1;
  for (unsigned i = 0; t->slots && i <= t->mask; i++)
    if (t->slots[i].key)
      *probe(&bigger, t->slots[i].key) = t->slots[i];
  free(t->slots);
  *t = bigger;
  return 0;
}

/* The rank's channel of mailbox key `key` (sim_box_t's), new when it has none; NULL when out of memory. */
static sim_channel_t *channel_of(sim_rank_t *rank, int key)
{
  sim_channels_t *t = &rank->channels;
  if (!t->slots && grow(t) != 0)
    return NULL;
  sim_channel_t *c = probe(t, key);
  if (c->key == key)
    return c;
  if (2 * (t->used + 1) > t->mask + 1) {
    if (grow(t) != 0)
      return NULL;
    c = probe(t, key);
  }
  t->used++;
  *c = (sim_channel_t){.key = key};
  return c;
}

/* Rank `owner`'s channel to (odd `kind`) or from `peer`, or NULL when it has none. */
static sim_channel_t *find_channel(const sim_rank_t *owner, int peer, int kind)
{
  if (!owner->channels.slots)
    return NULL;
  sim_channel_t *c = probe(&owner->channels, peer * SIM_BOX_KINDS + kind + 1);
  return c->key ? c : NULL;
}

/* The mailbox of the rank's next posted message of `bytes` to (`sending`) or from `peer`, its channel's block's
 * (sim_channel_t), and in *seq its number on the channel. Out of memory, the slot's, reported as the recorder's
 * failure. */
static sg_mailbox_t posted_box(sim_rank_t *rank, int peer, int sending, double bytes, unsigned *seq)
{
  int kind = box_kind(rank->world, rank->in_coll, sending, bytes);
  sim_channel_t *c = channel_of(rank, peer * SIM_BOX_KINDS + kind + 1);
  if (!c) {
    rank->world->record_error = 1;
    *seq = 0;
    return mailbox(rank, peer, sending, bytes);
  }
  unsigned n = *seq = c->posted++;
  unsigned block = n / SIM_BLOCK_MESSAGES % SIM_BLOCK_BOXES; /* cancels may have taken the count back a block */
  if (!c->box || block != c->block) {
    c->box = block ? sim_replay_block_box(rank, peer, kind, block) : mailbox(rank, peer, sending, bytes);
    c->block = block;
  }
  return c->box;
}

/* Keeps eager message `e`, number `seq` of the rank's to `peer`, out of SimGrid when it is SIM_HOLD_AHEAD messages
 * or more ahead of its receive (returns 1; else 0): its receiver starts it as it posts that receive (take_held),
 * when SimGrid would have started it from the mailbox. There, it would stay in the sender's list of activities,
 * which SimGrid 3.32 walks whole at each end of a message of the sender's (ActorImpl::activities_, a
 * std::list::remove in CommImpl::finish): a sender far ahead of its receiver cost the square of its lead
 * (bench/eager-backlog.sh). Not closer: SimGrid keeps the message its receiver starts (a host-to-host one) in a list
 * of every such message under way, walked whole at each one's end (the maestro's), which a collective's messages,
 * each a few ahead at most, would fill (bench/scale.sh collectives: 256 ranks some 1.6 times as long). */
static int hold(sim_rank_t *rank, int peer, unsigned seq, sim_eager_t *e)
{
  int kind = box_kind(rank->world, rank->in_coll, 1, e->bytes);
  const sim_channel_t *receiving = find_channel(&rank->world->ranks[peer], rank->id, kind - 1);
  unsigned posted = receiving ? receiving->posted : 0;
  if ((int)(seq - posted) < SIM_HOLD_AHEAD) /* its receive waits in the mailbox, or comes soon */
    return 0;
  sim_channel_t *c = find_channel(rank, peer, kind);
  if (!c)
    return 0;
  e->seq = seq;
  e->held_next = NULL;
  if (c->held)
    c->held_last->held_next = e;
  else
    c->held = e;
  c->held_last = e;
  rank->world->held++;
  return 1;
}

/* Receive `req`, number `seq` of the rank's from its peer, takes the eager message the peer holds for it (hold), if
 * any (returns 1; else 0), which starts moving now from the peer's host. */
static int take_held(sim_rank_t *rank, sim_request_t *req, unsigned seq)
{
  if (!rank->world->held)
    return 0;
  sim_rank_t *sender = &rank->world->ranks[req->peer];
  sim_channel_t *c = find_channel(sender, rank->id, box_kind(rank->world, req->coll, 0, req->bytes) + 1);
  if (!c || !c->held || c->held->seq != seq)
    return 0;
  sim_eager_t *e = c->held;
  c->held = e->held_next;
  rank->world->held--;
  req->data = e;
  req->took_held = 1;
  req->comm = sim_comm_sendto(sender->host, rank->host, (double)(long)(e->bytes + rank->world->envelope));
  return 1;
}

/* Whether the other end of posted request `req` (its receive, or its message) was posted too, by that rank's count on
 * the channel: its communication met it in the mailbox, or will as SimGrid handles the calls the ranks made before
 * this one. SimGrid's own state lags: a rank's call reaches it only once every rank has had its turn, so a cancel
 * that read it found a receive alone that a send posted just before then met, and cancelled the transfer under it. */
static int other_end_posted(const sim_rank_t *rank, const sim_request_t *req)
{
  int kind = box_kind(rank->world, req->coll, req->sending, req->bytes);
  const sim_channel_t *c = find_channel(&rank->world->ranks[req->peer], rank->id, req->sending ? kind - 1 : kind + 1);
  return c && (int)(c->posted - req->seq) > 0;
}

/* The rank's channel of posted request `req` when `req` is the last the rank posted there, else NULL:
 * app_ti_actions.c's do_cancel cancels the last pending one, but a blocking message may have come after it.
 * Cancelling another would leave a hole in the channel's numbers, and the mailbox would pair the next messages one off
 * from what the ranks' counts say. */
static sim_channel_t *last_posted(sim_rank_t *rank, const sim_request_t *req)
{
  sim_channel_t *c = find_channel(rank, req->peer, box_kind(rank->world, req->coll, req->sending, req->bytes));
  return c && c->posted == req->seq + 1 ? c : NULL;
}

/* Posted request `req` was cancelled before its message's other end met it: when it is the last the rank posted on
 * its channel (app_ti_actions.c's do_cancel cancels the last pending one), the channel's next message takes its
 * number; a message its sender held for it (take_held) goes back to the head of what the sender holds. */
static void unpost(sim_rank_t *rank, const sim_request_t *req)
{
  sim_channel_t *c = last_posted(rank, req);
  if (c)
    c->posted--;
  int kind = box_kind(rank->world, req->coll, req->sending, req->bytes);
  sim_channel_t *sending = req->took_held ? find_channel(&rank->world->ranks[req->peer], rank->id, kind + 1) : NULL;
  if (sending) {
    sim_eager_t *e = req->data;
    if (!sending->held)
      sending->held_last = e;
    e->held_next = sending->held;
    sending->held = e;
    rank->world->held++;
  }
}

/* Request `req`, cancelled after its communication met its other end in a mailbox (the replay's sender, or receiver,
 * came earlier than the run's), or when it is not its channel's last (last_posted): kept, still counted as under way
 * (sim_orphan_t), its number kept too (the other rank's count says it was posted). When it is the last, the next
 * request of the same kind takes its place (adopt, take_sent): a receive the message, a send the receive it met;
 * else, and when none comes, it is waited for at the rank's end. Out of memory, waited for at once, reported as the
 * recorder's failure. */
static void orphan(sim_rank_t *rank, sim_request_t *req)
{
  sim_request_t *holder = req->holder ? req->holder : req;
  int adoptable = last_posted(rank, req) != NULL;
  if (bas_reserve((void **)&rank->orphans, &rank->orphans_cap, rank->norphans, sizeof *rank->orphans, 4) != 0) {
    rank->world->record_error = 1;
    double start;
    sim_comm_finish(req->comm, 1, &start);
    rank->pending--;
    if (holder != req)
      free(holder);
    free(req);
    return;
  }
  rank->orphans[rank->norphans++] = (sim_orphan_t){.peer = req->peer,
                                                   .kind = box_kind(rank->world, req->coll, req->sending, req->bytes),
                                                   .seq = req->seq,
                                                   .comm = req->comm,
                                                   .holder = holder,
                                                   .taken = !adoptable};
  if (holder != req)
    free(req);
}

/* The rank's orphan to or from `peer` on the mailbox of `kind` whose place the request just numbered there may take,
 * that request's number then back to the channel; NULL when there is none. */
static sim_orphan_t *take_place(sim_rank_t *rank, int peer, int kind)
{
  for (size_t i = 0; i < rank->norphans; i++)
    if (rank->orphans[i].peer == peer && rank->orphans[i].kind == kind && !rank->orphans[i].taken) {
      find_channel(rank, peer, kind)->posted--;
      return &rank->orphans[i];
    }
  return NULL;
}

/* Request `req`, just numbered on its channel, takes the place of the cancelled request the rank kept there (orphan),
 * if any (returns 1; else 0): that one's number (its own goes back to the channel) and its communication (a receive
 * the message the orphan met, a send the receive). */
static int adopt(sim_rank_t *rank, sim_request_t *req)
{
  int kind = box_kind(rank->world, req->coll, req->sending, req->bytes);
  sim_orphan_t *o = take_place(rank, req->peer, kind);
  if (!o)
    return 0;
  req->seq = o->seq;
  req->comm = o->comm;
  req->holder = o->holder;
  *o = rank->orphans[--rank->norphans];
  rank->pending--; /* counted since the cancelled request's posting */
  return 1;
}

/* An eager send of `bytes` to `peer`, just numbered, in place of a cancelled send whose receive had met it (orphan):
 * its message is that one, already under way, and its number goes back to the channel (returns 1; else 0). */
static int take_sent(sim_rank_t *rank, int peer, double bytes)
{
  int kind = box_kind(rank->world, rank->in_coll, 1, bytes);
  sim_orphan_t *o = take_place(rank, peer, kind);
  if (!o)
    return 0;
  o->taken = 1;
  return 1;
}

void sim_replay_orphans_settle(sim_rank_t *rank)
{
  while (rank->norphans) { /* out of the list before the wait: a deadlock may end the run inside it */
    sim_orphan_t o = rank->orphans[--rank->norphans];
    rank->settling = o.holder; /* freed with the world if so */
    double start;
    sim_comm_finish(o.comm, 1, &start);
    rank->pending--;
    rank->settling = NULL;
    free(o.holder);
  }
}

void sim_replay_orphans_free(sim_rank_t *rank)
{
  for (size_t i = 0; i < rank->norphans; i++) {
    sg_comm_unref(rank->orphans[i].comm);
    free(rank->orphans[i].holder);
  }
  free(rank->orphans);
  free(rank->settling);
}

/* Whether `partner` waits, blocked, for this rank's end of the message it is about to take part in. */
static int partner_waits(const sim_rank_t *rank, const sim_rank_t *partner, int sending)
{
  return partner->blocked_on == rank->id && partner->blocked_in_send != sending &&
         partner->blocked_in_coll == rank->in_coll;
}

/* The rank blocks in a message with `peer` (-1: no longer blocked). */
static void block_on(sim_rank_t *rank, int peer, int sending, int coll)
{
  rank->blocked_on = peer;
  rank->blocked_in_send = sending;
  rank->blocked_in_coll = coll;
}

/* The message itself, once both ends are there: blocks until it has arrived. */
static void transfer(sim_rank_t *rank, int peer, int sending, double bytes)
{
  if (sending)
    sim_comm_send(mailbox(rank, peer, 1, bytes), (double)(long)bytes, NULL);
  else
    sim_comm_recv(mailbox(rank, peer, 0, bytes));
}

/* A message from `peer` with this payload was received: an eager one leaves the world's list, and its sender has one
 * fewer under way. */
static void received(sim_rank_t *rank, int peer, void *payload)
{
  if (payload && payload != &rank->world->ranks[peer]) {
    sim_replay_eager_received(rank->world, payload);
    rank->world->ranks[peer].pending--;
  }
}

/* `req`'s communication is over. */
static void completed(sim_rank_t *rank, sim_request_t *req)
{
  req->comm = NULL;
  req->end = simgrid_get_clock();
  rank->pending--;
  if (req->holder) { /* its message went into the cancelled receive's request */
    req->data = req->holder->data;
    free(req->holder);
    req->holder = NULL;
  }
  if (!req->sending)
    received(rank, req->peer, req->data);
}

/* An end of a message to or from `peer` posted now: a partner waiting in one_call for it learns when it started. */
static void meet(sim_rank_t *rank, int peer, int sending)
{
  sim_rank_t *partner = &rank->world->ranks[peer];
  if (partner->rendezvous && partner_waits(rank, partner, sending)) {
    partner->rendezvous = 0;
    partner->match_time = simgrid_get_clock();
  }
}

/* An eager message that starts moving now (simrun:eager-start = send), once the last one to the same peer arrived. */
static void send_at_once(sim_rank_t *rank, int peer, sg_mailbox_t box, void *payload, long simulated)
{
  sim_peer_t *slot = sim_replay_peer_slot(rank, peer);
  if (slot->eager_last)
    sim_replay_eager_flush(rank, slot);
  slot->eager_last = sg_mailbox_put_async(box, payload, simulated);
}

/* Posts the message as a SimGrid communication now, the SimGrid clock at the rank's own, without waiting for it. */
static void post_now(sim_rank_t *rank, sim_request_t *req, int peer, int sending, double bytes)
{
  unsigned seq;
  sg_mailbox_t box = posted_box(rank, peer, sending, bytes, &seq);
  sim_replay_eager_release(rank);
  *req = (sim_request_t){
      .peer = peer, .sending = sending, .bytes = bytes, .coll = rank->in_coll, .tag = rank->tag, .seq = seq};
  meet(rank, peer, sending);
  long simulated = (long)(bytes + rank->world->envelope);
  if (sending && bytes < rank->world->eager_below) { /* sent eagerly: over for the sender at once */
    if (rank->norphans && take_sent(rank, peer, bytes)) {
      req->start = req->end = rank->ready;
      return;
    }
    sim_eager_t *payload = sim_replay_eager_sent(rank, peer, bytes);
    if (rank->world->eager_at_send)
      send_at_once(rank, peer, box, payload, simulated);
    else if (payload == (void *)rank)
      sg_comm_detach(sg_mailbox_put_init(box, payload, simulated), NULL); /* out of memory: reported, left to SimGrid */
    else if (!hold(rank, peer, seq, payload))
      payload->comm = sg_mailbox_put_async(box, payload, simulated); /* released once received */
    req->start = req->end = rank->ready;
    return;
  }
  int taken = !sending && take_held(rank, req, seq);
  if (!taken && rank->norphans)
    taken = adopt(rank, req);
  if (!taken)
    req->comm = sending ? sg_mailbox_put_async(box, rank, simulated) : sg_mailbox_get_async(box, &req->data);
  rank->pending++;
}

/* Posts the message as a SimGrid communication at the rank's own clock, without waiting for it. */
static void post(sim_rank_t *rank, sim_request_t *req, int peer, int sending, double bytes)
{
  sim_replay_catch_up(rank);
  if (rank->world->analytic) {
    sim_replay_analytic_post(rank, req, peer, sending, bytes);
    req->tag = rank->tag;
  } else
    post_now(rank, req, peer, sending, bytes);
}

/* A blocking message in one SimGrid call per end, the SimGrid clock at the rank's own, when neither rank has another
 * message under way (so this one is alone on its mailbox): the end that comes second starts it at its clock and
 * tells the first, waiting in it. */
static void one_call(sim_rank_t *rank, int peer, int sending, double bytes)
{
  sim_rank_t *partner = &rank->world->ranks[peer];
  double arrived = rank->ready;
  double started = simgrid_get_clock();
  int second = partner->rendezvous && partner_waits(rank, partner, sending);
  if (second)
    meet(rank, peer, sending);
  else {
    block_on(rank, peer, sending, rank->in_coll);
    rank->rendezvous = 1;
  }
  double simulated = (double)(long)(bytes + rank->world->envelope);
  if (sending)
    sim_comm_send(posted_box(rank, peer, 1, bytes, &(unsigned){0}), simulated, rank);
  else
    received(rank, peer, sim_comm_recv(posted_box(rank, peer, 0, bytes, &(unsigned){0})));
  if (!second) {
    rank->blocked_on = -1;
    started = rank->match_time;
  }
  sim_replay_message_over(rank, peer, sending, bytes, arrived, started, simgrid_get_clock());
}

/* Blocks until `req` is over (at once when a test found it over): the rank idles until its transfer started, then
 * communicates until it ended, by the rank's own clock (a transfer that went on while it computed costs nothing). */
static void finish(sim_rank_t *rank, sim_request_t *req)
{
  rank->msg_tag = req->tag;
  if (rank->world->analytic) {
    sim_replay_analytic_finish(rank, req);
    return;
  }
  double arrived = rank->ready;
  if (req->comm) {
    block_on(rank, req->peer, req->sending, req->coll);
    sim_comm_finish(req->comm, 1, &req->start);
    rank->blocked_on = -1;
    completed(rank, req);
  }
  sim_replay_request_over(rank, req, arrived);
}

/* Whether messages are posted (post, finish) rather than met in the rendezvous below: after sim_post_at_own_clock, or
 * on a platform whose message library sends small messages eagerly (follow_platform_protocol). */
static int posts_messages(const sim_world_t *world)
{
  return world->posted_clock || world->eager_below > 0;
}

/* A blocking message posted at the rank's clock (posts_messages): in one SimGrid call per end when neither rank has
 * another message under way, else as a request finished at once. Out of line, so that its request is not in the frame
 * of every rendezvous message: a rank's stack lines from the skeleton down to SimGrid are touched again at each of its
 * turns, a cache miss each (docs/scale.md). */
__attribute__((noinline)) static void posted_message(sim_rank_t *rank, int peer, int sending, double bytes)
{
  sim_replay_catch_up(
      rank); /* once (a second sleep could add SimGrid's precision), and before looking at the partner */
  if (!(sending && bytes < rank->world->eager_below) && peer != rank->id && rank->pending == 0 &&
      rank->world->ranks[peer].pending == 0) {
    one_call(rank, peer, sending, bytes);
    return;
  }
  sim_request_t req;
  post_now(rank, &req, peer, sending, bytes);
  finish(rank, &req);
}

/* A synchronous message with `peer`: it starts when the later of the two ends gets there, by their own clocks.
 * The rank that comes first says when it got there and waits inside the SimGrid message at once, even when its own
 * clock is ahead of SimGrid's: SimGrid starts a message only once both ends are in it, and the one that comes second
 * catches the SimGrid clock up with the later arrival before it goes in. Actors are cooperative, so nothing runs
 * between a check of the partner's state and the blocking call after it. */
static void message(sim_rank_t *rank, int peer, int sending, double bytes)
{
  rank->msg_tag = rank->tag;
  if (rank->world->analytic) { /* on its ranks' own clocks: no SimGrid clock to catch up */
    sim_replay_analytic_message(rank, peer, sending, bytes);
    return;
  }
  if (posts_messages(rank->world)) {
    posted_message(rank, peer, sending, bytes);
    return;
  }
  sim_rank_t *partner = &rank->world->ranks[peer];
  double arrived = rank->ready;
  double started;
  rank->in_message = 1;
  if (partner_waits(rank, partner, sending)) {
    started = arrived > partner->arrived ? arrived : partner->arrived;
    partner->blocked_on = -1;
    partner->match_time = started;
    rank->ready = started;
    sim_replay_catch_up(rank);
    transfer(rank, peer, sending, bytes);
  } else {
    block_on(rank, peer, sending, rank->in_coll);
    rank->arrived = arrived;
    transfer(rank, peer, sending, bytes);
    started = rank->match_time;
    arrived = rank->arrived; /* later if a message through its host stole cycles meanwhile */
  }
  rank->in_message = 0;
  if (sending)
    sim_replay_charge_relays(rank, peer, bytes, started);
  /* SimGrid rounds times to its precision: a message that ends within it of its start ends at its start */
  double now = simgrid_get_clock();
  rank->ready = now > started ? now : started;
  met_dir_t dir = sending ? MET_DIR_SEND : MET_DIR_RECV;
  sim_replay_record(rank, MET_CAT_IDLE, arrived, started, peer, dir, 0, NULL);
  sim_replay_record(rank, MET_CAT_COMM, started, rank->ready, peer, dir, bytes, NULL);
}

/* A message in the TI trace: its tag (sim_tag; SMPI's any tag for -1), whole bytes as the simulated message carries
 * them, as that many elements of MPI_BYTE. */
static void ti_message(sim_rank_t *rank, const char *verb, int peer, double bytes)
{
  if (rank->world->ti && sim_ti_action(rank->world->ti, rank->id, "%s %d %d %ld %d", verb, peer,
                                       rank->tag < 0 ? SIM_TI_ANY_TAG : rank->tag, (long)bytes, SIM_TI_MPI_BYTE) != 0)
    rank->world->record_error = 1;
}

void sim_tag(sim_rank_t *rank, int tag)
{
  xbt_assert(tag >= -1, "rank %d: bad tag %d", rank->id, tag);
  rank->tag = tag;
}

/* Counts a message from `rank` to rank `dst` (a collective's step included) when both are on one host that the
 * platform routes to itself over its links: the run says at its end how they were priced (sim_replay_run.c). */
static void count_same_host(sim_rank_t *rank, int dst, double bytes)
{
  sim_world_t *world = rank->world;
  if (world->ranks[dst].host != rank->host)
    return;
  if (rank->self_route == 0) /* looked up once a rank: 1 no, 2 yes */
    rank->self_route = sim_engine_self_links(rank->host, NULL, 0) > 0 ? 2 : 1;
  if (rank->self_route == 1)
    return;
  if (world->same_host++ == 0) {
    world->same_host_from = rank->id;
    world->same_host_to = dst;
  }
  world->same_host_bytes += bytes;
}

void sim_send(sim_rank_t *rank, int dst, double bytes)
{
  xbt_assert(dst >= 0 && dst < sim_rank_count(rank) && (dst != rank->id || rank->world->posted_clock),
             "rank %d: bad destination %d", rank->id, dst);
  count_same_host(rank, dst, bytes);
  ti_message(rank, "send", dst, bytes);
  message(rank, dst, 1, bytes);
}

void sim_recv(sim_rank_t *rank, int src, double bytes)
{
  xbt_assert(src >= 0 && src < sim_rank_count(rank) && (src != rank->id || rank->world->posted_clock),
             "rank %d: bad source %d", rank->id, src);
  ti_message(rank, "recv", src, bytes);
  message(rank, src, 0, bytes);
}

void sim_post_at_own_clock(sim_rank_t *rank, double eager_below, double envelope)
{
  rank->world->posted_clock = 1;
  rank->world->eager_below = eager_below;
  rank->world->envelope = envelope;
  rank->world->eager_at_send = 0; /* SMPI's eager messages start when received (smpi/async-small-thresh 0) */
}

/* A new request for a message posted now; NULL (reported as the recorder's out-of-memory failure) when out of memory.
 */
static sim_request_t *start_request(sim_rank_t *rank, int peer, int sending, double bytes)
{
  xbt_assert(rank->world->posted_clock, "rank %d: non-blocking messages need sim_post_at_own_clock", rank->id);
  xbt_assert(peer >= 0 && peer < sim_rank_count(rank), "rank %d: bad peer %d", rank->id, peer);
  if (sending)
    count_same_host(rank, peer, bytes);
  sim_request_t *req = malloc(sizeof *req);
  if (!req) {
    rank->world->record_error = 1;
    return NULL;
  }
  post(rank, req, peer, sending, bytes);
  if (sending)
    sim_replay_send_posted(rank, req);
  return req;
}

sim_request_t *sim_isend(sim_rank_t *rank, int dst, double bytes)
{
  return start_request(rank, dst, 1, bytes);
}

sim_request_t *sim_irecv(sim_rank_t *rank, int src, double bytes)
{
  return start_request(rank, src, 0, bytes);
}

int sim_test(sim_rank_t *rank, sim_request_t *req)
{
  if (!req->comm && !req->amsg)
    return 1;
  sim_replay_catch_up(rank);
  if (rank->world->analytic)
    return sim_replay_analytic_test(rank, req);
  if (!sim_comm_finish(req->comm, 0, &req->start))
    return 0;
  completed(rank, req);
  return 1;
}

void sim_cancel(sim_rank_t *rank, sim_request_t *req)
{
  if (rank->world->analytic)
    sim_replay_analytic_cancel(rank, req);
  if (req->comm) {
    if (!req->took_held && (other_end_posted(rank, req) || !last_posted(rank, req))) {
      orphan(rank, req);
      return;
    }
    unpost(rank, req);
    sim_comm_cancel(req->comm);
    rank->pending--;
  }
  free(req->holder);
  free(req);
}

void sim_wait(sim_rank_t *rank, sim_request_t *req)
{
  finish(rank, req);
  free(req);
}
