/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay layer: one SimGrid actor per rank runs the skeleton's actions; the recorder turns each action into timed
 * intervals of the trace model (seed 000 §1.1.3 classes: work, control of parallelism, communication, idling). */
#include "sim_replay.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_map.h"
#include "sim_replay_comm.h"
#include "sim_replay_world.h"
#include "sim_ti.h"
#include "sim_progress.h"

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <xbt/log.h>

XBT_LOG_NEW_DEFAULT_CATEGORY(sim_replay, "simrun: the replay layer and its recorder");

int sim_rank_id(const sim_rank_t *rank)
{
  return rank->id;
}

int sim_rank_analytic(const sim_rank_t *rank)
{
  return rank->world->analytic;
}

int sim_send_is_eager(const sim_rank_t *rank, double bytes)
{
  return bytes < rank->world->eager_below;
}

int sim_rank_count(const sim_rank_t *rank)
{
  return rank->world->job->nranks;
}

/* The mailbox of the messages from src to dst: point-to-point ones, or a collective call's (`kind` "c"), eager ones
 * ("e", "ce"), and their blocks ("/N" after those: sim_replay_block_box). */
static sg_mailbox_t channel(int src, int dst, const char *kind)
{
  char name[40];
  snprintf(name, sizeof name, "%d>%d%s", src, dst, kind);
  return sg_mailbox_by_name(name);
}

sg_mailbox_t sim_replay_block_box(const sim_rank_t *rank, int peer, int kind, unsigned block)
{
  static const char *const suffixes[] = {"", "c", "e", "ce"}; /* by kind / 2, as sim_replay_msg.c's slot_box */
  int dst = kind % 2 ? peer : rank->id;
  char suffix[16];
  snprintf(suffix, sizeof suffix, "%s/%u", suffixes[kind / 2 % 4], block);
  sg_mailbox_t box = channel(kind % 2 ? rank->id : peer, dst, suffix);
  if (kind >= 4) /* eager with eager_at_send: started when sent, as the slot's */
    sim_comm_set_receiver(box, rank->world->ranks[dst].net.actor);
  return box;
}

/* Waits for an eager message the rank sent while it may still be moving. */
static void eager_wait(sim_rank_t *rank, sg_comm_t comm)
{
  double arrived = rank->ready;
  double start = 0;
  sim_comm_finish(comm, 1, &start);
  double now = simgrid_get_clock();
  if (now > arrived) { /* the connection was busy: the rank waited in its send */
    sim_replay_record(rank, MET_CAT_COMM, arrived, now, -1, MET_DIR_NONE, 0, NULL);
    rank->ready = now;
  }
}

void sim_replay_eager_flush(sim_rank_t *rank, sim_peer_t *slot)
{
  sg_comm_t comm = slot->eager_last;
  slot->eager_last = NULL;
  eager_wait(rank, comm);
}

/* Takes message i out of the rank's set-aside ones (the last moves into its place): its communication. */
static sg_comm_t take_out(sim_asides_t *aside, int i)
{
  sg_comm_t comm = aside->items[i].comm;
  aside->items[i] = aside->items[--aside->n];
  return comm;
}

void sim_replay_eager_flush_aside(sim_rank_t *rank)
{
  while (rank->aside.n > 0)
    eager_wait(rank, take_out(&rank->aside, 0));
  free(rank->aside.items);
  rank->aside = (sim_asides_t){0};
}

/* Keeps the slot's eager message to its peer aside; 0, or -1 when out of memory (the caller then waits for it). */
static int set_aside(sim_rank_t *rank, const sim_peer_t *slot)
{
  sim_asides_t *aside = &rank->aside;
  if (aside->n == aside->cap) {
    int cap = aside->cap ? 2 * aside->cap : 16;
    sim_aside_t *grown = realloc(aside->items, (size_t)cap * sizeof *grown);
    if (!grown)
      return -1;
    aside->items = grown;
    aside->cap = cap;
  }
  aside->items[aside->n++] = (sim_aside_t){.peer = slot->id_plus_1 - 1, .comm = slot->eager_last};
  return 0;
}

/* The rank's eager message to `other` set aside while it may still be moving, taken back, or NULL. */
static sg_comm_t take_aside(sim_rank_t *rank, int other)
{
  for (int i = 0; i < rank->aside.n; i++)
    if (rank->aside.items[i].peer == other)
      return take_out(&rank->aside, i);
  return NULL;
}

sim_peer_t *sim_replay_peer_slot(sim_rank_t *rank, int other)
{
  sim_peer_t *slot = &rank->peers[other & (rank->world->npeer_slots - 1)];
  if (slot->id_plus_1 != other + 1 && slot->eager_last && set_aside(rank, slot) != 0)
    sim_replay_eager_flush(rank, slot);
  if (slot->id_plus_1 != other + 1)
    *slot = (sim_peer_t){.id_plus_1 = other + 1,
                         .hops = -1,
                         .to = channel(rank->id, other, ""),
                         .from = channel(other, rank->id, ""),
                         .coll_to = channel(rank->id, other, "c"),
                         .coll_from = channel(other, rank->id, "c"),
                         .eager_last = rank->aside.n ? take_aside(rank, other) : NULL};
  if (rank->world->eager_at_send && !slot->eager_to) {
    slot->eager_to = channel(rank->id, other, "e");
    slot->eager_from = channel(other, rank->id, "e");
    slot->coll_eager_to = channel(rank->id, other, "ce");
    slot->coll_eager_from = channel(other, rank->id, "ce");
    sim_comm_set_receiver(slot->eager_to, rank->world->ranks[other].net.actor);
    sim_comm_set_receiver(slot->coll_eager_to, rank->world->ranks[other].net.actor);
  }
  return slot;
}

const sim_route_t *sim_replay_route(const sim_rank_t *rank, int other)
{
  sim_analytic_slot_t *slot = &rank->net.routes[other % rank->world->nroute_slots];
  if (slot->id_plus_1 != other + 1) {
    slot->id_plus_1 = other + 1;
    sim_engine_route_figures(rank->host, rank->world->ranks[other].host, &slot->route);
  }
  return &slot->route;
}

/* The hops to `other` remembered in its peer slot, or -1 when not (yet). */
static int cached_hops(const sim_rank_t *rank, int other)
{
  const sim_peer_t *slot = &rank->peers[other & (rank->world->npeer_slots - 1)];
  return slot->id_plus_1 == other + 1 ? slot->hops : -1;
}

int sim_hops(const sim_rank_t *rank, int other)
{
  if (rank->world->analytic)
    return sim_replay_route(rank, other)->hops;
  int hops = cached_hops(rank, other);
  return hops >= 0 ? hops : sim_engine_hops(rank->host, rank->world->ranks[other].host);
}

/* sim_hops, remembered in the cache (a message's own slot, filled by its mailbox lookup, is found at once). */
static int peer_hops(sim_rank_t *rank, int other)
{
  if (rank->world->analytic)
    return sim_replay_route(rank, other)->hops;
  int hops = cached_hops(rank, other);
  if (hops >= 0)
    return hops;
  sim_peer_t *slot = sim_replay_peer_slot(rank, other);
  if (slot->hops < 0)
    slot->hops = sim_engine_hops(rank->host, rank->world->ranks[other].host);
  return slot->hops;
}

int sim_rank_coords(const sim_rank_t *rank, int other, int *row, int *col)
{
  const sim_rank_t *peer = &rank->world->ranks[other];
  *row = peer->row;
  *col = peer->col;
  return peer->row < 0 ? -1 : 0;
}

void sim_phase(sim_rank_t *rank, const char *label)
{
  sim_world_t *world = rank->world;
  /* direct-mapped on the label's address (Fibonacci hashing: SIM_PHASE_CACHE is 16, the top 4 bits); a collision only
   * costs the search below */
  size_t slot = (size_t)(((uint64_t)(uintptr_t)label * UINT64_C(0x9E3779B97F4A7C15)) >> 60);
  if (world->phase_label[slot] == label) {
    rank->phase = world->phase_id[slot];
    return;
  }
  int id = met_trace_phase_id(world->trace, label);
  if (id < 0) {
    world->record_error = 1;
    return;
  }
  rank->phase = id;
  world->phase_label[slot] = label;
  world->phase_id[slot] = id;
}

met_trace_t *sim_rank_trace(sim_rank_t *rank)
{
  return rank->world->trace;
}

double sim_rank_clock(const sim_rank_t *rank)
{
  return rank->ready;
}

void sim_rank_fail(sim_rank_t *rank, int code, const char *message)
{
  if (rank->world->fail_code != 0)
    return;
  rank->world->fail_code = code;
  snprintf(rank->world->fail_message, sizeof rank->world->fail_message, "%s", message);
}

void *sim_replay_eager_sent(sim_rank_t *rank, int dst, double bytes)
{
  sim_eager_t *head = &rank->world->eager;
  sim_eager_t *e = malloc(sizeof *e);
  if (!e) {
    rank->world->record_error = 1;
    return rank;
  }
  *e = (sim_eager_t){.prev = head->prev,
                     .next = head,
                     .src = rank->id,
                     .dst = dst,
                     .bytes = bytes,
                     .file = rank->where_file,
                     .line = rank->where_line};
  head->prev->next = e;
  head->prev = e;
  rank->pending++;
  return e;
}

void sim_replay_eager_drop(sim_eager_t *e)
{
  e->prev->next = e->next;
  e->next->prev = e->prev;
  free(e);
}

void sim_replay_eager_received(sim_world_t *world, sim_eager_t *e)
{
  if (!e->comm) {
    sim_replay_eager_drop(e);
    return;
  }
  e->prev->next = e->next;
  e->next->prev = e->prev;
  sim_rank_t *sender = &world->ranks[e->src];
  e->next = sender->to_release;
  sender->to_release = e;
}

void sim_replay_eager_release(sim_rank_t *rank)
{
  while (rank->to_release) {
    sim_eager_t *e = rank->to_release;
    rank->to_release = e->next;
    double start;
    sim_comm_finish(e->comm, 1, &start); /* over: returns at once, and SimGrid forgets it */
    free(e);
  }
}

/* Frees eager message `e` and its sender's reference to its communication. */
static void forget(sim_eager_t *e)
{
  if (e->comm)
    sg_comm_unref(e->comm);
  free(e);
}

void sim_replay_eager_forget(sim_world_t *world)
{
  while (world->eager.next != &world->eager) {
    sim_eager_t *e = world->eager.next;
    world->eager.next = e->next;
    forget(e);
  }
  world->eager.prev = &world->eager;
  for (int i = 0; world->ranks && i < world->job->nranks; i++)
    while (world->ranks[i].to_release) {
      sim_eager_t *e = world->ranks[i].to_release;
      world->ranks[i].to_release = e->next;
      forget(e);
    }
}

/* The oldest of the rank's eager sends still under way whose communication it holds, or NULL. */
static sim_eager_t *held_send(const sim_rank_t *rank)
{
  for (sim_eager_t *e = rank->world->eager.next; e != &rank->world->eager; e = e->next)
    if (e->src == rank->id && e->comm)
      return e;
  return NULL;
}

void sim_replay_eager_settle(sim_rank_t *rank)
{
  for (;;) {
    sim_replay_eager_release(rank);
    sim_eager_t *e = held_send(rank);
    if (!e)
      return;
    sg_comm_t comm = e->comm;
    e->comm = NULL; /* its receiver frees it */
    double start;
    sim_comm_finish(comm, 1, &start);
  }
}

/* sim_replay_charge_relays's work, out of line: its array of hosts would put every message's calls to the recorder a
 * cache line of stack further down. */
__attribute__((noinline)) static void charge(sim_rank_t *rank, int peer, double cost, double start)
{
  sim_world_t *world = rank->world;
  sg_host_t hosts[256];
  int n = sim_engine_route_hosts(rank->host, world->ranks[peer].host, hosts, 256);
  for (int i = 0; i < n; i++)
    for (int r = 0; r < world->job->nranks; r++) {
      sim_rank_t *relay = &world->ranks[r];
      int busy = relay->in_message && relay->blocked_on < 0; /* in a message of its own that has started */
      if (relay->host != hosts[i] || relay->finished || busy || relay->ready <= start)
        continue;
      sim_replay_record(relay, MET_CAT_CTRL, relay->ready, relay->ready + cost, -1, MET_DIR_NONE, 0, NULL);
      relay->ready += cost;
      if (relay->blocked_on >= 0) /* it went on into a message at its own clock: it gets there later */
        relay->arrived += cost;
    }
}

void sim_replay_charge_relays(sim_rank_t *rank, int peer, double bytes, double start)
{
  double cost = sim_cluster_relay_cpu(&rank->world->cluster, bytes);
  if (cost > 0)
    charge(rank, peer, cost, start);
}

/* sim_replay_message_over; the communication carries the message's end when `counted`, none otherwise. */
static void message_over(sim_rank_t *rank, int peer, int sending, double bytes, double arrived, double start,
                         double end, int counted)
{
  rank->ready = end > arrived ? end : arrived;
  double started = start < arrived ? arrived : start > rank->ready ? rank->ready : start;
  met_dir_t dir = sending ? MET_DIR_SEND : MET_DIR_RECV;
  sim_replay_record(rank, MET_CAT_IDLE, arrived, started, peer, dir, 0, NULL);
  sim_replay_record(rank, MET_CAT_COMM, started, rank->ready, counted ? peer : -1, counted ? dir : MET_DIR_NONE,
                    counted ? bytes : 0, NULL);
}

void sim_replay_message_over(sim_rank_t *rank, int peer, int sending, double bytes, double arrived, double start,
                             double end)
{
  message_over(rank, peer, sending, bytes, arrived, start, end, 1);
}

void sim_replay_request_over(sim_rank_t *rank, const sim_request_t *req, double arrived)
{
  message_over(rank, req->peer, req->sending, req->bytes, arrived, req->start, req->end, !req->send_posted);
}

void sim_replay_send_posted(sim_rank_t *rank, sim_request_t *req)
{
  rank->msg_tag = req->tag;
  sim_replay_record(rank, MET_CAT_COMM, rank->ready, rank->ready, req->peer, MET_DIR_SEND, req->bytes, NULL);
  req->send_posted = 1;
}

void sim_replay_record(sim_rank_t *rank, met_category_t category, double start, double end, int peer, met_dir_t dir,
                       double bytes, const double *parts)
{
  if (category == MET_CAT_COMPUTE || (category == MET_CAT_COMM && dir != MET_DIR_NONE))
    sim_progress_count(1); /* a computation, a message's end: the skeletons' operations (app_skeleton_t.work) */
  if (end == start && category != MET_CAT_COMM)
    return; /* the trace keeps no empty interval but a message's end (met_trace_add): half of a relay's records */
  const sim_job_t *job = rank->world->job;
  int hops = category == MET_CAT_COMM && peer >= 0 && (!job->aggregate || job->message_hops) &&
                     (end > start || dir != MET_DIR_NONE) /* a message's empty end is kept (met_trace_add) */
                 ? peer_hops(rank, peer)
                 : 0;
  met_interval_t iv = {.start = start,
                       .end = end,
                       .category = category,
                       .phase = rank->phase,
                       .peer = peer,
                       .dir = dir,
                       .tag = dir != MET_DIR_NONE && !rank->in_coll ? rank->msg_tag
                                                                    : 0, /* a collective's: 0 at
                                                                          * both ends, not the rank's last message's */
                       .bytes = bytes,
                       .hops = hops};
  for (int i = 0; parts && i < MET_PART_COUNT; i++)
    iv.parts[i] = parts[i];
  if (met_trace_add(rank->world->trace, rank->id, &iv) != 0)
    rank->world->record_error = 1;
}

static void record(sim_rank_t *rank, met_category_t category, double start, double end, int peer, double bytes,
                   const double *parts)
{
  sim_replay_record(rank, category, start, end, peer, MET_DIR_NONE, bytes, parts);
}

void sim_replay_catch_up(sim_rank_t *rank)
{
  sim_fibers_t *fibers = rank->world->fibers;
  if (fibers) { /* simrun's light contexts: the scheduler's clock */
    if (rank->ready > sim_fibers_now(fibers))
      sim_fibers_sleep_until(fibers, rank->ready);
    return;
  }
  double now = simgrid_get_clock();
  if (rank->ready <= now)
    return;
  double until = rank->ready;
  sg_actor_sleep_for(until - now);
  while (rank->ready > until) { /* its clock moved on while it slept (sim_replay_charge_relays) */
    double more = rank->ready - until;
    until = rank->ready;
    sg_actor_sleep_for(more);
  }
}

/* `cycles` at `hz` cycles per second. */
static void compute_at(sim_rank_t *rank, const sim_cycles_t *cycles, double hz, sim_purpose_t purpose)
{
  double total = cycles->cpu + cycles->fpu + cycles->intmem + cycles->extmem;
  if (total <= 0)
    return;
  double parts[MET_PART_COUNT] = {cycles->cpu / hz, cycles->fpu / hz, cycles->intmem / hz, cycles->extmem / hz};
  if (rank->world->ti && sim_ti_action(rank->world->ti, rank->id, "compute %.17g", total) != 0)
    rank->world->record_error = 1;
  double start = rank->ready;
  if (rank->world->posted_clock && !rank->world->fibers) { /* light contexts: one rank per host (sim_job_t) */
    sim_replay_catch_up(rank);
    /* ranks that share a host share its processor, as in SMPI: the host's flops that take total / hz alone */
    sg_actor_execute(total * rank->speed / hz);
    rank->ready = simgrid_get_clock();
  } else {
    rank->ready += total / hz;
    rank->timed_alone = 1;
  }
  met_category_t category = purpose == SIM_WORK ? MET_CAT_COMPUTE : purpose == SIM_POLL ? MET_CAT_IDLE : MET_CAT_CTRL;
  record(rank, category, start, rank->ready, -1, 0, category == MET_CAT_IDLE ? NULL : parts);
}

void sim_compute(sim_rank_t *rank, const sim_cycles_t *cycles, sim_purpose_t purpose)
{
  compute_at(rank, cycles, rank->speed, purpose);
  double first = rank->world->ranks[0].speed; /* the sequential run's host */
  if (purpose == SIM_WORK && rank->speed != first) {
    double total = cycles->cpu + cycles->fpu + cycles->intmem + cycles->extmem;
    met_trace_add_anomaly(rank->world->trace, rank->id, (met_anomaly_t){.host = total / rank->speed - total / first});
  }
}

const met_charac_t *sim_rank_charac(const sim_rank_t *rank)
{
  return &rank->charac;
}

void sim_work(sim_rank_t *rank, const met_ops_t *ops, double items, sim_purpose_t purpose)
{
  double c[MET_CLASS_COUNT];
  met_charac_cycles(&rank->charac, ops, items, c);
  sim_cycles_t cycles = {
      .cpu = c[MET_CLASS_CPU], .fpu = c[MET_CLASS_FLOP], .intmem = c[MET_CLASS_INTMEM], .extmem = c[MET_CLASS_EXTMEM]};
  compute_at(rank, &cycles, rank->charac.clock_hz, purpose);
  if (purpose == SIM_WORK && !rank->same_as_first) /* else 0 (met_charac_anomaly), which would change no sum */
    met_trace_add_anomaly(rank->world->trace, rank->id,
                          met_charac_anomaly(&rank->charac, &rank->world->ranks[0].charac, ops, items));
}

int sim_rank_place(sim_rank_t *rank, const char *host_name)
{
  sg_host_t host = sg_host_by_name(host_name);
  if (!host)
    return SIM_EHOSTS;
  if (!rank->world->fibers)
    sg_actor_set_host(sg_actor_self(), host);
  rank->host = host;
  rank->speed = sg_host_get_speed(host);
  if (sim_map_host_coords(host, &rank->row, &rank->col) != 0)
    rank->row = rank->col = -1;
  return 0;
}

void sim_rank_where(sim_rank_t *rank, const char *file, int line)
{
  rank->where_file = file;
  rank->where_line = line;
}

const sim_group_t *sim_rank_world(const sim_rank_t *rank)
{
  return &rank->world->all;
}

sim_bcast_alg_t sim_rank_bcast_alg(const sim_rank_t *rank)
{
  return rank->world->job->bcast;
}

void sim_rank_collective(sim_rank_t *rank, int inside)
{
  rank->in_coll = inside;
}

/* A fixed delay recorded as `category`. */
static void delay(sim_rank_t *rank, met_category_t category, double seconds, double bytes)
{
  if (seconds <= 0)
    return;
  if (rank->world->ti && sim_ti_action(rank->world->ti, rank->id, "sleep %.17g", seconds) != 0)
    rank->world->record_error = 1;
  double start = rank->ready;
  rank->ready += seconds;
  record(rank, category, start, rank->ready, -1, bytes, NULL);
}

void sim_sleep(sim_rank_t *rank, double seconds)
{
  delay(rank, MET_CAT_CTRL, seconds, 0);
}

void sim_io(sim_rank_t *rank, sim_io_dir_t dir, double bytes)
{
  delay(rank, MET_CAT_IO, sim_machine_io_time(&rank->world->machine, dir, bytes), bytes);
}

void sim_page_faults(sim_rank_t *rank, double count)
{
  delay(rank, MET_CAT_COMM, count * rank->world->machine.page_fault_us * 1e-6, 0);
}

void sim_first_call(sim_rank_t *rank)
{
  delay(rank, MET_CAT_COMM, rank->world->machine.first_call_us * 1e-6, 0);
}

void sim_init_links(sim_rank_t *rank)
{
  delay(rank, MET_CAT_CTRL, rank->world->link_init_s, 0);
}
