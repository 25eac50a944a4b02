/* Runs a scenario's sweep: validates every point, simulates each in its own process, pairs it with the sequential
 * run of the same parameters (T_seq, seed 000 §1.1) and keeps the lost-cycle metrics. */
#include "stu_sweep.h"
#include "sim_error.h"
#include "sim_run.h"
#include "stu_cache.h"
#include "stu_farm.h"
#include "stu_task.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sequential times already known, by the values of every parameter but p. */
typedef struct seq_cache {
  size_t count;
  const char ***values;
  double *t_seq;
} seq_cache_t;

typedef struct sweep {
  const scn_scenario_t *scenario;
  const app_skeleton_t *skeleton;
  const char **names; /* parameter names, in the scenario's order */
  size_t p_index;     /* the position of "p" among them */
  seq_cache_t seq;
  const char *platform; /* the platform being loaded, for messages */
  const stu_options_t *options;
  stu_study_t *study;
  stu_sweep_ctx_t ctx; /* what the tasks share */
  size_t done;         /* points finished */
  scn_error_t *err;
  met_platform_t *machines;       /* the platform descriptions made so far (describe), for the models */
  const char **machine_platforms; /* the platform file of each */
  size_t nmachines;
} sweep_t;

const char *stu_value(const stu_study_t *study, const stu_point_t *point, const char *name)
{
  for (size_t i = 0; i < study->scenario->nparams; i++)
    if (strcmp(study->scenario->params[i].name, name) == 0)
      return point->values[i];
  return NULL;
}

static int param_line(const scn_scenario_t *scenario, const char *name)
{
  const scn_param_t *param = scn_param(scenario, name);
  return param ? param->line : 0;
}

/* The platform file of a point with these values: its "platform" parameter's, or the scenario's <platform>. */
static const char *platform_of(const scn_scenario_t *scenario, const char *const *values)
{
  for (size_t j = 0; j < scenario->nparams; j++) {
    const scn_param_t *param = &scenario->params[j];
    for (size_t v = 0; param->paths && v < param->nvalues; v++)
      if (strcmp(param->values[v], values[j]) == 0)
        return param->paths[v];
  }
  return scenario->platform;
}

const char *stu_platform(const stu_study_t *study, const stu_point_t *point)
{
  return platform_of(study->scenario, point->values);
}

/* Fills the points of the cross product; the last parameter varies fastest. */
static int build_points(stu_study_t *study, size_t p_index)
{
  const scn_scenario_t *s = study->scenario;
  study->npoints = 1;
  for (size_t j = 0; j < s->nparams; j++)
    if (__builtin_mul_overflow(study->npoints, s->params[j].nvalues, &study->npoints))
      return SIM_ENOMEM; /* a wrapped count would silently drop points */
  study->points = calloc(study->npoints, sizeof *study->points);
  if (!study->points)
    return SIM_ENOMEM;
  for (size_t i = 0; i < study->npoints; i++) {
    stu_point_t *point = &study->points[i];
    point->values = calloc(s->nparams, sizeof *point->values);
    if (!point->values)
      return SIM_ENOMEM;
    size_t rest = i;
    for (size_t j = s->nparams; j-- > 0;) {
      point->values[j] = s->params[j].values[rest % s->params[j].nvalues];
      rest /= s->params[j].nvalues;
    }
    point->p = atoi(point->values[p_index]);
  }
  return 0;
}

/* Reports a failure of `point` against the scenario: bad input at the line of the parameter to blame. */
static int point_error(sweep_t *sweep, int code, const char *blame, const char *message)
{
  const scn_scenario_t *s = sweep->scenario;
  int platform_line = scn_param(s, "platform") ? param_line(s, "platform") : s->platform_line;
  if (code == SIM_EPLATFORM)
    scn_fail(sweep->err, s->path, platform_line, "platform '%s' could not be loaded: %s", sweep->platform, message);
  else if (code == SIM_ECHILD && sweep->platform)
    scn_fail(sweep->err, s->path, platform_line, "simulating on platform '%s' failed: %s", sweep->platform, message);
  else if (code == SIM_EHOSTS)
    scn_fail(sweep->err, s->path, param_line(s, "p"), "%s; use p no larger than the host count", message);
  else
    scn_fail(sweep->err, s->path, blame ? param_line(s, blame) : 0, "%s", message);
  return code;
}

/* Whether some kept point has value `value` for parameter j (values are borrowed from the scenario). */
static int value_used(const stu_study_t *study, size_t j, const char *value)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (study->points[i].values[j] == value)
      return 1;
  return 0;
}

/* Every value of parameter j must keep a point of the grid sweep; otherwise blames its line, saying why. p = 1 is
 * exempt: it is the sequential run, which every group has anyway. */
static int check_grid_coverage(sweep_t *sweep, const stu_study_t *study, size_t j, const char *why)
{
  const scn_param_t *param = &sweep->scenario->params[j];
  char message[512];
  for (size_t v = 0; v < param->nvalues; v++)
    if (!value_used(study, j, param->values[v]) && !(j == sweep->p_index && atoi(param->values[v]) == 1)) {
      snprintf(message, sizeof message, "%s = %s %s", param->name, param->values[v], why);
      return point_error(sweep, SIM_EPARAM, param->name, message);
    }
  return 0;
}

/* A skeleton on a process grid runs grid-rows x (p / grid-rows): keeps the points where the rows divide p, so that a
 * study can sweep both, and checks that every value of either keeps a point. */
static int keep_grid_points(sweep_t *sweep, stu_study_t *study)
{
  const char *grid = sweep->skeleton->grid_param;
  size_t g = 0;
  while (grid && g < sweep->scenario->nparams && strcmp(sweep->names[g], grid) != 0)
    g++;
  if (!grid || g == sweep->scenario->nparams)
    return 0;
  size_t kept = 0;
  for (size_t i = 0; i < study->npoints; i++) {
    if (study->points[i].p % atoi(study->points[i].values[g]) == 0)
      study->points[kept++] = study->points[i];
    else
      free(study->points[i].values);
  }
  study->npoints = kept;
  static const char rows_unused[] = "divides none of the values of p: the grid is grid-rows x (p / grid-rows); add a "
                                    "p it divides, or drop this value";
  static const char p_unused[] = "is a multiple of none of the values of grid-rows; add grid-rows = 1, or drop this p";
  int rc = check_grid_coverage(sweep, study, g, rows_unused);
  return rc ? rc : check_grid_coverage(sweep, study, sweep->p_index, p_unused);
}

/* Whether two points have the same values for every parameter but p. */
static int same_but_p(const sweep_t *sweep, const char **a, const char **b)
{
  for (size_t j = 0; j < sweep->scenario->nparams; j++)
    if (j != sweep->p_index && strcmp(a[j], b[j]) != 0)
      return 0;
  return 1;
}

static int remember_seq(seq_cache_t *cache, const char **values, double t_seq)
{
  const char ***v = realloc(cache->values, (cache->count + 1) * sizeof *v);
  if (v)
    cache->values = v;
  double *t = realloc(cache->t_seq, (cache->count + 1) * sizeof *t);
  if (t)
    cache->t_seq = t;
  if (!v || !t)
    return SIM_ENOMEM;
  cache->values[cache->count] = values;
  cache->t_seq[cache->count++] = t_seq;
  return 0;
}

/* Whether T_seq for `values` is known; if so, stores it in *t_seq. */
static int cached_seq(const sweep_t *sweep, const char **values, double *t_seq)
{
  for (size_t i = 0; i < sweep->seq.count; i++)
    if (same_but_p(sweep, sweep->seq.values[i], values)) {
      *t_seq = sweep->seq.t_seq[i];
      return 1;
    }
  return 0;
}

/* The cause-effect view of a point's trace (a DSM run). */
static int keep_cause_effect(stu_point_t *point, const met_trace_t *trace)
{
  point->carnival = met_carnival_new(trace);
  return point->carnival ? 0 : SIM_ENOMEM;
}

/* The description of the point's platform for its p (sim_run_describe), from the sweep's list or made once; NULL with
 * the reason in err when it cannot be made. */
static const met_platform_t *describe(sweep_t *sweep, const stu_point_t *point, char *err, size_t errlen)
{
  const char *platform = stu_platform(sweep->study, point);
  for (size_t i = 0; i < sweep->nmachines; i++)
    if (sweep->machines[i].p == point->p && strcmp(sweep->machine_platforms[i], platform) == 0)
      return &sweep->machines[i];
  met_platform_t *m = realloc(sweep->machines, (sweep->nmachines + 1) * sizeof *m);
  if (m)
    sweep->machines = m;
  const char **names = realloc(sweep->machine_platforms, (sweep->nmachines + 1) * sizeof *names);
  if (names)
    sweep->machine_platforms = names;
  if (!m || !names) {
    snprintf(err, errlen, "%s", sim_strerror(SIM_ENOMEM));
    return NULL;
  }
  if (sim_run_describe(platform, point->p, &sweep->machines[sweep->nmachines], err, errlen) != 0)
    return NULL;
  sweep->machine_platforms[sweep->nmachines] = platform;
  return &sweep->machines[sweep->nmachines++];
}

/* The skeleton's analytic model of the point and its advice on it, on the point's machine, for the report. */
static void keep_model(sweep_t *sweep, stu_point_t *point)
{
  const app_skeleton_t *skeleton = sweep->skeleton;
  app_point_t at = {.count = sweep->scenario->nparams, .names = sweep->names, .values = point->values};
  point->t_model = NAN;
  point->warning[0] = point->model_missing[0] = '\0';
  const met_platform_t *m = describe(sweep, point, point->machine, sizeof point->machine);
  if (!m) {
    snprintf(point->model_missing, sizeof point->model_missing, "the platform could not be described");
    return;
  }
  snprintf(point->machine, sizeof point->machine, "%s", m->origin);
  if (skeleton->model)
    point->t_model = skeleton->model(&at, point->p, m, point->model_missing, sizeof point->model_missing);
  if (!skeleton->advise || !skeleton->advise(&at, point->p, m, point->warning, sizeof point->warning))
    point->warning[0] = '\0';
}

/* Whether the point's whole trace is kept: for the per-process p, whose timeline a picture may show. */
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

/* A finished point: its sequential time for the rest of its group (a p = 1 point), its cause-effect view, its
 * model, and the progress. */
static int finish_point(sweep_t *sweep, stu_point_t *point)
{
  double t_seq;
  int rc = 0;
  if (sweep->skeleton->view == APP_VIEW_LOST_CYCLES && point->p == 1 && !cached_seq(sweep, point->values, &t_seq))
    rc = remember_seq(&sweep->seq, point->values, point->t_par);
  if (rc == 0 && sweep->skeleton->view == APP_VIEW_CAUSE_EFFECT)
    rc = keep_cause_effect(point, point->trace);
  drop_trace(point, sweep->options->per_process);
  keep_model(sweep, point);
  sweep->done++;
  if (rc == 0 && sweep->options->progress)
    sweep->options->progress(sweep->done, sweep->study->npoints, sweep->options->ctx);
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
    return remember_seq(&sweep->seq, point->values, seq.t_par);
  }
  if (status == SIM_EINVAL) {
    *blame = "p";
    snprintf(err, errlen, "the sequential run (p = 1) took no simulated time, so speedup and the overhead ratios are "
                          "undefined; check the skeleton's parameters");
  }
  return status ? status : finish_point(sweep, point);
}

/* The task simulating point i. */
static stu_task_t point_task(const sweep_t *sweep, size_t i)
{
  const stu_point_t *point = &sweep->study->points[i];
  app_view_t view = sweep->skeleton->view;
  double t_seq = 0;
  if (view == APP_VIEW_LOST_CYCLES && point->p != 1)
    cached_seq(sweep, point->values, &t_seq);
  return (stu_task_t){.kind = STU_TASK_POINT, .point = (int32_t)i, .nranks = point->p,
                      .keep_procs = view == APP_VIEW_LOST_CYCLES && point->p == sweep->options->per_process,
                      .keep_trace = keeps_trace(point, sweep->options->per_process) || view == APP_VIEW_CAUSE_EFFECT,
                      .t_seq = t_seq};
}

/* Whether a point of the group of point i must be simulated: it is not in the cache. */
static int group_to_simulate(const sweep_t *sweep, stu_cache_t *cache, size_t i)
{
  char key[4096];
  for (size_t k = i; k < sweep->study->npoints; k++) {
    const stu_point_t *point = &sweep->study->points[k];
    stu_task_t task = point_task(sweep, k);
    if (same_but_p(sweep, sweep->study->points[i].values, point->values) &&
        (!cache || stu_cache_key(cache, &sweep->ctx, &task, key, sizeof key) != 0 || !stu_cache_has(cache, key)))
      return 1;
  }
  return 0;
}

/* Whether point i is the first of its group (the points equal but for p). */
static int first_of_group(const sweep_t *sweep, size_t i)
{
  for (size_t k = 0; k < i; k++)
    if (same_but_p(sweep, sweep->study->points[k].values, sweep->study->points[i].values))
      return 0;
  return 1;
}

/* The index of the p = 1 point of point i's group, or npoints. */
static size_t group_p1(const sweep_t *sweep, size_t i)
{
  size_t k = 0;
  while (k < sweep->study->npoints && (sweep->study->points[k].p != 1 ||
                                      !same_but_p(sweep, sweep->study->points[k].values,
                                                  sweep->study->points[i].values)))
    k++;
  return k;
}

/* The first tasks (lost-cycle view): a sequential time for every group with a point to simulate, from the group's
 * p = 1 point or from a run of its own (whose parameters the skeleton must accept with one rank). Returns how many,
 * or a negative SIM_E* code. */
static long plan_sequential(sweep_t *sweep, stu_cache_t *cache, stu_task_t *tasks)
{
  long n = 0;
  for (size_t i = 0; sweep->skeleton->view == APP_VIEW_LOST_CYCLES && i < sweep->study->npoints; i++) {
    size_t one = group_p1(sweep, i);
    if (!first_of_group(sweep, i) || (one == sweep->study->npoints && !group_to_simulate(sweep, cache, i)))
      continue;
    if (one < sweep->study->npoints) {
      tasks[n++] = point_task(sweep, one);
      continue;
    }
    char message[1024] = "";
    const char *blame = NULL;
    void *arg = NULL;
    int rc = stu_task_prepare(&sweep->ctx, i, 1, &arg, message, sizeof message, &blame);
    sweep->skeleton->release(arg);
    if (rc != 0)
      return point_error(sweep, rc, blame, message);
    tasks[n++] = (stu_task_t){.kind = STU_TASK_SEQ, .point = (int32_t)i, .nranks = 1};
  }
  return n;
}

/* The other tasks: every point not simulated among the first ones. */
static size_t plan_points(const sweep_t *sweep, stu_task_t *tasks)
{
  size_t n = 0;
  for (size_t i = 0; i < sweep->study->npoints; i++)
    if (sweep->skeleton->view != APP_VIEW_LOST_CYCLES || sweep->study->points[i].p != 1)
      tasks[n++] = point_task(sweep, i);
  return n;
}

/* Runs `count` tasks; a failure is reported against the scenario. */
static int run_tasks(sweep_t *sweep, stu_runner_t *runner, const stu_task_t *tasks, size_t count)
{
  int rc = stu_runner_run(runner, tasks, count);
  if (rc == SIM_EINTR)
    return rc;
  if (rc == SIM_ECHILD) /* a crash names the platform of the point, the likeliest cause */
    sweep->platform = stu_platform(sweep->study, &sweep->study->points[tasks[runner->failed].point]);
  return rc ? point_error(sweep, rc, runner->blame, runner->message) : 0;
}

/* Simulates every point: the sequential runs first, then the rest, on `exec`. */
static int simulate_all(sweep_t *sweep, stu_exec_t *exec, stu_cache_t *cache)
{
  stu_task_t *tasks = calloc(2 * sweep->study->npoints + 1, sizeof *tasks);
  if (!tasks)
    return SIM_ENOMEM;
  stu_runner_t runner = {.ctx = &sweep->ctx, .exec = exec, .cache = cache, .stop = sweep->options->stop,
                         .deliver = deliver, .owner = sweep};
  long first = plan_sequential(sweep, cache, tasks);
  int rc = first < 0 ? (int)first : run_tasks(sweep, &runner, tasks, (size_t)first);
  rc = rc ? rc : run_tasks(sweep, &runner, tasks, plan_points(sweep, tasks));
  free(tasks);
  return rc;
}

/* The interruption message: how much is done, and where it is kept. */
static int interrupted(sweep_t *sweep, const stu_cache_t *cache)
{
  const scn_scenario_t *s = sweep->scenario;
  if (cache)
    scn_fail(sweep->err, s->path, 0, "interrupted after %zu of %zu points; they are kept in %s: run the same command "
             "again to resume", sweep->done, sweep->study->npoints, stu_cache_dir(cache));
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
  if (o->cache_dir && !cache) {
    scn_fail(sweep->err, sweep->scenario->path, 0, "%s", message);
    return SIM_EIO;
  }
  stu_exec_t exec = {0};
  int rc = o->farm ? stu_farm_exec_new(&exec, message, sizeof message)
                   : stu_pool_new(&sweep->ctx, o->jobs > 0 ? (size_t)o->jobs : 1, &exec);
  if (rc != 0 && *message)
    scn_fail(sweep->err, sweep->scenario->path, 0, "%s", message);
  rc = rc ? rc : simulate_all(sweep, &exec, cache);
  if (rc == SIM_EINTR)
    interrupted(sweep, cache);
  if (o->farm)
    stu_farm_exec_free(&exec);
  else
    stu_pool_free(&exec);
  stu_cache_free(cache);
  return rc;
}

/* Loads every platform of the study once and checks that it has hosts enough for the points that use it. */
static int check_platforms(sweep_t *sweep, const stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++) {
    const char *platform = stu_platform(study, &study->points[i]);
    int max_p = 0;
    for (size_t k = 0; k < study->npoints; k++) {
      int same = strcmp(stu_platform(study, &study->points[k]), platform) == 0;
      if (same && k < i)
        break; /* probed already */
      max_p = same && study->points[k].p > max_p ? study->points[k].p : max_p;
    }
    if (max_p == 0)
      continue;
    char message[1024] = "";
    size_t hosts = 0;
    sweep->platform = platform;
    int rc = sim_run_probe(platform, &hosts, message, sizeof message);
    if (rc == SIM_ECHILD) /* SimGrid killed the probe while loading or checking the platform: the platform's fault */
      rc = SIM_EPLATFORM;
    if (rc == SIM_EINTR)
      return rc;
    if (rc != 0)
      return point_error(sweep, rc, NULL, message);
    if ((size_t)max_p > hosts) {
      snprintf(message, sizeof message, "p = %d but platform '%s' has %zu host%s", max_p, platform, hosts,
               hosts == 1 ? "" : "s");
      return point_error(sweep, SIM_EHOSTS, NULL, message);
    }
  }
  return 0;
}

/* Checks every point before anything is simulated: the platforms' host counts first, since a skeleton's checks may
 * allocate per rank (pdgemm's grid for p = 2e9 would take 16 GB), then the skeleton's own rules. */
static int validate(sweep_t *sweep, const stu_study_t *study)
{
  int hosts = check_platforms(sweep, study);
  if (hosts != 0)
    return hosts;
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    char message[1024] = "";
    const char *blame = NULL;
    void *arg = NULL;
    app_point_t at = {.count = sweep->scenario->nparams, .names = sweep->names, .values = point->values};
    int rc = sweep->skeleton->prepare(&at, point->p, &arg, message, sizeof message, &blame);
    sweep->skeleton->release(arg);
    if (rc != 0)
      return point_error(sweep, rc, blame, message);
  }
  return 0;
}

static int find_p(const scn_scenario_t *scenario, size_t *p_index)
{
  for (size_t j = 0; j < scenario->nparams; j++)
    if (strcmp(scenario->params[j].name, "p") == 0) {
      *p_index = j;
      return 0;
    }
  return SIM_EINVAL;
}

/* Builds the sweep's points (the cross product, less the grid points a skeleton refuses) into a new study. */
static int open_sweep(sweep_t *sweep, const scn_scenario_t *scenario, const app_skeleton_t *skeleton)
{
  sweep->study = calloc(1, sizeof *sweep->study);
  sweep->names = calloc(scenario->nparams, sizeof *sweep->names);
  int rc = sweep->study && sweep->names ? 0 : SIM_ENOMEM;
  for (size_t j = 0; rc == 0 && j < scenario->nparams; j++)
    sweep->names[j] = scenario->params[j].name;
  if (rc == 0 && find_p(scenario, &sweep->p_index) != 0)
    rc = point_error(sweep, SIM_EINVAL, NULL, "the scenario gives no p");
  if (rc == 0) {
    sweep->study->scenario = scenario;
    sweep->study->skeleton = skeleton;
    sweep->study->view = skeleton->view;
    rc = build_points(sweep->study, sweep->p_index);
  }
  sweep->ctx = (stu_sweep_ctx_t){.scenario = scenario, .skeleton = skeleton, .names = sweep->names,
                                 .p_index = sweep->p_index, .study = sweep->study, .ti_dir = sweep->options->ti_dir,
                                 .ti_p = sweep->options->per_process};
  return rc ? rc : keep_grid_points(sweep, sweep->study);
}

static void close_sweep(sweep_t *sweep, int rc)
{
  if (rc == SIM_ENOMEM)
    scn_fail(sweep->err, sweep->scenario->path, 0, "%s", sim_strerror(rc));
  free(sweep->names);
  free(sweep->seq.values);
  free(sweep->seq.t_seq);
  free(sweep->machines);
  free(sweep->machine_platforms);
  if (rc != 0) {
    stu_free(sweep->study);
    sweep->study = NULL;
  }
}

/* --shard I/N: keeps every N-th point from the I-th, so that the shards' points together are the study's, each once.
 * A group left without its p = 1 point gets its sequential time from a run of its own, as any such group does. An
 * empty shard is bad input. */
static int keep_shard(sweep_t *sweep, stu_study_t *study, const stu_options_t *o)
{
  size_t kept = 0, all = study->npoints;
  if (o->shard_count <= 1)
    return 0;
  for (size_t i = 0; i < all; i++) {
    if (i % (size_t)o->shard_count == (size_t)o->shard_index - 1)
      study->points[kept++] = study->points[i];
    else
      free(study->points[i].values);
  }
  study->npoints = kept;
  if (kept == 0)
    scn_fail(sweep->err, sweep->scenario->path, 0, "--shard %d/%d: the study has %zu points, so this shard has none; "
             "use at most %zu shards", o->shard_index, o->shard_count, all, all);
  return kept ? 0 : SIM_EPARAM;
}

int stu_run_with(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, const stu_options_t *options,
                 stu_study_t **out, scn_error_t *err)
{
  sweep_t sweep = {.scenario = scenario, .skeleton = skeleton, .options = options, .err = err};
  int rc = open_sweep(&sweep, scenario, skeleton);
  rc = rc ? rc : keep_shard(&sweep, sweep.study, options);
  rc = rc ? rc : validate(&sweep, sweep.study);
  rc = rc ? rc : simulate_study(&sweep);
  close_sweep(&sweep, rc);
  *out = sweep.study;
  return rc;
}

int stu_run(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, int per_process, stu_progress_fn progress,
            void *ctx, stu_study_t **out, scn_error_t *err)
{
  stu_options_t options = {.per_process = per_process, .jobs = 1, .progress = progress, .ctx = ctx};
  return stu_run_with(scenario, skeleton, &options, out, err);
}

int stu_serve(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, scn_error_t *err)
{
  stu_options_t options = {.jobs = 1};
  sweep_t sweep = {.scenario = scenario, .skeleton = skeleton, .options = &options, .err = err};
  int rc = scenario ? open_sweep(&sweep, scenario, skeleton) : SIM_EINVAL;
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

void stu_free(stu_study_t *study)
{
  if (!study)
    return;
  for (size_t i = 0; study->points && i < study->npoints; i++) {
    free(study->points[i].values);
    free(study->points[i].procs);
    free(study->points[i].msgs);
    met_carnival_free(study->points[i].carnival);
    met_trace_free(study->points[i].trace);
  }
  free(study->points);
  free(study);
}
