/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rank-to-host mapping: compact rectangles of the 16 x 8 T800 mesh and snake order (consecutive ranks adjacent);
 * Gray-code order on a hypercube and a platform's own order, by hand on small machines of tests/data/machine. */
#include "sim_map.h"
#include "sim_run.h"
#include "tu.h"

#include <stdlib.h>

/* Powers of two take the partitions whose link counts match Table 5's T_cni (2x2, 4x4, 4x8; REFERENCE.md §3.2). */
static void test_sim_map_rectangles_of_powers_of_two(void)
{
  const int expect[][3] = {{1, 1, 1},  {2, 1, 2},  {4, 2, 2},  {8, 2, 4},
                           {16, 4, 4}, {32, 4, 8}, {64, 8, 8}, {128, 16, 8}};
  for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
    int rows = 0;
    int cols = 0;
    CU_ASSERT_FATAL(sim_map_rectangle(expect[i][0], 16, 8, &rows, &cols) == 0);
    CU_ASSERT(rows == expect[i][1] && cols == expect[i][2]);
  }
}

/* Other counts: exact rectangles when they exist (48 = 6 x 8), else the fewest spare cells; too many fails. */
static void test_sim_map_rectangles_of_other_counts(void)
{
  int rows = 0;
  int cols = 0;
  CU_ASSERT(sim_map_rectangle(48, 16, 8, &rows, &cols) == 0 && rows == 6 && cols == 8);
  CU_ASSERT(sim_map_rectangle(3, 16, 8, &rows, &cols) == 0 && rows == 1 && cols == 3);
  CU_ASSERT(sim_map_rectangle(127, 16, 8, &rows, &cols) == 0 && rows == 16 && cols == 8);
  CU_ASSERT(sim_map_rectangle(129, 16, 8, &rows, &cols) == -1);
}

/* In snake order every rank is one hop from the next, for every rectangle width. */
static void test_sim_map_snake_keeps_neighbours_adjacent(void)
{
  for (int cols = 1; cols <= 8; cols++)
    for (int rank = 0; rank + 1 < 128; rank++) {
      int r0, c0, r1, c1;
      sim_map_snake(rank, cols, &r0, &c0);
      sim_map_snake(rank + 1, cols, &r1, &c1);
      CU_ASSERT_EQUAL(abs(r0 - r1) + abs(c0 - c1), 1);
    }
  int row, col;
  sim_map_snake(9, 4, &row, &col); /* row 2 goes left to right again */
  CU_ASSERT(row == 2 && col == 1);
  sim_map_snake(5, 4, &row, &col); /* row 1 goes right to left */
  CU_ASSERT(row == 1 && col == 2);
}

/* Consecutive Gray codes differ in exactly one bit: 0 1 3 2 6 7 5 4. */
static void test_sim_map_gray_code(void)
{
  const int expect[] = {0, 1, 3, 2, 6, 7, 5, 4};
  for (int r = 0; r < 8; r++)
    CU_ASSERT_EQUAL(sim_map_gray(r), expect[r]);
  for (int r = 0; r + 1 < 4096; r++) {
    int x = sim_map_gray(r) ^ sim_map_gray(r + 1);
    CU_ASSERT(x != 0 && (x & (x - 1)) == 0);
  }
}

/* Links from rank 0's host to every rank's, as the models see them (sim_run_describe maps ranks as a run does). */
static void check_hops(const char *platform, int p, const int *expect)
{
  static met_platform_t m;
  char err[1024];
  CU_ASSERT_FATAL(sim_run_describe(platform, p, &m, err, sizeof err) == 0);
  for (int r = 0; r < p; r++)
    CU_ASSERT_EQUAL(m.hops[r], expect[r]);
}

/* A 3-cube (simrun platform hypercube 3): rank r on host n(gray(r)), whose distance from n0 is the number of bits set
 * in gray(r): 0 1 2 1 2 3 2 1 (in name order it would be 0 1 1 2 1 2 2 3, and ranks 3 and 4 three links apart). */
static void test_sim_map_hypercube_in_gray_order(void)
{
  const int expect[] = {0, 1, 2, 1, 2, 3, 2, 1};
  check_hops(SIMRUN_SOURCE_DIR "/tests/data/machine/hypercube-3.xml", 8, expect);
}

/* A line h0 - h1 - h2 whose hosts name the order h1, h0, h2: rank 0 on h1 is one link from both others (in name
 * order, rank 0 on h0 would be two links from rank 2). */
static void test_sim_map_platform_order(void)
{
  const int expect[] = {0, 1, 1};
  check_hops(SIMRUN_SOURCE_DIR "/tests/data/machine/line-ordered.xml", 3, expect);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_map_rectangles_of_powers_of_two", test_sim_map_rectangles_of_powers_of_two},
      {"test_sim_map_rectangles_of_other_counts", test_sim_map_rectangles_of_other_counts},
      {"test_sim_map_snake_keeps_neighbours_adjacent", test_sim_map_snake_keeps_neighbours_adjacent},
      {"test_sim_map_gray_code", test_sim_map_gray_code},
      {"test_sim_map_hypercube_in_gray_order", test_sim_map_hypercube_in_gray_order},
      {"test_sim_map_platform_order", test_sim_map_platform_order},
      {NULL, NULL}};
  return tu_run("sim_map", cases);
}
