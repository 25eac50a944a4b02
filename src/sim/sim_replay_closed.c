/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay layer's side of a program evaluated in closed form (sim_replay_closed.h): the run's figures for the
 * skeleton's evaluation, and the run itself, which stands for every rank's execution. */
#include "sim_replay_closed.h"
#include "sim_error.h"
#include "sim_replay_world.h"

#include <stdio.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(sim_replay);

struct sim_closed {
  sim_world_t *world;
};

int sim_replay_closed_applies(const sim_job_t *job)
{
  /* one rank (T_seq's run) has no message to evaluate: executing it costs no more, and keeps its sums exact */
  return job->closed && job->nranks > 1 && job->analytic == SIM_ANALYTIC && job->aggregate && !job->spill &&
         !job->ti_dir && !job->share_hosts;
}

int sim_closed_nranks(const sim_closed_t *run)
{
  return run->world->job->nranks;
}

const met_charac_t *sim_closed_charac(const sim_closed_t *run, int rank)
{
  return &run->world->ranks[rank].charac;
}

double sim_closed_message_time(sim_closed_t *run, int src, int dst, double bytes)
{
  sim_world_t *world = run->world;
  const sim_rank_t *from = &world->ranks[src];
  double simulated = (double)(long)(bytes + world->envelope); /* whole bytes, as sim_replay_analytic.c prices them */
  return sim_engine_alone_time(from->host, world->ranks[dst].host, sim_replay_route(from, dst), simulated);
}

sim_send_kind_t sim_closed_send_kind(const sim_closed_t *run, double bytes)
{
  if (!(bytes < run->world->eager_below))
    return SIM_SEND_SYNC;
  return run->world->eager_at_send ? SIM_SEND_EAGER_AT_SEND : SIM_SEND_EAGER;
}

double sim_closed_link_init_time(const sim_closed_t *run)
{
  return run->world->link_init_s;
}

double sim_closed_io_time(const sim_closed_t *run, sim_io_dir_t dir, double bytes)
{
  return sim_machine_io_time(&run->world->machine, dir, bytes);
}

int sim_closed_message_hops(const sim_closed_t *run)
{
  return run->world->job->message_hops;
}

int sim_closed_hops(sim_closed_t *run, int rank, int other)
{
  return sim_replay_route(&run->world->ranks[rank], other)->hops;
}

met_trace_t *sim_closed_trace(sim_closed_t *run)
{
  return run->world->trace;
}

void sim_replay_closed_run(sim_world_t *world)
{
  sim_closed_t run = {.world = world};
  XBT_VERB("%d ranks evaluated in closed form", world->job->nranks);
  int rc = world->job->closed(&run, world->job->arg);
  for (int i = 0; i < world->job->nranks; i++) /* their clocks moved alone: a host's speed must not change */
    world->ranks[i].finished = world->ranks[i].timed_alone = 1;
  if (rc != 0 && world->fail_code == 0) {
    world->fail_code = rc;
    snprintf(world->fail_message, sizeof world->fail_message, "%s", bas_strerror(rc));
  }
}
