/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the lost-cycle analysis (seed 000 eqs. 1.1-1.16) on small traces whose figures were computed by hand:
 * every expected number comes with its calculation. */
#include "met_eppa.h"
#include "tu.h"
#include "bas_error.h"

#include <math.h>

typedef struct span {
  int rank; /* -1 ends a list */
  met_category_t category;
  double start;
  double end;
} span_t;

/* Lemeire Example 1.3 in miniature: p = 3, T_par = 10, T_seq = 20, with computation, communication, idling, some
 * control of parallelism and a positive anomaly. Gaps (rank 1's tail [9,10], rank 2's head [0,1]) count as idle.
 *   rank 0: work 4+4 = 8, comm 1, idle 1
 *   rank 1: work 3+3 + io 1 = 7, comm 2, idle 1 (tail gap)
 *   rank 2: work 6+1 = 7, comm 1, ctrl 1, idle 1 (head gap)  -- each rank's times add up to 10 */
static const double example_t_seq = 20.0;
static const span_t example[] = {{0, MET_CAT_COMPUTE, 0, 4}, {0, MET_CAT_COMM, 4, 5},    {0, MET_CAT_COMPUTE, 5, 9},
                                 {0, MET_CAT_IDLE, 9, 10},   {1, MET_CAT_COMPUTE, 0, 3}, {1, MET_CAT_COMM, 3, 5},
                                 {1, MET_CAT_COMPUTE, 5, 8}, {1, MET_CAT_IO, 8, 9},      {2, MET_CAT_COMPUTE, 1, 7},
                                 {2, MET_CAT_COMM, 7, 8},    {2, MET_CAT_CTRL, 8, 9},    {2, MET_CAT_COMPUTE, 9, 10},
                                 {-1, MET_CAT_COUNT, 0, 0}};

/* A negative anomaly: p = 2, T_par = 6.25, T_seq = 12.
 *   rank 0: work 5.5, comm 0.75
 *   rank 1: work 5.5, idle 0.5 (head gap) + 0.25 (tail gap) = 0.75 */
static const double faster_t_seq = 12.0;
static const span_t faster[] = {{0, MET_CAT_COMPUTE, 0, 5.5},
                                {0, MET_CAT_COMM, 5.5, 6.25},
                                {1, MET_CAT_COMPUTE, 0.5, 6},
                                {-1, MET_CAT_COUNT, 0, 0}};

/* Decimal times that binary floating point does not hold exactly: p = 3, T_par = 1.9, T_seq = 2.9.
 *   rank 0: work 0.7+0.8 = 1.5, comm 0.4
 *   rank 1: work 1.1 + io 0.3 = 1.4, ctrl 0.1, idle 0.2 (head gap) + 0.2 = 0.4
 *   rank 2: work 0.3, idle 1.6 (tail gap) */
static const double decimal_t_seq = 2.9;
static const span_t decimal[] = {
    {0, MET_CAT_COMPUTE, 0, 0.7},   {0, MET_CAT_COMM, 0.7, 1.1},  {0, MET_CAT_COMPUTE, 1.1, 1.9},
    {1, MET_CAT_COMPUTE, 0.2, 1.3}, {1, MET_CAT_CTRL, 1.3, 1.4},  {1, MET_CAT_IDLE, 1.4, 1.6},
    {1, MET_CAT_IO, 1.6, 1.9},      {2, MET_CAT_COMPUTE, 0, 0.3}, {-1, MET_CAT_COUNT, 0, 0}};

/* No communication: p = 2, T_par = 4, T_seq = 7. rank 0: work 4; rank 1: work 3, ctrl 1. */
static const double silent_t_seq = 7.0;
static const span_t silent[] = {
    {0, MET_CAT_COMPUTE, 0, 4}, {1, MET_CAT_COMPUTE, 0, 3}, {1, MET_CAT_CTRL, 3, 4}, {-1, MET_CAT_COUNT, 0, 0}};

static met_trace_t *build(int nranks, const span_t *spans)
{
  met_trace_t *trace = met_trace_new(nranks);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  int phase = met_trace_phase_id(trace, "main");
  for (const span_t *s = spans; s->rank >= 0; s++) {
    met_interval_t iv = {.start = s->start, .end = s->end, .category = s->category, .phase = phase, .peer = -1};
    CU_ASSERT_EQUAL(met_trace_add(trace, s->rank, &iv), 0);
  }
  return trace;
}

static met_eppa_t analyse(int nranks, const span_t *spans, double t_seq)
{
  met_trace_t *trace = build(nranks, spans);
  met_eppa_t e;
  CU_ASSERT_EQUAL_FATAL(met_eppa_compute(trace, t_seq, &e), 0);
  met_trace_free(trace);
  return e;
}

static double ratio_sum(const met_eppa_t *e)
{
  double sum = 0.0;
  for (int j = 0; j < MET_OVH_COUNT; j++)
    sum += e->ovh_ratio[j];
  return sum;
}

static void test_met_eppa_lemeire_example(void)
{
  met_eppa_t e = analyse(3, example, example_t_seq);
  CU_ASSERT_EQUAL(e.p, 3);
  TU_ASSERT_CLOSE(e.t_seq, 20.0, 1e-12);
  TU_ASSERT_CLOSE(e.t_par, 10.0, 1e-12);
  TU_ASSERT_CLOSE(e.work, 22.0, 1e-12);                      /* 8 + 7 + 7 */
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_CTRL], 1.0, 1e-12);     /* rank 2 only */
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_COMM], 4.0, 1e-12);     /* 1 + 2 + 1 */
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_IDLE], 3.0, 1e-12);     /* 1 + 1 + 1 */
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_ANOMALY], 2.0, 1e-12);  /* eq. 1.6: 22 - 20 */
  TU_ASSERT_CLOSE(e.ovh_ratio[MET_OVH_CTRL], 0.05, 1e-12);   /* 1 / 20 */
  TU_ASSERT_CLOSE(e.ovh_ratio[MET_OVH_COMM], 0.2, 1e-12);    /* 4 / 20 */
  TU_ASSERT_CLOSE(e.ovh_ratio[MET_OVH_IDLE], 0.15, 1e-12);   /* 3 / 20 */
  TU_ASSERT_CLOSE(e.ovh_ratio[MET_OVH_ANOMALY], 0.1, 1e-12); /* 2 / 20: 110% of T_seq spent on useful work */
  TU_ASSERT_CLOSE(e.speedup, 2.0, 1e-12);                    /* 20 / 10 */
  TU_ASSERT_CLOSE(e.efficiency, 2.0 / 3.0, 1e-12);           /* 2 / 3 */
  TU_ASSERT_CLOSE(e.overhead, 10.0, 1e-12);                  /* 3 * 10 - 20 */
  TU_ASSERT_CLOSE(e.granularity, 5.0, 1e-12);                /* 20 / 4 */
}

static void test_met_eppa_negative_anomaly(void)
{
  met_eppa_t e = analyse(2, faster, faster_t_seq);
  TU_ASSERT_CLOSE(e.t_par, 6.25, 1e-12);
  TU_ASSERT_CLOSE(e.work, 11.0, 1e-12); /* 5.5 + 5.5 */
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_CTRL], 0.0, 1e-12);
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_COMM], 0.75, 1e-12);
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_IDLE], 0.75, 1e-12);    /* 0.5 + 0.25 */
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_ANOMALY], -1.0, 1e-12); /* 11 - 12 */
  TU_ASSERT_CLOSE(e.ovh_ratio[MET_OVH_ANOMALY], -1.0 / 12.0, 1e-12);
  TU_ASSERT_CLOSE(e.speedup, 1.92, 1e-12);     /* 12 / 6.25 */
  TU_ASSERT_CLOSE(e.efficiency, 0.96, 1e-12);  /* 1.92 / 2 */
  TU_ASSERT_CLOSE(e.overhead, 0.5, 1e-12);     /* 2 * 6.25 - 12 = 0.75 + 0.75 - 1 */
  TU_ASSERT_CLOSE(e.granularity, 16.0, 1e-12); /* 12 / 0.75 */
}

/* Eqs. 1.14-1.15 and 1.3 = sum of the overhead times (1.10), on all three traces with communication. */
static void test_met_eppa_speedup_identity(void)
{
  const struct {
    int p;
    const span_t *spans;
    double t_seq;
    double speedup;                              /* by hand */
  } cases[] = {{3, example, example_t_seq, 2.0}, /* 20 / 10 */
               {2, faster, faster_t_seq, 1.92},  /* 12 / 6.25, also 2 / (1 + 1/24) with ratios 1/16 + 1/16 - 1/12 */
               {3, decimal, decimal_t_seq, 2.9 / 1.9}}; /* also 3 / (1 + 2.8/2.9) = 3 * 2.9 / 5.7 */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    met_eppa_t e = analyse(cases[i].p, cases[i].spans, cases[i].t_seq);
    TU_ASSERT_CLOSE(e.speedup, cases[i].speedup, 1e-12);
    TU_ASSERT_CLOSE(e.speedup, cases[i].p / (1.0 + ratio_sum(&e)), 1e-9);
    TU_ASSERT_CLOSE(e.efficiency, 1.0 / (1.0 + ratio_sum(&e)), 1e-9);
    double ovh_sum = 0.0;
    for (int j = 0; j < MET_OVH_COUNT; j++)
      ovh_sum += e.ovh_time[j];
    TU_ASSERT_CLOSE(e.overhead, ovh_sum, 1e-9);
  }
}

static void test_met_eppa_decimal_figures(void)
{
  met_eppa_t e = analyse(3, decimal, decimal_t_seq);
  TU_ASSERT_CLOSE(e.work, 3.2, 1e-12); /* 1.5 + 1.4 + 0.3 */
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_CTRL], 0.1, 1e-12);
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_COMM], 0.4, 1e-12);
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_IDLE], 2.0, 1e-12);    /* 0.4 + 1.6 */
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_ANOMALY], 0.3, 1e-12); /* 3.2 - 2.9 */
  TU_ASSERT_CLOSE(e.overhead, 2.8, 1e-12);                  /* 3 * 1.9 - 2.9 */
}

static void test_met_eppa_process_figures(void)
{
  met_trace_t *trace = build(3, example);
  met_eppa_proc_t proc;
  CU_ASSERT_EQUAL_FATAL(met_eppa_process(trace, example_t_seq, 0, &proc), 0);
  CU_ASSERT_EQUAL(proc.rank, 0);
  TU_ASSERT_CLOSE(proc.work, 8.0, 1e-12);
  TU_ASSERT_CLOSE(proc.ovh_time[MET_OVH_CTRL], 0.0, 1e-12);
  TU_ASSERT_CLOSE(proc.ovh_time[MET_OVH_COMM], 1.0, 1e-12);
  TU_ASSERT_CLOSE(proc.ovh_time[MET_OVH_IDLE], 1.0, 1e-12);
  TU_ASSERT_CLOSE(proc.ovh_time[MET_OVH_ANOMALY], 4.0 / 3.0, 1e-12);   /* 8 - 20/3 */
  TU_ASSERT_CLOSE(proc.ovh_ratio[MET_OVH_COMM], 0.05, 1e-12);          /* 1 / 20 */
  TU_ASSERT_CLOSE(proc.ovh_ratio[MET_OVH_ANOMALY], 1.0 / 15.0, 1e-12); /* (4/3) / 20 */
  CU_ASSERT_EQUAL_FATAL(met_eppa_process(trace, example_t_seq, 2, &proc), 0);
  TU_ASSERT_CLOSE(proc.work, 7.0, 1e-12); /* 6 + 1 */
  TU_ASSERT_CLOSE(proc.ovh_time[MET_OVH_CTRL], 1.0, 1e-12);
  TU_ASSERT_CLOSE(proc.ovh_time[MET_OVH_IDLE], 1.0, 1e-12);          /* head gap [0,1] */
  TU_ASSERT_CLOSE(proc.ovh_time[MET_OVH_ANOMALY], 1.0 / 3.0, 1e-12); /* 7 - 20/3 */
  met_trace_free(trace);
}

/* Fig. 1.6: the per-process overheads and work add up to the overall ones. */
static void test_met_eppa_process_adds_up(void)
{
  met_trace_t *trace = build(3, decimal);
  met_eppa_t e;
  CU_ASSERT_EQUAL_FATAL(met_eppa_compute(trace, decimal_t_seq, &e), 0);
  double work = 0.0;
  double time[MET_OVH_COUNT] = {0};
  double ratio[MET_OVH_COUNT] = {0};
  for (int r = 0; r < 3; r++) {
    met_eppa_proc_t proc;
    CU_ASSERT_EQUAL_FATAL(met_eppa_process(trace, decimal_t_seq, r, &proc), 0);
    work += proc.work;
    for (int j = 0; j < MET_OVH_COUNT; j++) {
      time[j] += proc.ovh_time[j];
      ratio[j] += proc.ovh_ratio[j];
    }
  }
  TU_ASSERT_CLOSE(work, e.work, 1e-12);
  for (int j = 0; j < MET_OVH_COUNT; j++) {
    TU_ASSERT_CLOSE(time[j], e.ovh_time[j], 1e-12);
    TU_ASSERT_CLOSE(ratio[j], e.ovh_ratio[j], 1e-12);
  }
  TU_ASSERT_CLOSE(time[MET_OVH_ANOMALY], 0.3, 1e-12); /* (1.5 + 1.4 + 0.3) - 3 * 2.9/3 */
  met_trace_free(trace);
}

static void test_met_eppa_granularity(void)
{
  met_eppa_t none = analyse(2, silent, silent_t_seq);
  CU_ASSERT(isinf(none.granularity) && none.granularity > 0);
  TU_ASSERT_CLOSE(none.speedup, 1.75, 1e-12);                      /* 7 / 4 */
  TU_ASSERT_CLOSE(none.ovh_ratio[MET_OVH_CTRL], 1.0 / 7.0, 1e-12); /* 1 / 7 */
  TU_ASSERT_CLOSE(none.ovh_time[MET_OVH_ANOMALY], 0.0, 1e-12);     /* 4 + 3 - 7 */
  met_eppa_t some = analyse(3, example, example_t_seq);
  TU_ASSERT_CLOSE(some.granularity, 1.0 / some.ovh_ratio[MET_OVH_COMM], 1e-12);
  TU_ASSERT_CLOSE(some.granularity, 5.0, 1e-12); /* 20 / 4 */
}

/* Work that adds up to T_seq in exact arithmetic but not in binary: p = 3, T_seq = 0.3, each rank computing 0.1
 * ([0, 0.1]). 0.1 + 0.1 + 0.1 is 0.30000000000000004 in doubles and 0.3 / 3 is 0.09999999999999999, so the overall
 * anomaly was 5.6e-17 s and each rank's 1.4e-17 s: 0 now, the rounding being far below MET_TIME_RESOLUTION (1 ns).
 * A rank whose computation is 2 ns longer keeps its 2e-9 s of anomaly. */
static void test_met_eppa_rounding_is_no_anomaly(void)
{
  const span_t even[] = {{0, MET_CAT_COMPUTE, 0, 0.1},
                         {1, MET_CAT_COMPUTE, 0, 0.1},
                         {2, MET_CAT_COMPUTE, 0, 0.1},
                         {-1, MET_CAT_COUNT, 0, 0}};
  met_trace_t *trace = build(3, even);
  met_eppa_t e;
  met_eppa_proc_t proc;
  CU_ASSERT_EQUAL_FATAL(met_eppa_compute(trace, 0.3, &e), 0);
  CU_ASSERT(e.work != 0.3); /* the rounding this test is about */
  CU_ASSERT_EQUAL(e.ovh_time[MET_OVH_ANOMALY], 0);
  CU_ASSERT_EQUAL(e.ovh_ratio[MET_OVH_ANOMALY], 0);
  for (int r = 0; r < 3; r++) {
    CU_ASSERT_EQUAL_FATAL(met_eppa_process(trace, 0.3, r, &proc), 0);
    CU_ASSERT_EQUAL(proc.ovh_time[MET_OVH_ANOMALY], 0);
    CU_ASSERT_EQUAL(proc.imbalance, 0);
  }
  met_trace_free(trace);
  const span_t longer[] = {{0, MET_CAT_COMPUTE, 0, 0.1 + 2e-9},
                           {1, MET_CAT_COMPUTE, 0, 0.1},
                           {2, MET_CAT_COMPUTE, 0, 0.1},
                           {-1, MET_CAT_COUNT, 0, 0}};
  met_eppa_t slower = analyse(3, longer, 0.3);
  TU_ASSERT_CLOSE(slower.ovh_time[MET_OVH_ANOMALY], 2e-9, 1e-15);
  CU_ASSERT_EQUAL(met_time_difference(1.0, 1.0 - 0.9e-9), 0);
  TU_ASSERT_CLOSE(met_time_difference(1.0, 1.0 - 1.1e-9), 1.1e-9, 1e-15);
  CU_ASSERT(isnan(met_time_difference(NAN, 1.0)));
}

static void test_met_eppa_rejects_bad_input(void)
{
  met_trace_t *trace = build(3, example);
  met_eppa_t e;
  met_eppa_proc_t proc;
  CU_ASSERT_EQUAL(met_eppa_compute(trace, 0.0, &e), BAS_EINVAL);
  CU_ASSERT_EQUAL(met_eppa_compute(trace, -5.0, &e), BAS_EINVAL);
  CU_ASSERT_EQUAL(met_eppa_compute(trace, NAN, &e), BAS_EINVAL);
  CU_ASSERT_EQUAL(met_eppa_process(trace, 0.0, 0, &proc), BAS_EINVAL);
  CU_ASSERT_EQUAL(met_eppa_process(trace, example_t_seq, -1, &proc), BAS_EINVAL);
  CU_ASSERT_EQUAL(met_eppa_process(trace, example_t_seq, 3, &proc), BAS_EINVAL);
  met_trace_free(trace);
  met_trace_t *empty = met_trace_new(2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(empty);
  CU_ASSERT_EQUAL(met_eppa_compute(empty, 1.0, &e), BAS_EINVAL);
  CU_ASSERT_EQUAL(met_eppa_process(empty, 1.0, 0, &proc), BAS_EINVAL);
  met_trace_free(empty);
}

static void test_met_eppa_names(void)
{
  CU_ASSERT_STRING_EQUAL(met_overhead_name(MET_OVH_CTRL), "ctrl");
  CU_ASSERT_STRING_EQUAL(met_overhead_name(MET_OVH_COMM), "comm");
  CU_ASSERT_STRING_EQUAL(met_overhead_name(MET_OVH_IDLE), "idle");
  CU_ASSERT_STRING_EQUAL(met_overhead_name(MET_OVH_ANOMALY), "anomaly");
  CU_ASSERT_PTR_NULL(met_overhead_name(MET_OVH_COUNT));
}

int main(void)
{
  const tu_case_t cases[] = {
      {"test_met_eppa_lemeire_example", test_met_eppa_lemeire_example},
      {"test_met_eppa_negative_anomaly", test_met_eppa_negative_anomaly},
      {"test_met_eppa_speedup_identity", test_met_eppa_speedup_identity},
      {"test_met_eppa_decimal_figures", test_met_eppa_decimal_figures},
      {"test_met_eppa_process_figures", test_met_eppa_process_figures},
      {"test_met_eppa_process_adds_up", test_met_eppa_process_adds_up},
      {"test_met_eppa_granularity", test_met_eppa_granularity},
      {"test_met_eppa_rounding_is_no_anomaly", test_met_eppa_rounding_is_no_anomaly},
      {"test_met_eppa_rejects_bad_input", test_met_eppa_rejects_bad_input},
      {"test_met_eppa_names", test_met_eppa_names},
      {NULL, NULL},
  };
  return tu_run("met_eppa", cases);
}
