/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The lost-cycle view: a point's EPPA metrics against its group's sequential time (seed 000 §1.1), the bottleneck
 * breakdown of seed 001 Table 5 and the per-process view, computed in the simulating child and carried in the result
 * stream; summarised once the study is complete into a regression fit per metric and series, and the bottleneck
 * verdict per series against p. */
#include "stu_lost_cycles.h"
#include "sim_error.h"
#include "stu_codec.h"
#include "stu_series.h"
#include "stu_view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const stu_lost_cycles_t none; /* what a point without the view shows */

static const stu_lost_cycles_t *results(const stu_point_t *point)
{
  const stu_lost_cycles_t *r = point->view[STU_SLOT_LOST_CYCLES].data;
  return r ? r : &none;
}

const met_eppa_t *stu_eppa(const stu_point_t *point)
{
  return &results(point)->eppa;
}

const met_breakdown_t *stu_breakdown(const stu_point_t *point)
{
  return &results(point)->breakdown;
}

const met_eppa_proc_t *stu_procs(const stu_point_t *point)
{
  return results(point)->procs;
}

int stu_hosts_differ(const stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++)
    for (int r = 0; stu_procs(&study->points[i]) && r < study->points[i].p; r++)
      if (stu_procs(&study->points[i])[r].host_speed != 0)
        return 1;
  return 0;
}

static void release(void *data)
{
  stu_lost_cycles_t *r = data;
  free(r->procs);
  free(r);
}

stu_lost_cycles_t *stu_lost_cycles_make(stu_point_t *point)
{
  return stu_slot_make(&point->view[STU_SLOT_LOST_CYCLES], sizeof(stu_lost_cycles_t), release);
}

/* Rank `rank`'s per-process view: its anomaly left unsplit (NAN) when the input says so. */
static void process(const met_trace_t *trace, double t_seq, int rank, const stu_view_input_t *in, met_eppa_proc_t *proc)
{
  met_eppa_process(trace, t_seq, rank, proc);
  if (in->unsplit_anomaly)
    proc->anomaly = proc->imbalance = proc->anomaly_ratio = proc->imbalance_ratio = proc->host_speed =
        proc->host_speed_ratio = NAN;
}

/* The lost-cycle and bottleneck views against the group's sequential time, and the per-process view if asked for.
 * Returns the analysis status: 0, SIM_EINVAL (undefined: no sequential time) or SIM_ENOMEM. */
static int32_t analyse(stu_point_t *point, const met_trace_t *trace, const stu_view_input_t *in)
{
  double t_seq = in->t_seq > 0 ? in->t_seq : point->t_par;
  stu_lost_cycles_t *r = stu_lost_cycles_make(point);
  if (!r)
    return SIM_ENOMEM;
  if (met_eppa_compute(trace, t_seq, &r->eppa) != 0 ||
      (!in->no_breakdown && met_bottleneck(trace, in->phases, &r->breakdown) != 0))
    return SIM_EINVAL;
  if (!in->keep_procs)
    return 0;
  r->procs = calloc((size_t)point->p, sizeof *r->procs);
  for (int rank = 0; r->procs && rank < point->p; rank++)
    process(trace, t_seq, rank, in, &r->procs[rank]);
  return r->procs ? 0 : SIM_ENOMEM;
}

/* [eppa][breakdown][nprocs][procs], their padding (after the leading int) zeroed; all zero for a point without the
 * view. */
static int encode(stu_point_t *point, FILE *out)
{
  stu_lost_cycles_t zero = {0};
  stu_lost_cycles_t *r = point->view[STU_SLOT_LOST_CYCLES].data;
  r = r ? r : &zero;
  STU_ZERO_GAP(&r->eppa, p, t_seq);
  STU_ZERO_GAP(&r->breakdown, p, t_par);
  for (int i = 0; r->procs && i < point->p; i++)
    STU_ZERO_GAP(&r->procs[i], rank, work);
  uint64_t nprocs = r->procs ? (uint64_t)point->p : 0;
  return stu_codec_put(out, &r->eppa, sizeof r->eppa) | stu_codec_put(out, &r->breakdown, sizeof r->breakdown) |
         stu_codec_put(out, &nprocs, sizeof nprocs) | stu_codec_put(out, r->procs, nprocs * sizeof *r->procs);
}

/* A section of zeros (a point without the view, or a sequential run) leaves the point without results. */
static int decode(stu_point_t *point, FILE *in)
{
  uint64_t nprocs = 0;
  void *procs = NULL;
  stu_lost_cycles_t read;
  memset(&read, 0, sizeof read); /* its padding too: compared with memcmp */
  if (stu_codec_get(in, &read.eppa, sizeof read.eppa) || stu_codec_get(in, &read.breakdown, sizeof read.breakdown) ||
      stu_codec_get(in, &nprocs, sizeof nprocs) || stu_codec_get_array(in, nprocs, sizeof *read.procs, &procs))
    return -1;
  read.procs = procs;
  if (!procs && memcmp(&read, &none, sizeof read) == 0)
    return 0;
  stu_lost_cycles_t *r = stu_lost_cycles_make(point);
  if (r)
    *r = read;
  else
    free(procs);
  return r ? 0 : -1;
}

double stu_metric(const stu_point_t *point, stu_metric_t metric)
{
  const met_eppa_t *e = stu_eppa(point);
  switch (metric) {
  case STU_METRIC_TIME:
    return e->t_par;
  case STU_METRIC_SPEEDUP:
    return e->speedup;
  case STU_METRIC_EFFICIENCY:
    return e->efficiency;
  case STU_METRIC_GRANULARITY:
    return e->granularity;
  default:
    return e->ovh_ratio[MET_OVH_CTRL + (metric - STU_METRIC_OVH_CTRL)];
  }
}

/* Each metric's range: a fit leaving it within the data is not shown (met_fit_honest). */
static const struct {
  double lo, hi;
} ranges[STU_METRICS] = {[STU_METRIC_TIME] = {0, INFINITY},
                         [STU_METRIC_SPEEDUP] = {0, INFINITY},
                         [STU_METRIC_EFFICIENCY] = {0, 1},
                         [STU_METRIC_OVH_CTRL] = {0, INFINITY},
                         [STU_METRIC_OVH_COMM] = {0, INFINITY},
                         [STU_METRIC_OVH_IDLE] = {0, INFINITY},
                         [STU_METRIC_OVH_ANOMALY] = {-INFINITY, INFINITY},
                         [STU_METRIC_GRANULARITY] = {0, INFINITY}};

/* The fits against one parameter: [metric * nseries + series]. */
typedef struct x_fits {
  size_t nseries;
  stu_fit_t *fits;
} x_fits_t;

/* The study's summary. */
typedef struct summary {
  size_t nparams;
  x_fits_t *by_x; /* per parameter; no series where it is not a numeric sweep */
  size_t nverdicts;
  met_verdict_t *verdicts; /* per series against p */
  int *has_verdict;
  stu_bottleneck_t *bottlenecks; /* per point (in the study's order), from its series' verdict */
  size_t nbottlenecks;           /* the points once every verdict is drawn, else 0 */
  size_t nrankings;
  stu_ranking_t *rankings; /* per p */
} summary_t;

static void summary_release(void *data)
{
  summary_t *s = data;
  for (size_t j = 0; s->by_x && j < s->nparams; j++)
    free(s->by_x[j].fits);
  for (size_t k = 0; s->has_verdict && k < s->nverdicts; k++)
    if (s->has_verdict[k])
      met_verdict_free(&s->verdicts[k]);
  free(s->by_x);
  free(s->verdicts);
  free(s->has_verdict);
  free(s->bottlenecks);
  free(s->rankings);
  free(s);
}

const stu_fit_t *stu_fit(const stu_study_t *study, size_t x_index, stu_metric_t metric, size_t series)
{
  const summary_t *s = study->summary[STU_SLOT_LOST_CYCLES].data;
  if (!s || x_index >= s->nparams || series >= s->by_x[x_index].nseries)
    return NULL;
  return &s->by_x[x_index].fits[(size_t)metric * s->by_x[x_index].nseries + series];
}

const met_verdict_t *stu_verdict(const stu_study_t *study, size_t series)
{
  const summary_t *s = study->summary[STU_SLOT_LOST_CYCLES].data;
  return s && series < s->nverdicts && s->has_verdict[series] ? &s->verdicts[series] : NULL;
}

const stu_bottleneck_t *stu_bottleneck(const stu_study_t *study, const stu_point_t *point)
{
  const summary_t *s = study->summary[STU_SLOT_LOST_CYCLES].data;
  size_t i = (size_t)(point - study->points);
  return s && i < s->nbottlenecks ? &s->bottlenecks[i] : NULL;
}

const stu_ranking_t *stu_rankings(const stu_study_t *study, size_t *count)
{
  const summary_t *s = study->summary[STU_SLOT_LOST_CYCLES].data;
  *count = s ? s->nrankings : 0;
  return s ? s->rankings : NULL;
}

/* Point i into the ranking of its p: best when its T_par is lower than the best's, else runner-up when lower than
 * the runner-up's (ties go to the earlier point). */
static void rank(stu_ranking_t *r, const stu_point_t *point)
{
  if (!r->best || point->t_par < r->best->t_par) {
    r->second = r->best;
    r->best = point;
  } else if (!r->second || point->t_par < r->second->t_par) {
    r->second = point;
  }
}

/* Whether points a and b are rivals: the same p and the same problem (every size and zipped parameter equal: a
 * worksize sweep's N, a scaled sweep's fixed-size and scaled points at one p, solve different problems). */
static int rivals(const stu_study_t *study, const stu_point_t *a, const stu_point_t *b)
{
  const scn_scenario_t *sc = study->scenario;
  for (size_t j = 0; j < sc->nparams; j++)
    if (scn_param_sets_problem(sc, j) && strcmp(a->values[j], b->values[j]) != 0)
      return 0;
  return a->p == b->p;
}

/* The ranking at each p and zipped parameters' values. 0, or SIM_ENOMEM. */
static int rankings(const stu_study_t *study, summary_t *s)
{
  if (!(s->rankings = calloc(study->npoints ? study->npoints : 1, sizeof *s->rankings)))
    return SIM_ENOMEM;
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    size_t k = 0;
    while (k < s->nrankings && !rivals(study, s->rankings[k].best, point))
      k++;
    s->nrankings += k == s->nrankings;
    rank(&s->rankings[k], point);
  }
  return 0;
}

/* Fits the series' finite values of the metric with the forms for what x is, and keeps whether the best is honest
 * within the metric's range. */
static void fit_series(const stu_series_t *g, met_fit_x_t xkind, stu_metric_t metric, stu_fit_t *out)
{
  double x[g->count], y[g->count];
  size_t n = 0;
  for (size_t i = 0; i < g->count; i++) {
    double value = stu_metric(g->points[i], metric);
    if (isfinite(value)) {
      x[n] = g->x[i];
      y[n++] = value;
    }
  }
  int found = met_fit_best(x, y, n, xkind, &out->fit) == 0;
  out->fitted = found && met_fit_honest(&out->fit, ranges[metric].lo, ranges[metric].hi);
  out->unfit = found && !out->fitted;
}

/* Every metric's fit over every series against parameter j. 0, or SIM_ENOMEM. */
static int fit_against(const stu_study_t *study, size_t j, x_fits_t *out)
{
  stu_series_list_t series;
  int rc =
      stu_series_collect(study, j, &series) == 0 && (out->fits = calloc(STU_METRICS * series.count, sizeof *out->fits))
          ? 0
          : SIM_ENOMEM;
  if (rc == 0)
    out->nseries = series.count;
  met_fit_x_t xkind = stu_fit_x(&study->scenario->params[j]);
  for (size_t m = 0; rc == 0 && m < STU_METRICS; m++)
    for (size_t k = 0; k < series.count; k++)
      fit_series(&series.list[k], xkind, (stu_metric_t)m, &out->fits[m * series.count + k]);
  stu_series_free(&series);
  return rc;
}

/* The verdict of every series against p (Table 5's breakdowns sorted by p). 0, or SIM_ENOMEM. */
static int verdicts(const stu_study_t *study, summary_t *s)
{
  stu_series_list_t series;
  size_t p_index = scn_role_index(study->scenario, SCN_ROLE_PROCESSES);
  int rc = stu_series_collect(study, p_index, &series) == 0 &&
                   (s->verdicts = calloc(series.count, sizeof *s->verdicts)) &&
                   (s->has_verdict = calloc(series.count, sizeof *s->has_verdict)) &&
                   (s->bottlenecks = calloc(study->npoints ? study->npoints : 1, sizeof *s->bottlenecks))
               ? 0
               : SIM_ENOMEM;
  s->nverdicts = rc == 0 ? series.count : 0;
  for (size_t k = 0; rc == 0 && k < series.count; k++) {
    const stu_series_t *g = &series.list[k];
    met_breakdown_t *b = malloc(g->count * sizeof *b);
    for (size_t i = 0; b && i < g->count; i++)
      b[i] = *stu_breakdown(g->points[i]);
    s->has_verdict[k] = b && met_bottleneck_verdict(b, g->count, &s->verdicts[k]) == 0;
    rc = s->has_verdict[k] ? 0 : SIM_ENOMEM;
    for (size_t i = 0; rc == 0 && i < g->count; i++) /* every point is in one series */
      s->bottlenecks[g->points[i] - study->points] =
          (stu_bottleneck_t){s->verdicts[k].dominant[i], s->verdicts[k].is_bottleneck[i], s->verdicts[k].cause[i]};
    free(b);
  }
  s->nbottlenecks = rc == 0 ? study->npoints : 0;
  stu_series_free(&series);
  return rc;
}

/* The fits against every numeric sweep, the rankings and, with a breakdown, the verdicts. 0, or SIM_ENOMEM. */
static int summarise(stu_study_t *study)
{
  const scn_scenario_t *scenario = study->scenario;
  summary_t *s = stu_slot_make(&study->summary[STU_SLOT_LOST_CYCLES], sizeof *s, summary_release);
  if (!s || !(s->by_x = calloc(scenario->nparams, sizeof *s->by_x)))
    return SIM_ENOMEM;
  s->nparams = scenario->nparams;
  int rc = 0;
  for (size_t j = 0; rc == 0 && j < scenario->nparams; j++)
    if (stu_numeric_sweep(&scenario->params[j]))
      rc = fit_against(study, j, &s->by_x[j]);
  rc = rc ? rc : rankings(study, s);
  return rc == 0 && !study->facts.no_breakdown ? verdicts(study, s) : rc;
}

const stu_view_row_t stu_lost_cycles_view = {
    .flag = MET_VIEW_LOST_CYCLES,
    .needs = STU_NEED_SEQ | STU_NEED_PROCS,
    .analyse = analyse,
    .encode = encode,
    .decode = decode,
    .summarise = summarise,
};
