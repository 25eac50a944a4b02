/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the pdtrsm skeleton (seed 003 §4.2) on icluster against hand calculations: the sequential solve, a
 * single-row grid (eq. 6, where the simulation and the model agree) and a 2 x 2 grid with the pipelined update
 * (eqs. 5, 7); work conservation, with the accumulations counted as control of parallelism. */
#include "app_linalg.h"
#include "app_pdtrsm.h"
#include "met_eppa.h"
#include "met_model.h"
#include "tu_linalg.h"

#include <stdlib.h>

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
  TU_ASSERT_CLOSE(met_pdtrsm_time(&d, &tu_icluster_fast), hand + model_extra, 1e-12);
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

int main(void)
{
  const tu_case_t cases[] = {
      {"test_app_pdtrsm_sequential_by_hand", test_app_pdtrsm_sequential_by_hand},
      {"test_app_pdtrsm_row_grid_by_hand", test_app_pdtrsm_row_grid_by_hand},
      {"test_app_pdtrsm_pipelined_grid_by_hand", test_app_pdtrsm_pipelined_grid_by_hand},
      {"test_app_pdtrsm_work_is_conserved", test_app_pdtrsm_work_is_conserved},
      {NULL, NULL},
  };
  return tu_run("app_pdtrsm", cases);
}
