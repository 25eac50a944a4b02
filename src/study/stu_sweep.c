/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs a scenario's sweep: validates every point, plans the tasks (stu_plan.h), runs them on local processes or the
 * MPI farm, pairs each point with the sequential run of the same parameters (T_seq, seed 000 §1.1) and keeps the
 * views (stu_view.h). */
#include "stu_sweep.h"
#include "app_skeleton.h"
#include "sim_error.h"
#include "sim_run.h"
#include "stu_farm.h"
#include "stu_model.h"
#include "stu_plan.h"
#include "stu_points.h"
#include "stu_pool.h"
#include "stu_routing.h"
#include "stu_runner.h"
#include "stu_view.h"
#include "stu_work.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

typedef struct sweep {
  const scn_scenario_t *scenario;
  const app_skeleton_t *skeleton;
  const char **names; /* parameter names, in the scenario's order */
  size_t p_index;     /* the position of "p" among them */
  stu_plan_t plan;
  stu_cache_t *cache;   /* or NULL */
  int no_seq;           /* a group has no sequential run (app_skeleton_t.prepare_seq): no lost-cycle view */
  const char *platform; /* the platform being loaded, for messages */
  const stu_options_t *options;
  stu_study_t *study;
  stu_sweep_ctx_t ctx; /* what the tasks share */
  size_t done;         /* points finished */
  stu_work_t work;     /* the tasks' predicted costs and schedule (stu_work.h); cost NULL: none */
  stu_progress_t progress;
  struct timespec start; /* the simulations started (start_progress) */
  scn_error_t *err;
  stu_models_t *models; /* the skeleton's models of the points, on their described machines */
} sweep_t;

static int param_line(const scn_scenario_t *scenario, const char *name)
{
  const scn_param_t *param = scn_param(scenario, name);
  return param ? param->line : 0;
}

/* Reports a failure of `point` against the scenario: bad input at the line of the parameter to blame. */
static int point_error(sweep_t *sweep, int code, const char *blame, const char *message)
{
  const scn_scenario_t *s = sweep->scenario;
  const scn_param_t *platform = scn_role_param(s, SCN_ROLE_PLATFORM);
  int platform_line = platform ? platform->line : s->platform_line;
  if (code == SIM_EPLATFORM)
    scn_fail(sweep->err, s->path, platform_line, "platform '%s' could not be loaded: %s", sweep->platform, message);
  else if (code == SIM_ECHILD && sweep->platform)
    scn_fail(sweep->err, s->path, platform_line, "simulating on platform '%s' failed: %s", sweep->platform, message);
  else if (code == SIM_EHOSTS)
    scn_fail(sweep->err, s->path, scn_role_param(s, SCN_ROLE_PROCESSES)->line,
             "%s; use p no larger than the host count", message);
  else
    scn_fail(sweep->err, s->path, blame ? param_line(s, blame) : 0, "%s", message);
  return code;
}

/* Whether the point keeps its whole trace once finished: the per-process p's, when an export needs every event
 * (stu_options_t.whole_traces; a point without one has none to drop). */
static int keeps_trace(const stu_point_t *point, int per_process)
{
  return point->p == per_process;
}

/* Drops the trace a point does not keep. */
static void drop_trace(stu_point_t *point, int per_process)
{
  if (keeps_trace(point, per_process))
    return;
  met_trace_free(point->trace);
  point->trace = NULL;
}

/* Seconds since the simulations started. */
static double since_start(const sweep_t *sweep)
{
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - sweep->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - sweep->start.tv_nsec);
}

/* The time left, then the progress callback. */
static void tell_progress(sweep_t *sweep, double now)
{
  stu_progress_t *at = &sweep->progress;
  at->left = sweep->work.cost ? stu_work_left(&sweep->work, now) : -1;
  sweep->options->progress(at, sweep->options->ctx);
}

/* Tells the progress callback that plan task `task` is finished. */
static void show_progress(sweep_t *sweep, const stu_task_t *task)
{
  stu_progress_t *at = &sweep->progress;
  at->done = sweep->done;
  at->total = sweep->study->npoints;
  if (!sweep->options->progress)
    return;
  double now = since_start(sweep);
  if (sweep->work.cost)
    at->work_done = stu_work_finished(&sweep->work, (size_t)(task - sweep->plan.tasks), now);
  tell_progress(sweep, now);
}

/* A task started, or reported how far it is (stu_running_fn). */
static void on_running(void *owner, const stu_task_t *task, double ops, int ended)
{
  sweep_t *sweep = owner;
  if (!sweep->options->progress || !sweep->work.cost)
    return;
  double now = since_start(sweep);
  size_t t = (size_t)(task - sweep->plan.tasks);
  if (ops < 0) {
    stu_work_started(&sweep->work, t, now);
    return;
  }
  stu_work_reported(&sweep->work, t, ops, ended, now);
  tell_progress(sweep, now);
}

/* The tasks' predicted costs, and the progress callback's first call, nothing done yet, as the simulations start on
 * `slots` at once. */
static void start_progress(sweep_t *sweep, size_t slots)
{
  const stu_plan_t *plan = &sweep->plan;
  if (!sweep->options->progress)
    return;
  if (stu_work_new(&sweep->work, plan, &sweep->ctx, sweep->cache, slots) == 0) /* else the count of points alone */
    sweep->progress.work_total = sweep->work.span;
  sweep->progress.total = sweep->study->npoints;
  sweep->progress.left = -1;
  clock_gettime(CLOCK_MONOTONIC, &sweep->start);
  sweep->options->progress(&sweep->progress, sweep->options->ctx);
}

/* A finished point: its sequential time for the rest of its group (a p = 1 point), its views' finish (what needs its
 * whole trace, its model), and the progress. */
static int finish_point(sweep_t *sweep, const stu_task_t *task, stu_point_t *point)
{
  unsigned views = sweep->study->facts.views;
  if (stu_view_needs(views, STU_NEED_SEQ) && point->p == 1 && !sweep->skeleton->prepare_seq)
    stu_plan_set_seq(&sweep->plan, (size_t)(point - sweep->study->points), point->t_par);
  stu_view_context_t ctx = {
      .study = sweep->study, .skeleton = sweep->skeleton, .names = sweep->names, .models = sweep->models};
  int rc = stu_view_finish(views, point, &ctx);
  drop_trace(point, sweep->options->per_process);
  sweep->done++;
  if (rc == 0)
    show_progress(sweep, task);
  return rc;
}

/* Takes the result of a task (stu_deliver_fn): a point's views, or its group's sequential time. */
static int deliver(void *owner, const stu_task_t *task, FILE *result, char *err, size_t errlen, const char **blame)
{
  sweep_t *sweep = owner;
  stu_point_t *point = &sweep->study->points[task->point];
  stu_point_t seq = {.p = 1};
  int32_t status = 0;
  if (stu_result_read(task->kind == STU_TASK_SEQ ? &seq : point, &status, result) != 0) {
    snprintf(err, errlen, "the simulation process wrote a malformed result");
    return SIM_ECHILD;
  }
  if (task->kind == STU_TASK_SEQ) {
    met_trace_free(seq.trace);
    met_pixels_free(seq.pixels);
    stu_slots_release(&seq);
    stu_plan_set_seq(&sweep->plan, (size_t)task->point, seq.t_par);
    show_progress(sweep, task);
    return 0;
  }
  if (status == SIM_EINVAL) {
    *blame = scn_role_param(sweep->scenario, SCN_ROLE_PROCESSES)->name;
    snprintf(err, errlen,
             "the sequential run (p = 1) took no simulated time, so speedup and the overhead ratios are "
             "undefined; check the skeleton's parameters");
  }
  return status ? status : finish_point(sweep, task, point);
}

/* The cache key of a task (stu_key_fn). */
static int task_key(void *ctx, const stu_task_t *task, char *key, size_t len)
{
  sweep_t *sweep = ctx;
  return stu_cache_key(sweep->cache, &sweep->ctx, task, key, len);
}

/* Whether the cache has a result under `key` (stu_has_fn). */
static int cache_has(void *ctx, const char *key)
{
  const sweep_t *sweep = ctx;
  return stu_cache_has(sweep->cache, key);
}

/* Checks that the skeleton accepts the SEQ run of the group of plan task t, and keeps where its T_seq comes from in
 * the points of the group. */
static int check_seq(sweep_t *sweep, size_t t)
{
  const stu_plan_t *plan = &sweep->plan;
  char message[1024] = "";
  char source[sizeof sweep->study->points[0].t_seq_source] = "";
  const char *blame = NULL;
  void *arg = NULL;
  int rc = stu_task_prepare(&sweep->ctx, &plan->tasks[t], &arg, source, sizeof source, message, sizeof message, &blame);
  sweep->skeleton->release(arg);
  if (rc != 0)
    return point_error(sweep, rc, blame, message);
  sweep->no_seq |= arg == NULL;
  for (size_t i = 0; i < plan->npoints; i++)
    if (plan->group[i] == plan->group[plan->tasks[t].point])
      memcpy(sweep->study->points[i].t_seq_source, source, sizeof source);
  return 0;
}

/* Plans the tasks for the study's views. */
static int build_plan(sweep_t *sweep)
{
  unsigned views = sweep->study->facts.views;
  stu_plan_options_t o = {.views = views,
                          .seq = stu_view_needs(views, STU_NEED_SEQ),
                          .own_seq = sweep->skeleton->prepare_seq != NULL,
                          .procs = stu_view_needs(views, STU_NEED_PROCS),
                          .traces = sweep->study->facts.requests,
                          .per_process = sweep->options->per_process,
                          .whole = sweep->options->whole_traces,
                          .key = sweep->cache ? task_key : NULL,
                          .has = cache_has,
                          .ctx = sweep};
  return stu_plan_build(&sweep->plan, sweep->study, sweep->p_index, &o);
}

/* Plans the tasks; a group's own sequential run needs parameters the skeleton accepts. A group without one leaves the
 * study without its lost-cycle view, planned again without sequential runs. */
static int plan(sweep_t *sweep)
{
  int rc = build_plan(sweep);
  for (size_t t = 0; rc == 0 && t < sweep->plan.nseq; t++)
    rc = sweep->plan.tasks[t].kind == STU_TASK_SEQ ? check_seq(sweep, t) : 0;
  if (rc == 0 && sweep->no_seq) {
    sweep->study->facts.views &= ~(unsigned)MET_VIEW_LOST_CYCLES;
    stu_plan_free(&sweep->plan);
    rc = build_plan(sweep);
  }
  return rc;
}

/* A run that the loaded platform stopped at a place the message names ("PLATFORM:LINE: what; fix": a host's speed
 * profile): reported there, FILE:LINE. Returns SIM_EPLATFORM, or 0 when the message names no line of the platform. */
static int stopped_at_line(sweep_t *sweep, const char *message)
{
  size_t n = strlen(sweep->platform);
  int line = 0, used = 0;
  if (strncmp(message, sweep->platform, n) != 0 || sscanf(message + n, ":%d: %n", &line, &used) != 1 || line <= 0 ||
      used == 0)
    return 0;
  scn_fail(sweep->err, sweep->platform, line, "%s", message + n + used);
  return SIM_EPLATFORM;
}

/* Runs `count` tasks; a failure is reported against the scenario. */
static int run_tasks(sweep_t *sweep, stu_runner_t *runner, const stu_task_t *tasks, const char *const *keys,
                     size_t count)
{
  int rc = stu_runner_run(runner, tasks, keys, count);
  if (rc == SIM_EINTR)
    return rc;
  if (rc == SIM_ECHILD || rc == SIM_EPLATFORM) /* a crash's likeliest cause, or what stopped the run: the point's */
    sweep->platform = stu_platform(sweep->study, &sweep->study->points[tasks[runner->failed].point]);
  if (rc == SIM_EPLATFORM && stopped_at_line(sweep, runner->message))
    return rc;
  return rc ? point_error(sweep, rc, runner->blame, runner->message) : 0;
}

/* Simulates every point: the sequential runs first, then the rest, on `exec`. */
static int simulate_all(sweep_t *sweep, stu_exec_t *exec)
{
  stu_runner_t runner = {.exec = exec,
                         .cache = sweep->cache,
                         .stop = sweep->options->stop,
                         .deliver = deliver,
                         .running = on_running,
                         .owner = sweep};
  stu_plan_t *p = &sweep->plan;
  int rc = plan(sweep);
  if (rc == 0)
    start_progress(sweep, exec->slots);
  rc = rc ? rc : run_tasks(sweep, &runner, p->tasks, p->keys, p->nseq);
  if (rc == 0)
    stu_plan_fill_seq(p);
  return rc ? rc : run_tasks(sweep, &runner, p->tasks + p->nseq, p->keys + p->nseq, p->count - p->nseq);
}

/* The interruption message: how much is done, and where it is kept. */
static int interrupted(sweep_t *sweep, const stu_cache_t *cache)
{
  const scn_scenario_t *s = sweep->scenario;
  if (cache)
    scn_fail(sweep->err, s->path, 0,
             "interrupted after %zu of %zu points; they are kept in %s: run the same command "
             "again to resume",
             sweep->done, sweep->study->npoints, stu_cache_dir(cache));
  else
    scn_fail(sweep->err, s->path, 0, "interrupted after %zu of %zu points, which are lost (no cache)", sweep->done,
             sweep->study->npoints);
  return SIM_EINTR;
}

/* Opens the cache and the executor, simulates, closes them. */
static int simulate_study(sweep_t *sweep)
{
  const stu_options_t *o = sweep->options;
  char message[1200] = "";
  stu_cache_t *cache = o->cache_dir ? stu_cache_open(o->cache_dir, o->warn, o->ctx, message, sizeof message) : NULL;
  sweep->cache = cache;
  if (o->cache_dir && !cache) {
    scn_fail(sweep->err, sweep->scenario->path, 0, "%s", message);
    return SIM_EIO;
  }
  stu_exec_t exec = {0};
  int rc = o->farm ? stu_farm_exec_new(&exec, message, sizeof message)
                   : stu_pool_new(&sweep->ctx, o->jobs > 0 ? (size_t)o->jobs : 1, &exec);
  if (rc != 0 && *message)
    scn_fail(sweep->err, sweep->scenario->path, 0, "%s", message);
  rc = rc ? rc : simulate_all(sweep, &exec);
  if (rc == SIM_EINTR)
    interrupted(sweep, cache);
  if (o->farm)
    stu_farm_exec_free(&exec);
  else
    stu_pool_free(&exec);
  if (cache && o->cache_max > 0 && rc == 0) /* a stopped sweep's points are kept for its resumption, untrimmed */
    stu_cache_trim(cache, o->cache_max);
  stu_cache_free(cache);
  sweep->cache = NULL;
  return rc;
}

/* Where the probe's descriptions of one platform go: the sweep's models. */
typedef struct taking {
  stu_models_t *models;
  const char *platform;
} taking_t;

static int take_description(void *state, size_t k, const met_platform_t *machine)
{
  const taking_t *taking = state;
  return stu_models_add(taking->models, taking->platform, machine);
}

/* The probe of `platform`, which also describes it for the models for each of the `count` numbers of ranks of its
 * points (sim_run_probe_describe) where it can, kept in the sweep's models. 0, or the probe's SIM_E* code with a
 * message. */
static int probe(sweep_t *sweep, const char *platform, const int *ranks, size_t count, size_t *hosts, char *message,
                 size_t len)
{
  taking_t taking = {sweep->models, platform};
  return sim_run_probe_describe(platform, ranks, count, hosts, take_description, &taking, message, len);
}

/* Probes one platform of the study, whose points have the `count` numbers of ranks `ranks`; its host count into
 * *hosts_out (points beyond it: skip_too_big). */
static int check_platform(sweep_t *sweep, const char *platform, const int *ranks, size_t count, size_t *hosts_out)
{
  char message[1024] = "";
  size_t hosts = 0;
  sweep->platform = platform;
  int rc = stu_routing_check(platform, message, sizeof message);
  rc = rc ? rc : probe(sweep, platform, ranks, count, &hosts, message, sizeof message);
  if (rc == SIM_ECHILD) /* SimGrid killed the probe while loading or checking the platform: the platform's fault */
    rc = SIM_EPLATFORM;
  if (rc == SIM_EINTR)
    return rc;
  if (rc != 0)
    return point_error(sweep, rc, NULL, message);
  *hosts_out = hosts;
  return 0;
}

/* Whether point i fits on its platform's hosts[i] (or the skeleton shares hosts among ranks). */
static int fits(const sweep_t *sweep, const stu_study_t *study, const size_t *hosts, size_t i)
{
  return (size_t)study->points[i].p <= hosts[i] || sweep->skeleton->shares_hosts;
}

/* Where p is given, for a warning: the scenario's line, or --set (no line). */
static void p_place(const scn_scenario_t *s, char *where, size_t len)
{
  int line = scn_role_param(s, SCN_ROLE_PROCESSES)->line;
  if (line > 0)
    snprintf(where, len, "%s:%d", s->path, line);
  else
    snprintf(where, len, "%s (--set p)", s->path);
}

/* The points with more ranks than their platform's hosts[i] are skipped, one warning line each, on one platform as in
 * a sweep over platforms (a sweep over machines of different sizes was refused whole, and a run on one platform with
 * any p beyond it); SIM_EHOSTS, naming the least p and its platform, when every point is beyond. */
static int skip_too_big(sweep_t *sweep, stu_study_t *study, const size_t *hosts)
{
  char message[1200], where[1100];
  size_t kept = 0, least = study->npoints;
  for (size_t i = 0; i < study->npoints; i++)
    if (!fits(sweep, study, hosts, i) && (least == study->npoints || study->points[i].p < study->points[least].p))
      least = i;
  for (size_t i = 0; i < study->npoints && kept == 0; i++)
    kept = fits(sweep, study, hosts, i);
  if (kept == 0 && least < study->npoints) {
    snprintf(message, sizeof message,
             "every point has more ranks than its platform's hosts: p = %d and up, platform '%s' has %zu host%s",
             study->points[least].p, stu_platform(study, &study->points[least]), hosts[least],
             hosts[least] == 1 ? "" : "s");
    return point_error(sweep, SIM_EHOSTS, NULL, message);
  }
  p_place(sweep->scenario, where, sizeof where);
  kept = 0;
  for (size_t i = 0; i < study->npoints; i++) {
    stu_point_t *point = &study->points[i];
    if (fits(sweep, study, hosts, i)) {
      study->points[kept++] = *point;
      continue;
    }
    snprintf(message, sizeof message, "%s: p = %d skipped on platform '%s', which has %zu host%s", where, point->p,
             stu_platform(study, point), hosts[i], hosts[i] == 1 ? "" : "s");
    if (sweep->options->warn)
      sweep->options->warn(message, sweep->options->ctx);
    free(point->values);
  }
  study->npoints = kept;
  return 0;
}

/* Loads every platform of the study once and checks that it has hosts enough for the points that use it. */
static int check_platforms(sweep_t *sweep, stu_study_t *study)
{
  int *ranks = malloc((study->npoints + 1) * sizeof *ranks); /* the distinct p of a platform's points */
  size_t *hosts = calloc(study->npoints + 1, sizeof *hosts); /* each point's platform's */
  if (!ranks || !hosts) {
    free(ranks);
    free(hosts);
    return point_error(sweep, SIM_ENOMEM, NULL, bas_strerror(SIM_ENOMEM));
  }
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < study->npoints; i++) {
    const char *platform = stu_platform(study, &study->points[i]);
    int max_p = 0;
    size_t count = 0;
    for (size_t k = 0; k < study->npoints; k++) {
      int same = strcmp(stu_platform(study, &study->points[k]), platform) == 0;
      if (same && k < i)
        break; /* probed already */
      max_p = same && study->points[k].p > max_p ? study->points[k].p : max_p;
      size_t seen = 0;
      while (same && seen < count && ranks[seen] != study->points[k].p)
        seen++;
      if (same && seen == count)
        ranks[count++] = study->points[k].p;
    }
    size_t found = 0;
    if (max_p > 0 && (rc = check_platform(sweep, platform, ranks, count, &found)) == 0)
      for (size_t k = i; k < study->npoints; k++)
        hosts[k] = strcmp(stu_platform(study, &study->points[k]), platform) == 0 ? found : hosts[k];
  }
  if (rc == 0)
    rc = skip_too_big(sweep, study, hosts);
  free(ranks);
  free(hosts);
  return rc;
}

/* The skeleton's check of one point: 0, or a SIM_E* code with a message and the parameter to blame. */
static int prepare_point(const sweep_t *sweep, const stu_point_t *point, char *message, size_t len, const char **blame)
{
  void *arg = NULL;
  app_point_t at = {.count = sweep->scenario->nparams, .names = sweep->names, .values = point->values};
  int rc = sweep->skeleton->prepare(&at, point->p, &arg, message, len, blame);
  sweep->skeleton->release(arg);
  return rc;
}

/* A scaled sweep's fixed-size points that the skeleton refuses (its first values may not fit a larger p: n < p) are
 * dropped, with no fixed-size figure at their p. On the MPI workers too: tasks name points by index. */
static void drop_refused_fixed(const sweep_t *sweep, stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++) {
    char message[1024] = "";
    const char *blame = NULL;
    if (study->points[i].fixed_size && prepare_point(sweep, &study->points[i], message, sizeof message, &blame) != 0)
      study->points[i].fixed_size = -1;
  }
  stu_points_drop_refused(study);
}

/* Checks every point before anything is simulated: the platforms' host counts first, since a skeleton's checks may
 * allocate per rank (pdgemm's grid for p = 2e9 would take 16 GB), then the skeleton's own rules. */
static int validate(sweep_t *sweep, stu_study_t *study)
{
  int hosts = check_platforms(sweep, study);
  if (hosts != 0)
    return hosts;
  drop_refused_fixed(sweep, study);
  for (size_t i = 0; i < study->npoints; i++) {
    char message[1024] = "";
    const char *blame = NULL;
    int rc = prepare_point(sweep, &study->points[i], message, sizeof message, &blame);
    if (rc != 0)
      return point_error(sweep, rc, blame, message);
  }
  return 0;
}

/* Keeps the points a skeleton on a process grid can run (stu_points_keep_grid); bad input at the line to blame. */
static int keep_grid_points(sweep_t *sweep)
{
  char message[512];
  const char *blame = NULL;
  int rc = stu_points_keep_grid(sweep->study, sweep->p_index, &blame, message, sizeof message);
  return rc ? point_error(sweep, rc, blame, message) : 0;
}

/* What the report needs to know of the skeleton. */
static stu_facts_t facts_of(const scn_scenario_t *scenario, size_t p_index, const app_skeleton_t *skeleton,
                            const stu_options_t *options)
{
  unsigned views = stu_view_flags(skeleton->views);
  return (stu_facts_t){.skeleton = skeleton->spec->name,
                       .views = views,
                       .subs = met_phase_subs(skeleton->phases),
                       .has_model = skeleton->model != NULL,
                       .model_name = skeleton->model_name,
                       .has_advice = skeleton->advise != NULL,
                       .grid = scn_spec_has_role(skeleton->spec, SCN_ROLE_GRID_ROWS),
                       .requests = options->requests && (views & MET_VIEW_CAUSE_EFFECT),
                       .scaled = stu_points_scaled(scenario, p_index)};
}

/* Builds the sweep's points (the cross product, less the grid points a skeleton refuses) into a new study. */
static int open_sweep(sweep_t *sweep, const scn_scenario_t *scenario, const app_skeleton_t *skeleton)
{
  sweep->study = calloc(1, sizeof *sweep->study);
  sweep->names = calloc(scenario->nparams, sizeof *sweep->names);
  sweep->models = stu_models_new();
  int rc = sweep->study && sweep->names && sweep->models ? 0 : SIM_ENOMEM;
  for (size_t j = 0; rc == 0 && j < scenario->nparams; j++)
    sweep->names[j] = scenario->params[j].name;
  sweep->p_index = scn_role_index(scenario, SCN_ROLE_PROCESSES);
  if (rc == 0 && sweep->p_index == scenario->nparams)
    rc = point_error(sweep, SIM_EINVAL, NULL, "the scenario gives no p");
  char message[1024];
  if (rc == 0 && stu_points_count(scenario, message, sizeof message) != 0)
    rc = point_error(sweep, SIM_EINVAL, NULL, message);
  if (rc == 0) {
    sweep->study->scenario = scenario;
    sweep->study->facts = facts_of(scenario, sweep->p_index, skeleton, sweep->options);
    rc = stu_points_build(sweep->study, sweep->p_index);
  }
  if (rc == 0 && sweep->study->facts.scaled)
    rc = stu_points_add_fixed(sweep->study, sweep->p_index);
  sweep->ctx = (stu_sweep_ctx_t){.scenario = scenario,
                                 .skeleton = skeleton,
                                 .names = sweep->names,
                                 .p_index = sweep->p_index,
                                 .study = sweep->study,
                                 .ti_dir = sweep->options->ti_dir,
                                 .ti_p = sweep->options->per_process};
  return rc ? rc : keep_grid_points(sweep);
}

static void close_sweep(sweep_t *sweep, int rc)
{
  if (rc == SIM_ENOMEM)
    scn_fail(sweep->err, sweep->scenario->path, 0, "%s", bas_strerror(rc));
  free(sweep->names);
  stu_work_free(&sweep->work);
  stu_plan_free(&sweep->plan);
  stu_models_free(sweep->models);
  if (rc != 0) {
    stu_free(sweep->study);
    sweep->study = NULL;
  }
}

/* --shard I/N (stu_points_keep_shard). A group left without its p = 1 point gets its sequential time from a run of its
 * own, as any such group does. An empty shard is bad input. */
static int keep_shard(sweep_t *sweep, const stu_options_t *o)
{
  char message[512];
  int rc = stu_points_keep_shard(sweep->study, o->shard_index, o->shard_count, message, sizeof message);
  return rc ? point_error(sweep, rc, NULL, message) : 0;
}

int stu_run_with(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, const stu_options_t *options,
                 stu_study_t **out, scn_error_t *err)
{
  sweep_t sweep = {.scenario = scenario, .skeleton = skeleton, .options = options, .err = err};
  int rc = open_sweep(&sweep, scenario, skeleton);
  rc = rc ? rc : keep_shard(&sweep, options);
  rc = rc ? rc : validate(&sweep, sweep.study);
  rc = rc ? rc : simulate_study(&sweep);
  rc = rc ? rc : stu_view_summarise(sweep.study); /* the study complete before anything is reported */
  close_sweep(&sweep, rc);
  *out = sweep.study;
  return rc;
}

int stu_serve(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, scn_error_t *err)
{
  stu_options_t options = {.jobs = 1};
  sweep_t sweep = {.scenario = scenario, .skeleton = skeleton, .options = &options, .err = err};
  int rc = scenario ? open_sweep(&sweep, scenario, skeleton) : SIM_EINVAL;
  if (rc == 0) /* the points the master skips, skipped here too: tasks name points by index */
    rc = check_platforms(&sweep, sweep.study);
  if (rc == 0)
    drop_refused_fixed(&sweep, sweep.study);
  char message[1024] = "";
  if (stu_farm_serve(rc == 0 ? &sweep.ctx : NULL, message, sizeof message) != 0 && rc == 0) {
    rc = SIM_ECHILD;
    scn_fail(err, scenario->path, 0, "%s", message);
  }
  if (scenario)
    close_sweep(&sweep, rc);
  stu_free(sweep.study);
  return rc;
}

int stu_cache_default_max(uint64_t *bytes)
{
  const char *text = getenv("SIMRUN_CACHE_MAX_MB");
  long mb = STU_CACHE_MAX_MB_DEFAULT;
  if (text && *text) {
    char *end = NULL;
    errno = 0;
    mb = text[0] >= '0' && text[0] <= '9' ? strtol(text, &end, 10) : 0;
    if (errno != 0 || !end || *end != '\0' || mb < 1 || mb > STU_CACHE_MAX_MB_LIMIT)
      return BAS_EINVAL;
  }
  *bytes = (uint64_t)mb << 20;
  return 0;
}

int stu_cache_default_dir(char *dir, size_t len)
{
  const char *own = getenv("SIMRUN_CACHE_DIR");
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  if (own && *own)
    snprintf(dir, len, "%s", own);
  else if (xdg && *xdg)
    snprintf(dir, len, "%s/simrun", xdg);
  else if (home && *home)
    snprintf(dir, len, "%s/.cache/simrun", home);
  else
    return BAS_EINVAL;
  return 0;
}
