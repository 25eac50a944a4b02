/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* TreadMarks' protocol on NCP2 (seed 002 §3, Figs. 1-3): the commands of page requests, diff requests and barriers,
 * each a step on a node's engine (its protocol controller, or the PP through interrupts), the page state they keep,
 * and the engine and network-interface actors that run them. */
#include "sim_dsm_world.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_progress.h"

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/asserts.h>

/* A command's operation and the interval of Figs. 1-3 it spends queued (1, 4, 8 or 11); it is executed in the next.
 * Kinds queued in 4 or 11 arrive from the network. */
const dsm_kind_info_t sim_dsm_kinds[DSM_KIND_COUNT] = {
    [DSM_LOCAL_PAGE_REQUEST] = {MET_OP_PAGE, 1},
    [DSM_REMOTE_PAGE_REQUEST] = {MET_OP_PAGE, 4},
    [DSM_PAGE_REPLY_SEND] = {MET_OP_PAGE, 8},
    [DSM_PAGE_REPLY] = {MET_OP_PAGE, 11},
    [DSM_LOCAL_DIFF_REQUEST] = {MET_OP_DIFF, 1},
    [DSM_REMOTE_DIFF_REQUEST] = {MET_OP_DIFF, 4},
    [DSM_DIFF_REPLY_SEND] = {MET_OP_DIFF, 8},
    [DSM_DIFF_REPLY] = {MET_OP_DIFF, 11},
    [DSM_SEND_ARRIVAL] = {MET_OP_BARRIER, 1},
    [DSM_RECEIVE_ARRIVAL] = {MET_OP_BARRIER, 4},
    [DSM_SEND_RELEASE] = {MET_OP_BARRIER, 8},
    [DSM_RECEIVE_RELEASE] = {MET_OP_BARRIER, 11},
    [DSM_STOP] = {MET_OP_NONE, 0},
};

/* ---- Commands, messages and the engine's work ---- */

static met_ce_op_t op_of(const dsm_msg_t *m)
{
  return sim_dsm_kinds[m->kind].op;
}

dsm_msg_t *sim_dsm_msg_new(dsm_kind_t kind, int origin, long item, int scope)
{
  dsm_msg_t *m = sim_dsm_calloc(1, sizeof *m);
  *m = (dsm_msg_t){.kind = kind, .origin = origin, .peer = -1, .item = item, .scope = scope};
  return m;
}

/* Appends `m` to the node's FIFO; the interval before its queueing one ends now. */
void sim_dsm_enqueue(struct sim_dsm_node *n, dsm_msg_t *m)
{
  if (m->kind != DSM_STOP)
    m->mark[sim_dsm_kinds[m->kind].queued - 1] = sim_dsm_now();
  m->next = NULL;
  if (n->tail)
    n->tail->next = m;
  else
    n->head = m;
  n->tail = m;
  sg_sem_release(n->queued);
}

static dsm_msg_t *dequeue(struct sim_dsm_node *n)
{
  sg_sem_acquire(n->queued);
  dsm_msg_t *m = n->head;
  n->head = m->next;
  if (!n->head)
    n->tail = NULL;
  return m;
}

/* Sends a copy of `m` as `kind` to node `dest`'s interface: the sender's execution interval ends now, the network's
 * begins. The sending engine does not wait for the transfer (DMA to the network). */
static void net_send(struct sim_dsm_node *n, const dsm_msg_t *m, dsm_kind_t kind, int dest, double bytes)
{
  dsm_msg_t *copy = sim_dsm_calloc(1, sizeof *copy);
  *copy = *m;
  copy->kind = kind;
  copy->mark[sim_dsm_kinds[kind].queued - 2] = sim_dsm_now();
  sg_comm_t comm = sg_mailbox_put_init(n->world->node[dest].inbox, copy, (long)ceil(bytes));
  sg_comm_detach(comm, NULL);
}

/* One command's work on the node's engine: on the CP, cp_cycles of its processor plus a DMA of dma_bytes over the PP-CP
 * path; without CP, sw_cycles taken from the PP (Extra for the node's own requests, Prste for others'). */
static void engine_work(struct sim_dsm_node *n, const dsm_msg_t *m, double cp_cycles, double dma_bytes,
                        double sw_cycles)
{
  if (n->world->program.controller) {
    sim_dsm_run_on(n->engine_host, cp_cycles);
    if (dma_bytes > 0)
      sg_actor_sleep_for(n->bus_latency + dma_bytes / n->bus_bandwidth);
    return;
  }
  sim_dsm_pp_enter(n, m->origin == n->id ? MET_CE_EXTRA : MET_CE_PRSTE, m->scope, op_of(m));
  sim_dsm_run_on(n->pp_host, sw_cycles);
  sim_dsm_pp_leave(n);
}

/* Intervals 6-7: the node's PP runs a handler of `cycles` for its engine. With a CP, an interrupt: the CP waits for the
 * PP (CPWait) through the interrupt latency and the handler; without, the PP is already there. */
static void handler_begin(struct sim_dsm_node *n, dsm_msg_t *m, double cycles)
{
  dsm_world_t *w = n->world;
  if (w->program.controller) {
    sim_dsm_unit_set(w, &n->cp, MET_CE_CPWAIT, m->scope, op_of(m));
    sg_actor_sleep_for(w->interrupt_s);
    cycles += w->c.handler_cycles;
  }
  sim_dsm_pp_enter(n, MET_CE_PRSTE, m->scope, op_of(m));
  m->mark[6] = sim_dsm_now();
  sim_dsm_run_on(n->pp_host, cycles);
}

/* Ends the handler; with a CP, records the CP's wait as a request whose intervals 6 and 7 are the PP's. */
static void handler_end(struct sim_dsm_node *n, dsm_msg_t *m)
{
  dsm_world_t *w = n->world;
  m->mark[7] = sim_dsm_now();
  sim_dsm_pp_leave(n);
  if (!w->program.controller)
    return;
  met_request_t req = {
      .node = n->id, .unit = MET_UNIT_CP, .op = op_of(m), .scope = m->scope, .peer = m->origin, .item = (int)m->item};
  for (int k = 0; k < MET_REQ_MARKS; k++)
    req.mark[k] = k < 6 ? m->mark[5] : k == 6 ? m->mark[6] : m->mark[7];
  sim_dsm_record_request(w, &req);
  sim_dsm_unit_set(w, &n->cp, MET_CE_CPCOMP, m->scope, op_of(m));
}

/* The last command of a request: its execution ends sim_dsm_now (interval 12) and the PP is told, through an interrupt
 * with a CP (interval 13 is its latency), at once without. */
static void complete(struct sim_dsm_node *n, dsm_msg_t *m)
{
  m->mark[12] = sim_dsm_now();
  memcpy(n->done, m->mark, sizeof n->done);
  n->done_peer = m->peer;
  n->done_latency = n->world->program.controller ? n->world->interrupt_s : 0;
  free(m);
  sg_sem_release(n->wake);
}

/* ---- Page state ---- */

dsm_page_t *sim_dsm_page_of(struct sim_dsm_node *n, long page)
{
  return &n->pages[page];
}

static uint64_t *pending_of(dsm_world_t *w, dsm_page_t *pg, int writer)
{
  return pg->pending ? pg->pending + (size_t)writer * w->bitmap_words : NULL;
}

static int bitmap_empty(const dsm_world_t *w, const uint64_t *bits)
{
  for (size_t i = 0; bits && i < w->bitmap_words; i++)
    if (bits[i])
      return 0;
  return 1;
}

/* Words set in `bits`, and the runs of consecutive ones (each costs a diff a run header). */
static double bitmap_words(const dsm_world_t *w, const uint64_t *bits, double *runs)
{
  double words = 0;
  int prev = 0;
  *runs = 0;
  for (size_t i = 0; bits && i < w->bitmap_words * 64; i++) {
    int bit = (int)(bits[i / 64] >> (i % 64) & 1);
    words += bit;
    *runs += bit && !prev;
    prev = bit;
  }
  return words;
}

/* Bytes of the diff of `writer`'s words that node `reader`'s copy of `page` lacks; its words in *words. */
static double diff_bytes(dsm_world_t *w, int reader, long page, int writer, double *words)
{
  double runs = 0;
  *words = bitmap_words(w, pending_of(w, sim_dsm_page_of(&w->node[reader], page), writer), &runs);
  return *words * w->c.word_bytes + runs * w->c.notice_bytes;
}

/* A node receiving the owner's copy lacks what that copy lacks. */
static void inherit(dsm_world_t *w, int reader, long page, int owner)
{
  const dsm_page_t *src = sim_dsm_page_of(&w->node[owner], page);
  dsm_page_t *dst = sim_dsm_page_of(&w->node[reader], page);
  if (!src->pending)
    return;
  size_t len = (size_t)w->nodes * w->bitmap_words;
  dst->pending = sim_dsm_calloc(len, sizeof *dst->pending);
  memcpy(dst->pending, src->pending, len * sizeof *dst->pending);
}

/* ---- Fig. 1: remote page request ---- */

static void local_page_request(struct sim_dsm_node *n, dsm_msg_t *m)
{
  const dsm_costs_t *c = &n->world->c;
  engine_work(n, m, 2 * c->cp_command_cycles, 0, c->sw_message_cycles);
  m->peer = DSM_HOME;
  net_send(n, m, DSM_REMOTE_PAGE_REQUEST, DSM_HOME, c->header_bytes);
  free(m);
}

/* At the owner or a writer (intervals 5-7): the command's work, then the node's PP notes who asked (one page of
 * bookkeeping) and queues `reply` at its engine. */
static void serve_remote(struct sim_dsm_node *n, dsm_msg_t *m, double cp_cycles, double sw_cycles, dsm_kind_t reply)
{
  sim_progress_count(SIM_DSM_REQUEST_OPS);
  engine_work(n, m, cp_cycles, 0, sw_cycles);
  m->mark[5] = sim_dsm_now();
  handler_begin(n, m, n->world->c.page_cycles);
  handler_end(n, m);
  m->kind = reply;
  sim_dsm_enqueue(n, m);
}

/* At the owner: its PP notes the new copy holder. */
static void remote_page_request(struct sim_dsm_node *n, dsm_msg_t *m)
{
  const dsm_costs_t *c = &n->world->c;
  serve_remote(n, m, c->cp_command_cycles, c->sw_message_cycles, DSM_PAGE_REPLY_SEND);
}

static void page_reply_send(struct sim_dsm_node *n, dsm_msg_t *m)
{
  const dsm_costs_t *c = &n->world->c;
  inherit(n->world, m->origin, m->item, n->id);
  engine_work(n, m, 2 * c->cp_command_cycles, c->page_bytes, c->sw_message_cycles + c->sw_byte_cycles * c->page_bytes);
  net_send(n, m, DSM_PAGE_REPLY, m->origin, c->header_bytes + c->page_bytes);
  free(m);
}

static void page_reply(struct sim_dsm_node *n, dsm_msg_t *m)
{
  const dsm_costs_t *c = &n->world->c;
  engine_work(n, m, c->cp_command_cycles, c->page_bytes,
              c->sw_message_cycles + c->sw_byte_cycles * c->page_bytes + c->page_cycles);
  dsm_page_t *pg = sim_dsm_page_of(n, m->item);
  pg->copy = 1;
  pg->valid = pg->pending == NULL;
  complete(n, m);
}

/* ---- Fig. 2: diff request ---- */

/* One REMOTE_DIFF_REQUEST per writer whose diffs the copy lacks, each with its own send time (interval 2). */
static void local_diff_request(struct sim_dsm_node *n, dsm_msg_t *m)
{
  dsm_world_t *w = n->world;
  dsm_page_t *pg = sim_dsm_page_of(n, m->item);
  engine_work(n, m, w->c.cp_command_cycles, 0, 0);
  n->replies_due = 0;
  for (int writer = 0; writer < w->nodes; writer++) {
    if (bitmap_empty(w, pending_of(w, pg, writer)))
      continue;
    engine_work(n, m, w->c.cp_command_cycles, 0, w->c.sw_message_cycles);
    m->peer = writer;
    net_send(n, m, DSM_REMOTE_DIFF_REQUEST, writer, w->c.header_bytes);
    n->replies_due++;
  }
  xbt_assert(n->replies_due > 0, "node %d: diff request for page %ld with no diff pending", n->id, m->item);
  free(m);
}

/* At a writer: the diff is built (dirty bits on the CP, a twin comparison without), its PP is told who asked. */
static void remote_diff_request(struct sim_dsm_node *n, dsm_msg_t *m)
{
  const dsm_costs_t *c = &n->world->c;
  double words = c->page_bytes / c->word_bytes;
  serve_remote(n, m, c->cp_command_cycles + c->cp_word_cycles * words, c->sw_message_cycles + c->sw_word_cycles * words,
               DSM_DIFF_REPLY_SEND);
}

static void diff_reply_send(struct sim_dsm_node *n, dsm_msg_t *m)
{
  const dsm_costs_t *c = &n->world->c;
  double words = 0;
  double bytes = diff_bytes(n->world, m->origin, m->item, n->id, &words);
  engine_work(n, m, 2 * c->cp_command_cycles, bytes, c->sw_message_cycles + c->sw_byte_cycles * bytes);
  net_send(n, m, DSM_DIFF_REPLY, m->origin, c->header_bytes + bytes);
  free(m);
}

/* Applies one writer's diff; the last one completes the request. */
static void diff_reply(struct sim_dsm_node *n, dsm_msg_t *m)
{
  dsm_world_t *w = n->world;
  double words = 0;
  double bytes = diff_bytes(w, n->id, m->item, m->peer, &words);
  engine_work(n, m, w->c.cp_command_cycles + w->c.cp_word_cycles * words, bytes,
              w->c.sw_message_cycles + w->c.sw_word_cycles * words);
  dsm_page_t *pg = sim_dsm_page_of(n, m->item);
  memset(pending_of(w, pg, m->peer), 0, w->bitmap_words * sizeof *pg->pending);
  if (--n->replies_due > 0) {
    free(m);
    return;
  }
  free(pg->pending);
  pg->pending = NULL;
  pg->valid = 1;
  complete(n, m);
}

/* ---- Fig. 3: barrier ---- */

/* Pages the node wrote in the current interval: its write notices. */
int sim_dsm_write_notices(const struct sim_dsm_node *n)
{
  int count = 0;
  for (long p = 0; p < n->world->npages; p++)
    count += n->pages[p].dirty != NULL;
  return count;
}

/* Page p's new writes reach every other copy as pending diffs; returns 1 when node r's copy was invalidated. */
static int invalidate(dsm_world_t *w, long p, int r)
{
  dsm_page_t *pg = sim_dsm_page_of(&w->node[r], p);
  int hit = 0;
  for (int writer = 0; pg->copy && writer < w->nodes; writer++) {
    const uint64_t *dirty = sim_dsm_page_of(&w->node[writer], p)->dirty;
    if (writer == r || !dirty)
      continue;
    if (!pg->pending)
      pg->pending = sim_dsm_calloc((size_t)w->nodes * w->bitmap_words, sizeof *pg->pending);
    uint64_t *lack = pending_of(w, pg, writer);
    for (size_t i = 0; i < w->bitmap_words; i++)
      lack[i] |= dirty[i];
    hit = 1;
  }
  if (hit)
    pg->valid = 0;
  return hit;
}

/* The barrier is complete: every write notice of the interval becomes invalidations (counted per node in inval), and
 * a new interval starts. Returns the notices merged. */
static int barrier_complete(dsm_world_t *w, int *inval)
{
  int notices = 0;
  for (long p = 0; p < w->npages; p++) {
    for (int r = 0; r < w->nodes; r++)
      inval[r] += invalidate(w, p, r);
    for (int writer = 0; writer < w->nodes; writer++) {
      dsm_page_t *pg = sim_dsm_page_of(&w->node[writer], p);
      notices += pg->dirty != NULL;
      free(pg->dirty);
      pg->dirty = NULL;
    }
  }
  return notices;
}

/* Queues the release of every other node at the manager's engine; the releasing handler ran from `start` until now
 * (intervals 7 of every node's barrier). Fills the manager's own wait when it waits. */
void sim_dsm_barrier_dispatch(dsm_world_t *w, double start, const int *inval)
{
  struct sim_dsm_node *manager = &w->node[DSM_MANAGER];
  for (int j = 0; j < w->nodes; j++) {
    if (j == DSM_MANAGER)
      continue;
    dsm_msg_t *m = sim_dsm_msg_new(DSM_SEND_RELEASE, j, w->barrier, w->arrival_scope[j]);
    memcpy(m->mark, w->arrival[j], sizeof m->mark);
    m->mark[6] = start;
    m->peer = DSM_MANAGER;
    m->pages = inval[j];
    sim_dsm_enqueue(manager, m);
  }
  for (int k = 0; k < MET_REQ_MARKS; k++)
    manager->done[k] = k < 6 ? w->manager_since : k == 6 ? start : sim_dsm_now();
  manager->done_peer = -1;
  manager->done_latency = 0;
  w->arrived = 0;
  w->barrier++;
}

/* The releasing handler's extra work on the manager's PP: the invalidations of every node. */
int *sim_dsm_barrier_release_work(dsm_world_t *w)
{
  int *inval = sim_dsm_calloc((size_t)w->nodes, sizeof *inval);
  int notices = barrier_complete(w, inval);
  sim_dsm_run_on(w->node[DSM_MANAGER].pp_host, w->c.page_cycles * notices);
  return inval;
}

static void send_arrival(struct sim_dsm_node *n, dsm_msg_t *m)
{
  const dsm_costs_t *c = &n->world->c;
  engine_work(n, m, 2 * c->cp_command_cycles, 0, c->sw_message_cycles);
  m->peer = DSM_MANAGER;
  net_send(n, m, DSM_RECEIVE_ARRIVAL, DSM_MANAGER, c->header_bytes + c->notice_bytes * m->pages);
  free(m);
}

/* At the manager: the command, then the barrier handler on its PP; the last arrival's handler releases everyone. */
static void receive_arrival(struct sim_dsm_node *n, dsm_msg_t *m)
{
  dsm_world_t *w = n->world;
  engine_work(n, m, w->c.cp_command_cycles + w->c.cp_page_cycles * m->pages, 0, w->c.sw_message_cycles);
  m->mark[5] = sim_dsm_now();
  handler_begin(n, m, w->c.page_cycles * m->pages);
  memcpy(w->arrival[m->origin], m->mark, sizeof w->arrival[m->origin]);
  w->arrival_scope[m->origin] = m->scope;
  int *inval = ++w->arrived == w->nodes ? sim_dsm_barrier_release_work(w) : NULL;
  handler_end(n, m);
  if (inval) {
    int wake = w->manager_waiting;
    sim_dsm_barrier_dispatch(w, m->mark[6], inval);
    w->manager_waiting = 0;
    free(inval);
    if (wake)
      sg_sem_release(n->wake);
  }
  free(m);
}

static void send_release(struct sim_dsm_node *n, dsm_msg_t *m)
{
  const dsm_costs_t *c = &n->world->c;
  engine_work(n, m, 2 * c->cp_command_cycles + c->cp_page_cycles * m->pages, 0, c->sw_message_cycles);
  net_send(n, m, DSM_RECEIVE_RELEASE, m->origin, c->header_bytes + c->notice_bytes * m->pages);
  free(m);
}

static void receive_release(struct sim_dsm_node *n, dsm_msg_t *m)
{
  const dsm_costs_t *c = &n->world->c;
  engine_work(n, m, c->cp_command_cycles + c->cp_page_cycles * m->pages, 0,
              c->sw_message_cycles + c->page_cycles * m->pages);
  complete(n, m);
}

/* ---- The engine and network-interface actors ---- */

static void (*const dsm_steps[DSM_STOP])(struct sim_dsm_node *, dsm_msg_t *) = {
    [DSM_LOCAL_PAGE_REQUEST] = local_page_request,
    [DSM_REMOTE_PAGE_REQUEST] = remote_page_request,
    [DSM_PAGE_REPLY_SEND] = page_reply_send,
    [DSM_PAGE_REPLY] = page_reply,
    [DSM_LOCAL_DIFF_REQUEST] = local_diff_request,
    [DSM_REMOTE_DIFF_REQUEST] = remote_diff_request,
    [DSM_DIFF_REPLY_SEND] = diff_reply_send,
    [DSM_DIFF_REPLY] = diff_reply,
    [DSM_SEND_ARRIVAL] = send_arrival,
    [DSM_RECEIVE_ARRIVAL] = receive_arrival,
    [DSM_SEND_RELEASE] = send_release,
    [DSM_RECEIVE_RELEASE] = receive_release,
};

static int from_network(dsm_kind_t kind)
{
  return sim_dsm_kinds[kind].queued == 4 || sim_dsm_kinds[kind].queued == 11;
}

/* Executes the FIFO in order of arrival. Without a CP, a message from the network first waits for the PP to take its
 * interrupt (still queued). The STOP command closes the node's timelines and stops its interface. */
void sim_dsm_engine_main(int argc, char *argv[])
{
  struct sim_dsm_node *n = sg_actor_self_get_data();
  dsm_world_t *w = n->world;
  int controller = w->program.controller;
  for (;;) {
    if (controller)
      sim_dsm_unit_set(w, &n->cp, MET_CE_CPIDLE, n->cp.open.scope, MET_OP_NONE);
    dsm_msg_t *m = dequeue(n);
    if (m->kind == DSM_STOP) {
      sim_dsm_unit_close(w, &n->pp);
      if (controller)
        sim_dsm_unit_close(w, &n->cp);
      sg_comm_detach(sg_mailbox_put_init(n->inbox, m, 0), NULL);
      break;
    }
    if (!controller && from_network(m->kind))
      sg_actor_sleep_for(w->interrupt_s);
    m->mark[sim_dsm_kinds[m->kind].queued] = sim_dsm_now();
    if (controller)
      sim_dsm_unit_set(w, &n->cp, MET_CE_CPCOMP, m->scope, op_of(m));
    dsm_steps[m->kind](n, m);
  }
  sim_dsm_world_release(w);
}

/* Delivers arriving messages into the FIFO (the end of their network interval) until STOP. */
void sim_dsm_nic_main(int argc, char *argv[])
{
  struct sim_dsm_node *n = sg_actor_self_get_data();
  for (;;) {
    dsm_msg_t *m = sg_mailbox_get(n->inbox);
    if (m->kind == DSM_STOP) {
      free(m);
      break;
    }
    sim_dsm_enqueue(n, m);
  }
  sim_dsm_world_release(n->world);
}
