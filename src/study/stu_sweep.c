/* Runs a scenario's sweep: validates every point, simulates each in its own process, pairs it with the sequential
 * run of the same parameters (T_seq, seed 000 §1.1) and keeps the lost-cycle metrics. */
#include "stu_sweep.h"
#include "sim_error.h"
#include "sim_run.h"

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
  scn_error_t *err;
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

/* Fills the points of the cross product; the last parameter varies fastest. */
static int build_points(stu_study_t *study, size_t p_index)
{
  const scn_scenario_t *s = study->scenario;
  study->npoints = 1;
  for (size_t j = 0; j < s->nparams; j++)
    study->npoints *= s->params[j].nvalues;
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
  if (code == SIM_EPLATFORM)
    scn_fail(sweep->err, s->path, s->platform_line, "platform '%s' could not be loaded: %s", s->platform, message);
  else if (code == SIM_EHOSTS)
    scn_fail(sweep->err, s->path, param_line(s, "p"), "%s; use p no larger than the host count", message);
  else
    scn_fail(sweep->err, s->path, blame ? param_line(s, blame) : 0, "%s", message);
  return code;
}

/* Simulates `values` with `nranks` ranks and returns the trace in *trace. */
static int simulate(sweep_t *sweep, const char **values, int nranks, met_trace_t **trace)
{
  char message[1024] = "";
  const char *blame = NULL;
  void *arg = NULL;
  app_point_t at = {.count = sweep->scenario->nparams, .names = sweep->names, .values = values};
  int rc = sweep->skeleton->prepare(&at, nranks, &arg, message, sizeof message, &blame);
  if (rc != 0)
    return point_error(sweep, rc, blame, message);
  const char *bcast = app_point_value(&at, "broadcast");
  sim_job_t job = {.platform = sweep->scenario->platform, .nranks = nranks,
                   .bcast = bcast ? (sim_bcast_alg_t)sim_bcast_parse(bcast) : SIM_BCAST_ONE_TO_ALL,
                   .program = sweep->skeleton->program, .arg = arg};
  rc = sim_run_isolated(&job, trace, message, sizeof message);
  sweep->skeleton->release(arg);
  return rc == 0 ? 0 : point_error(sweep, rc, NULL, message);
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

/* T_seq for `values`: cached, or simulated now with one rank. */
static int sequential_time(sweep_t *sweep, const char **values, double *t_seq)
{
  if (cached_seq(sweep, values, t_seq))
    return 0;
  met_trace_t *trace = NULL;
  int rc = simulate(sweep, values, 1, &trace);
  if (rc == 0) {
    *t_seq = met_trace_end(trace);
    rc = remember_seq(&sweep->seq, values, *t_seq);
  }
  met_trace_free(trace);
  return rc;
}

/* The per-process view of a point's trace. */
static int keep_processes(stu_point_t *point, const met_trace_t *trace)
{
  point->procs = calloc((size_t)point->p, sizeof *point->procs);
  if (!point->procs)
    return SIM_ENOMEM;
  for (int rank = 0; rank < point->p; rank++)
    met_eppa_process(trace, point->eppa.t_seq, rank, &point->procs[rank]);
  return 0;
}

/* The message view of a point's trace. */
static int keep_messages(stu_point_t *point, const met_trace_t *trace)
{
  long groups = met_comm_stats(trace, &point->msgs);
  if (groups < 0)
    return SIM_ENOMEM;
  point->nmsgs = (size_t)groups;
  return 0;
}

/* The lost-cycle view of a point's trace, against the sequential run of the same parameters. */
static int keep_lost_cycles(sweep_t *sweep, stu_point_t *point, const met_trace_t *trace, int per_process)
{
  int rc;
  double t_seq = 0;
  if (point->p == 1 && !cached_seq(sweep, point->values, &t_seq)) {
    t_seq = met_trace_end(trace);
    rc = remember_seq(&sweep->seq, point->values, t_seq);
  } else {
    rc = sequential_time(sweep, point->values, &t_seq);
  }
  if (rc == 0 &&
      (met_eppa_compute(trace, t_seq, &point->eppa) != 0 || met_bottleneck(trace, &point->breakdown) != 0))
    rc = point_error(sweep, SIM_EINVAL, "p", "the sequential run (p = 1) took no simulated time, so speedup and the "
                                            "overhead ratios are undefined; check the skeleton's parameters");
  if (rc == 0 && point->p == per_process)
    rc = keep_processes(point, trace);
  return rc;
}

/* Whether the point's whole trace is kept: for the per-process p, whose timeline a picture may show. */
static int keeps_trace(const stu_point_t *point, int per_process)
{
  return point->p == per_process;
}

static int run_point(sweep_t *sweep, stu_point_t *point, int per_process)
{
  met_trace_t *trace = NULL;
  int rc = simulate(sweep, point->values, point->p, &trace);
  if (rc != 0)
    return rc;
  point->t_par = met_trace_end(trace);
  point->messages = met_comm_messages(trace);
  if (sweep->skeleton->view == APP_VIEW_MESSAGES)
    rc = keep_messages(point, trace);
  else
    rc = keep_lost_cycles(sweep, point, trace, per_process);
  if (rc == 0 && keeps_trace(point, per_process))
    point->trace = trace;
  else
    met_trace_free(trace);
  return rc;
}

/* Checks every point before anything is simulated: the skeleton's own rules, then the platform's host count. */
static int validate(sweep_t *sweep, const stu_study_t *study)
{
  int max_p = 0;
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
    max_p = point->p > max_p ? point->p : max_p;
  }
  char message[1024] = "";
  size_t hosts = 0;
  int rc = sim_run_probe(sweep->scenario->platform, &hosts, message, sizeof message);
  if (rc != 0)
    return point_error(sweep, rc, NULL, message);
  if ((size_t)max_p > hosts) {
    snprintf(message, sizeof message, "p = %d but platform '%s' has %zu host%s", max_p, sweep->scenario->platform,
             hosts, hosts == 1 ? "" : "s");
    return point_error(sweep, SIM_EHOSTS, NULL, message);
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

int stu_run(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, int per_process, stu_progress_fn progress,
            void *ctx, stu_study_t **out, scn_error_t *err)
{
  sweep_t sweep = {.scenario = scenario, .skeleton = skeleton, .err = err};
  stu_study_t *study = calloc(1, sizeof *study);
  sweep.names = calloc(scenario->nparams, sizeof *sweep.names);
  int rc = study && sweep.names ? 0 : SIM_ENOMEM;
  for (size_t j = 0; rc == 0 && j < scenario->nparams; j++)
    sweep.names[j] = scenario->params[j].name;
  if (rc == 0 && find_p(scenario, &sweep.p_index) != 0)
    rc = point_error(&sweep, SIM_EINVAL, NULL, "the scenario gives no p");
  if (rc == 0) {
    study->scenario = scenario;
    study->view = skeleton->view;
    rc = build_points(study, sweep.p_index);
  }
  rc = rc ? rc : validate(&sweep, study);
  for (size_t i = 0; rc == 0 && i < study->npoints; i++) {
    rc = run_point(&sweep, &study->points[i], per_process);
    if (rc == 0 && progress)
      progress(i + 1, study->npoints, ctx);
  }
  if (rc == SIM_ENOMEM)
    scn_fail(err, scenario->path, 0, "%s", sim_strerror(rc));
  free(sweep.names);
  free(sweep.seq.values);
  free(sweep.seq.t_seq);
  if (rc != 0) {
    stu_free(study);
    study = NULL;
  }
  *out = study;
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
    met_trace_free(study->points[i].trace);
  }
  free(study->points);
  free(study);
}
