/* The replay layer: one SimGrid actor per rank runs the skeleton's actions; the recorder turns each action into timed
 * intervals of the trace model (seed 000 §1.1.3 classes: work, control of parallelism, communication, idling). */
#include "sim_replay.h"
#include "sim_cluster.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_map.h"
#include "sim_replay_comm.h"
#include "sim_ti.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/asserts.h>
#include <xbt/log.h>

XBT_LOG_NEW_DEFAULT_CATEGORY(sim_replay, "simrun: the replay layer and its recorder");

/* The mailboxes and the distance to one peer, looked up once: formatting a mailbox name and routing per message
 * was most of the replay layer's cost at thousands of ranks. Direct-mapped on the peer id, with a slot for every peer
 * up to SIM_PEER_SLOTS ranks (a root that sends to everyone then never misses); slots nobody uses are never touched. */
enum { SIM_PEER_SLOTS = 128 };
typedef struct sim_peer {
  int id_plus_1;     /* the peer's id + 1, or 0 when the slot is empty (as calloc leaves it) */
  int hops;          /* -1 until needed */
  sg_mailbox_t to;   /* this rank to the peer */
  sg_mailbox_t from; /* the peer to this rank */
} sim_peer_t;

/* An eager message on its way, the payload of its SimGrid communication: where it was sent from, so that one that is
 * never received can be named (check_outcome). Kept in the world's list, oldest first, until received. */
typedef struct sim_eager {
  struct sim_eager *prev;
  struct sim_eager *next;
  int src;
  int dst;
  double bytes;
  const char *file; /* the sender's action (sim_rank_where), or NULL */
  int line;
} sim_eager_t;

typedef struct sim_world {
  const sim_job_t *job;
  sim_machine_t machine;
  sim_cluster_t cluster; /* links between clusters of the SuperCluster (docs/t800.md) */
  met_trace_t *trace;
  sim_rank_t *ranks;
  sim_peer_t *peer_cache; /* every rank's peer slots */
  int npeer_slots;
  sim_group_t all; /* every rank, in rank order */
  int *all_members;
  int links;           /* physical links on the routes between the hosts of the run */
  sim_ti_writer_t *ti; /* with job->ti_dir: the TI trace being written */
  int record_error;    /* set when the recorder ran out of memory */
  int fail_code;       /* from sim_rank_fail: the first failure of a layer above, or 0 */
  int posted_clock;    /* sim_post_at_own_clock: every message posted at its rank's clock, computations executed */
  double eager_below;  /* messages of fewer bytes are sent eagerly (sim_post_at_own_clock, or the platform's limit) */
  double envelope;     /* with posted_clock: bytes every message carries beyond its data */
  char fail_message[512];
  /* the list of eager messages not yet received: eager.next is the oldest */
  sim_eager_t eager;
} sim_world_t;

struct sim_rank {
  int id;
  sim_peer_t *peers; /* npeer_slots slots, in the world's peer_cache */
  sim_world_t *world;
  sg_host_t host;
  double speed;        /* cycles per second */
  met_charac_t charac; /* what each operation class costs on the host (sim_work) */
  int row;             /* mesh coordinates of the host, or -1 */
  int col;
  int phase;
  /* The rank's own clock: when the work it has done so far ends. Computations and fixed delays only move it on
   * (a rank is alone on its host, so they take their time whatever else happens); the SimGrid clock catches up at
   * the next message, and only when the partner is there before it. This saves an activity per computation. */
  double ready;
  int timed_alone; /* whether it moved its own clock on: then its host's speed must not change during the run */
  /* Rendezvous bookkeeping: while blocked in a send or receive, the partner's id and when this rank got there
   * (`arrived`, by its own clock). The partner that comes second writes the start into match_time. */
  int blocked_on;
  int blocked_in_send;
  double arrived;
  double match_time;
  int finished;
  const char *where_file; /* sim_rank_where: the program's current action, for the deadlock message */
  int where_line;
};

struct sim_request {
  sg_comm_t comm; /* NULL once finished */
  int peer;
  int sending;
  double bytes;
  double start; /* once finished: when its transfer started and ended */
  double end;
  void *data; /* where SimGrid puts a received payload */
};

int sim_rank_id(const sim_rank_t *rank)
{
  return rank->id;
}

int sim_rank_count(const sim_rank_t *rank)
{
  return rank->world->job->nranks;
}

static sg_mailbox_t channel(int src, int dst)
{
  char name[32];
  snprintf(name, sizeof name, "%d>%d", src, dst);
  return sg_mailbox_by_name(name);
}

/* The cache slot of peer `other`, filled with its mailboxes (its distance stays unknown until asked for). */
static sim_peer_t *peer_slot(sim_rank_t *rank, int other)
{
  sim_peer_t *slot = &rank->peers[other % rank->world->npeer_slots];
  if (slot->id_plus_1 != other + 1)
    *slot = (sim_peer_t){
        .id_plus_1 = other + 1, .hops = -1, .to = channel(rank->id, other), .from = channel(other, rank->id)};
  return slot;
}

int sim_hops(const sim_rank_t *rank, int other)
{
  const sim_peer_t *slot = &rank->peers[other % rank->world->npeer_slots];
  if (slot->id_plus_1 == other + 1 && slot->hops >= 0)
    return slot->hops;
  return sim_engine_hops(rank->host, rank->world->ranks[other].host);
}

/* sim_hops, remembered in the cache. */
static int peer_hops(sim_rank_t *rank, int other)
{
  sim_peer_t *slot = peer_slot(rank, other);
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
  int id = met_trace_phase_id(rank->world->trace, label);
  if (id < 0)
    rank->world->record_error = 1;
  else
    rank->phase = id;
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

/* One interval of the rank's timeline; `dir` says which end of a message with `peer` it is. */
static void record_dir(sim_rank_t *rank, met_category_t category, double start, double end, int peer, met_dir_t dir,
                       double bytes, const double *parts)
{
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
  record_dir(rank, category, start, end, peer, MET_DIR_NONE, bytes, parts);
}

/* Brings the SimGrid clock up to the rank's own. */
static void catch_up(sim_rank_t *rank)
{
  double now = simgrid_get_clock();
  if (rank->ready > now)
    sg_actor_sleep_for(rank->ready - now);
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
  if (rank->world->posted_clock) {
    catch_up(rank);
    /* ranks that share a host share its processor, as in SMPI: the host's flops that take total / hz alone */
    sg_actor_execute(total * rank->speed / hz);
    rank->ready = simgrid_get_clock();
  } else {
    rank->ready += total / hz;
    rank->timed_alone = 1;
  }
  record(rank, purpose == SIM_WORK ? MET_CAT_COMPUTE : MET_CAT_CTRL, start, rank->ready, -1, 0, parts);
}

void sim_compute(sim_rank_t *rank, const sim_cycles_t *cycles, sim_purpose_t purpose)
{
  compute_at(rank, cycles, rank->speed, purpose);
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
  if (purpose == SIM_WORK)
    met_trace_add_anomaly(rank->world->trace, rank->id, met_charac_anomaly(&rank->charac, ops, items));
}

/* The message itself, once both ends are there: blocks until it has arrived. */
static void transfer(sim_rank_t *rank, int peer, int sending, double bytes)
{
  sim_peer_t *slot = peer_slot(rank, peer);
  if (sending)
    sim_comm_send(slot->to, (double)(long)bytes);
  else
    sim_comm_recv(slot->from);
}

/* A synchronous message with `peer`: it starts when the later of the two ends gets there, by their own clocks.
 * The rank that comes first says when it got there and waits inside the SimGrid message at once, even when its own
 * clock is ahead of SimGrid's: SimGrid starts a message only once both ends are in it, and the one that comes second
 * catches the SimGrid clock up with the later arrival before it goes in. Actors are cooperative, so nothing runs
 * between a check of the partner's state and the blocking call after it. */
/* The payload of an eager message from `rank` to `dst`, entered in the world's list of eager messages on their way;
 * the rank itself (a payload like any other message's) when out of memory, reported as the recorder's failure. */
static void *eager_sent(sim_rank_t *rank, int dst, double bytes)
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
  return e;
}

static void eager_drop(sim_eager_t *e)
{
  e->prev->next = e->next;
  e->next->prev = e->prev;
  free(e);
}

/* `req`'s communication is over: a received eager message leaves the world's list. */
static void completed(sim_rank_t *rank, sim_request_t *req)
{
  req->comm = NULL;
  req->end = simgrid_get_clock();
  if (!req->sending && req->data && req->data != &rank->world->ranks[req->peer])
    eager_drop(req->data);
}

/* Posts the message as a SimGrid communication at the rank's own clock, without waiting for it. */
static void post(sim_rank_t *rank, sim_request_t *req, int peer, int sending, double bytes)
{
  sim_peer_t *slot = peer_slot(rank, peer);
  *req = (sim_request_t){.peer = peer, .sending = sending, .bytes = bytes};
  catch_up(rank);
  long simulated = (long)(bytes + rank->world->envelope);
  if (sending && bytes < rank->world->eager_below) { /* sent eagerly: over for the sender at once */
    void *payload = eager_sent(rank, peer, bytes);
    sg_comm_detach(sg_mailbox_put_init(slot->to, payload, simulated), NULL); /* detached before it can start */
    req->start = req->end = rank->ready;
    return;
  }
  req->comm = sending ? sg_mailbox_put_async(slot->to, rank, simulated) : sg_mailbox_get_async(slot->from, &req->data);
}

/* Blocks until `req` is over (at once when a test found it over): the rank idles until its transfer started, then
 * communicates until it ended, by the rank's own clock (a transfer that went on while it computed costs nothing). */
static void finish(sim_rank_t *rank, sim_request_t *req)
{
  double arrived = rank->ready;
  if (req->comm) {
    rank->blocked_on = req->peer;
    rank->blocked_in_send = req->sending;
    sim_comm_finish(req->comm, 1, &req->start);
    rank->blocked_on = -1;
    completed(rank, req);
  }
  rank->ready = req->end > arrived ? req->end : arrived;
  double started = req->start < arrived ? arrived : req->start > rank->ready ? rank->ready : req->start;
  record_dir(rank, MET_CAT_IDLE, arrived, started, req->peer, req->sending ? MET_DIR_SEND : MET_DIR_RECV, 0, NULL);
  record_dir(rank, MET_CAT_COMM, started, rank->ready, req->peer, req->sending ? MET_DIR_SEND : MET_DIR_RECV,
             req->bytes, NULL);
}

/* Whether messages are posted (post, finish) rather than met in the rendezvous below: after sim_post_at_own_clock, or
 * on a platform whose message library sends small messages eagerly (follow_platform_protocol). */
static int posts_messages(const sim_world_t *world)
{
  return world->posted_clock || world->eager_below > 0;
}

static void message(sim_rank_t *rank, int peer, int sending, double bytes)
{
  if (posts_messages(rank->world)) {
    sim_request_t req;
    post(rank, &req, peer, sending, bytes);
    finish(rank, &req);
    return;
  }
  sim_rank_t *partner = &rank->world->ranks[peer];
  double arrived = rank->ready;
  double started;
  if (partner->blocked_on == rank->id && partner->blocked_in_send != sending) {
    started = arrived > partner->arrived ? arrived : partner->arrived;
    partner->blocked_on = -1;
    partner->match_time = started;
    rank->ready = started;
    catch_up(rank);
    transfer(rank, peer, sending, bytes);
  } else {
    rank->blocked_on = peer;
    rank->blocked_in_send = sending;
    rank->arrived = arrived;
    transfer(rank, peer, sending, bytes);
    started = rank->match_time;
  }
  /* SimGrid rounds times to its precision: a message that ends within it of its start ends at its start */
  double now = simgrid_get_clock();
  rank->ready = now > started ? now : started;
  met_dir_t dir = sending ? MET_DIR_SEND : MET_DIR_RECV;
  record_dir(rank, MET_CAT_IDLE, arrived, started, peer, dir, 0, NULL);
  record_dir(rank, MET_CAT_COMM, started, rank->ready, peer, dir, bytes, NULL);
}

/* A message in the TI trace: tag 0 (mandatory in the format), whole bytes as the simulated message carries them, as
 * that many elements of MPI_BYTE. */
static void ti_message(sim_rank_t *rank, const char *verb, int peer, double bytes)
{
  if (rank->world->ti &&
      sim_ti_action(rank->world->ti, rank->id, "%s %d 0 %ld %d", verb, peer, (long)bytes, SIM_TI_MPI_BYTE) != 0)
    rank->world->record_error = 1;
}

void sim_send(sim_rank_t *rank, int dst, double bytes)
{
  xbt_assert(dst >= 0 && dst < sim_rank_count(rank) && (dst != rank->id || rank->world->posted_clock),
             "rank %d: bad destination %d", rank->id, dst);
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
}

/* A new request for a message posted now; NULL (reported as the recorder's out-of-memory failure) when out of memory.
 */
static sim_request_t *start_request(sim_rank_t *rank, int peer, int sending, double bytes)
{
  xbt_assert(rank->world->posted_clock, "rank %d: non-blocking messages need sim_post_at_own_clock", rank->id);
  xbt_assert(peer >= 0 && peer < sim_rank_count(rank), "rank %d: bad peer %d", rank->id, peer);
  sim_request_t *req = malloc(sizeof *req);
  if (!req) {
    rank->world->record_error = 1;
    return NULL;
  }
  post(rank, req, peer, sending, bytes);
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
  if (!req->comm)
    return 1;
  catch_up(rank);
  if (!sim_comm_finish(req->comm, 0, &req->start))
    return 0;
  completed(rank, req);
  return 1;
}

void sim_wait(sim_rank_t *rank, sim_request_t *req)
{
  finish(rank, req);
  free(req);
}

int sim_rank_place(sim_rank_t *rank, const char *host_name)
{
  sg_host_t host = sg_host_by_name(host_name);
  if (!host)
    return SIM_EHOSTS;
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

void sim_init_links(sim_rank_t *rank)
{
  delay(rank, MET_CAT_CTRL, 1e-6 * rank->world->machine.link_init_us * rank->world->links, 0);
}

static void rank_main(int argc, char *argv[])
{
  sim_rank_t *rank = sg_actor_self_get_data();
  sim_ti_writer_t *ti = rank->world->ti;
  if (ti && sim_ti_action(ti, rank->id, "init") != 0)
    rank->world->record_error = 1;
  rank->world->job->program(rank, rank->world->job->arg);
  catch_up(rank);
  XBT_VERB("rank %d: program over at %.9g s", rank->id, sim_rank_clock(rank));
  if (ti && sim_ti_action(ti, rank->id, "finalize") != 0)
    rank->world->record_error = 1;
  rank->finished = 1;
}

/* What the platform's message library does with a send (simrun:eager-bytes, docs/machines.md): below its eager limit
 * a send is over for the sender at once, through post()'s eager sends; a platform without one (the T800's synchronous
 * channels) keeps every send synchronous. Computations stay on the ranks' own clocks (one rank per host). */
static void follow_platform_protocol(sim_world_t *world)
{
  /* post() sends eagerly below eager_below: the next double above the limit makes a message of exactly it eager */
  world->eager_below = world->machine.eager_bytes > 0 ? nextafter(world->machine.eager_bytes, INFINITY) : 0;
}

/* Maps ranks to hosts and creates their actors. */
static int spawn_ranks(sim_world_t *world, char *err, size_t errlen)
{
  int nranks = world->job->nranks;
  sg_host_t *hosts = calloc((size_t)nranks, sizeof *hosts);
  if (!hosts)
    return SIM_ENOMEM;
  int rc = sim_map_ranks(nranks, hosts, err, errlen);
  for (int i = 0; rc == 0 && i < nranks; i++) {
    sim_rank_t *rank = &world->ranks[i];
    *rank = (sim_rank_t){.id = i,
                         .peers = &world->peer_cache[(size_t)i * (size_t)world->npeer_slots],
                         .world = world,
                         .host = hosts[i],
                         .speed = sg_host_get_speed(hosts[i]),
                         .blocked_on = -1};
    if (sim_map_host_coords(hosts[i], &rank->row, &rank->col) != 0)
      rank->row = rank->col = -1;
    char origin[512];
    rc = sim_machine_charac(hosts[i], world->job->platform, &rank->charac, origin, sizeof origin, err, errlen);
    if (rc != 0)
      break;
    char name[32];
    snprintf(name, sizeof name, "rank%d", i);
    sg_actor_t actor = sg_actor_init(name, hosts[i]);
    sg_actor_set_data(actor, rank);
    sg_actor_start(actor, rank_main, 0, NULL);
  }
  if (rc == 0 && world->machine.link_init_us > 0)
    world->links = sim_engine_links_between(hosts, (size_t)nranks);
  free(hosts);
  return rc;
}

/* Appends to err where each blocked rank's program stopped (sim_rank_where), as far as err has room. */
static void add_blocked_actions(const sim_world_t *world, char *err, size_t errlen)
{
  const char *lead = " (blocked: ";
  size_t len = strlen(err);
  for (int i = 0; i < world->job->nranks && len + 1 < errlen; i++) {
    const sim_rank_t *rank = &world->ranks[i];
    if (rank->finished || !rank->where_file)
      continue;
    len += (size_t)snprintf(err + len, errlen - len, "%srank %d at %s:%d", lead, i, rank->where_file, rank->where_line);
    lead = ", ";
  }
  if (*lead == ',' && len + 1 < errlen)
    snprintf(err + len, errlen - len, ")");
}

/* Checks that every eager message was received: one that never was is lost silently (its sender went on), so the
 * run's sends and receives did not match. */
static int check_eager(const sim_world_t *world, char *err, size_t errlen)
{
  const sim_eager_t *e = world->eager.next;
  if (e == &world->eager)
    return 0;
  char where[512] = "";
  if (e->file)
    snprintf(where, sizeof where, "%s:%d: ", e->file, e->line);
  snprintf(err, errlen,
           "%srank %d's send of %.17g bytes to rank %d is never received: sent eagerly (below %.17g bytes), it left "
           "rank %d free to go on and was lost when the run ended; every send needs the matching receive on the "
           "other rank, in the same order",
           where, e->src, e->bytes, e->dst, world->eager_below, e->src);
  return SIM_EPARAM;
}

/* Checks that no layer above failed, the recorder kept up, every rank finished and every message was received. */
static int check_outcome(const sim_world_t *world, char *err, size_t errlen)
{
  if (world->fail_code != 0) {
    snprintf(err, errlen, "%s", world->fail_message);
    return world->fail_code;
  }
  for (int i = 0; i < world->job->nranks; i++)
    if (world->ranks[i].timed_alone && sim_engine_speed_changed(world->ranks[i].host)) {
      snprintf(err, errlen,
               "host %s changed speed during the run (a speed profile or power state): simrun's ranks compute at "
               "their host's constant speed; remove the profile from the platform",
               sg_host_get_name(world->ranks[i].host));
      return SIM_EPLATFORM;
    }
  if (world->record_error) {
    snprintf(err, errlen, "the recorder could not store an interval (out of memory)");
    return SIM_ENOMEM;
  }
  for (int i = 0; i < world->job->nranks; i++) {
    const sim_rank_t *rank = &world->ranks[i];
    if (rank->finished)
      continue;
    if (rank->blocked_on >= 0)
      snprintf(err, errlen,
               "rank %d never finished: it waits to %s rank %d, which never comes to it; every send needs the "
               "matching receive on the other rank, in the same order",
               i, rank->blocked_in_send ? "send to" : "receive from", rank->blocked_on);
    else
      snprintf(err, errlen, "rank %d never finished: the program's sends and receives do not match", i);
    add_blocked_actions(world, err, errlen);
    return SIM_EDEADLOCK;
  }
  return check_eager(world, err, errlen);
}

/* The TI trace of the run, with the ranks' hosts. */
static int save_ti(const sim_world_t *world, char *err, size_t errlen)
{
  const char **hosts = malloc((size_t)world->job->nranks * sizeof *hosts);
  if (!hosts)
    return SIM_ENOMEM;
  for (int i = 0; i < world->job->nranks; i++)
    hosts[i] = sg_host_get_name(world->ranks[i].host);
  int rc = sim_ti_writer_save(world->ti, hosts, world->job->ti_dir, err, errlen);
  free(hosts);
  return rc;
}

int sim_simulate(const sim_job_t *job, met_trace_t **trace, char *err, size_t errlen)
{
  sim_world_t world = {.job = job};
  world.eager.prev = world.eager.next = &world.eager;
  *trace = NULL;
  err[0] = '\0';
  sim_engine_configure(job->engine_cfg);
  int rc = sim_engine_start(job->platform, err, errlen);
  if (rc == 0)
    rc = sim_machine_read(&world.machine, err, errlen);
  if (rc != 0)
    return rc;
  if (world.machine.piecewise)
    sim_engine_set_msg_time(sim_machine_msg_time, &world.machine);
  follow_platform_protocol(&world);
  rc = sim_cluster_install(&world.cluster, err, errlen);
  if (rc != 0)
    return rc;
  world.trace = job->aggregate ? met_trace_new_aggregate(job->nranks) : met_trace_new(job->nranks);
  world.ranks = calloc((size_t)job->nranks, sizeof *world.ranks);
  world.npeer_slots = job->nranks < SIM_PEER_SLOTS ? job->nranks : SIM_PEER_SLOTS;
  world.peer_cache = calloc((size_t)job->nranks * (size_t)world.npeer_slots, sizeof *world.peer_cache);
  world.all_members = malloc((size_t)job->nranks * sizeof *world.all_members);
  /* phase 0, "main", labels whatever a skeleton records before naming a phase of its own */
  if (!world.trace || !world.ranks || !world.peer_cache || !world.all_members ||
      (job->ti_dir && !(world.ti = sim_ti_writer_new(job->nranks))) || met_trace_phase_id(world.trace, "main") != 0)
    rc = SIM_ENOMEM;
  for (int i = 0; rc == 0 && i < job->nranks; i++)
    world.all_members[i] = i;
  world.all = (sim_group_t){.members = world.all_members, .count = job->nranks};
  if (rc == 0)
    rc = spawn_ranks(&world, err, errlen);
  if (rc == 0) {
    sim_engine_run();
    rc = check_outcome(&world, err, errlen);
  }
  if (rc == 0 && world.ti)
    rc = save_ti(&world, err, errlen);
  while (world.eager.next != &world.eager)
    eager_drop(world.eager.next);
  sim_ti_writer_free(world.ti);
  free(world.ranks);
  free(world.peer_cache);
  free(world.all_members);
  if (rc == 0) {
    *trace = world.trace;
    return 0;
  }
  met_trace_free(world.trace);
  if (rc == SIM_ENOMEM && err[0] == '\0')
    snprintf(err, errlen, "%s", sim_strerror(rc));
  return rc;
}
