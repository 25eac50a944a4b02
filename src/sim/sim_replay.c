/* The replay layer: one SimGrid actor per rank runs the skeleton's actions; the recorder turns each action into timed
 * intervals of the trace model (seed 000 §1.1.3 classes: work, control of parallelism, communication, idling). */
#include "sim_replay.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_map.h"
#include "sim_ti.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <xbt/asserts.h>
#include <xbt/log.h>

XBT_LOG_NEW_DEFAULT_CATEGORY(sim_replay, "simrun: the replay layer and its recorder");

typedef struct sim_world {
  const sim_job_t *job;
  sim_machine_t machine;
  met_trace_t *trace;
  sim_rank_t *ranks;
  sim_group_t all; /* every rank, in rank order */
  int *all_members;
  int links;        /* physical links on the routes between the hosts of the run */
  sim_ti_writer_t *ti; /* with job->ti_dir: the TI trace being written */
  int record_error; /* set when the recorder ran out of memory */
  int fail_code;    /* from sim_rank_fail: the first failure of a layer above, or 0 */
  char fail_message[512];
} sim_world_t;

/* The mailboxes and the distance to one peer, looked up once: formatting a mailbox name and routing per message
 * was most of the replay layer's cost at thousands of ranks. Direct-mapped on the peer id. */
enum { SIM_PEER_CACHE = 16 };
typedef struct sim_peer {
  int id; /* -1 when the slot is empty */
  int hops; /* -1 until needed */
  sg_mailbox_t to;   /* this rank to the peer */
  sg_mailbox_t from; /* the peer to this rank */
} sim_peer_t;

struct sim_rank {
  int id;
  sim_peer_t peers[SIM_PEER_CACHE];
  sim_world_t *world;
  sg_host_t host;
  double speed; /* cycles per second */
  int row;      /* mesh coordinates of the host, or -1 */
  int col;
  int phase;
  /* Rendezvous bookkeeping: while blocked in a send or receive, the partner's id; the partner that arrives later
   * writes the time it arrived into match_time, which is when the transfer started. */
  int blocked_on;
  int blocked_in_send;
  double match_time;
  int finished;
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
  sim_peer_t *slot = &rank->peers[other % SIM_PEER_CACHE];
  if (slot->id != other)
    *slot = (sim_peer_t){.id = other, .hops = -1, .to = channel(rank->id, other), .from = channel(other, rank->id)};
  return slot;
}

int sim_hops(const sim_rank_t *rank, int other)
{
  const sim_peer_t *slot = &rank->peers[other % SIM_PEER_CACHE];
  if (slot->id == other && slot->hops >= 0)
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

void sim_rank_fail(sim_rank_t *rank, int code, const char *message)
{
  if (rank->world->fail_code != 0)
    return;
  rank->world->fail_code = code;
  snprintf(rank->world->fail_message, sizeof rank->world->fail_message, "%s", message);
}

static void record(sim_rank_t *rank, met_category_t category, double start, double end, int peer, double bytes,
                   const double *parts)
{
  int hops = category == MET_CAT_COMM && peer >= 0 && !rank->world->job->aggregate && end > start
                 ? peer_hops(rank, peer)
                 : 0;
  met_interval_t iv = {.start = start, .end = end, .category = category, .phase = rank->phase, .peer = peer,
                       .bytes = bytes, .hops = hops};
  for (int i = 0; parts && i < MET_PART_COUNT; i++)
    iv.parts[i] = parts[i];
  if (met_trace_add(rank->world->trace, rank->id, &iv) != 0)
    rank->world->record_error = 1;
}

void sim_compute(sim_rank_t *rank, const sim_cycles_t *cycles, sim_purpose_t purpose)
{
  double total = cycles->cpu + cycles->fpu + cycles->intmem + cycles->extmem;
  if (total <= 0)
    return;
  double parts[MET_PART_COUNT] = {cycles->cpu / rank->speed, cycles->fpu / rank->speed,
                                  cycles->intmem / rank->speed, cycles->extmem / rank->speed};
  if (rank->world->ti && sim_ti_action(rank->world->ti, rank->id, "compute %.17g", total) != 0)
    rank->world->record_error = 1;
  double start = simgrid_get_clock();
  sg_actor_execute(total);
  record(rank, purpose == SIM_WORK ? MET_CAT_COMPUTE : MET_CAT_CTRL, start, simgrid_get_clock(), -1, 0, parts);
}

/* Called just before blocking on `peer`: if the peer is already blocked on us in the opposite direction, the
 * transfer starts now and the peer learns it; otherwise we wait and the peer will tell us. Returns the start time
 * when known now, or -1. Actors are cooperative, so nothing runs between this check and the blocking call. */
static double rendezvous_arrive(sim_rank_t *rank, int peer, int sending)
{
  sim_rank_t *partner = &rank->world->ranks[peer];
  double now = simgrid_get_clock();
  if (partner->blocked_on == rank->id && partner->blocked_in_send != sending) {
    partner->match_time = now;
    return now;
  }
  rank->blocked_on = peer;
  rank->blocked_in_send = sending;
  rank->match_time = -1;
  return -1;
}

/* Records the idle wait and the transfer of a finished message. */
static void rendezvous_done(sim_rank_t *rank, int peer, double posted, double started, double bytes)
{
  if (started < 0) {
    started = rank->match_time;
    rank->blocked_on = -1;
    xbt_assert(started >= 0, "rank %d: a message from or to %d completed without a rendezvous", rank->id, peer);
  }
  record(rank, MET_CAT_IDLE, posted, started, peer, 0, NULL);
  record(rank, MET_CAT_COMM, started, simgrid_get_clock(), peer, bytes, NULL);
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
  xbt_assert(dst >= 0 && dst < sim_rank_count(rank) && dst != rank->id, "rank %d: bad destination %d", rank->id, dst);
  ti_message(rank, "send", dst, bytes);
  double posted = simgrid_get_clock();
  double started = rendezvous_arrive(rank, dst, 1);
  sg_mailbox_put(peer_slot(rank, dst)->to, rank, (long)bytes);
  rendezvous_done(rank, dst, posted, started, bytes);
}

void sim_recv(sim_rank_t *rank, int src, double bytes)
{
  xbt_assert(src >= 0 && src < sim_rank_count(rank) && src != rank->id, "rank %d: bad source %d", rank->id, src);
  ti_message(rank, "recv", src, bytes);
  double posted = simgrid_get_clock();
  double started = rendezvous_arrive(rank, src, 0);
  sg_mailbox_get(peer_slot(rank, src)->from);
  rendezvous_done(rank, src, posted, started, bytes);
}

void sim_bcast(sim_rank_t *rank, int root, double bytes)
{
  sim_bcast_group(rank, &rank->world->all, root, bytes);
}

/* A broadcast that could not allocate its plan is reported as the recorder's out-of-memory failure. */
void sim_bcast_group(sim_rank_t *rank, const sim_group_t *group, int root, double bytes)
{
  if (sim_coll_bcast(rank, group, rank->world->job->bcast, root, bytes) != 0)
    rank->world->record_error = 1;
}

void sim_barrier(sim_rank_t *rank)
{
  int nranks = sim_rank_count(rank);
  if (rank->id != 0) {
    sim_send(rank, 0, 0);
    sim_recv(rank, 0, 0);
    return;
  }
  for (int src = 1; src < nranks; src++)
    sim_recv(rank, src, 0);
  for (int dst = 1; dst < nranks; dst++)
    sim_send(rank, dst, 0);
}

/* A fixed delay recorded as `category`. */
static void delay(sim_rank_t *rank, met_category_t category, double seconds, double bytes)
{
  if (seconds <= 0)
    return;
  if (rank->world->ti && sim_ti_action(rank->world->ti, rank->id, "sleep %.17g", seconds) != 0)
    rank->world->record_error = 1;
  double start = simgrid_get_clock();
  sg_actor_sleep_for(seconds);
  record(rank, category, start, simgrid_get_clock(), -1, bytes, NULL);
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
  if (ti && sim_ti_action(ti, rank->id, "finalize") != 0)
    rank->world->record_error = 1;
  rank->finished = 1;
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
    *rank = (sim_rank_t){.id = i, .world = world, .host = hosts[i], .speed = sg_host_get_speed(hosts[i]),
                         .blocked_on = -1};
    for (int k = 0; k < SIM_PEER_CACHE; k++)
      rank->peers[k].id = -1;
    if (sim_map_host_coords(hosts[i], &rank->row, &rank->col) != 0)
      rank->row = rank->col = -1;
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

/* Checks that no layer above failed, the recorder kept up and every rank finished. */
static int check_outcome(const sim_world_t *world, char *err, size_t errlen)
{
  if (world->fail_code != 0) {
    snprintf(err, errlen, "%s", world->fail_message);
    return world->fail_code;
  }
  if (world->record_error) {
    snprintf(err, errlen, "the recorder could not store an interval (out of memory)");
    return SIM_ENOMEM;
  }
  for (int i = 0; i < world->job->nranks; i++)
    if (!world->ranks[i].finished) {
      snprintf(err, errlen, "rank %d never finished: the program's sends and receives do not match", i);
      return SIM_EDEADLOCK;
    }
  return 0;
}

int sim_simulate(const sim_job_t *job, met_trace_t **trace, char *err, size_t errlen)
{
  sim_world_t world = {.job = job};
  *trace = NULL;
  err[0] = '\0';
  int rc = sim_engine_start(job->platform, err, errlen);
  if (rc == 0)
    rc = sim_machine_read(&world.machine, err, errlen);
  if (rc != 0)
    return rc;
  if (world.machine.piecewise)
    sim_engine_set_msg_time(sim_machine_msg_time, &world.machine);
  world.trace = job->aggregate ? met_trace_new_aggregate(job->nranks) : met_trace_new(job->nranks);
  world.ranks = calloc((size_t)job->nranks, sizeof *world.ranks);
  if (job->ti_dir && !(world.ti = sim_ti_writer_new(job->nranks))) {
    rc = SIM_ENOMEM;
    goto fail;
  }
  /* phase 0, "main", labels whatever a skeleton records before naming a phase of its own */
  if (!world.trace || !world.ranks || met_trace_phase_id(world.trace, "main") != 0) {
    rc = SIM_ENOMEM;
    goto fail;
  }
  world.all_members = malloc((size_t)job->nranks * sizeof *world.all_members);
  if (!world.all_members) {
    rc = SIM_ENOMEM;
    goto fail;
  }
  for (int i = 0; i < job->nranks; i++)
    world.all_members[i] = i;
  world.all = (sim_group_t){.members = world.all_members, .count = job->nranks};
  rc = spawn_ranks(&world, err, errlen);
  if (rc != 0)
    goto fail;
  sim_engine_run();
  rc = check_outcome(&world, err, errlen);
  if (rc == 0 && world.ti)
    rc = sim_ti_writer_save(world.ti, job->ti_dir, err, errlen);
  if (rc != 0)
    goto fail;
  sim_ti_writer_free(world.ti);
  free(world.ranks);
  free(world.all_members);
  *trace = world.trace;
  return 0;
fail:
  sim_ti_writer_free(world.ti);
  free(world.ranks);
  free(world.all_members);
  met_trace_free(world.trace);
  if (rc == SIM_ENOMEM && err[0] == '\0')
    snprintf(err, errlen, "%s", sim_strerror(rc));
  return rc;
}
