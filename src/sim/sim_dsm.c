/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* TreadMarks on NCP2 (seed 002 §3): the application's side of a node (computation, shared accesses and their faults,
 * barriers) and the run's set-up and tear-down. The protocol itself is in sim_dsm_protocol.c, the recorder of the
 * cause-effect annex (§4.1, Table 1) in sim_dsm_record.c, the cost model in sim_dsm_costs.c. */
#include "sim_dsm.h"
#include "sim_dsm_world.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_prop.h"
#include "sim_progress.h"

#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/mutex.h>
#include <simgrid/semaphore.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/asserts.h>
#include <xbt/log.h>

XBT_LOG_NEW_DEFAULT_CATEGORY(sim_dsm, "simrun: TreadMarks on NCP2");

/* ---- The application's side ---- */

int sim_dsm_node_id(const sim_dsm_node_t *node)
{
  return node->id;
}

int sim_dsm_node_count(const sim_dsm_node_t *node)
{
  return node->world->nodes;
}

void sim_dsm_scope(sim_dsm_node_t *node, const char *label)
{
  int id = met_trace_phase_id(node->world->trace, label);
  if (id < 0)
    sim_dsm_world_fail(node->world, SIM_ENOMEM, "the recorder could not store a scope (out of memory)");
  else
    node->scope = id;
}

void sim_dsm_work(sim_dsm_node_t *node, const met_ops_t *ops, double items)
{
  const met_charac_t *charac = sim_rank_charac(node->rank);
  double by_class[MET_CLASS_COUNT];
  met_charac_cycles(charac, ops, items, by_class);
  double cycles = 0;
  for (int i = 0; i < MET_CLASS_COUNT; i++)
    cycles += by_class[i];
  double speed = sg_host_get_speed(node->pp_host); /* sim_dsm_run_on executes at the host's speed */
  sim_dsm_app_set(node, MET_CE_COMP, MET_OP_NONE);
  sim_progress_count(1);
  sim_dsm_run_on(node->pp_host, speed == charac->clock_hz ? cycles : cycles * speed / charac->clock_hz);
}

/* Called holding the PP: waits for the request whose first command was just queued, then records its wait. */
static void app_wait(struct sim_dsm_node *n, met_ce_op_t op, long item)
{
  sim_dsm_unit_set(n->world, &n->pp, MET_CE_WAIT, n->scope, op);
  sim_dsm_app_leave(n);
  sg_sem_acquire(n->wake);
  if (n->done_latency > 0)
    sg_actor_sleep_for(n->done_latency);
  met_request_t req = {
      .node = n->id, .unit = MET_UNIT_PP, .op = op, .scope = n->scope, .peer = n->done_peer, .item = (int)item};
  memcpy(req.mark, n->done, sizeof req.mark);
  req.mark[MET_CE_INTERVALS] = sim_dsm_now();
  sim_dsm_record_request(n->world, &req);
}

/* An access fault: the handler (Extra) queues the first command of the request at the engine, and the PP waits. */
static void fault(struct sim_dsm_node *n, dsm_kind_t kind, long page)
{
  const dsm_costs_t *c = &n->world->c;
  sim_dsm_app_enter(n, MET_CE_EXTRA, sim_dsm_kinds[kind].op);
  sim_dsm_run_on(n->pp_host, c->fault_cycles + c->page_cycles);
  sim_dsm_enqueue(n, sim_dsm_msg_new(kind, n->id, page, n->scope));
  app_wait(n, sim_dsm_kinds[kind].op, page);
}

/* Marks words [first, last] of the page as written in this interval. Without CP the first write of an interval
 * traps and makes a twin (Extra); the CP's snooping logic needs neither. */
static void mark_written(struct sim_dsm_node *n, long page, long first, long last)
{
  dsm_world_t *w = n->world;
  dsm_page_t *pg = sim_dsm_page_of(n, page);
  if (!pg->dirty) {
    if (!w->program.controller) {
      sim_dsm_app_enter(n, MET_CE_EXTRA, MET_OP_DIFF);
      sim_dsm_run_on(n->pp_host, w->c.fault_cycles + w->c.sw_byte_cycles * w->c.page_bytes);
      sim_dsm_app_leave(n);
    }
    pg->dirty = sim_dsm_calloc(w->bitmap_words, sizeof *pg->dirty);
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
    dsm_page_t *pg = sim_dsm_page_of(n, p);
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
    w->manager_since = sim_dsm_now();
    app_wait(n, MET_OP_BARRIER, w->barrier);
    return;
  }
  long barrier = w->barrier;
  int *inval = sim_dsm_barrier_release_work(w);
  w->manager_since = sim_dsm_now();
  sim_dsm_barrier_dispatch(w, start, inval);
  free(inval);
  met_request_t req = {
      .node = n->id, .unit = MET_UNIT_PP, .op = MET_OP_BARRIER, .scope = n->scope, .peer = -1, .item = (int)barrier};
  for (int k = 0; k < MET_REQ_MARKS; k++)
    req.mark[k] = sim_dsm_now();
  sim_dsm_record_request(w, &req);
  sim_dsm_app_leave(n);
}

void sim_dsm_barrier(sim_dsm_node_t *node)
{
  dsm_world_t *w = node->world;
  sim_dsm_app_enter(node, MET_CE_EXTRA, MET_OP_BARRIER);
  sim_progress_count(SIM_DSM_BARRIER_OPS);
  double start = sim_dsm_now();
  int notices = sim_dsm_write_notices(node);
  XBT_VERB("node %d: barrier %ld at %.9g s, %d write notices", node->id, w->barrier, start, notices);
  sim_dsm_run_on(node->pp_host, w->c.page_cycles * notices);
  if (node->id == DSM_MANAGER) {
    manager_arrives(node, start);
    return;
  }
  dsm_msg_t *m = sim_dsm_msg_new(DSM_SEND_ARRIVAL, node->id, w->barrier, node->scope);
  m->pages = notices;
  sim_dsm_enqueue(node, m);
  app_wait(node, MET_OP_BARRIER, w->barrier);
}

/* ---- Set-up and tear-down ---- */

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
    sim_dsm_world_fail(w, SIM_ENOMEM, "out of memory");
    return w;
  }
  if (sim_dsm_read_costs(w) != 0)
    return w;
  w->interrupt_s = 1e-6 * w->c.interrupt_us;
  w->npages = (program->shared_bytes + (long)w->c.page_bytes - 1) / (long)w->c.page_bytes;
  w->bitmap_words = ((size_t)(w->c.page_bytes / w->c.word_bytes) + 63) / 64;
  return w;
}

/* The platform's NCP2 nodes: hosts that name their CP. */
static int count_nodes(void)
{
  int nodes = 0;
  for (size_t i = 0; i < sim_engine_host_count(); i++)
    nodes += sg_host_get_property_value(sim_engine_host(i), sim_prop_name(SIM_PROP_CP)) != NULL;
  return nodes;
}

/* Binds this rank to its node: its host must name its CP. */
static void node_bind(dsm_world_t *w, sim_rank_t *rank)
{
  struct sim_dsm_node *n = &w->node[sim_rank_id(rank)];
  sg_host_t host = sg_host_self();
  const char *cp_name = sg_host_get_property_value(host, sim_prop_name(SIM_PROP_CP));
  sg_host_t cp = cp_name ? sg_host_by_name(cp_name) : NULL;
  if (!cp_name)
    sim_dsm_world_fail(w, SIM_EHOSTS,
                       "p = %d exceeds the %d NCP2 nodes of the platform (hosts with a %s property; rank %d would "
                       "run on '%s', a protocol controller or another host)",
                       w->nodes, count_nodes(), sim_prop_name(SIM_PROP_CP), sim_rank_id(rank), sg_host_get_name(host));
  else if (!cp)
    sim_dsm_world_fail(w, SIM_EPLATFORM,
                       "host '%s' names its protocol controller '%s' (%s), which the platform does not declare",
                       sg_host_get_name(host), cp_name, sim_prop_name(SIM_PROP_CP));
  sim_dsm_check_memory(w, host);
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
    sim_dsm_world_fail(w, SIM_ENOMEM, "out of memory");
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
  void (*mains[])(int, char **) = {sim_dsm_engine_main, sim_dsm_nic_main};
  const char *roles[] = {"engine", "nic"};
  for (int i = 0; i < 2; i++) {
    snprintf(name, sizeof name, "%s%d", roles[i], n->id);
    sg_actor_t actor = sg_actor_init(name, n->engine_host);
    sg_actor_set_data(actor, n);
    sg_actor_start(actor, mains[i], 0, NULL);
  }
  n->world->alive += 2;
}

void sim_dsm_run(sim_rank_t *rank, const sim_dsm_program_t *program)
{
  if (sim_rank_analytic(rank)) { /* the protocol's messages are SimGrid communications, timed on SimGrid's clock */
    sim_rank_fail(rank, SIM_EPARAM,
                  "network = analytic prices the replay layer's messages, not the DSM protocol's; run the DSM "
                  "skeletons with the default network (network = simgrid)");
    return;
  }
  dsm_world_t *w = sim_dsm_world_current();
  if (!w && !(w = sim_dsm_world_install(world_new(rank, program)))) {
    sim_rank_fail(rank, SIM_ENOMEM, "out of memory");
    return;
  }
  if (!w->error)
    node_bind(w, rank);
  sg_barrier_wait(w->startup);
  if (w->error) {
    sim_rank_fail(rank, w->error, w->message);
    sim_dsm_world_release(w);
    return;
  }
  struct sim_dsm_node *n = &w->node[sim_rank_id(rank)];
  node_start(n);
  program->body(n, program->arg);
  sim_dsm_scope(n, "exit");
  sim_dsm_barrier(n);
  sim_dsm_app_set(n, MET_CE_WAIT, MET_OP_NONE);
  sim_dsm_enqueue(n, sim_dsm_msg_new(DSM_STOP, n->id, 0, n->scope));
  if (w->error)
    sim_rank_fail(rank, w->error, w->message);
  sim_dsm_world_release(w);
}
