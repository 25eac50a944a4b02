/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the one constructor of measured studies (stu_measured.h) on hand-made traces: its own scenario, the
 * lost-cycle and per-process views through the same analysis as a simulated point, figures worked out by hand, and
 * what a measurement cannot give left out (NAN, a reason) rather than zero. */
#include "stu_lost_cycles.h"
#include "stu_measured.h"
#include "tu.h"

#include <math.h>
#include <string.h>

/* Adds [start, end) of `category` to `rank`. */
static void add(met_trace_t *trace, int rank, met_category_t category, double start, double end)
{
  met_interval_t iv = {
      .start = start, .end = end, .category = category, .peer = -1, .phase = met_trace_phase_id(trace, "main")};
  CU_ASSERT_EQUAL_FATAL(met_trace_add(trace, rank, &iv), 0);
}

/* Run 0 at p = 1: 2 s of work. Run 1 at p = 2: rank 0 works 1 s then waits 0.25 s, rank 1 works 1.25 s. */
static void make_runs(met_trace_t *traces[2], int aggregate)
{
  traces[0] = met_trace_new(1);
  traces[1] = aggregate ? met_trace_new_aggregate(2) : met_trace_new(2);
  CU_ASSERT_FATAL(traces[0] && traces[1]);
  add(traces[0], 0, MET_CAT_COMPUTE, 0, 2);
  add(traces[1], 0, MET_CAT_COMPUTE, 0, 1);
  add(traces[1], 0, MET_CAT_IDLE, 1, 1.25);
  add(traces[1], 1, MET_CAT_COMPUTE, 0, 1.25);
}

/* With T_seq = 2 s, the p = 2 run: T_par 1.25 s, speedup 2 / 1.25 = 1.6, efficiency 0.8; idling 0.25 s, and the
 * anomaly the work over T_seq, 1 + 1.25 - 2 = 0.25 s; the scenario's p and program as given. */
static void test_measured_views(void)
{
  met_trace_t *traces[2];
  make_runs(traces, 0);
  stu_study_t *study = stu_measured_new("halo", traces, 2, 2.0);
  CU_ASSERT_FATAL(study != NULL);
  CU_ASSERT_EQUAL(study->npoints, 2);
  const stu_point_t *b = &study->points[1];
  CU_ASSERT_EQUAL(b->p, 2);
  CU_ASSERT_STRING_EQUAL(stu_value(study, b, "p"), "2");
  CU_ASSERT_STRING_EQUAL(stu_value(study, b, "program"), "halo");
  TU_ASSERT_CLOSE(b->t_par, 1.25, 1e-12);
  TU_ASSERT_CLOSE(stu_eppa(b)->speedup, 1.6, 1e-12);
  TU_ASSERT_CLOSE(stu_eppa(b)->efficiency, 0.8, 1e-12);
  TU_ASSERT_CLOSE(stu_eppa(b)->ovh_time[MET_OVH_IDLE], 0.25, 1e-12);
  TU_ASSERT_CLOSE(stu_eppa(b)->ovh_time[MET_OVH_ANOMALY], 0.25, 1e-12);
  CU_ASSERT_TRUE(stu_has_view(study, MET_VIEW_LOST_CYCLES));
  CU_ASSERT_PTR_NOT_NULL(study->facts.no_breakdown);
  CU_ASSERT_PTR_NOT_NULL(study->facts.no_anomaly_split);
  CU_ASSERT_EQUAL(stu_breakdown(b)->t_par, 0); /* left out, not computed */
  CU_ASSERT_FATAL(stu_procs(b) != NULL);
  CU_ASSERT_EQUAL(stu_procs(b)[1].rank, 1);
  CU_ASSERT_TRUE(isnan(stu_procs(b)[0].anomaly) && isnan(stu_procs(b)[0].imbalance));
  CU_ASSERT_PTR_EQUAL(b->trace, traces[1]); /* the study's now */
  stu_free(study);
}

/* An aggregate trace stays the caller's; a run that lasted no time gives no study and leaves every trace the
 * caller's. */
static void test_measured_ownership(void)
{
  met_trace_t *traces[2];
  make_runs(traces, 1);
  stu_study_t *study = stu_measured_new("halo", traces, 2, 2.0);
  CU_ASSERT_FATAL(study != NULL);
  CU_ASSERT_PTR_NULL(study->points[1].trace);
  TU_ASSERT_CLOSE(stu_eppa(&study->points[1])->speedup, 1.6, 1e-12);
  stu_free(study); /* and run 0's full trace */
  met_trace_free(traces[1]);
  make_runs(traces, 0);
  met_trace_free(traces[1]);
  traces[1] = met_trace_new(2);
  CU_ASSERT_PTR_NULL(stu_measured_new("halo", traces, 2, 2.0));
  met_trace_free(traces[0]);
  met_trace_free(traces[1]);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_measured_views", test_measured_views}, {"test_measured_ownership", test_measured_ownership}, {NULL, NULL}};
  return tu_run("measured", cases);
}
