/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of met_model against hand calculations (written out below, step by step) and against figures of the papers:
 * seed 001 Table 5 (T_dist at p = 2) and Table 4 (the model's time at p = 2); and of the paper's pdtrsm model, the
 * oracle of the pdtrsm tests (tu_fast.h), by hand. */
#include "met_model.h"
#include "tu.h"
#include "tu_fast.h"

/* A machine with round figures, so that every hand calculation below is exact: 1 Gflop/s, lambda = 100 us,
 * tau = 10 ns per byte (100 MB/s), doubles. */
static const met_machine_t round_machine = {
    .link = {.lambda = 1e-4, .tau = 1e-8}, .col_link = {.lambda = 1e-4, .tau = 1e-8}, .flops = 1e9, .elem_bytes = 8};

static void test_met_model_hockney(void)
{
  /* 1e-4 + 1e6 x 1e-8 = 0.0101 s */
  TU_ASSERT_CLOSE(met_hockney(&round_machine.link, 1e6), 0.0101, 1e-15);
  TU_ASSERT_CLOSE(met_hockney(&round_machine.link, 0), 1e-4, 1e-18);
}

/* LogP (Culler et al. 1993), L = 10 us, g = 2 us, word 8 bytes. o = 1 us: 80 bytes are 10 words, 2 x 1 + 10 + 9 x 2 =
 * 30 us; one word (or less) 2 + 10 = 12 us. o = 3 us > g: the sender issues a word every 3 us, 6 + 10 + 9 x 3 = 43 us.
 */
static void test_met_model_logp(void)
{
  met_logp_t m = {.L = 10e-6, .o = 1e-6, .g = 2e-6, .word_bytes = 8, .P = 2};
  TU_ASSERT_CLOSE(met_logp_time(&m, 80), 30e-6, 1e-15);
  TU_ASSERT_CLOSE(met_logp_time(&m, 8), 12e-6, 1e-15);
  TU_ASSERT_CLOSE(met_logp_time(&m, 1), 12e-6, 1e-15);
  m.o = 3e-6;
  TU_ASSERT_CLOSE(met_logp_time(&m, 80), 43e-6, 1e-15);
}

static void test_met_model_ceil_log2(void)
{
  const long n[] = {0, 1, 2, 3, 4, 5, 8, 31, 32, 33};
  const int expected[] = {0, 0, 1, 2, 2, 3, 3, 5, 5, 6};
  for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
    CU_ASSERT_EQUAL(met_ceil_log2(n[i]), expected[i]);
}

static void test_met_model_numroc(void)
{
  /* 2048 in blocks of 64 = 32 blocks over 3 processes: 11, 11, 10 blocks */
  CU_ASSERT_EQUAL(met_numroc(2048, 64, 0, 3), 704);
  CU_ASSERT_EQUAL(met_numroc(2048, 64, 1, 3), 704);
  CU_ASSERT_EQUAL(met_numroc(2048, 64, 2, 3), 640);
  /* 100 in blocks of 64: one whole block on process 0, the 36 left over on process 1, nothing on process 2 */
  CU_ASSERT_EQUAL(met_numroc(100, 64, 0, 3), 64);
  CU_ASSERT_EQUAL(met_numroc(100, 64, 1, 3), 36);
  CU_ASSERT_EQUAL(met_numroc(100, 64, 2, 3), 0);
}

/* M = N = K = 1024, R = 64 on a 2 x 4 grid:
 *  eq. 1: ceil(1024/64) = 16 dgemms of 512 x 64 times 64 x 256 = 2 x 512 x 64 x 256 = 16,777,216 flops each,
 *         16 x 0.016777216 s = 0.268435456 s;
 *  eq. 3: ceil(log2 4) = 2, ceil(log2 2) = 1: (2 x 1024 x 1024 / 2 + 1 x 1024 x 1024 / 4) = 1,310,720 elements,
 *         x 8 B x 1e-8 s = 0.1048576 s, plus (2 + 1) x 16 x 1e-4 = 0.0048 s: 0.1096576 s. */
static void test_met_model_pdgemm_hand(void)
{
  met_dense_t d = {.m = 1024, .n = 1024, .k = 1024, .r = 64, .rows = 2, .cols = 4};
  TU_ASSERT_CLOSE(met_pdgemm_comp(&d, &round_machine), 0.268435456, 1e-12);
  TU_ASSERT_CLOSE(met_pdgemm_comm(&d, &round_machine), 0.1096576, 1e-12);
  TU_ASSERT_CLOSE(met_pdgemm_time(&d, &round_machine), 0.378093056, 1e-12);
  /* rounds on a shared link: the row trees' 2 rounds counted as 2.5, the column tree's 1 as 2 (one round whose
   * two messages share a link at half its bandwidth): (2.5 x 1024 x 1024 / 2 + 2 x 1024 x 1024 / 4) = 1,835,008
   * elements x 8 B x 1e-8 s = 0.14680064 s, plus the same 0.0048 s of latencies */
  met_machine_t shared = round_machine;
  shared.row_rounds = 2.5;
  shared.col_rounds = 2;
  TU_ASSERT_CLOSE(met_pdgemm_comm(&d, &shared), 0.15160064, 1e-12);
}

/* On one process the model is the sequential dgemm, 2 n^3 flops, with no communication; a row grid has no column
 * broadcast term, and the grid's transpose swaps the two broadcast terms (square matrices). */
static void test_met_model_pdgemm_identities(void)
{
  met_dense_t one = {.m = 1024, .n = 1024, .k = 1024, .r = 64, .rows = 1, .cols = 1};
  TU_ASSERT_CLOSE(met_pdgemm_time(&one, &round_machine), 2.0 * 1024 * 1024 * 1024 / 1e9, 1e-12);
  CU_ASSERT_EQUAL(met_pdgemm_comm(&one, &round_machine), 0.0);
  met_dense_t row = {.m = 1024, .n = 1024, .k = 1024, .r = 64, .rows = 1, .cols = 8};
  /* ceil(log2 8) = 3: 3 x 1024^2 elements x 8 B x 1e-8 + 3 x 16 x 1e-4 */
  TU_ASSERT_CLOSE(met_pdgemm_comm(&row, &round_machine), 3 * 1048576 * 8e-8 + 48e-4, 1e-12);
  met_dense_t a = {.m = 1024, .n = 1024, .k = 1024, .r = 64, .rows = 2, .cols = 8};
  met_dense_t b = {.m = 1024, .n = 1024, .k = 1024, .r = 64, .rows = 8, .cols = 2};
  TU_ASSERT_CLOSE(met_pdgemm_comm(&a, &round_machine), met_pdgemm_comm(&b, &round_machine), 1e-12);
}

/* X A = B, N = 256, M = R = 64 on a 1 x 2 grid (eq. 6), four diagonal blocks i = 1..4:
 *  trsm 64^3 / 1e9 = 2.62144e-4 s; broadcast (eq. 4) 1e-4 + 64^2 x 8 x 1e-8 = 4.2768e-4 s; four of each: 2.759296e-3;
 *  update columns 64 ceil((256 - 64 i) / 128) = 128, 64, 64, 0: dgemms 2 x 64 x 64 x cols / 1e9 = 1.048576e-3
 *  + 2 x 5.24288e-4: 2.097152e-3. Total 4.856448e-3 s; ceil(M/R) = 1 call. */
static void test_met_model_pdtrsm_row_hand(void)
{
  met_dense_t d = {.m = 64, .n = 256, .r = 64, .rows = 1, .cols = 2};
  TU_ASSERT_CLOSE(tu_pbdtrsm_time(&d, &round_machine), 4.856448e-3, 1e-15);
  TU_ASSERT_CLOSE(tu_pdtrsm_time(&d, &round_machine), 4.856448e-3, 1e-15);
  d.m = 256; /* four calls */
  TU_ASSERT_CLOSE(tu_pdtrsm_time(&d, &round_machine), 4 * 4.856448e-3, 1e-15);
}

/* The same on a 2 x 2 grid (eq. 7): the update stops at (P - 1) R = 64 columns: 64, 64, 64, 0;
 *  dgemms 3 x 5.24288e-4 = 1.572864e-3; sends (eq. 5) 3 x (1e-4 + 64 x 64 x 8 x 1e-8) + 1e-4 = 1.38304e-3;
 *  accumulations 3 x 64 x 64 / 1e9 = 1.2288e-5; with trsm and broadcasts 2.759296e-3: 5.727488e-3 s. */
static void test_met_model_pdtrsm_general_hand(void)
{
  met_dense_t d = {.m = 64, .n = 256, .r = 64, .rows = 2, .cols = 2};
  TU_ASSERT_CLOSE(tu_pbdtrsm_time(&d, &round_machine), 5.727488e-3, 1e-15);
  /* 2 x 1: the same updates (64 columns each), but a single column broadcasts nothing along its row (eq. 4):
   * 5.727488e-3 - 4 x (1e-4 + 64 x 64 x 8 x 1e-8) = 4.016768e-3 s */
  d.cols = 1;
  TU_ASSERT_CLOSE(tu_pbdtrsm_time(&d, &round_machine), 4.016768e-3, 1e-15);
}

/* Seed 003 §5.2: a 256 MiB node. n = 4096, R = 64:
 *  1 x 1: A, B, C 3 x 4096^2 = 50,331,648 elements + panels 64 x (4096 + 4096) = 524,288: 406,847,488 B > 256 MiB;
 *  2 x 1: A 2048 x 4096, B 2048 x 4096, C 2048 x 4096 = 25,165,824 + panels 64 x (2048 + 4096) = 393,216:
 *         204,472,320 B, which fits;
 *  2 x 2: 3 x 2048^2 = 12,582,912 + 64 x 4096 = 262,144: 102,760,448 B. */
static void test_met_model_memory_hand(void)
{
  met_dense_t one = {.m = 4096, .n = 4096, .k = 4096, .r = 64, .rows = 1, .cols = 1};
  met_dense_t two = {.m = 4096, .n = 4096, .k = 4096, .r = 64, .rows = 2, .cols = 1};
  met_dense_t four = {.m = 4096, .n = 4096, .k = 4096, .r = 64, .rows = 2, .cols = 2};
  CU_ASSERT_EQUAL(met_pdgemm_node_bytes(&one, 8), 406847488.0);
  CU_ASSERT_EQUAL(met_pdgemm_node_bytes(&two, 8), 204472320.0);
  CU_ASSERT_EQUAL(met_pdgemm_node_bytes(&four, 8), 102760448.0);
  /* pdtrsm, n = m = 4096 on 2 x 2: A 2048^2 + B 2048^2 = 8,388,608 elements = 67,108,864 B */
  CU_ASSERT_EQUAL(met_pdtrsm_node_bytes(&four, 8), 67108864.0);
}

/* The T800's Table 2 (seed 001 eq. 4), written from the paper. */
static const met_piecewise_t table2 = {
    .packet_bytes = 120, .small = {51.1, 0.27, 8.86, 0.68}, .large = {-81.5, 1.33, 93.04, 0.05}};

static void test_met_model_piecewise(void)
{
  /* 100 B over 3 hops: 51.1 + 27 + 26.58 + 204 = 308.68 us; 1000 B over 1 hop: -81.5 + 1330 + 93.04 + 50 = 1391.54 */
  TU_ASSERT_CLOSE(met_piecewise_time(&table2, 100, 3), 308.68e-6, 1e-12);
  TU_ASSERT_CLOSE(met_piecewise_time(&table2, 1000, 1), 1391.54e-6, 1e-12);
}

/* N = 256 on p = 2 (one hop), seed 001 eqs. 11-15:
 *  T_dist = T(128 x 257 x 8 = 263,168 B, 1) = -81.5 + 350,013.44 + 93.04 + 13,158.4 = 363,183.38 us
 *  (Table 5: 0.36 s); T_broad = T(2056 B, 1) = 2848.82 us; T_coll = T(1024 B, 1) = 1424.66 us;
 *  with T_seq(N) = 72.29 s and T_I/O = 1.976 s (Table 5's predicted p = 1 split):
 *  72.29 / 2 + 0.36318338 + 256 x 0.00284882 + 0.00142466 + 1.976 = 39.21490596 s (Table 4's model: 39.48). */
static void test_met_model_gauss_jordan(void)
{
  const met_bcast_routes_t one = {.members = 1, .hops_sum = 1, .hops_max = 1};
  met_gj_t g = {
      .n = 256, .p = 2, .t_comp = 72.29, .t_io = 1.976, .msg = &table2, .bcast_routes = &one, .rank0_routes = &one};
  TU_ASSERT_CLOSE(met_gj_dist(&g, NULL), 0.36318338, 1e-9);
  TU_ASSERT_CLOSE(met_gj_dist(&g, NULL), 0.36, 0.005); /* Table 5, to its two decimals */
  TU_ASSERT_CLOSE(met_gj_broad(&g, NULL), 2848.82e-6, 1e-12);
  TU_ASSERT_CLOSE(met_gj_coll(&g), 1424.66e-6, 1e-12);
  TU_ASSERT_CLOSE(met_gj_time(&g), 39.21490596, 1e-8);
  TU_ASSERT_CLOSE(met_gj_time(&g), 39.48, 0.01 * 39.48); /* Table 4's model, within 1% */
}

/* p = 4 on a 2 x 2 partition in snake order (distances 1, 2, 1 from rank 0), N = 256, one-to-all:
 *  T_dist = 2 T(131,584 B, 1) + T(131,584 B, 2) = 2 x 181,597.46 + 188,269.70 = 551,464.62 us;
 *  T_broad = 2 T(2056 B, 1) + T(2056 B, 2) = 2 x 2848.82 + (-81.5 + 2734.48 + 186.08 + 205.6) = 8742.30 us;
 *  neighbour: 2 T(2056, 1) = 5697.64 us. Eager (a limit of 4096 B): the row's three sends go at once, the farthest
 *  at 2 hops takes 3044.66 us, but a link shared with the member 1 hop away, at 1e-6 s/B more, takes 2848.82 + 2056
 *  = 4904.82 us; the later of the two. The distribution
 *  (131,584 B) stays synchronous. */
static void test_met_model_gauss_jordan_broadcasts(void)
{
  const met_bcast_routes_t all = {.members = 3, .hops_sum = 4, .hops_max = 2, .share = 1e-6, .share_hops = 1};
  const met_bcast_routes_t near = {.members = 2, .hops_sum = 2, .hops_max = 1};
  met_gj_t g = {.n = 256, .p = 4, .msg = &table2, .bcast_routes = &all, .rank0_routes = &all};
  TU_ASSERT_CLOSE(met_gj_dist(&g, NULL), 0.55146462, 1e-9);
  TU_ASSERT_CLOSE(met_gj_broad(&g, NULL), 8742.30e-6, 1e-11);
  g.eager_bytes = 4096;
  TU_ASSERT_CLOSE(met_gj_broad(&g, NULL), 4904.82e-6, 1e-11);
  TU_ASSERT_CLOSE(met_gj_dist(&g, NULL), 0.55146462, 1e-9);
  g.eager_bytes = 0;
  g.bcast_routes = &near;
  TU_ASSERT_CLOSE(met_gj_broad(&g, NULL), 5697.64e-6, 1e-11);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"test_met_model_hockney", test_met_model_hockney},
      {"test_met_model_logp", test_met_model_logp},
      {"test_met_model_ceil_log2", test_met_model_ceil_log2},
      {"test_met_model_numroc", test_met_model_numroc},
      {"test_met_model_pdgemm_hand", test_met_model_pdgemm_hand},
      {"test_met_model_pdgemm_identities", test_met_model_pdgemm_identities},
      {"test_met_model_pdtrsm_row_hand", test_met_model_pdtrsm_row_hand},
      {"test_met_model_pdtrsm_general_hand", test_met_model_pdtrsm_general_hand},
      {"test_met_model_memory_hand", test_met_model_memory_hand},
      {"test_met_model_piecewise", test_met_model_piecewise},
      {"test_met_model_gauss_jordan", test_met_model_gauss_jordan},
      {"test_met_model_gauss_jordan_broadcasts", test_met_model_gauss_jordan_broadcasts},
      {NULL, NULL},
  };
  return tu_run("met_model", cases);
}
