/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The DSM recorder (seed 002 §4, CARNIVAL's annex): each unit's spans and the PP's mirror in the rank's timeline, and
 * the PP's states as the application and protocol code take it in turn. */
#include "sim_dsm_world.h"
#include "sim_engine.h"
#include "sim_error.h"

#include <simgrid/actor.h>
#include <simgrid/exec.h>
#include <simgrid/mutex.h>

/* ---- The recorder: unit spans (the annex) and the PP's mirror in the rank's timeline ---- */

static const met_category_t pp_category[] = {[MET_CE_COMP] = MET_CAT_COMPUTE,
                                             [MET_CE_EXTRA] = MET_CAT_CTRL,
                                             [MET_CE_WAIT] = MET_CAT_IDLE,
                                             [MET_CE_PRSTE] = MET_CAT_CTRL};

void sim_dsm_unit_close(dsm_world_t *w, dsm_unit_t *u)
{
  met_span_t span = u->open;
  span.end = sim_dsm_now();
  int rc = met_trace_span_add(w->trace, u->node, u->kind, &span);
  if (rc == 0 && u->kind == MET_UNIT_PP) {
    met_interval_t iv = {
        .start = span.start, .end = span.end, .category = pp_category[span.state], .phase = span.scope, .peer = -1};
    rc = met_trace_add(w->trace, u->node, &iv);
  }
  if (rc != 0)
    sim_dsm_world_fail(w, SIM_ENOMEM, "the recorder could not store a span (out of memory)");
  u->open.start = span.end;
}

/* Moves the unit to (state, scope, op) from now on. */
void sim_dsm_unit_set(dsm_world_t *w, dsm_unit_t *u, int state, int scope, int op)
{
  if (u->open.state == state && u->open.scope == scope && u->open.op == op)
    return;
  sim_dsm_unit_close(w, u);
  u->open.state = state;
  u->open.scope = scope;
  u->open.op = op;
}

void sim_dsm_record_request(dsm_world_t *w, met_request_t *req)
{
  if (met_trace_request_add(w->trace, req) != 0)
    sim_dsm_world_fail(w, SIM_ENOMEM, "the recorder could not store a request (out of memory)");
}

/* ---- The PP: application states, and protocol code preempting the application ---- */

void sim_dsm_run_on(sg_host_t host, double cycles)
{
  if (cycles <= 0)
    return;
  sg_exec_t exec = sg_actor_exec_init(cycles);
  sg_exec_set_host(exec, host);
  sg_exec_start(exec);
  sg_exec_wait(exec);
}

/* The application takes the PP for its own protocol code (state EXTRA), with interrupts masked until app_leave. */
void sim_dsm_app_enter(struct sim_dsm_node *n, int state, int op)
{
  sg_mutex_lock(n->pp_lock);
  sim_dsm_unit_set(n->world, &n->pp, state, n->scope, op);
}

void sim_dsm_app_leave(struct sim_dsm_node *n)
{
  sg_mutex_unlock(n->pp_lock);
}

/* The application moves to `state` (COMP or WAIT): only between two pieces of protocol code. */
void sim_dsm_app_set(struct sim_dsm_node *n, int state, int op)
{
  sim_dsm_app_enter(n, state, op);
  sim_dsm_app_leave(n);
}

/* Protocol code of another actor takes the PP (state EXTRA or PRSTE): it waits for code already there, and preempts
 * the application's computation until pp_leave. */
void sim_dsm_pp_enter(struct sim_dsm_node *n, int state, int scope, int op)
{
  sg_mutex_lock(n->pp_lock);
  n->pp_saved = n->pp.open;
  if (n->pp.open.state == MET_CE_COMP) {
    sg_actor_suspend(n->app);
    n->app_suspended = 1;
  }
  sim_dsm_unit_set(n->world, &n->pp, state, scope, op);
}

void sim_dsm_pp_leave(struct sim_dsm_node *n)
{
  sim_dsm_unit_set(n->world, &n->pp, n->pp_saved.state, n->pp_saved.scope, n->pp_saved.op);
  if (n->app_suspended)
    sg_actor_resume(n->app);
  n->app_suspended = 0;
  sg_mutex_unlock(n->pp_lock);
}
