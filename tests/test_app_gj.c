/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the Gauss-Jordan skeleton's work description (seed 001 eq. 10) on the T800 platform's characterisation,
 * against the calibration written out by hand from the paper's documented p = 1 figures (REFERENCE.md 3.2-3.3, the
 * derivation in platforms/t800-mesh-128.xml): the same compute split, I/O and T_seq as before the work became
 * operation counts, to 1e-9 relative; work conserved across ranks. */
#include "app_dsm_false.h"
#include "app_dsm_gj.h"
#include "app_dsm_matmul.h"
#include "app_gj.h"
#include "app_matmul.h"
#include "met_eppa.h"
#include "stu_lost_cycles.h"
#include "tu_linalg.h"
#include "tu_run.h"

#define TU_T800 SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"
/* Rsub-equivalent element operations at N = 256 (eq. 10 with the module weights of app_gj.c). */
#define ELEMENT_OPS_256 8460902.4
/* Cycles per Rsub element from Table 5's split scaled to the measured p = 1 time: CPU, FPU, internal, external. */
static const double rsub_cycles[MET_PART_COUNT] = {61.515, 38.435, 21.927, 103.283};

static met_trace_t *run_gj(int p)
{
  const char *names[] = {"n", "broadcast"};
  const char *values[] = {"256", "neighbour"};
  return tu_run_point(&app_gj_skeleton, TU_T800, 2, names, values, p, SIM_BCAST_NEIGHBOUR);
}

static void test_app_gj_element_ops(void)
{
  TU_ASSERT_CLOSE(app_gj_element_ops(256), ELEMENT_OPS_256, 1e-6);
}

/* p = 1: each compute part is 8,460,902.4 x its cycles / 25e6 (CPU 20.8189 s, FPU 13.0078, internal 7.4209,
 * external 34.9547: 76.2024 s in all), plus input 642.16 + 3.73 x 528,384 us (eq. 5, 256 x 258 doubles) and output
 * 1583.73 + 2.2 x 2048 us (eq. 6): T_seq = 78.1799 s, the measured 78.18 s it was calibrated on. */
static void test_app_gj_t800_sequential_by_hand(void)
{
  met_trace_t *trace = run_gj(1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  double compute = 0;
  for (int part = 0; part < MET_PART_COUNT; part++) {
    double expected = ELEMENT_OPS_256 * rsub_cycles[part] / 25e6;
    TU_ASSERT_CLOSE(met_trace_any_part_time(trace, 0, part), expected, 1e-9 * expected);
    compute += expected;
  }
  double io = 1e-6 * (642.16 + 3.73 * 528384) + 1e-6 * (1583.73 + 2.2 * 2048);
  TU_ASSERT_CLOSE(met_trace_end(trace), compute + io, 1e-9 * (compute + io));
  TU_ASSERT_CLOSE(met_trace_end(trace), 78.18, 0.01);
  met_trace_free(trace);
}

/* p = 8: the ranks' compute parts add up to the sequential ones (the rows are split, not the work changed); with no
 * cache level there is no true anomaly, and each rank's imbalance is its work less T_seq / 8. */
static void test_app_gj_t800_work_is_conserved(void)
{
  met_trace_t *trace = run_gj(8);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  for (int part = 0; part < MET_PART_COUNT; part++) {
    double sum = 0;
    for (int r = 0; r < 8; r++)
      sum += met_trace_any_part_time(trace, r, part);
    double expected = ELEMENT_OPS_256 * rsub_cycles[part] / 25e6;
    TU_ASSERT_CLOSE(sum, expected, 1e-9 * expected);
  }
  for (int r = 0; r < 8; r++) {
    met_eppa_proc_t proc;
    CU_ASSERT_FATAL(met_eppa_process(trace, 78.18, r, &proc) == 0);
    CU_ASSERT_EQUAL(proc.anomaly, 0);
    TU_ASSERT_CLOSE(proc.imbalance, proc.work - 78.18 / 8, 1e-12);
  }
  met_trace_free(trace);
}

/* Eq. 11 with each platform's own figures (its message model or route, its I/O, its characterisation, the mapping's
 * distances) stays within 10% of the simulation at p = 2, where nothing contends, on all 8 shipped platforms. */
static void test_app_gj_model_on_every_platform(void)
{
  tu_expect_models_within_10pc(SIMRUN_SOURCE_DIR "/tests/data/machine/p2-gj.xml", 8);
}

/* A cache level makes the anomaly real (seed 000 §1.1): on tests/data/machine/cache-pair.xml an Rsub-equivalent
 * element costs 3 + 2 + 2 + 3 x 10 = 37 cycles on one host (2312 bytes do not fit in 2048) and 3 + 2 + 2 + 3 x 1 = 10
 * on each of two (1224 bytes fit), so the useful work summed over the ranks is 10/37 of T_seq: Ovh_anomaly =
 * (10 - 37) / 37 = -0.72973, and the speedup is superlinear (above 2). Per process (tests/data/machine/cache-gj.xml,
 * the per-process view of p = 2): rank i's work W_i = 10 E_i ns for its E_i elements, which cost 37 E_i ns in the
 * sequential run, so its true anomaly is -27 E_i ns = -2.7 W_i and its load imbalance 3.7 W_i - T_seq / 2; the
 * anomalies add up to the overall one and the imbalances to 0. */
static void test_app_gj_cache_gives_negative_anomaly(void)
{
  scn_scenario_t *scenario = NULL;
  scn_error_t err;
  stu_study_t *study = NULL;
  CU_ASSERT_FATAL(scn_load(SIMRUN_SOURCE_DIR "/tests/data/machine/cache-gj.xml", &scenario, &err) == 0);
  CU_ASSERT_FATAL(tu_study_run(scenario, &app_gj_skeleton, 2, NULL, NULL, &study, &err) == 0);
  const stu_point_t *seq = &study->points[0];
  const stu_point_t *par = &study->points[1];
  CU_ASSERT_FATAL(seq->p == 1 && par->p == 2 && stu_procs(par));
  double t_seq = seq->t_par;
  TU_ASSERT_CLOSE(t_seq, app_gj_element_ops(16) * 37e-9, 1e-15);
  TU_ASSERT_CLOSE(stu_eppa(par)->ovh_ratio[MET_OVH_ANOMALY], -27.0 / 37.0, 1e-9);
  CU_ASSERT(stu_eppa(par)->speedup > 2);
  double anomaly = 0;
  double imbalance = 0;
  for (int r = 0; r < 2; r++) {
    const met_eppa_proc_t *proc = &stu_procs(par)[r];
    TU_ASSERT_CLOSE(proc->anomaly, -2.7 * proc->work, 1e-15);
    TU_ASSERT_CLOSE(proc->imbalance, 3.7 * proc->work - t_seq / 2, 1e-15);
    TU_ASSERT_CLOSE(proc->anomaly + proc->imbalance, proc->ovh_time[MET_OVH_ANOMALY], 1e-15);
    anomaly += proc->anomaly;
    imbalance += proc->imbalance;
  }
  TU_ASSERT_CLOSE(anomaly, stu_eppa(par)->ovh_time[MET_OVH_ANOMALY], 1e-15);
  TU_ASSERT_CLOSE(imbalance, 0, 1e-15);
  stu_free(study);
  scn_free(scenario);
}

/* The advice of `skeleton` for its size parameter `name` = `value` on `p` ranks of `platform` into msg; its return
 * value. */
static int advice_of(const app_skeleton_t *skeleton, const char *platform, const char *name, const char *value, int p,
                     char *msg, size_t len)
{
  static met_platform_t m;
  char err[1024];
  CU_ASSERT_FATAL(sim_run_describe(platform, p, &m, err, sizeof err) == 0);
  const char *names[] = {name, "broadcast"};
  const char *values[] = {value, "neighbour"};
  app_point_t point = {.count = 2, .names = names, .values = values};
  msg[0] = '\0';
  return skeleton->advise(&point, p, &m, msg, len);
}

static int advice(const app_skeleton_t *skeleton, const char *platform, const char *n, int p, char *msg, size_t len)
{
  return advice_of(skeleton, platform, "n", n, p, msg, len);
}

/* The memory check against every rank's host, by hand:
 *  - NCP2 (32 MiB a node), N = 4096, p = 8: rank 0 reads the system, 4096 x 4098 x 8 B = 128.1 MiB: ncp2-0 fails;
 *  - two-hosts-fast-first.xml (a-fast 1 MiB, rank 0; b-slow 64 KiB, rank 1): N = 64 fits (rank 0 33,792 B, rank 1 32
 *    rows of 65 doubles and the pivot row, 17,160 B); N = 128: rank 1 needs 64 x 129 x 8 + 1032 = 67,080 B > 65,536,
 *    so b-slow fails though rank 0's 133,120 B fit; N = 512: both fail, and b-slow, with the least memory, first;
 *  - ring-matmul n = 128 on p = 2 there: rank 1 holds 4 blocks of 64 x 128 doubles = 256 KiB > 64 KiB. */
static void test_app_gj_memory_check_every_host(void)
{
  char msg[320];
  CU_ASSERT_TRUE(
      advice(&app_gj_skeleton, SIMRUN_SOURCE_DIR "/platforms/ncp2-myrinet-8.xml", "4096", 8, msg, sizeof msg));
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "rank 0's host ncp2-0 fails first: 128.1 MiB"));
  const char *pair = SIMRUN_SOURCE_DIR "/tests/data/machine/two-hosts-fast-first.xml";
  CU_ASSERT_FALSE(advice(&app_gj_skeleton, pair, "64", 2, msg, sizeof msg));
  CU_ASSERT_TRUE(advice(&app_gj_skeleton, pair, "128", 2, msg, sizeof msg));
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "rank 1's host b-slow fails first: 0.1 MiB"));
  CU_ASSERT_TRUE(advice(&app_gj_skeleton, pair, "512", 2, msg, sizeof msg));
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "rank 1's host b-slow fails first"));
  CU_ASSERT_TRUE(advice(&app_matmul_skeleton, pair, "128", 2, msg, sizeof msg));
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "rank 1's host b-slow fails first: 0.2 MiB of matrices"));
  /* no host gives its memory (the T800 mesh): nothing to say */
  CU_ASSERT_FALSE(
      advice(&app_gj_skeleton, SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml", "4096", 8, msg, sizeof msg));
}

/* The DSM skeletons: TreadMarks maps the whole shared space on every node, so every host must hold it, by hand on
 * two-hosts-fast-first.xml (a-fast 1 MiB, rank 0; b-slow 64 KiB = 65,536 B, rank 1):
 *  - dsm-gauss-jordan N = 64: 64 x 65 x 8 = 33,280 B fits both; N = 128: 128 x 129 x 8 = 132,096 B (0.1 MiB) > 65,536:
 *    b-slow fails, though a-fast holds it; N = 512: 2,101,248 B exceeds both, and b-slow, with less memory, is first;
 *  - dsm-matmul n = 64: A, B, C 3 x 64^2 x 8 = 98,304 B > 65,536: b-slow;
 *  - dsm-false-sharing: 8,192 doubles are 65,536 B, exactly b-slow's memory, and fit; 8,193 do not;
 *  - NCP2 (32 MiB = 33,554,432 B a node): N = 2000, the skeleton's largest, 32,016,000 B fits; N = 2048,
 *    33,570,816 B (32.0 MiB), does not, on ncp2-0 first (all nodes have the same memory: the first rank). */
static void test_app_gj_dsm_memory_check_every_host(void)
{
  static const char pair[] = SIMRUN_SOURCE_DIR "/tests/data/machine/two-hosts-fast-first.xml";
  static const char ncp2[] = SIMRUN_SOURCE_DIR "/platforms/ncp2-myrinet-8.xml";
  static const struct {
    const app_skeleton_t *skeleton;
    const char *platform, *name, *value;
    int p;
    const char *says; /* NULL: fits */
  } cases[] = {
      {&app_dsm_gj_skeleton, pair, "n", "64", 2, NULL},
      {&app_dsm_gj_skeleton, pair, "n", "128", 2, "rank 1's host b-slow fails first: 0.1 MiB of the shared space"},
      {&app_dsm_gj_skeleton, pair, "n", "512", 2, "rank 1's host b-slow fails first: 2.0 MiB"},
      {&app_dsm_matmul_skeleton, pair, "n", "64", 2, "rank 1's host b-slow fails first: 0.1 MiB"},
      {&app_dsm_false_skeleton, pair, "elements", "8192", 2, NULL},
      {&app_dsm_false_skeleton, pair, "elements", "8193", 2, "rank 1's host b-slow fails first"},
      {&app_dsm_gj_skeleton, ncp2, "n", "2000", 8, NULL},
      {&app_dsm_gj_skeleton, ncp2, "n", "2048", 8, "rank 0's host ncp2-0 fails first: 32.0 MiB of the shared space"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char msg[320];
    int said =
        advice_of(cases[i].skeleton, cases[i].platform, cases[i].name, cases[i].value, cases[i].p, msg, sizeof msg);
    CU_ASSERT_EQUAL(said, cases[i].says != NULL);
    CU_ASSERT(!cases[i].says || strstr(msg, cases[i].says));
  }
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_app_gj_element_ops", test_app_gj_element_ops},
      {"test_app_gj_t800_sequential_by_hand", test_app_gj_t800_sequential_by_hand},
      {"test_app_gj_t800_work_is_conserved", test_app_gj_t800_work_is_conserved},
      {"test_app_gj_model_on_every_platform", test_app_gj_model_on_every_platform},
      {"test_app_gj_cache_gives_negative_anomaly", test_app_gj_cache_gives_negative_anomaly},
      {"test_app_gj_memory_check_every_host", test_app_gj_memory_check_every_host},
      {"test_app_gj_dsm_memory_check_every_host", test_app_gj_dsm_memory_check_every_host},
      {NULL, NULL}};
  return tu_run("app_gj", cases);
}
