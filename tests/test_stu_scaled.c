/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* End-to-end: a scaled sweep (stu_scaled.h) of Gauss-Jordan, n = round(32 sqrt(p)), through the study runner: each
 * point's T_seq is the sequential run of its own n worked out by hand, its speedup Gustafson's scaled one, and the
 * fixed-size point at its p (n = 32) gives Amdahl's beside it; a first problem too small for a p leaves no fixed-size
 * figure there. */
#include "app_gj.h"
#include "scn_scenario.h"
#include "stu_lost_cycles.h"
#include "stu_scaled.h"
#include "stu_sweep.h"
#include "tu.h"
#include "tu_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DATA SIMRUN_SOURCE_DIR "/tests/data/cli/"

static stu_study_t *run(const char *name, scn_scenario_t **scenario)
{
  scn_error_t err;
  stu_study_t *study = NULL;
  CU_ASSERT_FATAL(scn_load(name, scenario, &err) == 0);
  CU_ASSERT_FATAL(scn_check(*scenario, app_gj_skeleton.spec, &err) == 0);
  CU_ASSERT_FATAL(tu_study_run(*scenario, &app_gj_skeleton, 0, NULL, NULL, &study, &err) == 0);
  return study;
}

/* Gauss-Jordan's sequential time at order n, by hand as test_stu_gj.c's at n = 256 (eq. 10's element operations
 * with app_gj.c's module weights, each 3 CPU operations, 2 flops, 2 workspace and 3 external accesses at the cycles of
 * platforms/t800-mesh-128.xml at 25e6 cycles/s, plus input, eq. 5, of n (n + 2) doubles and output, eq. 6, of n). */
static double gj_seq(int n)
{
  double ops = 0;
  for (int k = 0; k < n; k++)
    ops += 1 + 0.6 * (n - k) + 0.4 * (n + 1) + (n - 1) * (0.4 + n - k);
  double cycles = 3 * 20.505 + 2 * 19.2175 + 2 * 10.9635 + 3 * 34.42766666666667;
  return ops * cycles / 25e6 + 1e-6 * (642.16 + 3.73 * n * (n + 2) * 8) + 1e-6 * (1583.73 + 2.2 * n * 8);
}

static const stu_point_t *find(const stu_study_t *study, int p, int n)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (study->points[i].p == p && atoi(stu_value(study, &study->points[i], "n")) == n)
      return &study->points[i];
  CU_FAIL_FATAL("no such point");
  return NULL;
}

/* p = 1, 2, 4, 16 with n = 32, 45 (32 sqrt 2 = 45.25), 64, 128, then the fixed-size points n = 32 at p = 2, 4, 16. */
static void test_stu_scaled_points_and_t_seq_by_hand(void)
{
  scn_scenario_t *scenario = NULL;
  stu_study_t *study = run(DATA "gj-scaled.xml", &scenario);
  CU_ASSERT(study->facts.scaled);
  CU_ASSERT_EQUAL_FATAL(study->npoints, 7);
  static const int ps[] = {1, 2, 4, 16}, ns[] = {32, 45, 64, 128};
  for (size_t k = 0; k < 4; k++) {
    const stu_point_t *point = find(study, ps[k], ns[k]);
    const stu_point_t *fixed = find(study, ps[k], 32);
    CU_ASSERT_EQUAL(point->fixed_size, 0);
    CU_ASSERT_EQUAL(fixed->fixed_size, k > 0);
    TU_ASSERT_CLOSE(stu_eppa(point)->t_seq, gj_seq(ns[k]), 1e-9 * gj_seq(ns[k]));
    TU_ASSERT_CLOSE(stu_eppa(fixed)->t_seq, gj_seq(32), 1e-9 * gj_seq(32));
    stu_scaled_t at;
    CU_ASSERT_EQUAL_FATAL(stu_scaled_of(study, point, &at), 0);
    CU_ASSERT_PTR_EQUAL(at.fixed, fixed);
    /* Gustafson's scaled speedup: T_seq of the grown problem over its T_par; Amdahl's: the first problem's */
    TU_ASSERT_CLOSE(at.speedup, gj_seq(ns[k]) / point->t_par, 1e-9 * at.speedup);
    TU_ASSERT_CLOSE(at.efficiency, at.speedup / ps[k], 1e-12);
    TU_ASSERT_CLOSE(at.fixed_speedup, gj_seq(32) / fixed->t_par, 1e-9 * at.fixed_speedup);
    TU_ASSERT_CLOSE(at.fixed_efficiency, at.fixed_speedup / ps[k], 1e-12);
    /* the work grows as n^3, the pivot rows sent as n^2: the grown problem keeps its processes busier */
    if (k > 0)
      CU_ASSERT(at.speedup > at.fixed_speedup);
    CU_ASSERT_EQUAL(stu_scaled_of(study, fixed, &at), k > 0 ? -1 : 0); /* a fixed-size point has no figures */
  }
  stu_free(study);
  scn_free(scenario);
}

/* n = 8 cannot run on 16 processes: the fixed-size point at p = 16 is dropped, the one at p = 4 kept. */
static void test_stu_scaled_outgrown_first_problem(void)
{
  scn_scenario_t *scenario = NULL;
  stu_study_t *study = run(DATA "gj-scaled-outgrown.xml", &scenario);
  CU_ASSERT_EQUAL_FATAL(study->npoints, 4);
  stu_scaled_t at;
  CU_ASSERT_EQUAL_FATAL(stu_scaled_of(study, find(study, 16, 32), &at), 0);
  CU_ASSERT_PTR_NULL(at.fixed);
  CU_ASSERT(isnan(at.fixed_speedup) && isnan(at.fixed_efficiency));
  CU_ASSERT_EQUAL_FATAL(stu_scaled_of(study, find(study, 4, 16), &at), 0);
  CU_ASSERT_PTR_EQUAL(at.fixed, find(study, 4, 8));
  stu_free(study);
  scn_free(scenario);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_stu_scaled_points_and_t_seq_by_hand", test_stu_scaled_points_and_t_seq_by_hand},
      {"test_stu_scaled_outgrown_first_problem", test_stu_scaled_outgrown_first_problem},
      {NULL, NULL},
  };
  return tu_run("stu_scaled", cases);
}
