/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the pdgemm skeleton on icluster (seed 003 §4.1, §5): the platform's figures against the FAST model's
 * inputs, the simulation against the FAST model where the model is exact, the paper's findings on grid shapes
 * (compact grids win; steps from the log term of the tree broadcast), the memory warning of a case computed by hand
 * (§5.2), the heat map, and bad input blamed on its line. */
#include "app_linalg.h"
#include "app_pdgemm.h"
#include "app_pingpong.h"
#include "met_model.h"
#include "rep_report.h"
#include "tu_linalg.h"

#include <simgrid/host.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* The description the models take of icluster at p = 2 gives the documented figures: the flop rate, the node's
 * memory (seed 003 §5: 256 MB), Hockney's lambda and tau of the route; the FAST inputs app_linalg derives agree. */
static void test_app_pdgemm_platform_gives_model_inputs(void)
{
  static met_platform_t m;
  char err[1024];
  CU_ASSERT_FATAL(sim_run_describe(TU_ICLUSTER, 2, &m, err, sizeof err) == 0);
  CU_ASSERT_EQUAL(m.charac.memory_bytes, 268435456.0);
  CU_ASSERT(m.uniform && !m.charac.derived && !m.piecewise);
  met_machine_t fast;
  char missing[256];
  const met_dense_t grid = {.rows = 1, .cols = 2};
  const app_linalg_sizes_t sizes = {.row_lo = 8, .row = 8, .col_lo = 8, .col = 8}; /* CM02: any size prices alike */
  CU_ASSERT_FATAL(app_linalg_fast_machine(&m, &grid, &sizes, &fast, missing, sizeof missing) == 0);
  TU_ASSERT_CLOSE(fast.flops, tu_icluster_fast.flops, 1e-6);
  TU_ASSERT_CLOSE(fast.link.lambda, tu_icluster_fast.link.lambda, 1e-15);
  TU_ASSERT_CLOSE(fast.link.tau, tu_icluster_fast.link.tau, 1e-20);
  TU_ASSERT_CLOSE(fast.col_link.lambda, tu_icluster_fast.col_link.lambda, 1e-15);
}

/* A quiet 1 MiB message between two nodes takes Hockney's lambda + L tau with the model's figures. */
static void test_app_pdgemm_message_is_hockney(void)
{
  const char *names[] = {"min-bytes", "max-bytes"};
  const char *values[] = {"1048576", "1048576"};
  met_trace_t *trace = tu_run_point(&app_pingpong_skeleton, TU_ICLUSTER, 2, names, values, 2, SIM_BCAST_ONE_TO_ALL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  const met_interval_t *iv = met_trace_intervals(trace, 1);
  size_t comm = 0;
  for (size_t i = 0; i < met_trace_count(trace, 1); i++)
    if (iv[i].category == MET_CAT_COMM) {
      TU_ASSERT_CLOSE(iv[i].end - iv[i].start, met_hockney(&tu_icluster_fast.link, 1048576), 1e-12);
      comm++;
    }
  CU_ASSERT_EQUAL(comm, 2);
  met_trace_free(trace);
}

/* T_par of pdgemm with m = n = k = 1024, R = 64 on a rows x cols grid. */
static double pdgemm_time(const char *grid_rows, int p)
{
  const char *names[] = {"m", "n", "k", "block", "grid-rows"};
  const char *values[] = {"1024", "1024", "1024", "64", grid_rows};
  met_trace_t *trace = tu_run_point(&app_pdgemm_skeleton, TU_ICLUSTER, 5, names, values, p, SIM_BCAST_BINOMIAL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  double t = met_trace_end(trace);
  met_trace_free(trace);
  return t;
}

/* Where FAST's model is exact, the simulation must agree with it: with P and Q powers of two dividing 1024 / 64 blocks
 * evenly, every process holds ceil(M/P) x ceil(N/Q) elements, a binomial tree of Q members takes exactly
 * ceil(log2 Q) message times, and on a switch with a port per node no two messages share a link. Then every step is
 * ceil(log2 Q) row messages + ceil(log2 P) column messages + one dgemm, which is eqs. 1-3. With P, Q <= 4 every panel
 * ((1024 / P) x 64 or 64 x (1024 / Q) doubles, 128 KiB and more) is above icluster's eager limit of 64 KiB, so every
 * send waits for its receiver; eager sends would let a root's successive sends share its link (docs/machines.md). */
static void test_app_pdgemm_equals_model_on_even_grids(void)
{
  const int grids[][2] = {{1, 1}, {1, 2}, {2, 2}, {2, 4}, {4, 2}, {4, 4}};
  for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
    char rows[8];
    snprintf(rows, sizeof rows, "%d", grids[g][0]);
    met_dense_t d = {.m = 1024, .n = 1024, .k = 1024, .r = 64, .rows = grids[g][0], .cols = grids[g][1]};
    double model = met_pdgemm_time(&d, &tu_icluster_fast);
    TU_ASSERT_CLOSE(pdgemm_time(rows, grids[g][0] * grids[g][1]), model, 1e-9 * model);
  }
}

/* The grid of a point, as rows and columns. */
static void grid_of(const stu_study_t *study, const stu_point_t *point, int *rows, int *cols)
{
  *rows = atoi(stu_value(study, point, "grid-rows"));
  *cols = point->p / *rows;
}

/* The six 32-processor grids of tests/data/linalg/pdgemm-32.xml, run once for the cases that need them. */
static scn_scenario_t *grids32_scenario;
static stu_study_t *grids32;

static stu_study_t *grids32_study(void)
{
  scn_error_t err;
  if (!grids32)
    grids32 = tu_run_scenario(TU_DATA "pdgemm-32.xml", &grids32_scenario, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(grids32);
  CU_ASSERT_EQUAL_FATAL(grids32->npoints, 6);
  return grids32;
}

/* Seed 003 §5.1: compact grids beat elongated ones. Of the six 32-processor grids, the fastest is 4x8 or 8x4 and the
 * slowest 1x32 or 32x1. */
static void test_app_pdgemm_best_32_grid_is_compact(void)
{
  const stu_study_t *study = grids32_study();
  const stu_point_t *best = &study->points[0];
  const stu_point_t *worst = &study->points[0];
  for (size_t i = 1; i < study->npoints; i++) {
    best = study->points[i].t_par < best->t_par ? &study->points[i] : best;
    worst = study->points[i].t_par > worst->t_par ? &study->points[i] : worst;
  }
  int rows;
  int cols;
  grid_of(study, best, &rows, &cols);
  CU_ASSERT((rows == 4 && cols == 8) || (rows == 8 && cols == 4));
  grid_of(study, worst, &rows, &cols);
  CU_ASSERT(rows == 1 || cols == 1);
}

/* Seed 003 §5.1: along a single-row grid the time moves in steps, from the ceil(log2 Q) rounds of the tree: it jumps
 * up where a round is added (Q = 4 -> 5, 8 -> 9, 16 -> 17) and falls within a step (Q = 5 -> 8, 9 -> 16). */
static void test_app_pdgemm_row_grid_steps(void)
{
  scn_scenario_t *scenario;
  scn_error_t err;
  stu_study_t *study = tu_run_scenario(TU_DATA "pdgemm-row.xml", &scenario, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(study);
  CU_ASSERT_EQUAL_FATAL(study->npoints, 6); /* p = 4 5 8 9 16 17 */
  const stu_point_t *pt = study->points;
  CU_ASSERT(pt[1].t_par > pt[0].t_par);
  CU_ASSERT(pt[3].t_par > pt[2].t_par);
  CU_ASSERT(pt[5].t_par > pt[4].t_par);
  CU_ASSERT(pt[2].t_par < pt[1].t_par);
  CU_ASSERT(pt[4].t_par < pt[3].t_par);
  stu_free(study);
  scn_free(scenario);
}

/* Seed 003 §5.2, by hand (tests/test_met_model.c): m = n = k = 4096, R = 64 on one node holds A, B, C and two panels,
 * 406,847,488 bytes = 388.0 MiB > 256 MiB; on 1x2, 1x4, 2x1 and 2x2 the busiest node holds 204,472,320 bytes or
 * less. Exactly one point is flagged, and the report says so. */
static void test_app_pdgemm_memory_warning(void)
{
  scn_scenario_t *scenario;
  scn_error_t err;
  stu_study_t *study = tu_run_scenario(TU_DATA "pdgemm-memory.xml", &scenario, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(study);
  size_t flagged = 0;
  for (size_t i = 0; i < study->npoints; i++)
    if (*stu_model_warning(&study->points[i])) {
      flagged++;
      CU_ASSERT_EQUAL(study->points[i].p, 1);
      CU_ASSERT_PTR_NOT_NULL(
          strstr(stu_model_warning(&study->points[i]), "fails first: 388.0 MiB of matrix data (grid 1x1"));
    }
  CU_ASSERT_EQUAL(flagged, 1);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  rep_print(out, study);
  fclose(out);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nWarnings\n  p = 1, grid-rows = 1: memory: rank 0's host "));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "fails first: 388.0 MiB of matrix data (grid 1x1"));
  free(text);
  stu_free(study);
  scn_free(scenario);
}

/* The memory check reads the host's own memory (item 5 of docs/machines.md): m = n = k = 256, R = 64 on one node holds
 * 3 x 256^2 doubles and two panels of 64 x 256, (196,608 + 32,768) x 8 = 1,835,008 bytes = 1.75 MiB, more than the
 * 1 MiB of tests/data/machine/two-hosts.xml; a platform with no memory size says the check was skipped. */
static void test_app_pdgemm_memory_from_host(void)
{
  static met_platform_t m;
  char err[1024];
  char msg[320];
  const char *names[] = {"m", "n", "k", "block", "grid-rows"};
  const char *values[] = {"256", "256", "256", "64", "1"};
  app_point_t point = {.count = 5, .names = names, .values = values};
  CU_ASSERT_FATAL(sim_run_describe(SIMRUN_SOURCE_DIR "/tests/data/machine/two-hosts.xml", 1, &m, err, sizeof err) == 0);
  CU_ASSERT_EQUAL(app_pdgemm_skeleton.advise(&point, 1, &m, msg, sizeof msg), 1);
  CU_ASSERT_PTR_NOT_NULL(
      strstr(msg, "rank 0's host a-slow fails first: 1.8 MiB of matrix data (grid 1x1, the busiest process's), "
                  "more than its 1 MiB"));
  CU_ASSERT_FATAL(sim_run_describe(SIMRUN_SOURCE_DIR "/tests/data/machine/plain.xml", 1, &m, err, sizeof err) == 0);
  CU_ASSERT_EQUAL(app_pdgemm_skeleton.advise(&point, 1, &m, msg, sizeof msg), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "memory check skipped"));
}

/* Two hosts of different speeds (the critical path, not rank 0), by hand: m = n = k = 128, R = 64 on a 1 x 2 grid of
 * tests/data/machine/two-hosts-fast-first.xml, rank 0 on a-fast (2e9 Hz, 2 cycles a flop: 1e9 flop/s), rank 1 on
 * b-slow (1e9 Hz: 5e8 flop/s), one link of 10 us and 100 MB/s (CM02, no eager sends).
 *  - eq. 1 on the slower host: 2 steps of a 128 x 64 x 64 dgemm, 2 x 2 x 128 x 64 x 64 / 5e8 = 4.194304 ms;
 *  - eq. 3: log2 Q = 1, 128 x 128 elements x 8 B at tau, + 2 steps x 10 us. The link is shared, and SimGrid's
 *    default network/crosstraffic loads it with 0.05 of each message's rate the other way (its acknowledgements), so
 *    that a message alone gets 1e8 / 1.05 B/s: tau = 1.05e-8 s/B, 1.376256 ms + 20 us, 5.59056 ms in all.
 *  - the simulation: each step one 65,536 B panel from that step's root, then the dgemm; b-slow's 2.097152 ms set the
 *    pace, and the second step's synchronous send waits for it. A panel takes 10 us + 65,536 x 1.05 / 1e8 s =
 *    0.698128 ms: 4.194304 + 2 x 0.698128 = 5.59056 ms, the model's (before the model priced the cross-traffic, it
 *    gave 5.525024 ms, -1.2%).
 * Rank 0's host alone would give 2.097152 + 1.33072 = 3.427872 ms, 39% short. */
static void test_app_pdgemm_model_two_speeds_by_hand(void)
{
  const char *names[] = {"m", "n", "k", "block", "grid-rows"};
  const char *values[] = {"128", "128", "128", "64", "1"};
  double model = 0;
  double simulated = tu_two_speeds(&app_pdgemm_skeleton, 5, names, values, SIM_BCAST_BINOMIAL, &model);
  TU_ASSERT_CLOSE(model, 5.59056e-3, 1e-12);
  TU_ASSERT_CLOSE(simulated, 5.59056e-3, 1e-9);
}

/* FAST's model with each platform's own flop rate and route stays within 10% of the simulation at p = 2 on all 8
 * shipped platforms. */
static void test_app_pdgemm_model_on_every_platform(void)
{
  tu_expect_models_within_10pc(SIMRUN_SOURCE_DIR "/tests/data/machine/p2-pdgemm.xml", 8);
}

/* The heat map draws the simulated times, the model's and their difference as three maps of one SVG document. */
static void test_app_pdgemm_heatmap(void)
{
  const stu_study_t *study = grids32_study();
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_EQUAL(rep_grid_heatmap(out, study), 0);
  fclose(out);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "<svg"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "simulated T_par"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "(model - simulated) / simulated"));
  free(text);
}

static void test_app_pdgemm_bad_input(void)
{
  tu_expect_scenario_error("grid-rows-unused.xml", 12, "grid-rows = 3 divides none of the values of p");
  tu_expect_scenario_error("p-unused.xml", 13, "p = 7 is a multiple of none of the values of grid-rows");
  tu_expect_scenario_error("block-too-large.xml", 8, "block = 4096 is larger than m = 2048");
  tu_expect_scenario_error("dimension-too-large.xml", 5, "m = 2000000 is too large for a simulated matrix");
  tu_expect_scenario_error("grid-rows-fixed.xml", 9, "grid-rows = 4 divides none of the values of p");
}

int main(void)
{
  const tu_case_t cases[] = {
      {"test_app_pdgemm_platform_gives_model_inputs", test_app_pdgemm_platform_gives_model_inputs},
      {"test_app_pdgemm_memory_from_host", test_app_pdgemm_memory_from_host},
      {"test_app_pdgemm_model_two_speeds_by_hand", test_app_pdgemm_model_two_speeds_by_hand},
      {"test_app_pdgemm_model_on_every_platform", test_app_pdgemm_model_on_every_platform},
      {"test_app_pdgemm_message_is_hockney", test_app_pdgemm_message_is_hockney},
      {"test_app_pdgemm_equals_model_on_even_grids", test_app_pdgemm_equals_model_on_even_grids},
      {"test_app_pdgemm_best_32_grid_is_compact", test_app_pdgemm_best_32_grid_is_compact},
      {"test_app_pdgemm_row_grid_steps", test_app_pdgemm_row_grid_steps},
      {"test_app_pdgemm_memory_warning", test_app_pdgemm_memory_warning},
      {"test_app_pdgemm_heatmap", test_app_pdgemm_heatmap},
      {"test_app_pdgemm_bad_input", test_app_pdgemm_bad_input},
      {NULL, NULL},
  };
  int status = tu_run("app_pdgemm", cases);
  stu_free(grids32);
  scn_free(grids32_scenario);
  return status;
}
