/* TreadMarks on NCP2 (seed 002 §3, Figs. 1-3): per node a PP (the application), a protocol engine executing a FIFO
 * of commands (the CP, or the PP through interrupts in the original TreadMarks) and a network interface; lazy release
 * consistency with invalidations and multiple-writer diffs; the recorder of the cause-effect annex (§4.1, Table 1). */
#include "sim_dsm.h"
#include "met_carnival.h"
#include "sim_engine.h"
#include "sim_error.h"

#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/mutex.h>
#include <simgrid/semaphore.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/asserts.h>
#include <xbt/log.h>

XBT_LOG_NEW_DEFAULT_CATEGORY(sim_dsm, "simrun: TreadMarks on NCP2");

enum { DSM_MANAGER = 0, DSM_HOME = 0 }; /* node 0 manages barriers and allocates (homes) the shared space */

/* The platform's cost model: the simrun:dsm-* properties, documented in platforms/ncp2-myrinet-8.xml. */
typedef struct dsm_costs {
  double page_bytes;
  double word_bytes;
  double header_bytes;
  double notice_bytes;
  double interrupt_us;
  double handler_cycles;
  double fault_cycles;
  double page_cycles;
  double cp_command_cycles;
  double cp_word_cycles;
  double cp_page_cycles;
  double sw_message_cycles;
  double sw_byte_cycles;
  double sw_word_cycles;
} dsm_costs_t;

static const struct {
  const char *name;
  size_t offset;
} dsm_props[] = {
    {"simrun:dsm-page-bytes", offsetof(dsm_costs_t, page_bytes)},
    {"simrun:dsm-word-bytes", offsetof(dsm_costs_t, word_bytes)},
    {"simrun:dsm-header-bytes", offsetof(dsm_costs_t, header_bytes)},
    {"simrun:dsm-notice-bytes", offsetof(dsm_costs_t, notice_bytes)},
    {"simrun:dsm-interrupt-us", offsetof(dsm_costs_t, interrupt_us)},
    {"simrun:dsm-handler-cycles", offsetof(dsm_costs_t, handler_cycles)},
    {"simrun:dsm-fault-cycles", offsetof(dsm_costs_t, fault_cycles)},
    {"simrun:dsm-page-cycles", offsetof(dsm_costs_t, page_cycles)},
    {"simrun:dsm-cp-command-cycles", offsetof(dsm_costs_t, cp_command_cycles)},
    {"simrun:dsm-cp-word-cycles", offsetof(dsm_costs_t, cp_word_cycles)},
    {"simrun:dsm-cp-page-cycles", offsetof(dsm_costs_t, cp_page_cycles)},
    {"simrun:dsm-sw-message-cycles", offsetof(dsm_costs_t, sw_message_cycles)},
    {"simrun:dsm-sw-byte-cycles", offsetof(dsm_costs_t, sw_byte_cycles)},
    {"simrun:dsm-sw-word-cycles", offsetof(dsm_costs_t, sw_word_cycles)},
};

/* Commands and messages, named as in seed 002 §3; the _SEND kinds are the commands a PP handler queues at its own
 * engine to send a reply or a release. */
typedef enum dsm_kind {
  DSM_LOCAL_PAGE_REQUEST = 0,
  DSM_REMOTE_PAGE_REQUEST,
  DSM_PAGE_REPLY_SEND,
  DSM_PAGE_REPLY,
  DSM_LOCAL_DIFF_REQUEST,
  DSM_REMOTE_DIFF_REQUEST,
  DSM_DIFF_REPLY_SEND,
  DSM_DIFF_REPLY,
  DSM_SEND_ARRIVAL,    /* SEND_MESSAGE: a node's arrival at a barrier */
  DSM_RECEIVE_ARRIVAL, /* RECEIVE_MESSAGE at the manager */
  DSM_SEND_RELEASE,    /* SEND_MESSAGE: the manager's release of one node */
  DSM_RECEIVE_RELEASE, /* RECEIVE_MESSAGE at that node */
  DSM_STOP,            /* the end of the run, not a protocol message */
  DSM_KIND_COUNT
} dsm_kind_t;

/* A command's operation and the interval of Figs. 1-3 it spends queued (1, 4, 8 or 11); it is executed in the next.
 * Kinds queued in 4 or 11 arrive from the network. */
static const struct {
  met_ce_op_t op;
  int queued;
} dsm_kinds[DSM_KIND_COUNT] = {
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

/* A command in a FIFO or a message on the network: what a request carries from step to step, with the timestamps of
 * its intervals (mark[k]: the end of interval k), as CARNIVAL's messages do (§4.1). */
typedef struct dsm_msg {
  dsm_kind_t kind;
  int origin; /* the node whose request it serves */
  int peer;   /* the remote node of the request: owner, writer or manager */
  long item;  /* the page, or the barrier's sequence number */
  int scope;  /* the origin's code scope */
  int pages;  /* write notices or invalidations carried */
  double mark[MET_REQ_MARKS];
  struct dsm_msg *next; /* FIFO link */
} dsm_msg_t;

/* One node's view of one page. Bitmaps have a bit per word of the page. */
typedef struct dsm_page {
  unsigned char copy;  /* the node holds a copy */
  unsigned char valid; /* ... with every diff applied */
  uint64_t *dirty;     /* words written in the current interval; NULL when none */
  uint64_t *pending;   /* per writer, the words whose diffs the copy lacks; NULL when none */
} dsm_page_t;

typedef struct dsm_world dsm_world_t;

/* A unit's timeline: the span open since open.start. */
typedef struct dsm_unit {
  met_span_t open;
  int node;
  int kind; /* MET_UNIT_PP or MET_UNIT_CP */
} dsm_unit_t;

struct sim_dsm_node {
  int id;
  dsm_world_t *world;
  sim_rank_t *rank;
  sg_actor_t app; /* the PP's application actor: the rank's */
  sg_host_t pp_host;
  sg_host_t engine_host; /* the CP's host, or the PP's without controllers */
  double bus_latency;    /* the PP-CP path, for the CP's DMA */
  double bus_bandwidth;
  dsm_unit_t pp;
  dsm_unit_t cp;
  sg_mutex_t pp_lock;  /* held by protocol code on the PP: TreadMarks masks interrupts in its own code */
  met_span_t pp_saved; /* the PP's span that protocol code preempted */
  int app_suspended;
  sg_sem_t wake;   /* the application waits here for its request */
  sg_sem_t queued; /* commands in the FIFO */
  dsm_msg_t *head;
  dsm_msg_t *tail;
  sg_mailbox_t inbox;
  int scope;
  int replies_due;            /* DIFF_REPLYs still to apply */
  double done[MET_REQ_MARKS]; /* the marks of the message that completed the request */
  int done_peer;
  double done_latency; /* notification latency still to wait (interval 13) */
  dsm_page_t *pages;
};

struct dsm_world {
  sim_dsm_program_t program;
  met_trace_t *trace;
  int nodes;
  long npages;
  size_t bitmap_words;
  dsm_costs_t c;
  double interrupt_s;
  struct sim_dsm_node *node;
  sg_bar_t startup;
  int alive; /* actors still holding the world */
  int error;
  char message[512];
  /* barrier manager state */
  int arrived;
  long barrier;
  double (*arrival)[MET_REQ_MARKS]; /* per node, the marks of its arrival (intervals 1-5) */
  int *arrival_scope;
  int manager_waiting;
  double manager_since;
};

static dsm_world_t *dsm_world; /* one DSM run per process (sim_dsm.h) */

static double now(void)
{
  return simgrid_get_clock();
}

static void world_fail(dsm_world_t *w, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void world_fail(dsm_world_t *w, int code, const char *fmt, ...)
{
  if (w->error)
    return;
  w->error = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->message, sizeof w->message, fmt, ap);
  va_end(ap);
}

/* Memory the protocol cannot do without mid-run: a failure aborts the simulation process, which its parent reports
 * (sim_run.h); nothing could be simulated faithfully without it. */
static void *dsm_calloc(size_t count, size_t size)
{
  void *p = calloc(count, size);
  xbt_assert(p, "simrun: out of memory in the DSM simulation");
  return p;
}

/* ---- The recorder: unit spans (the annex) and the PP's mirror in the rank's timeline ---- */

static const met_category_t pp_category[] = {[MET_CE_COMP] = MET_CAT_COMPUTE,
                                             [MET_CE_EXTRA] = MET_CAT_CTRL,
                                             [MET_CE_WAIT] = MET_CAT_IDLE,
                                             [MET_CE_PRSTE] = MET_CAT_CTRL};

static void unit_close(dsm_world_t *w, dsm_unit_t *u)
{
  met_span_t span = u->open;
  span.end = now();
  int rc = met_trace_span_add(w->trace, u->node, u->kind, &span);
  if (rc == 0 && u->kind == MET_UNIT_PP) {
    met_interval_t iv = {
        .start = span.start, .end = span.end, .category = pp_category[span.state], .phase = span.scope, .peer = -1};
    rc = met_trace_add(w->trace, u->node, &iv);
  }
  if (rc != 0)
    world_fail(w, SIM_ENOMEM, "the recorder could not store a span (out of memory)");
  u->open.start = span.end;
}

/* Moves the unit to (state, scope, op) from now on. */
static void unit_set(dsm_world_t *w, dsm_unit_t *u, int state, int scope, int op)
{
  if (u->open.state == state && u->open.scope == scope && u->open.op == op)
    return;
  unit_close(w, u);
  u->open.state = state;
  u->open.scope = scope;
  u->open.op = op;
}

static void record_request(dsm_world_t *w, met_request_t *req)
{
  if (met_trace_request_add(w->trace, req) != 0)
    world_fail(w, SIM_ENOMEM, "the recorder could not store a request (out of memory)");
}

/* ---- The PP: application states, and protocol code preempting the application ---- */

static void run_on(sg_host_t host, double cycles)
{
  if (cycles <= 0)
    return;
  sg_exec_t exec = sg_actor_exec_init(cycles);
  sg_exec_set_host(exec, host);
  sg_exec_start(exec);
  sg_exec_wait(exec);
}

/* The application takes the PP for its own protocol code (state EXTRA), with interrupts masked until app_leave. */
static void app_enter(struct sim_dsm_node *n, int state, int op)
{
  sg_mutex_lock(n->pp_lock);
  unit_set(n->world, &n->pp, state, n->scope, op);
}

static void app_leave(struct sim_dsm_node *n)
{
  sg_mutex_unlock(n->pp_lock);
}

/* The application moves to `state` (COMP or WAIT): only between two pieces of protocol code. */
static void app_set(struct sim_dsm_node *n, int state, int op)
{
  app_enter(n, state, op);
  app_leave(n);
}

/* Protocol code of another actor takes the PP (state EXTRA or PRSTE): it waits for code already there, and preempts
 * the application's computation until pp_leave. */
static void pp_enter(struct sim_dsm_node *n, int state, int scope, int op)
{
  sg_mutex_lock(n->pp_lock);
  n->pp_saved = n->pp.open;
  if (n->pp.open.state == MET_CE_COMP) {
    sg_actor_suspend(n->app);
    n->app_suspended = 1;
  }
  unit_set(n->world, &n->pp, state, scope, op);
}

static void pp_leave(struct sim_dsm_node *n)
{
  unit_set(n->world, &n->pp, n->pp_saved.state, n->pp_saved.scope, n->pp_saved.op);
  if (n->app_suspended)
    sg_actor_resume(n->app);
  n->app_suspended = 0;
  sg_mutex_unlock(n->pp_lock);
}

/* ---- Commands, messages and the engine's work ---- */

static met_ce_op_t op_of(const dsm_msg_t *m)
{
  return dsm_kinds[m->kind].op;
}

static dsm_msg_t *msg_new(dsm_kind_t kind, int origin, long item, int scope)
{
  dsm_msg_t *m = dsm_calloc(1, sizeof *m);
  *m = (dsm_msg_t){.kind = kind, .origin = origin, .peer = -1, .item = item, .scope = scope};
  return m;
}

/* Appends `m` to the node's FIFO; the interval before its queueing one ends now. */
static void enqueue(struct sim_dsm_node *n, dsm_msg_t *m)
{
  if (m->kind != DSM_STOP)
    m->mark[dsm_kinds[m->kind].queued - 1] = now();
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
  dsm_msg_t *copy = dsm_calloc(1, sizeof *copy);
  *copy = *m;
  copy->kind = kind;
  copy->mark[dsm_kinds[kind].queued - 2] = now();
  sg_comm_t comm = sg_mailbox_put_init(n->world->node[dest].inbox, copy, (long)ceil(bytes));
  sg_comm_detach(comm, NULL);
}

/* One command's work on the node's engine: on the CP, cp_cycles of its processor plus a DMA of dma_bytes over the PP-CP
 * path; without CP, sw_cycles taken from the PP (Extra for the node's own requests, Prste for others'). */
static void engine_work(struct sim_dsm_node *n, const dsm_msg_t *m, double cp_cycles, double dma_bytes,
                        double sw_cycles)
{
  if (n->world->program.controller) {
    run_on(n->engine_host, cp_cycles);
    if (dma_bytes > 0)
      sg_actor_sleep_for(n->bus_latency + dma_bytes / n->bus_bandwidth);
    return;
  }
  pp_enter(n, m->origin == n->id ? MET_CE_EXTRA : MET_CE_PRSTE, m->scope, op_of(m));
  run_on(n->pp_host, sw_cycles);
  pp_leave(n);
}

/* Intervals 6-7: the node's PP runs a handler of `cycles` for its engine. With a CP, an interrupt: the CP waits for the
 * PP (CPWait) through the interrupt latency and the handler; without, the PP is already there. */
static void handler_begin(struct sim_dsm_node *n, dsm_msg_t *m, double cycles)
{
  dsm_world_t *w = n->world;
  if (w->program.controller) {
    unit_set(w, &n->cp, MET_CE_CPWAIT, m->scope, op_of(m));
    sg_actor_sleep_for(w->interrupt_s);
    cycles += w->c.handler_cycles;
  }
  pp_enter(n, MET_CE_PRSTE, m->scope, op_of(m));
  m->mark[6] = now();
  run_on(n->pp_host, cycles);
}

/* Ends the handler; with a CP, records the CP's wait as a request whose intervals 6 and 7 are the PP's. */
static void handler_end(struct sim_dsm_node *n, dsm_msg_t *m)
{
  dsm_world_t *w = n->world;
  m->mark[7] = now();
  pp_leave(n);
  if (!w->program.controller)
    return;
  met_request_t req = {
      .node = n->id, .unit = MET_UNIT_CP, .op = op_of(m), .scope = m->scope, .peer = m->origin, .item = (int)m->item};
  for (int k = 0; k < MET_REQ_MARKS; k++)
    req.mark[k] = k < 6 ? m->mark[5] : k == 6 ? m->mark[6] : m->mark[7];
  record_request(w, &req);
  unit_set(w, &n->cp, MET_CE_CPCOMP, m->scope, op_of(m));
}

/* The last command of a request: its execution ends now (interval 12) and the PP is told, through an interrupt with a
 * CP (interval 13 is its latency), at once without. */
static void complete(struct sim_dsm_node *n, dsm_msg_t *m)
{
  m->mark[12] = now();
  memcpy(n->done, m->mark, sizeof n->done);
  n->done_peer = m->peer;
  n->done_latency = n->world->program.controller ? n->world->interrupt_s : 0;
  free(m);
  sg_sem_release(n->wake);
}

/* ---- Page state ---- */

static dsm_page_t *page_of(struct sim_dsm_node *n, long page)
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
  *words = bitmap_words(w, pending_of(w, page_of(&w->node[reader], page), writer), &runs);
  return *words * w->c.word_bytes + runs * w->c.notice_bytes;
}

/* A node receiving the owner's copy lacks what that copy lacks. */
static void inherit(dsm_world_t *w, int reader, long page, int owner)
{
  const dsm_page_t *src = page_of(&w->node[owner], page);
  dsm_page_t *dst = page_of(&w->node[reader], page);
  if (!src->pending)
    return;
  size_t len = (size_t)w->nodes * w->bitmap_words;
  dst->pending = dsm_calloc(len, sizeof *dst->pending);
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
  engine_work(n, m, cp_cycles, 0, sw_cycles);
  m->mark[5] = now();
  handler_begin(n, m, n->world->c.page_cycles);
  handler_end(n, m);
  m->kind = reply;
  enqueue(n, m);
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
  dsm_page_t *pg = page_of(n, m->item);
  pg->copy = 1;
  pg->valid = pg->pending == NULL;
  complete(n, m);
}

/* ---- Fig. 2: diff request ---- */

/* One REMOTE_DIFF_REQUEST per writer whose diffs the copy lacks, each with its own send time (interval 2). */
static void local_diff_request(struct sim_dsm_node *n, dsm_msg_t *m)
{
  dsm_world_t *w = n->world;
  dsm_page_t *pg = page_of(n, m->item);
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
  dsm_page_t *pg = page_of(n, m->item);
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
static int write_notices(const struct sim_dsm_node *n)
{
  int count = 0;
  for (long p = 0; p < n->world->npages; p++)
    count += n->pages[p].dirty != NULL;
  return count;
}

/* Page p's new writes reach every other copy as pending diffs; returns 1 when node r's copy was invalidated. */
static int invalidate(dsm_world_t *w, long p, int r)
{
  dsm_page_t *pg = page_of(&w->node[r], p);
  int hit = 0;
  for (int writer = 0; pg->copy && writer < w->nodes; writer++) {
    const uint64_t *dirty = page_of(&w->node[writer], p)->dirty;
    if (writer == r || !dirty)
      continue;
    if (!pg->pending)
      pg->pending = dsm_calloc((size_t)w->nodes * w->bitmap_words, sizeof *pg->pending);
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
      dsm_page_t *pg = page_of(&w->node[writer], p);
      notices += pg->dirty != NULL;
      free(pg->dirty);
      pg->dirty = NULL;
    }
  }
  return notices;
}

/* Queues the release of every other node at the manager's engine; the releasing handler ran from `start` until now
 * (intervals 7 of every node's barrier). Fills the manager's own wait when it waits. */
static void barrier_dispatch(dsm_world_t *w, double start, const int *inval)
{
  struct sim_dsm_node *manager = &w->node[DSM_MANAGER];
  for (int j = 0; j < w->nodes; j++) {
    if (j == DSM_MANAGER)
      continue;
    dsm_msg_t *m = msg_new(DSM_SEND_RELEASE, j, w->barrier, w->arrival_scope[j]);
    memcpy(m->mark, w->arrival[j], sizeof m->mark);
    m->mark[6] = start;
    m->peer = DSM_MANAGER;
    m->pages = inval[j];
    enqueue(manager, m);
  }
  for (int k = 0; k < MET_REQ_MARKS; k++)
    manager->done[k] = k < 6 ? w->manager_since : k == 6 ? start : now();
  manager->done_peer = -1;
  manager->done_latency = 0;
  w->arrived = 0;
  w->barrier++;
}

/* The releasing handler's extra work on the manager's PP: the invalidations of every node. */
static int *barrier_release_work(dsm_world_t *w)
{
  int *inval = dsm_calloc((size_t)w->nodes, sizeof *inval);
  int notices = barrier_complete(w, inval);
  run_on(w->node[DSM_MANAGER].pp_host, w->c.page_cycles * notices);
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
  m->mark[5] = now();
  handler_begin(n, m, w->c.page_cycles * m->pages);
  memcpy(w->arrival[m->origin], m->mark, sizeof w->arrival[m->origin]);
  w->arrival_scope[m->origin] = m->scope;
  int *inval = ++w->arrived == w->nodes ? barrier_release_work(w) : NULL;
  handler_end(n, m);
  if (inval) {
    int wake = w->manager_waiting;
    barrier_dispatch(w, m->mark[6], inval);
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
  return dsm_kinds[kind].queued == 4 || dsm_kinds[kind].queued == 11;
}

static void world_release(dsm_world_t *w);

/* Executes the FIFO in order of arrival. Without a CP, a message from the network first waits for the PP to take its
 * interrupt (still queued). The STOP command closes the node's timelines and stops its interface. */
static void engine_main(int argc, char *argv[])
{
  struct sim_dsm_node *n = sg_actor_self_get_data();
  dsm_world_t *w = n->world;
  int controller = w->program.controller;
  for (;;) {
    if (controller)
      unit_set(w, &n->cp, MET_CE_CPIDLE, n->cp.open.scope, MET_OP_NONE);
    dsm_msg_t *m = dequeue(n);
    if (m->kind == DSM_STOP) {
      unit_close(w, &n->pp);
      if (controller)
        unit_close(w, &n->cp);
      sg_comm_detach(sg_mailbox_put_init(n->inbox, m, 0), NULL);
      break;
    }
    if (!controller && from_network(m->kind))
      sg_actor_sleep_for(w->interrupt_s);
    m->mark[dsm_kinds[m->kind].queued] = now();
    if (controller)
      unit_set(w, &n->cp, MET_CE_CPCOMP, m->scope, op_of(m));
    dsm_steps[m->kind](n, m);
  }
  world_release(w);
}

/* Delivers arriving messages into the FIFO (the end of their network interval) until STOP. */
static void nic_main(int argc, char *argv[])
{
  struct sim_dsm_node *n = sg_actor_self_get_data();
  for (;;) {
    dsm_msg_t *m = sg_mailbox_get(n->inbox);
    if (m->kind == DSM_STOP) {
      free(m);
      break;
    }
    enqueue(n, m);
  }
  world_release(n->world);
}

/* ---- The application's side ---- */

int sim_dsm_node_id(const sim_dsm_node_t *node)
{
  return node->id;
}

int sim_dsm_node_count(const sim_dsm_node_t *node)
{
  return node->world->nodes;
}

long sim_dsm_page_bytes(const sim_dsm_node_t *node)
{
  return (long)node->world->c.page_bytes;
}

void sim_dsm_scope(sim_dsm_node_t *node, const char *label)
{
  int id = met_trace_phase_id(node->world->trace, label);
  if (id < 0)
    world_fail(node->world, SIM_ENOMEM, "the recorder could not store a scope (out of memory)");
  else
    node->scope = id;
}

void sim_dsm_compute(sim_dsm_node_t *node, double cycles)
{
  app_set(node, MET_CE_COMP, MET_OP_NONE);
  run_on(node->pp_host, cycles);
}

/* Called holding the PP: waits for the request whose first command was just queued, then records its wait. */
static void app_wait(struct sim_dsm_node *n, met_ce_op_t op, long item)
{
  unit_set(n->world, &n->pp, MET_CE_WAIT, n->scope, op);
  app_leave(n);
  sg_sem_acquire(n->wake);
  if (n->done_latency > 0)
    sg_actor_sleep_for(n->done_latency);
  met_request_t req = {
      .node = n->id, .unit = MET_UNIT_PP, .op = op, .scope = n->scope, .peer = n->done_peer, .item = (int)item};
  memcpy(req.mark, n->done, sizeof req.mark);
  req.mark[MET_CE_INTERVALS] = now();
  record_request(n->world, &req);
}

/* An access fault: the handler (Extra) queues the first command of the request at the engine, and the PP waits. */
static void fault(struct sim_dsm_node *n, dsm_kind_t kind, long page)
{
  const dsm_costs_t *c = &n->world->c;
  app_enter(n, MET_CE_EXTRA, dsm_kinds[kind].op);
  run_on(n->pp_host, c->fault_cycles + c->page_cycles);
  enqueue(n, msg_new(kind, n->id, page, n->scope));
  app_wait(n, dsm_kinds[kind].op, page);
}

/* Marks words [first, last] of the page as written in this interval. Without CP the first write of an interval
 * traps and makes a twin (Extra); the CP's snooping logic needs neither. */
static void mark_written(struct sim_dsm_node *n, long page, long first, long last)
{
  dsm_world_t *w = n->world;
  dsm_page_t *pg = page_of(n, page);
  if (!pg->dirty) {
    if (!w->program.controller) {
      app_enter(n, MET_CE_EXTRA, MET_OP_DIFF);
      run_on(n->pp_host, w->c.fault_cycles + w->c.sw_byte_cycles * w->c.page_bytes);
      app_leave(n);
    }
    pg->dirty = dsm_calloc(w->bitmap_words, sizeof *pg->dirty);
  }
  for (long i = first; i <= last; i++)
    pg->dirty[i / 64] |= (uint64_t)1 << (i % 64);
}

static void touch(struct sim_dsm_node *n, long addr, long bytes, int write)
{
  dsm_world_t *w = n->world;
  long page_bytes = (long)w->c.page_bytes;
  long word = (long)w->c.word_bytes;
  xbt_assert(addr >= 0 && bytes >= 0 && addr + bytes <= w->program.shared_bytes,
             "node %d: access [%ld, %ld) outside the shared space of %ld bytes", n->id, addr, addr + bytes,
             w->program.shared_bytes);
  for (long p = addr / page_bytes; bytes > 0 && p <= (addr + bytes - 1) / page_bytes; p++) {
    dsm_page_t *pg = page_of(n, p);
    while (!pg->copy || !pg->valid)
      fault(n, pg->copy ? DSM_LOCAL_DIFF_REQUEST : DSM_LOCAL_PAGE_REQUEST, p);
    long lo = addr > p * page_bytes ? addr : p * page_bytes;
    long hi = addr + bytes < (p + 1) * page_bytes ? addr + bytes : (p + 1) * page_bytes;
    if (write)
      mark_written(n, p, (lo - p * page_bytes) / word, (hi - 1 - p * page_bytes) / word);
  }
}

void sim_dsm_read(sim_dsm_node_t *node, long addr, long bytes)
{
  touch(node, addr, bytes, 0);
}

void sim_dsm_write(sim_dsm_node_t *node, long addr, long bytes)
{
  touch(node, addr, bytes, 1);
}

/* The manager's own arrival, in its barrier code: it releases everyone when it arrives last, else waits for the last
 * arrival's handler. */
static void manager_arrives(struct sim_dsm_node *n, double start)
{
  dsm_world_t *w = n->world;
  if (++w->arrived < w->nodes) {
    w->manager_waiting = 1;
    w->manager_since = now();
    app_wait(n, MET_OP_BARRIER, w->barrier);
    return;
  }
  long barrier = w->barrier;
  int *inval = barrier_release_work(w);
  w->manager_since = now();
  barrier_dispatch(w, start, inval);
  free(inval);
  met_request_t req = {
      .node = n->id, .unit = MET_UNIT_PP, .op = MET_OP_BARRIER, .scope = n->scope, .peer = -1, .item = (int)barrier};
  for (int k = 0; k < MET_REQ_MARKS; k++)
    req.mark[k] = now();
  record_request(w, &req);
  app_leave(n);
}

void sim_dsm_barrier(sim_dsm_node_t *node)
{
  dsm_world_t *w = node->world;
  app_enter(node, MET_CE_EXTRA, MET_OP_BARRIER);
  double start = now();
  int notices = write_notices(node);
  run_on(node->pp_host, w->c.page_cycles * notices);
  if (node->id == DSM_MANAGER) {
    manager_arrives(node, start);
    return;
  }
  dsm_msg_t *m = msg_new(DSM_SEND_ARRIVAL, node->id, w->barrier, node->scope);
  m->pages = notices;
  enqueue(node, m);
  app_wait(node, MET_OP_BARRIER, w->barrier);
}

/* ---- Set-up and tear-down ---- */

/* Reads one property as a finite number >= 0. */
static int read_cost(dsm_world_t *w, const char *name, double *out)
{
  const char *text = sim_engine_property(name);
  if (!text) {
    world_fail(w, SIM_EPLATFORM,
               "the platform has no property %s: DSM skeletons need an NCP2 platform such as "
               "platforms/ncp2-myrinet-8.xml",
               name);
    return -1;
  }
  char *end = NULL;
  *out = strtod(text, &end);
  while (end != text && (*end == ' ' || *end == '\t'))
    end++;
  if (end == text || *end != '\0' || !isfinite(*out) || *out < 0) {
    world_fail(w, SIM_EPLATFORM, "platform property %s = \"%s\": expected a number >= 0", name, text);
    return -1;
  }
  return 0;
}

static int is_power_of_two(double x, double lo, double hi)
{
  if (x < lo || x > hi || x != floor(x))
    return 0;
  long v = (long)x;
  return (v & (v - 1)) == 0;
}

static int read_costs(dsm_world_t *w)
{
  for (size_t i = 0; i < sizeof dsm_props / sizeof dsm_props[0]; i++)
    if (read_cost(w, dsm_props[i].name, (double *)((char *)&w->c + dsm_props[i].offset)) != 0)
      return -1;
  if (!is_power_of_two(w->c.page_bytes, 256, 1 << 20))
    world_fail(w, SIM_EPLATFORM,
               "platform property simrun:dsm-page-bytes = %g: expected a power of two from 256 to "
               "1048576",
               w->c.page_bytes);
  else if (!is_power_of_two(w->c.word_bytes, 1, 8))
    world_fail(w, SIM_EPLATFORM, "platform property simrun:dsm-word-bytes = %g: expected 1, 2, 4 or 8",
               w->c.word_bytes);
  return w->error ? -1 : 0;
}

/* The world, by the first rank: costs from the platform, then the nodes' shared state. NULL when out of memory. */
static dsm_world_t *world_new(sim_rank_t *rank, const sim_dsm_program_t *program)
{
  dsm_world_t *w = calloc(1, sizeof *w);
  if (!w)
    return NULL;
  w->program = *program;
  w->trace = sim_rank_trace(rank);
  w->nodes = sim_rank_count(rank);
  w->alive = w->nodes;
  w->startup = sg_barrier_init((unsigned)w->nodes);
  w->node = calloc((size_t)w->nodes, sizeof *w->node);
  w->arrival = calloc((size_t)w->nodes, sizeof *w->arrival);
  w->arrival_scope = calloc((size_t)w->nodes, sizeof *w->arrival_scope);
  if (!w->node || !w->arrival || !w->arrival_scope) {
    world_fail(w, SIM_ENOMEM, "out of memory");
    return w;
  }
  if (read_costs(w) != 0)
    return w;
  w->interrupt_s = 1e-6 * w->c.interrupt_us;
  w->npages = (program->shared_bytes + (long)w->c.page_bytes - 1) / (long)w->c.page_bytes;
  w->bitmap_words = ((size_t)(w->c.page_bytes / w->c.word_bytes) + 63) / 64;
  return w;
}

/* Checks that the shared space fits in a node's memory (the host's simrun:memory-bytes, when it has one). */
static void check_memory(dsm_world_t *w, const_sg_host_t host)
{
  const char *text = sg_host_get_property_value(host, "simrun:memory-bytes");
  char *end = NULL;
  double memory = text ? strtod(text, &end) : INFINITY;
  if (text && (end == text || *end != '\0' || !(memory > 0)))
    world_fail(w, SIM_EPLATFORM, "host '%s': property simrun:memory-bytes = \"%s\": expected a number of bytes > 0",
               sg_host_get_name(host), text);
  else if ((double)w->program.shared_bytes > memory)
    world_fail(w, SIM_EPARAM,
               "the shared data (%ld bytes) exceed the memory of node '%s' (%.0f bytes, property "
               "simrun:memory-bytes); choose a smaller problem",
               w->program.shared_bytes, sg_host_get_name(host), memory);
}

/* The platform's NCP2 nodes: hosts that name their CP. */
static int count_nodes(void)
{
  int nodes = 0;
  for (size_t i = 0; i < sim_engine_host_count(); i++)
    nodes += sg_host_get_property_value(sim_engine_host(i), "simrun:cp") != NULL;
  return nodes;
}

/* Binds this rank to its node: its host must name its CP. */
static void node_bind(dsm_world_t *w, sim_rank_t *rank)
{
  struct sim_dsm_node *n = &w->node[sim_rank_id(rank)];
  sg_host_t host = sg_host_self();
  const char *cp_name = sg_host_get_property_value(host, "simrun:cp");
  sg_host_t cp = cp_name ? sg_host_by_name(cp_name) : NULL;
  if (!cp_name)
    world_fail(w, SIM_EHOSTS,
               "p = %d exceeds the %d NCP2 nodes of the platform (hosts with a simrun:cp property; "
               "rank %d would run on '%s', a protocol controller or another host)",
               w->nodes, count_nodes(), sim_rank_id(rank), sg_host_get_name(host));
  else if (!cp)
    world_fail(w, SIM_EPLATFORM,
               "host '%s' names its protocol controller '%s' (simrun:cp), which the platform does "
               "not declare",
               sg_host_get_name(host), cp_name);
  check_memory(w, host);
  if (w->error)
    return;
  *n = (struct sim_dsm_node){.id = sim_rank_id(rank),
                             .world = w,
                             .rank = rank,
                             .app = sg_actor_self(),
                             .pp_host = host,
                             .engine_host = w->program.controller ? cp : host,
                             .bus_latency = sg_host_get_route_latency(host, cp),
                             .bus_bandwidth = sg_host_get_route_bandwidth(host, cp)};
  n->pp = (dsm_unit_t){.open = {.state = MET_CE_COMP}, .node = n->id, .kind = MET_UNIT_PP};
  n->cp = (dsm_unit_t){.open = {.state = MET_CE_CPIDLE}, .node = n->id, .kind = MET_UNIT_CP};
  n->pages = calloc((size_t)w->npages, sizeof *n->pages);
  if (!n->pages) {
    world_fail(w, SIM_ENOMEM, "out of memory");
    return;
  }
  for (long p = 0; n->id == DSM_HOME && p < w->npages; p++)
    n->pages[p].copy = n->pages[p].valid = 1;
}

/* Creates the node's synchronisation objects and its engine and interface actors. */
static void node_start(struct sim_dsm_node *n)
{
  char name[32];
  n->pp_lock = sg_mutex_init();
  n->wake = sg_sem_init(0);
  n->queued = sg_sem_init(0);
  snprintf(name, sizeof name, "dsm-inbox-%d", n->id);
  n->inbox = sg_mailbox_by_name(name);
  void (*mains[])(int, char **) = {engine_main, nic_main};
  const char *roles[] = {"engine", "nic"};
  for (int i = 0; i < 2; i++) {
    snprintf(name, sizeof name, "%s%d", roles[i], n->id);
    sg_actor_t actor = sg_actor_init(name, n->engine_host);
    sg_actor_set_data(actor, n);
    sg_actor_start(actor, mains[i], 0, NULL);
  }
  n->world->alive += 2;
}

static void world_free(dsm_world_t *w)
{
  for (int i = 0; w->node && i < w->nodes; i++) {
    struct sim_dsm_node *n = &w->node[i];
    for (long p = 0; n->pages && p < w->npages; p++) {
      free(n->pages[p].dirty);
      free(n->pages[p].pending);
    }
    free(n->pages);
    if (n->pp_lock) {
      sg_mutex_destroy(n->pp_lock);
      sg_sem_destroy(n->wake);
      sg_sem_destroy(n->queued);
    }
  }
  sg_barrier_destroy(w->startup);
  free(w->node);
  free(w->arrival);
  free(w->arrival_scope);
  free(w);
}

/* An actor is done with the world; the last one frees it. */
static void world_release(dsm_world_t *w)
{
  if (--w->alive > 0)
    return;
  world_free(w);
  dsm_world = NULL;
}

void sim_dsm_run(sim_rank_t *rank, const sim_dsm_program_t *program)
{
  if (!dsm_world && !(dsm_world = world_new(rank, program))) {
    sim_rank_fail(rank, SIM_ENOMEM, "out of memory");
    return;
  }
  dsm_world_t *w = dsm_world;
  if (!w->error)
    node_bind(w, rank);
  sg_barrier_wait(w->startup);
  if (w->error) {
    sim_rank_fail(rank, w->error, w->message);
    world_release(w);
    return;
  }
  struct sim_dsm_node *n = &w->node[sim_rank_id(rank)];
  node_start(n);
  program->body(n, program->arg);
  sim_dsm_scope(n, "exit");
  sim_dsm_barrier(n);
  app_set(n, MET_CE_WAIT, MET_OP_NONE);
  enqueue(n, msg_new(DSM_STOP, n->id, 0, n->scope));
  if (w->error)
    sim_rank_fail(rank, w->error, w->message);
  world_release(w);
}
