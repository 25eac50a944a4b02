/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the pdtrsm skeleton (seed 003 §4.2) on icluster against hand calculations: the sequential solve, a
 * single-row grid (eq. 6, where the simulation and the model agree) and a 2 x 2 grid with the pipelined update
 * (eqs. 5, 7); work conservation, with the accumulations counted as control of parallelism; the critical-path model
 * (met_pdtrsm) within 10% of the simulation on every grid, and the paper's best grid, a single row. */
#include "app_linalg.h"
#include "app_pdtrsm.h"
#include "met_eppa.h"
#include "met_model.h"
#include "met_pdtrsm.h"
#include "tu_fast.h"
#include "tu_linalg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FLOPS 733e6
/* One solved 64 x 64 block on the wire: lambda + 32768 tau with icluster's documented figures. */
#define BLOCK_MSG (124.04e-6 + 32768 / 11866059.8)

static met_trace_t *run_pdtrsm(const char *m, const char *n, const char *grid_rows, int p)
{
  const char *names[] = {"m", "n", "block", "grid-rows"};
  const char *values[] = {m, n, "64", grid_rows};
  return tu_run_point(&app_pdtrsm_skeleton, TU_ICLUSTER, 4, names, values, p, SIM_BCAST_NEIGHBOUR);
}

static double category_total(const met_trace_t *trace, met_category_t category)
{
  double t = 0;
  for (int r = 0; r < met_trace_nranks(trace); r++)
    t += met_trace_category_time(trace, r, category);
  return t;
}

/* m = n = 256, R = 64 on one process: 4 calls, each 4 trsm of 64^3 = 262,144 flops and updates of
 * 2 x 64 x 64 x (192 + 128 + 64) = 3,145,728 flops: 4,194,304 flops per call, 16,777,216 in all. */
static void test_app_pdtrsm_sequential_by_hand(void)
{
  met_trace_t *trace = run_pdtrsm("256", "256", "1", 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  TU_ASSERT_CLOSE(met_trace_end(trace), 16777216 / FLOPS, 1e-12);
  met_trace_free(trace);
}

/* m = 64, n = 128 (two blocks of 64) on a rows x (p / rows) grid: T_par is `flops` at 733 Mflop/s and `messages`
 * block messages in sequence; the FAST model adds `model_extra` seconds; the accumulations take `ctrl_flops`. */
static void check_two_blocks(const char *rows, int p, double flops, int messages, double model_extra, double ctrl_flops)
{
  met_trace_t *trace = run_pdtrsm("64", "128", rows, p);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  double hand = flops / FLOPS + messages * BLOCK_MSG;
  TU_ASSERT_CLOSE(met_trace_end(trace), hand, 1e-12);
  met_dense_t d = {.m = 64, .n = 128, .r = 64, .rows = atoi(rows), .cols = p / atoi(rows)};
  TU_ASSERT_CLOSE(tu_pdtrsm_time(&d, &tu_icluster_fast), hand + model_extra, 1e-12);
  TU_ASSERT_CLOSE(met_pdtrsm_pipeline(&d, &tu_icluster_fast), hand, 1e-12); /* no empty send */
  TU_ASSERT_CLOSE(category_total(trace, MET_CAT_CTRL), ctrl_flops / FLOPS, 1e-12);
  met_trace_free(trace);
}

/* 1 x 2: rank 0 solves block 0 (64^3 = 262,144 flops) and sends it to rank 1, which updates block 1
 * (2 x 64^3 = 524,288 flops), solves it and sends it back: 1,048,576 flops and 2 messages in sequence. That is also
 * eq. 6: 2 (trsm + broadcast) + one dgemm of 64 columns. */
static void test_app_pdtrsm_row_grid_by_hand(void)
{
  check_two_blocks("1", 2, 1048576, 2, 0, 0);
}

/* 2 x 2: process (0, 0) solves block 0 and sends it along row 0; (0, 1) updates block 1 (the first P - 1 = 1 block)
 * and sends it down to (1, 1), which adds it (64 x 64 = 4096 flops) and solves block 1, then sends it along row 1:
 * 1,052,672 flops and 3 messages in sequence. Eq. 7 adds a send of no data for the last block (one more lambda). */
static void test_app_pdtrsm_pipelined_grid_by_hand(void)
{
  check_two_blocks("2", 4, 1052672, 3, tu_icluster_fast.link.lambda, 4096);
}

/* On a pipelined 2 x 4 grid the solves and updates add up to the sequential work exactly (anomaly 0, eq. 1.6); the
 * accumulations are extra, as control of parallelism. */
static void test_app_pdtrsm_work_is_conserved(void)
{
  met_trace_t *trace = run_pdtrsm("256", "256", "2", 8);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  met_eppa_t e;
  CU_ASSERT_EQUAL_FATAL(met_eppa_compute(trace, 16777216 / FLOPS, &e), 0);
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_ANOMALY], 0, 1e-12);
  CU_ASSERT(e.ovh_time[MET_OVH_CTRL] > 0);
  met_trace_free(trace);
}

/* Runs scenario `path` and checks that it has `points` points, each model within 10% of the simulation, except on
 * platform `silent` (a file name; NULL: none) at p = 8 on the 2 x 4 grid, where it prints "-" with its reason. Returns
 * the study (free it and *scenario). */
static stu_study_t *run_within_10pc(const char *path, size_t points, const char *silent, scn_scenario_t **scenario)
{
  scn_error_t err;
  stu_study_t *study = tu_run_scenario(path, scenario, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(study);
  CU_ASSERT_EQUAL(study->npoints, points);
  int silenced = 0;
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *pt = &study->points[i];
    double diff = (stu_model_time(pt) - pt->t_par) / pt->t_par;
    int expect_silent = silent && strstr(stu_platform(study, pt), silent) && pt->p == 8 && pt->role.grid_rows == 2;
    CU_ASSERT_EQUAL(isnan(stu_model_time(pt)) != 0, expect_silent);
    silenced += isnan(stu_model_time(pt)) && strstr(stu_model_missing(pt), "three messages") != NULL;
    CU_ASSERT(expect_silent || fabs(diff) <= 0.10);
    if (!expect_silent && !(fabs(diff) <= 0.10))
      fprintf(stderr, "\n%s grid-rows %s p = %d: model %g s, simulated %g s\n", stu_platform(study, pt),
              stu_value(study, pt, "grid-rows"), pt->p, stu_model_time(pt), pt->t_par);
  }
  CU_ASSERT_EQUAL(silenced, silent ? 1 : 0);
  return study;
}

/* The shipped scenario (M = N = 2048, R = 64 on icluster, 16 grids of 1 to 32 processes): the model within 10% of
 * every point; at p = 4, 8, 16 and 32 the simulation's fastest grid is the single row, "the best case" of seed 003
 * §4.2, and the model chooses the same grid. The normal build only: the model's code runs under a sanitizer in the
 * next case. */
static void test_app_pdtrsm_model_and_grid_order(void)
{
  if (SANITIZED) { /* 16 points of M = N = 2048 up to p = 32: half a minute under a sanitizer */
    fprintf(stderr, "\nthe shipped scenario is too slow under a sanitizer; the normal build asserts it\n");
    return;
  }
  scn_scenario_t *scenario = NULL;
  stu_study_t *study = run_within_10pc(SIMRUN_SOURCE_DIR "/scenarios/pdtrsm.xml", 16, NULL, &scenario);
  for (int p = 4; p <= 32; p *= 2) {
    const stu_point_t *best = NULL;
    const stu_point_t *chosen = NULL;
    for (size_t i = 0; i < study->npoints; i++) {
      const stu_point_t *pt = &study->points[i];
      if (pt->p == p && (!best || pt->t_par < best->t_par))
        best = pt;
      if (pt->p == p && (!chosen || stu_model_time(pt) < stu_model_time(chosen)))
        chosen = pt;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(best);
    CU_ASSERT_EQUAL(best->role.grid_rows, 1);
    CU_ASSERT_PTR_EQUAL(chosen, best);
  }
  stu_free(study);
  scn_free(scenario);
}

/* M = N = 512 on every grid of p = 2, 4, 8 on icluster, the Pentium II cluster (eager messages that move when sent),
 * NCP2 and the T800 mesh (synchronous sends): 36 points, each within 10%, but one. On the T800 mesh the 8 ranks snake
 * over 2 x 4 processors (src/sim/sim_map.c): ranks 0-3 left to right on its row 0, ranks 4-7 right to left on row 1.
 * On the 2 x 4 grid, rank 0's part goes down to rank 4 at (1, 3) along row 0, over the link from (0, 1) to (0, 2),
 * which rank 1's part to rank 5 at (1, 2) and the ring's hop from rank 1 to rank 2 also take: three messages on one
 * link, which the model does not charge (met_pdtrsm_crowded), so it prints "-". */
static void test_app_pdtrsm_model_on_every_platform(void)
{
  scn_scenario_t *scenario = NULL;
  stu_free(run_within_10pc(TU_DATA "pdtrsm-platforms.xml", 36, "t800-mesh-128.xml", &scenario));
  scn_free(scenario);
}

/* Two hosts of different speeds: M = 64, N = 128, R = 64 on a 1 x 2 grid of tests/data/machine/two-hosts-fast-first.xml
 * (rank 0 on a-fast at 1e9 flop/s, rank 1 on b-slow at 5e8; one link of 10 us and 100 MB/s; synchronous sends). Each
 * process computes at its own rate: rank 0 solves block 0 (64^3 flops, 262.144 us) and sends it: 10 us + 32,768 B at
 * 1e8 / 1.05 B/s, as the link also carries each message's acknowledgements (SimGrid's default network/crosstraffic,
 * 5% of its rate the other way on this shared link), 354.064 us, to 616.208 us; rank 1 updates block 1 (2 x 64^3
 * flops at 5e8, 1048.576 us, to 1664.784 us), solves it (524.288 us, to 2189.072 us) and sends it back: 2543.136 us,
 * the simulation's too (2510.368 us before the model priced the cross-traffic). The slowest host's rate for both ranks
 * would give 2805.28 us (+10.3%). */
static void test_app_pdtrsm_model_two_speeds_by_hand(void)
{
  const char *names[] = {"m", "n", "block", "grid-rows"};
  const char *values[] = {"64", "128", "64", "1"};
  double model = 0;
  double simulated = tu_two_speeds(&app_pdtrsm_skeleton, 4, names, values, SIM_BCAST_NEIGHBOUR, &model);
  TU_ASSERT_CLOSE(model, 2543.136e-6, 1e-12);
  TU_ASSERT_CLOSE(simulated, 2543.136e-6, 1e-9);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"test_app_pdtrsm_sequential_by_hand", test_app_pdtrsm_sequential_by_hand},
      {"test_app_pdtrsm_row_grid_by_hand", test_app_pdtrsm_row_grid_by_hand},
      {"test_app_pdtrsm_pipelined_grid_by_hand", test_app_pdtrsm_pipelined_grid_by_hand},
      {"test_app_pdtrsm_work_is_conserved", test_app_pdtrsm_work_is_conserved},
      {"test_app_pdtrsm_model_and_grid_order", test_app_pdtrsm_model_and_grid_order},
      {"test_app_pdtrsm_model_on_every_platform", test_app_pdtrsm_model_on_every_platform},
      {"test_app_pdtrsm_model_two_speeds_by_hand", test_app_pdtrsm_model_two_speeds_by_hand},
      {NULL, NULL},
  };
  return tu_run("app_pdtrsm", cases);
}
