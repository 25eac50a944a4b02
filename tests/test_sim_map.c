/* Rank-to-host mapping: compact rectangles of the 16 x 8 T800 mesh and snake order (consecutive ranks adjacent). */
#include "sim_map.h"
#include "tu.h"

#include <stdlib.h>

/* Powers of two take the partitions whose link counts match Table 5's T_cni (2x2, 4x4, 4x8; REFERENCE.md §3.2). */
static void test_sim_map_rectangles_of_powers_of_two(void)
{
  const int expect[][3] = {{1, 1, 1}, {2, 1, 2}, {4, 2, 2}, {8, 2, 4}, {16, 4, 4}, {32, 4, 8}, {64, 8, 8},
                           {128, 16, 8}};
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

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_map_rectangles_of_powers_of_two", test_sim_map_rectangles_of_powers_of_two},
      {"test_sim_map_rectangles_of_other_counts", test_sim_map_rectangles_of_other_counts},
      {"test_sim_map_snake_keeps_neighbours_adjacent", test_sim_map_snake_keeps_neighbours_adjacent},
      {NULL, NULL}};
  return tu_run("sim_map", cases);
}
