/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the ring matrix multiply (seed 000 Ex. 1.2) on the Pentium II platform: the sequential time and a p = 2 run
 * against hand calculations from the platform's documented figures, the message count of the algorithm, work
 * conservation (eq. 1.6), and the check of n. */
#include "app_matmul.h"
#include "met_comm.h"
#include "met_eppa.h"
#include "sim_error.h"
#include "tu_linalg.h"

#include <stdlib.h>

/* The Pentium II platform's figures, as its comments derive them: 7.2e7 flop/s (the P6 core's Linpack of order 100,
 * 0.24 flop per cycle, at 300 MHz), 124.04 us + bytes / 11866059.8 B/s. */
#define PII_FLOPS       7.2e7
#define MSG_TIME(bytes) (124.04e-6 + (bytes) / 11866059.8)
/* A machine whose sends are all synchronous (occam channels: no simrun:eager-bytes). */
#define T800 SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"

static met_trace_t *run_on(const char *platform, const char *n, int p)
{
  const char *names[] = {"n"};
  const char *values[] = {n};
  return tu_run_point(&app_matmul_skeleton, platform, 1, names, values, p, SIM_BCAST_ONE_TO_ALL);
}

static met_trace_t *run_matmul(const char *n, int p)
{
  return run_on(TU_PENTIUM2, n, p);
}

/* Eq. 1.4: n^3 multiplications and n^2 (n - 1) additions: 100 x 100 x 199 = 1,990,000 flops, 27.64 ms at 7.2e7 flop/s.
 */
static void test_app_matmul_sequential_time(void)
{
  met_trace_t *trace = run_matmul("100", 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  TU_ASSERT_CLOSE(met_trace_end(trace), 1990000.0 / PII_FLOPS, 1e-12);
  CU_ASSERT_EQUAL(met_comm_messages(trace), 0);
  met_trace_free(trace);
}

/* p = 2, n = 100: blocks of 50 rows (or columns) x 100 doubles = 40,000 bytes, each T = MSG_TIME(40000) = 3.49 ms;
 * a multiply of 50 x 50 elements of 199 flops takes W = 6.91 ms. Every block is eager and starts moving when sent
 * (simrun:eager-start = send), the next one to the same rank once it has arrived (one TCP connection), so both ranks
 * send, then receive, in each shift. Rank 0 sends A (0..T) then B (T..2T) and multiplies from T; rank 1 multiplies
 * from 2T. Shift 1: rank 0 sends at T + W (B arrived at 2T < T + W), arriving 2T + W; rank 1 sends at 2T + W, arriving
 * 3T + W, and takes rank 0's block at once; rank 0 multiplies from 3T + W, rank 1 from 2T + W. Shift 2: rank 1 sends
 * at 2T + 2W (arrives 3T + 2W), rank 0 at 3T + 2W (arrives 4T + 2W) and takes rank 1's block at once; rank 1 returns
 * C once rank 0's block has arrived (4T + 2W..5T + 2W), which rank 0 receives last: 5T + 2W = 31.29 ms. */
static void test_app_matmul_two_ranks_by_hand(void)
{
  met_trace_t *trace = run_matmul("100", 2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  TU_ASSERT_CLOSE(met_trace_end(trace), 5 * MSG_TIME(40000.0) + 2 * 50.0 * 50 * 199 / PII_FLOPS, 1e-12);
  met_trace_free(trace);
}

/* The first computation of `rank`: its start and end. */
static void first_compute(const met_trace_t *trace, int rank, double *start, double *end)
{
  const met_interval_t *iv = met_trace_intervals(trace, rank);
  size_t i = 0;
  while (i < met_trace_count(trace, rank) && iv[i].category != MET_CAT_COMPUTE)
    i++;
  CU_ASSERT_FATAL(i < met_trace_count(trace, rank));
  *start = iv[i].start;
  *end = iv[i].end;
}

/* p = 3, n = 100 (docs/icluster.md): blocks of 34, 33, 33 rows; rank 1's and 2's blocks are 26,400 bytes. Rank 0 sends
 * A1 alone on its up link (0..T33), then B1 (to the same rank, once A1 has arrived) and A2 at once, sharing the link:
 * each takes the latency + 2 x 26,400 B / bandwidth; then B2 (once A2 has arrived) alone: rank 1 and rank 0 start
 * multiplying at T33 + L2, rank 2 at T33 + L2 + T33 = 9.27 ms, a third of T_seq. Their first steps are rows x cols x
 * 199 flops: 34 x 34 (rank 0, block 0), 33 x 33 (ranks 1 and 2, blocks 1 and 2). */
static void test_app_matmul_three_ranks_distribution_by_hand(void)
{
  met_trace_t *trace = run_matmul("100", 3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  double t33 = MSG_TIME(26400.0), shared = MSG_TIME(2 * 26400.0);
  const double start[] = {t33 + shared, t33 + shared, t33 + shared + t33};
  const double rows[] = {34, 33, 33};
  for (int rank = 0; rank < 3; rank++) {
    double begin, end;
    first_compute(trace, rank, &begin, &end);
    TU_ASSERT_CLOSE(begin, start[rank], 1e-12);
    TU_ASSERT_CLOSE(end - begin, rows[rank] * rows[rank] * 199 / PII_FLOPS, 1e-12);
  }
  met_trace_free(trace);
}

/* The algorithm's messages: 2 (p - 1) to distribute A and B, p shifts of p messages, p - 1 to collect C; none on one
 * rank. Every p completes on the Pentium II cluster (eager blocks: every rank sends first) and on the T800 mesh
 * (synchronous sends: the even/odd order), odd p included, so neither order of the shift deadlocks. */
static void test_app_matmul_message_count(void)
{
  for (int k = 0; k < 16; k++) {
    int p = k % 8 + 1;
    met_trace_t *trace = run_on(k < 8 ? TU_PENTIUM2 : T800, "100", p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
    CU_ASSERT_EQUAL(met_comm_messages(trace), p == 1 ? 0 : (size_t)(2 * (p - 1) + p * p + (p - 1)));
    met_trace_free(trace);
  }
}

/* The blocks add up to the whole product: the sum of work over ranks is T_seq, so the anomaly is zero (eq. 1.6); the
 * identity speedup = p / (1 + sum Ovh_j) holds (eq. 1.14). n = 100 does not divide by 3: uneven blocks. */
static void test_app_matmul_work_is_conserved(void)
{
  met_trace_t *trace = run_matmul("100", 3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  met_eppa_t e;
  CU_ASSERT_EQUAL_FATAL(met_eppa_compute(trace, 1990000.0 / PII_FLOPS, &e), 0);
  TU_ASSERT_CLOSE(e.ovh_time[MET_OVH_ANOMALY], 0, 1e-12);
  double sum = 0;
  for (int j = 0; j < MET_OVH_COUNT; j++)
    sum += e.ovh_ratio[j];
  TU_ASSERT_CLOSE(e.speedup, 3 / (1 + sum), 1e-9);
  met_trace_free(trace);
}

/* The skeleton must refuse parameters names[i] = values[i] on `nranks` ranks, blaming `bad` with `part` in its
 * message, and make nothing. */
static void expect_refused(size_t count, const char **names, const char **values, int nranks, const char *bad,
                           const char *part)
{
  app_point_t point = {.count = count, .names = names, .values = values};
  void *arg = NULL;
  char err[256];
  const char *bad_param = NULL;
  CU_ASSERT_EQUAL(app_matmul_skeleton.prepare(&point, nranks, &arg, err, sizeof err, &bad_param), SIM_EPARAM);
  CU_ASSERT_STRING_EQUAL(bad_param, bad);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, part));
  CU_ASSERT_PTR_NULL(arg);
}

/* n < p leaves a rank without rows: refused, blaming n. */
static void test_app_matmul_rejects_n_below_p(void)
{
  const char *names[] = {"n"};
  const char *values[] = {"2"};
  expect_refused(1, names, values, 3, "n", "use 3 <= n <= 1000000");
}

/* imbalance = 100, n = 120, p = 4: rank 0 holds 120 / 4 x 2 = 60 rows, ranks 1 to 3 the other 60, 20 each. Each
 * rank computes its rows of C against all n columns, rows x 120 x 239 flops: 0.0239 s for rank 0 and 0.00797 s for the
 * others at 7.2e7 flop/s. The work is the same as the even split's (anomaly 0), and the per-process view shows it as
 * load imbalance: rank 0's work less the fair share T_seq / 4, +0.01195 s, the others -0.00398 s each. */
static void test_app_matmul_imbalance_by_hand(void)
{
  const char *names[] = {"n", "imbalance"};
  const char *values[] = {"120", "100"};
  met_trace_t *trace = tu_run_point(&app_matmul_skeleton, TU_PENTIUM2, 2, names, values, 4, SIM_BCAST_ONE_TO_ALL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  double t_seq = 120.0 * 120 * (2 * 120 - 1) / PII_FLOPS; /* eq. 1.4's flops */
  const double rows[] = {60, 20, 20, 20};
  for (int rank = 0; rank < 4; rank++) {
    met_eppa_proc_t proc;
    CU_ASSERT_EQUAL_FATAL(met_eppa_process(trace, t_seq, rank, &proc), 0);
    TU_ASSERT_CLOSE(proc.work, rows[rank] * 120 * 239 / PII_FLOPS, 1e-12);
    TU_ASSERT_CLOSE(proc.imbalance, rows[rank] * 120 * 239 / PII_FLOPS - t_seq / 4, 1e-12);
    TU_ASSERT_CLOSE(proc.anomaly, 0, 1e-12);
  }
  met_trace_free(trace);
}

/* An imbalance that leaves another rank without a row is refused, blaming imbalance: n = 10, p = 4, imbalance = 200
 * asks 10 / 4 x 3 = 7.5, 8 rows, for rank 0, leaving 2 for 3 ranks. */
static void test_app_matmul_rejects_too_much_imbalance(void)
{
  const char *names[] = {"n", "imbalance"};
  const char *values[] = {"10", "200"};
  expect_refused(2, names, values, 4, "imbalance", "gives rank 0 8 of the 10 rows");
}

int main(void)
{
  const tu_case_t cases[] = {
      {"test_app_matmul_sequential_time", test_app_matmul_sequential_time},
      {"test_app_matmul_two_ranks_by_hand", test_app_matmul_two_ranks_by_hand},
      {"test_app_matmul_three_ranks_distribution_by_hand", test_app_matmul_three_ranks_distribution_by_hand},
      {"test_app_matmul_message_count", test_app_matmul_message_count},
      {"test_app_matmul_work_is_conserved", test_app_matmul_work_is_conserved},
      {"test_app_matmul_rejects_n_below_p", test_app_matmul_rejects_n_below_p},
      {"test_app_matmul_imbalance_by_hand", test_app_matmul_imbalance_by_hand},
      {"test_app_matmul_rejects_too_much_imbalance", test_app_matmul_rejects_too_much_imbalance},
      {NULL, NULL},
  };
  return tu_run("app_matmul", cases);
}
