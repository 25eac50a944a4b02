/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Measured runs as a study (stu_measured.h): the lost-cycle and per-process views of Lemeire's EPPA (seed 000 §1.2)
 * from each run's trace, and the reasons for the views a measurement cannot give. */
#include "stu_measured.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char NO_BREAKDOWN[] =
    "a measurement cannot split computation into the machine components of seed 001's Table 5 (processing, memory, "
    "communication, I/O); replay the run's TI trace on a platform (ti-replay) for them";
static const char NO_ANOMALY_SPLIT[] =
    "a measurement does not give the sequential cost of each rank's own operations, so true anomaly and load "
    "imbalance cannot be told apart (their sum is the anomaly column)";

/* Point `i` from its run's trace. 0, or -1 out of memory. */
static int fill_point(const scn_scenario_t *scenario, size_t i, stu_point_t *point, met_trace_t *trace, double t_seq)
{
  point->p = met_trace_nranks(trace);
  point->values = malloc(scenario->nparams * sizeof *point->values);
  point->procs = calloc((size_t)point->p, sizeof *point->procs);
  if (!point->values || !point->procs)
    return -1;
  for (size_t j = 0; j < scenario->nparams; j++)
    point->values[j] = scenario->params[j].values[scenario->params[j].role == SCN_ROLE_PROCESSES ? i : 0];
  stu_resolve_roles(scenario, point);
  point->trace = met_trace_is_aggregate(trace) ? NULL : trace;
  point->t_par = met_trace_end(trace);
  point->messages = met_comm_messages(trace);
  point->t_model = NAN;
  met_eppa_compute(trace, t_seq, &point->eppa);
  for (int rank = 0; rank < point->p; rank++) {
    met_eppa_process(trace, t_seq, rank, &point->procs[rank]);
    point->procs[rank].anomaly = point->procs[rank].imbalance = NAN;
    point->procs[rank].anomaly_ratio = point->procs[rank].imbalance_ratio = NAN;
  }
  return 0;
}

stu_study_t *stu_measured_new(const scn_scenario_t *scenario, met_trace_t *const *traces, size_t n, double t_seq)
{
  stu_study_t *study = calloc(1, sizeof *study);
  if (!study || !(study->points = calloc(n, sizeof *study->points))) {
    free(study);
    return NULL;
  }
  study->scenario = scenario;
  study->facts.views = MET_VIEW_LOST_CYCLES;
  study->facts.subs = met_phase_subs(met_table5_phases);
  study->facts.no_breakdown = NO_BREAKDOWN;
  study->facts.no_anomaly_split = NO_ANOMALY_SPLIT;
  int ok = 1;
  for (size_t i = 0; ok && i < n; i++, study->npoints++)
    ok = fill_point(scenario, i, &study->points[i], traces[i], t_seq) == 0;
  if (ok)
    return study;
  for (size_t i = 0; i < study->npoints; i++) /* the traces stay the caller's */
    study->points[i].trace = NULL;
  stu_free(study);
  return NULL;
}
