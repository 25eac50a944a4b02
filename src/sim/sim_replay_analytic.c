/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay layer's analytic network (network = analytic, docs/scale.md): messages matched in their ranks' queues and
 * priced alone by the platform's model (Hockney's latency + size / bandwidth, or the T800's T(l, d) of seed 001 eq. 4),
 * with the machine's send semantics (synchronous, or eager below simrun:eager-bytes), as LogGOPSim prices a message. */
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_replay_world.h"
#include "sim_ucontext.h"

#include <simgrid/actor.h>
#include <stdlib.h>

/* Route slots per rank, direct-mapped on the peer id: the neighbours of a mesh and a broadcast's root stay. */
enum { SIM_ANALYTIC_ROUTE_SLOTS = 16 };

/* Each light context's stack: address space only, of which a rank touches a page or two (a skeleton's ranks ran on
 * SimGrid's 8 KiB stacks: docs/scale.md); AddressSanitizer's frames are larger. */
#ifdef SIM_ASAN
#define SIM_ANALYTIC_STACK (1024 * 1024)
#else
#define SIM_ANALYTIC_STACK (128 * 1024)
#endif

/* A message between the post of its first end and the release of its last. */
struct sim_amsg {
  sim_amsg_t *next; /* in the list of the rank that posted it first, while unmatched */
  int src;
  int dst;
  double bytes;  /* the sender's: what the network carries */
  double posted; /* when its first end was posted, by that rank's clock */
  int eager;     /* an eager send: over for the sender once posted */
  int matched;
  double start; /* once matched: when its transfer started and ended */
  double end;
  sim_rank_t *waiting; /* the rank suspended until it is matched, or NULL */
  int ends;            /* the ends that still hold it; freed when the last lets go */
  sim_eager_t *lost;   /* an eager send not yet received: its entry in the world's list (check_eager names it) */
};

int sim_replay_analytic_prepare(sim_world_t *world)
{
  const sim_job_t *job = world->job;
  if (job->analytic != SIM_ANALYTIC || job->share_hosts || world->closed)
    return 0;
  world->fibers = sim_fibers_new(job->nranks, SIM_ANALYTIC_STACK);
  return world->fibers ? 0 : SIM_ENOMEM;
}

int sim_replay_analytic_start(sim_world_t *world, char *err, size_t errlen)
{
  int rc = sim_engine_alone_prepare(err, errlen);
  if (rc != 0)
    return rc;
  int n = world->job->nranks;
  world->nroute_slots = n < SIM_ANALYTIC_ROUTE_SLOTS ? n : SIM_ANALYTIC_ROUTE_SLOTS;
  world->route_cache = calloc((size_t)n * (size_t)world->nroute_slots, sizeof *world->route_cache);
  if (!world->route_cache)
    return SIM_ENOMEM;
  for (int i = 0; i < n; i++)
    world->ranks[i].net.routes = &world->route_cache[(size_t)i * (size_t)world->nroute_slots];
  return 0;
}

static void free_list(sim_amsg_t *m)
{
  while (m) {
    sim_amsg_t *next = m->next;
    free(m);
    m = next;
  }
}

void sim_replay_analytic_stop(sim_world_t *world)
{
  for (int i = 0; world->ranks && world->route_cache && i < world->job->nranks; i++) {
    free_list(world->ranks[i].net.sends);
    free_list(world->ranks[i].net.recvs);
  }
  free_list(world->amsg_spare);
  world->amsg_spare = NULL;
  free(world->route_cache);
  world->route_cache = NULL;
  sim_fibers_free(world->fibers);
  world->fibers = NULL;
}

/* Both ends of `m` are posted, the second at `second`: its transfer starts when the later end is there (at `second`
 * itself when `at_second`) and takes what the network takes for it alone; an eager send's leaves the list of lost
 * ones, a waiting end is woken. */
static void match(sim_world_t *world, sim_amsg_t *m, double second, int at_second)
{
  sim_rank_t *src = &world->ranks[m->src];
  double simulated = (double)(long)(m->bytes + world->envelope); /* whole bytes, as a SimGrid message carries */
  m->matched = 1;
  m->start = m->posted > second && !at_second ? m->posted : second;
  m->end =
      m->start + sim_engine_alone_time(src->host, world->ranks[m->dst].host, sim_replay_route(src, m->dst), simulated);
  if (m->lost) {
    sim_replay_eager_drop(m->lost);
    m->lost = NULL;
  }
  if (m->waiting && world->fibers)
    sim_fibers_resume(world->fibers, m->waiting->id);
  else if (m->waiting)
    sg_actor_resume(m->waiting->net.actor);
  m->waiting = NULL;
}

/* Takes the oldest message in `list` whose other end is rank `other` (the source of a send, the destination of a
 * receive) out of it; NULL when there is none. */
static sim_amsg_t *take(sim_amsg_t **list, sim_amsg_t **last, int other, int sends)
{
  sim_amsg_t *prev = NULL;
  for (sim_amsg_t *m = *list; m; prev = m, m = m->next) {
    if ((sends ? m->dst : m->src) != other)
      continue;
    if (prev)
      prev->next = m->next;
    else
      *list = m->next;
    if (*last == m)
      *last = prev;
    m->next = NULL;
    return m;
  }
  return NULL;
}

/* A new message posted first by `rank`, at the end of its list; NULL when out of memory (the recorder's failure). */
static sim_amsg_t *post_first(sim_rank_t *rank, int peer, int sending, double bytes, int eager)
{
  sim_world_t *world = rank->world;
  sim_amsg_t *m = world->amsg_spare;
  if (m)
    world->amsg_spare = m->next;
  else
    m = malloc(sizeof *m);
  if (!m) {
    rank->world->record_error = 1;
    return NULL;
  }
  *m = (sim_amsg_t){.src = sending ? rank->id : peer,
                    .dst = sending ? peer : rank->id,
                    .bytes = bytes,
                    .posted = rank->ready,
                    .eager = eager,
                    .ends = 2};
  if (eager) {
    void *entry = sim_replay_eager_sent(rank, peer, bytes);
    m->lost = entry == (void *)rank ? NULL : entry;
  }
  sim_amsg_t **list = sending ? &rank->net.sends : &rank->net.recvs;
  sim_amsg_t **last = sending ? &rank->net.sends_last : &rank->net.recvs_last;
  if (*last)
    (*last)->next = m;
  else
    *list = m;
  *last = m;
  return m;
}

/* Posts one end of a message at the rank's clock: it meets the partner's oldest unmatched opposite end if there is
 * one (messages between two ranks match in the order they are posted), else waits in the rank's list. */
static sim_amsg_t *post(sim_rank_t *rank, int peer, int sending, double bytes)
{
  sim_world_t *world = rank->world;
  int eager = sending && bytes < world->eager_below;
  sim_rank_t *other = &world->ranks[peer];
  sim_amsg_t *m = sending ? take(&other->net.recvs, &other->net.recvs_last, rank->id, 0)
                          : take(&other->net.sends, &other->net.sends_last, rank->id, 1);
  if (!m)
    return post_first(rank, peer, sending, bytes, eager);
  if (sending) {
    m->bytes = bytes;
    m->eager = eager;
  }
  /* an eager send starts moving when it is sent with simrun:eager-start = send, whenever its receive is posted: by
   * the ranks' clocks, not by the order in which they happen to post (a receive posted first may be later) */
  if (m->eager && world->eager_at_send)
    match(world, m, sending ? rank->ready : m->posted, 1);
  else
    match(world, m, rank->ready, 0);
  return m;
}

/* A message nobody holds any more goes to the world's spares, for the next one (a malloc and a free per message were
 * 5% of a 4096-rank Gauss-Jordan's run). */
static void recycle(sim_world_t *world, sim_amsg_t *m)
{
  m->next = world->amsg_spare;
  world->amsg_spare = m;
}

/* One end lets `m` go. */
static void release(sim_world_t *world, sim_amsg_t *m)
{
  if (--m->ends == 0)
    recycle(world, m);
}

/* Suspends the rank until `m` is matched (at once when it is). */
static void wait_for(sim_rank_t *rank, sim_amsg_t *m, int peer, int sending)
{
  if (m->matched)
    return;
  m->waiting = rank;
  rank->blocked_on = peer;
  rank->blocked_in_send = sending;
  if (rank->world->fibers)
    sim_fibers_suspend(rank->world->fibers);
  else
    sg_actor_suspend(rank->net.actor);
  rank->blocked_on = -1;
}

void sim_replay_analytic_post(sim_rank_t *rank, sim_request_t *req, int peer, int sending, double bytes)
{
  *req = (sim_request_t){.peer = peer, .sending = sending, .bytes = bytes, .start = rank->ready, .end = rank->ready};
  sim_amsg_t *m = post(rank, peer, sending, bytes);
  if (m && sending && m->eager) /* over for the sender at once */
    release(rank->world, m);
  else
    req->amsg = m;
}

/* The request's message is over for its rank: its times are the request's, the rank lets it go. */
static void settle(sim_rank_t *rank, sim_request_t *req)
{
  req->start = req->amsg->start;
  req->end = req->amsg->end;
  release(rank->world, req->amsg);
  req->amsg = NULL;
}

int sim_replay_analytic_test(sim_rank_t *rank, sim_request_t *req)
{
  if (req->amsg && (!req->amsg->matched || req->amsg->end > rank->ready))
    return 0;
  if (req->amsg)
    settle(rank, req);
  return 1;
}

void sim_replay_analytic_finish(sim_rank_t *rank, sim_request_t *req)
{
  double arrived = rank->ready;
  if (req->amsg) {
    wait_for(rank, req->amsg, req->peer, req->sending);
    settle(rank, req);
  }
  sim_replay_request_over(rank, req, arrived);
}

void sim_replay_analytic_cancel(sim_rank_t *rank, sim_request_t *req)
{
  sim_amsg_t *m = req->amsg;
  if (!m)
    return;
  req->amsg = NULL;
  if (m->matched) { /* already under way: it goes on for the partner */
    release(rank->world, m);
    return;
  }
  sim_amsg_t **list = req->sending ? &rank->net.sends : &rank->net.recvs;
  sim_amsg_t **last = req->sending ? &rank->net.sends_last : &rank->net.recvs_last;
  sim_amsg_t *prev = NULL;
  for (sim_amsg_t *at = *list; at && at != m; at = at->next)
    prev = at;
  if (prev)
    prev->next = m->next;
  else
    *list = m->next;
  if (*last == m)
    *last = prev;
  recycle(rank->world, m);
}

void sim_replay_analytic_message(sim_rank_t *rank, int peer, int sending, double bytes)
{
  sim_request_t req;
  sim_replay_analytic_post(rank, &req, peer, sending, bytes);
  sim_replay_analytic_finish(rank, &req);
}
