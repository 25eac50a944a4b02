/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Measured runs as a study (stu_measured.h): each run's trace analysed by the same views as a simulated point's
 * (stu_view.h: the lost-cycle and per-process views of Lemeire's EPPA, seed 000 §1.2), told what a measurement cannot
 * give, whose reasons the study carries. */
#include "stu_measured.h"
#include "met_comm.h"
#include "sim_error.h"
#include "stu_lost_cycles.h"
#include "stu_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a measurement gives: the lost-cycle view without the bottleneck breakdown, and the time per phase. */
#define MEASURED_VIEWS (MET_VIEW_LOST_CYCLES | MET_VIEW_PHASES)

static const char NO_BREAKDOWN[] =
    "a measurement cannot split computation into the machine components of seed 001's Table 5 (processing, memory, "
    "communication, I/O); give a platform to price the run's operations on (simrun analyse --platform FILE)";
static const char NO_ANOMALY_SPLIT[] =
    "a measurement does not give the sequential cost of each rank's own operations, so true anomaly and load "
    "imbalance cannot be told apart (their sum is the anomaly column)";

/* Whether a point keeps its run's trace: a whole one, or a spilled one (its intervals in a file, for the pictures and
 * exports; the views that read intervals take them from a whole trace only). */
static int kept(const met_trace_t *trace)
{
  return !met_trace_is_aggregate(trace) || met_trace_is_spilled(trace);
}

/* Point `i` from its run's trace. 0, or -1 out of memory or when the run lasted no time. */
static int fill_point(const stu_study_t *study, size_t i, stu_point_t *point, met_trace_t *trace, double t_seq)
{
  const scn_scenario_t *scenario = study->scenario;
  point->p = met_trace_nranks(trace);
  point->values = malloc(scenario->nparams * sizeof *point->values);
  if (!point->values)
    return -1;
  for (size_t j = 0; j < scenario->nparams; j++)
    point->values[j] = scenario->params[j].values[scenario->params[j].role == SCN_ROLE_PROCESSES ? i : 0];
  stu_resolve_roles(scenario, point);
  point->trace = kept(trace) ? trace : NULL;
  if (point->trace && !(point->pixels = met_pixels_new(trace)))
    return -1;
  point->t_par = met_trace_end(trace);
  point->messages = met_comm_messages(trace);
  stu_view_input_t in = {.t_seq = t_seq, .keep_procs = 1, .no_breakdown = 1, .unsplit_anomaly = 1};
  if (stu_view_analyse(MEASURED_VIEWS, point, trace, &in) != 0)
    return -1;
  stu_view_context_t ctx = {.study = study}; /* no skeleton: no model */
  return stu_view_finish(MEASURED_VIEWS, point, &ctx) == 0 ? 0 : -1;
}

#define P_DIGITS 16 /* room for an int in decimal */

/* The scenario of a measured study, made by its constructor and freed with it (stu_study_t.owned): a parameter "p"
 * whose i-th value is run i's process count, and "program", the traced program's name. */
typedef struct measured_scenario {
  scn_scenario_t scenario;
  scn_param_t params[2];
  char *program;
  char **p_values;          /* one per run, into p_text */
  char (*p_text)[P_DIGITS]; /* run i's process count, in decimal */
} measured_scenario_t;

/* The scenario of `n` runs of `program`, in one allocation (the struct, then p_values, p_text and program), which
 * stu_free frees; NULL when out of memory. */
static measured_scenario_t *measured_scenario(const char *program, met_trace_t *const *traces, size_t n)
{
  size_t len = strlen(program) + 1;
  char *block = malloc(sizeof(measured_scenario_t) + n * (sizeof(char *) + P_DIGITS) + len);
  if (!block)
    return NULL;
  measured_scenario_t *ms = (measured_scenario_t *)block;
  ms->p_values = (char **)(block + sizeof *ms);
  ms->p_text = (char(*)[P_DIGITS])(block + sizeof *ms + n * sizeof(char *));
  ms->program = memcpy(block + sizeof *ms + n * (sizeof(char *) + P_DIGITS), program, len);
  for (size_t i = 0; i < n; i++) {
    snprintf(ms->p_text[i], sizeof ms->p_text[i], "%d", met_trace_nranks(traces[i]));
    ms->p_values[i] = ms->p_text[i];
  }
  ms->params[0] =
      (scn_param_t){.name = "p", .values = ms->p_values, .nvalues = n, .swept = 1, .role = SCN_ROLE_PROCESSES};
  ms->params[1] = (scn_param_t){.name = "program", .values = &ms->program, .nvalues = 1};
  ms->scenario = (scn_scenario_t){.path = "measured",
                                  .name = "measured",
                                  .platform = "this machine (measured)",
                                  .skeleton = "traced MPI program",
                                  .params = ms->params,
                                  .nparams = 2};
  return ms;
}

/* The study's summary, the wait states of a run read as sums included: its trace, which no point keeps unless spilled
 * (it has no intervals for the views that draw them), is lent to its point while the views sum the study up (the
 * wait states view copies its sums, met_trace_sum_waits). 0, or SIM_ENOMEM. */
static int summarise(stu_study_t *study, met_trace_t *const *traces)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (!kept(traces[i]) && met_trace_wait_sums(traces[i]))
      study->points[i].trace = traces[i];
  int rc = stu_view_summarise(study);
  for (size_t i = 0; i < study->npoints; i++)
    if (!kept(traces[i]))
      study->points[i].trace = NULL;
  return rc;
}

stu_study_t *stu_measured_new(const char *program, met_trace_t *const *traces, size_t n, double t_seq)
{
  stu_study_t *study = calloc(1, sizeof *study);
  measured_scenario_t *ms = study ? measured_scenario(program, traces, n) : NULL;
  if (!ms || !(study->points = calloc(n, sizeof *study->points))) {
    free(ms);
    free(study);
    return NULL;
  }
  study->owned = ms;
  study->scenario = &ms->scenario;
  study->facts.views = MEASURED_VIEWS;
  study->facts.subs = met_phase_subs(met_table5_phases);
  study->facts.no_breakdown = NO_BREAKDOWN;
  study->facts.no_anomaly_split = NO_ANOMALY_SPLIT;
  int ok = 1;
  for (size_t i = 0; ok && i < n; i++, study->npoints++)
    ok = fill_point(study, i, &study->points[i], traces[i], t_seq) == 0;
  if (ok && summarise(study, traces) == 0)
    return study;
  for (size_t i = 0; i < study->npoints; i++) /* the traces stay the caller's */
    study->points[i].trace = NULL;
  stu_free(study);
  return NULL;
}

int stu_measured_set_breakdowns(stu_study_t *study, const met_breakdown_t *breakdowns)
{
  for (size_t i = 0; i < study->npoints; i++) {
    stu_lost_cycles_t *results = stu_lost_cycles_make(&study->points[i]);
    if (!results)
      return SIM_ENOMEM;
    results->breakdown = breakdowns[i];
  }
  study->facts.no_breakdown = NULL;
  return stu_view_summarise(study);
}
