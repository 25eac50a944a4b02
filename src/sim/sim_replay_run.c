/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One run of the replay layer: the world of a job, one SimGrid actor per rank running the skeleton's program, and the
 * run's outcome checked (deadlocks, lost eager messages, failures of the layers above) before its trace is handed on.
 */
#include "sim_replay.h"
#include "bas_temp.h"
#include "sim_check.h"
#include "sim_cluster.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_map.h"
#include "sim_coll_match.h"
#include "sim_replay_world.h"
#include "sim_ti.h"

#include <math.h>
#include <stdint.h>
#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(sim_replay);

/* A rank's life: the program, then the rank's last messages and clock. */
static void run_rank(sim_rank_t *rank)
{
  sim_ti_writer_t *ti = rank->world->ti;
  if (ti && sim_ti_action(ti, rank->id, "init") != 0)
    rank->world->record_error = 1;
  rank->world->job->program(rank, rank->world->job->arg);
  /* its last eager messages arrive before the rank is over (only eager_at_send leaves one under way) */
  for (int i = 0; rank->world->eager_at_send && i < rank->world->npeer_slots; i++)
    if (rank->peers[i].eager_last)
      sim_replay_eager_flush(rank, &rank->peers[i]);
  sim_replay_eager_flush_aside(rank);
  sim_replay_catch_up(rank);
  XBT_VERB("rank %d: program over at %.9g s", rank->id, sim_rank_clock(rank));
  if (ti && sim_ti_action(ti, rank->id, "finalize") != 0)
    rank->world->record_error = 1;
  sim_replay_orphans_settle(rank); /* one whose message never comes leaves the rank unfinished, named at the end */
  rank->finished = 1;
  sim_replay_eager_settle(rank);
}

static void rank_main(int argc, char *argv[])
{
  run_rank(sg_actor_self_get_data());
}

static void fiber_main(void *rank)
{
  run_rank(rank);
}

/* What the platform's message library does with a send (simrun:eager-bytes, docs/machines.md): below its eager limit
 * a send is over for the sender at once, through post()'s eager sends, and its transfer starts when its receive is
 * posted, or at once with simrun:eager-start = send; a platform without one (the T800's synchronous channels) keeps
 * every send synchronous. Computations stay on the ranks' own clocks (one rank per host). */
static void follow_platform_protocol(sim_world_t *world)
{
  /* post() sends eagerly below eager_below: the next double above the limit makes a message of exactly it eager */
  world->eager_below = world->machine.eager_bytes > 0 ? nextafter(world->machine.eager_bytes, INFINITY) : 0;
  world->eager_at_send = world->machine.eager_at_send;
}

/* Maps ranks to hosts and creates their actors. */
static int spawn_ranks(sim_world_t *world, char *err, size_t errlen)
{
  int nranks = world->job->nranks;
  sg_host_t *hosts = calloc((size_t)nranks, sizeof *hosts);
  if (!hosts)
    return SIM_ENOMEM;
  size_t count = sim_engine_host_count();
  int rc = 0;
  if (world->job->share_hosts && (size_t)nranks > count) /* ranks share the hosts' cores, as SimGrid shares them */
    for (int i = 0; i < nranks; i++)
      hosts[i] = sim_engine_host((size_t)i % count);
  else
    rc = sim_map_ranks(nranks, hosts, err, errlen);
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
    rank->same_as_first = met_charac_equal(&rank->charac, &world->ranks[0].charac) && rank->charac.cache_bytes <= 0;
    if (world->closed) /* no rank runs: sim_replay_closed_run stands for them */
      continue;
    if (world->fibers) {
      sim_fibers_start(world->fibers, i, fiber_main, rank);
      continue;
    }
    char name[32];
    snprintf(name, sizeof name, "rank%d", i);
    sg_actor_t actor = sg_actor_init(name, hosts[i]);
    sg_actor_set_data(actor, rank);
    rank->net.actor = actor;
    sg_actor_start(actor, rank_main, 0, NULL);
  }
  if (rc == 0 && world->machine.link_init_us > 0 && world->machine.link_init_points == 0)
    world->links = sim_engine_links_between(hosts, (size_t)nranks);
  if (rc == 0)
    rc = sim_machine_link_init_time(&world->machine, nranks, world->links, &world->link_init_s, err, errlen);
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

/* Whether an eager message was never received: one that never was is lost silently (its sender went on), so the
 * run's sends and receives did not match. Names the first in `err` ("FILE:LINE: ..."), with how many there are. */
static int lost_eager(const sim_world_t *world, char *err, size_t errlen)
{
  const sim_eager_t *e = world->eager.next;
  if (e == &world->eager)
    return 0;
  size_t lost = 0;
  for (const sim_eager_t *l = e; l != &world->eager; l = l->next)
    lost++;
  char where[512] = "";
  if (e->file)
    snprintf(where, sizeof where, "%s:%d: ", e->file, e->line);
  snprintf(
      err, errlen,
      "%srank %d's send of %.17g bytes to rank %d is never received (%zu such send(s) in all): sent eagerly (below "
      "%.17g bytes), it left rank %d free to go on",
      where, e->src, e->bytes, e->dst, lost, world->eager_below, e->src);
  return 1;
}

/* A run of per-rank trace files whose messages did not match: when the ranks call different collectives, that is the
 * cause to name (sim_coll_match.h), in place of the message the collective's sends and receives gave. Returns rc, or
 * SIM_EPARAM with that message. */
static int blame_collectives(const sim_world_t *world, int rc, char *err, size_t errlen)
{
  const char **paths = malloc((size_t)world->job->nranks * sizeof *paths);
  int known = paths != NULL;
  for (int i = 0; known && i < world->job->nranks; i++)
    known = (paths[i] = world->ranks[i].where_file) != NULL;
  if (known && sim_coll_match(paths, world->job->nranks, err, errlen))
    rc = SIM_EPARAM; /* the trace is wrong: bad input */
  free(paths);
  return rc;
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
      const char *host = sg_host_get_name(world->ranks[i].host);
      int line = sim_check_host_line(world->job->platform, host);
      char where[1100] = ""; /* the platform's line, where the host has an element */
      if (line > 0)
        snprintf(where, sizeof where, "%s:%d: ", world->job->platform, line);
      snprintf(err, errlen,
               "%shost %s changed speed during the run (its speed profile, speed_file, or a power state): this "
               "program's ranks compute at their host's constant speed; remove the profile from the host (a trace "
               "replay's computations follow it)",
               where, host);
      return SIM_EPLATFORM;
    }
  if (world->record_error) {
    snprintf(err, errlen, "the recorder could not store an interval (out of memory%s)",
             world->job->spill ? ", or no room left for the timeline's temporary file in $TMPDIR, else /tmp" : "");
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
    return blame_collectives(world, SIM_EDEADLOCK, err, errlen);
  }
  if (!lost_eager(world, err, errlen))
    return 0;
  if (blame_collectives(world, 0, err, errlen) != 0) /* the ranks called different collectives: that is the cause */
    return SIM_EPARAM;
  if (world->job->drop_unreceived) { /* a real program may end with a message pending: smpirun -replay drops it */
    sim_warn("%s; the program ended with it pending: dropped, as smpirun -replay drops it", err);
    err[0] = '\0';
    return 0;
  }
  size_t len = strlen(err);
  snprintf(err + len, errlen - len,
           " and was lost when the run ended; every send needs the matching receive on the "
           "other rank, in the same order");
  return SIM_EPARAM;
}

/* Says how the run's messages between ranks on one host were priced when the platform routes a host to itself over
 * its links (a <cluster> without loopback_bw): out and back at the network's time, as SimGrid and smpirun price them,
 * where the machine copied them in memory (a measured run of 20 MPI_Send of 1 MiB, each rank to itself, took 1.5 ms
 * and was predicted 0.33 s on a cluster of 125 MB/s links, without a word). */
static void say_same_host(const sim_world_t *world)
{
  char links[512];
  if (world->same_host == 0)
    return;
  sim_engine_self_links(world->ranks[world->same_host_from].host, links, sizeof links);
  int mega = world->same_host_bytes >= 1e6;
  sim_warn("%s: %zu message(s) of %.3g %s in all (collectives' steps included) " SIM_SAME_HOST_WORDS
           " (the first from rank %d to rank %d on %s, whose route to itself crosses %s: a <cluster> without "
           "loopback_bw, which SimGrid and smpirun route out and back), so each took the network's time; give the "
           "cluster loopback_bw and loopback_lat (a copy in memory's) to price them as copies",
           world->job->platform, world->same_host, world->same_host_bytes / (mega ? 1e6 : 1), mega ? "MB" : "bytes",
           world->same_host_from, world->same_host_to, sg_host_get_name(world->ranks[world->same_host_from].host),
           links);
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

/* Above this many ranks, the actors' stacks go without guard pages: SimGrid protects each stack's end with mprotect,
 * which splits its mapping in two, and the kernel's default limit of 65530 mappings (vm.max_map_count) then fails
 * near 32,000 actors ("Failed to protect stack"). A guard page only turns a stack overflow into a crash; results
 * are the same. */
enum { SIM_GUARDED_RANKS = 16384 };

/* The job's SimGrid settings, with the guard pages dropped for a run of many ranks. */
static void configure_engine(const sim_job_t *job)
{
  char settings[1024];
  snprintf(settings, sizeof settings, "%s%s", job->engine_cfg ? job->engine_cfg : "",
           job->nranks > SIM_GUARDED_RANKS ? " contexts/guard-size:0" : "");
  sim_engine_configure(settings[0] ? settings : NULL);
}

/* Each rank's peer slots: a power of two, so that a slot is found by a mask rather than a division, for every peer up
 * to SIM_PEER_SLOTS ranks. */
static int peer_slots(int nranks)
{
  int slots = 1;
  while (slots < nranks && slots < SIM_PEER_SLOTS)
    slots *= 2;
  return slots;
}

/* The first cache line boundary at or after `memory`. */
static void *line_up(void *memory)
{
  return (void *)(((uintptr_t)memory + SIM_CACHE_LINE - 1) & ~(uintptr_t)(SIM_CACHE_LINE - 1));
}

int sim_simulate(const sim_job_t *job, met_trace_t **trace, char *err, size_t errlen)
{
  sim_world_t world = {.job = job};
  world.eager.prev = world.eager.next = &world.eager;
  *trace = NULL;
  err[0] = '\0';
  configure_engine(job);
  int rc = sim_engine_start(job->platform, err, errlen);
  if (rc == 0)
    rc = sim_machine_read(&world.machine, err, errlen);
  if (rc != 0)
    return rc;
  if (world.machine.piecewise || world.machine.internode)
    sim_engine_set_msg_time(sim_machine_msg_time, &world.machine);
  follow_platform_protocol(&world);
  rc = sim_cluster_install(&world.cluster, err, errlen);
  if (rc != 0)
    return rc;
  world.trace = !job->aggregate ? met_trace_new(job->nranks)
                : job->spill    ? met_trace_new_spilled(job->nranks)
                                : met_trace_new_aggregate(job->nranks);
  world.ranks = aligned_alloc(SIM_CACHE_LINE, (size_t)job->nranks * sizeof *world.ranks); /* sizeof: whole lines */
  if (world.ranks)
    memset(world.ranks, 0, (size_t)job->nranks * sizeof *world.ranks);
  world.analytic = job->analytic;
  world.closed = sim_replay_closed_applies(job);
  world.npeer_slots = job->analytic ? 0 : peer_slots(job->nranks);
  /* calloc, not aligned_alloc and memset: only the pages of the slots in use then take memory */
  world.peer_memory = calloc((size_t)job->nranks * (size_t)world.npeer_slots + 1, sizeof *world.peer_cache);
  world.peer_cache = world.peer_memory ? line_up(world.peer_memory) : NULL;
  world.all_members = malloc((size_t)job->nranks * sizeof *world.all_members);
  /* phase 0, "main", labels whatever a skeleton records before naming a phase of its own */
  if (!world.trace && job->spill) {
    snprintf(err, errlen, "cannot make the timeline's temporary file in %s; set TMPDIR to a writable folder",
             bas_temp_dir());
    rc = SIM_EIO;
  } else if (!world.trace || !world.ranks || !world.peer_cache || !world.all_members ||
             (job->ti_dir && !(world.ti = sim_ti_writer_new(job->nranks))) ||
             met_trace_phase_id(world.trace, "main") != 0)
    rc = SIM_ENOMEM;
  for (int i = 0; rc == 0 && i < job->nranks; i++)
    world.all_members[i] = i;
  world.all = (sim_group_t){.members = world.all_members, .count = job->nranks};
  if (rc == 0 && job->analytic)
    rc = sim_replay_analytic_prepare(&world);
  if (rc == 0)
    rc = spawn_ranks(&world, err, errlen);
  if (rc == 0 && job->analytic)
    rc = sim_replay_analytic_start(&world, err, errlen);
  if (rc == 0) {
    if (world.closed)
      sim_replay_closed_run(&world);
    else if (world.fibers)
      sim_fibers_run(world.fibers);
    else
      sim_engine_run();
    rc = check_outcome(&world, err, errlen);
  }
  if (rc == 0)
    say_same_host(&world);
  if (rc == 0 && world.ti)
    rc = save_ti(&world, err, errlen);
  sim_replay_eager_forget(&world);
  sim_ti_writer_free(world.ti);
  sim_replay_analytic_stop(&world);
  for (int i = 0; world.ranks && i < job->nranks; i++) { /* and what a rank that never reached its end left */
    free(world.ranks[i].aside.items);
    free(world.ranks[i].channels.slots);
    sim_replay_orphans_free(&world.ranks[i]);
  }
  free(world.ranks);
  free(world.peer_memory);
  free(world.all_members);
  if (rc == 0) {
    *trace = world.trace;
    return 0;
  }
  met_trace_free(world.trace);
  if (rc == SIM_ENOMEM && err[0] == '\0')
    snprintf(err, errlen, "%s", bas_strerror(rc));
  return rc;
}
