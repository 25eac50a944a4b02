/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the series of points against a swept parameter (stu_series.h), which the views' summaries and the report
 * share: grouping, order, and what counts as a numeric sweep and as which x of a fit. */
#include "stu_series.h"
#include "tu.h"

static char *bcasts[] = {"ring", "tree"};
static char *ps[] = {"4", "1", "2"};
/* The cross product in the sweep's order (earlier parameter slowest), p given out of order. */
static const char *values[6][2] = {{"ring", "4"}, {"ring", "1"}, {"ring", "2"},
                                   {"tree", "4"}, {"tree", "1"}, {"tree", "2"}};

/* Against p: one series per broadcast, in the order of their first point, each sorted by p; against the broadcast
 * (index 0), one series per p. */
static void test_stu_series_groups_and_order(void)
{
  scn_param_t params[] = {{.name = "broadcast", .values = bcasts, .nvalues = 2, .swept = 1},
                          {.name = "p", .values = ps, .nvalues = 3, .swept = 1, .role = SCN_ROLE_PROCESSES}};
  scn_scenario_t scenario = {.name = "s", .params = params, .nparams = 2};
  stu_point_t points[6];
  for (size_t i = 0; i < 6; i++)
    points[i] = (stu_point_t){.values = values[i]};
  stu_study_t study = {.scenario = &scenario, .npoints = 6, .points = points};
  stu_series_list_t s;
  CU_ASSERT_EQUAL_FATAL(stu_series_collect(&study, 1, &s), 0);
  CU_ASSERT_EQUAL_FATAL(s.count, 2);
  const stu_point_t *ring[] = {&points[1], &points[2], &points[0]};
  const stu_point_t *tree[] = {&points[4], &points[5], &points[3]};
  const double x[] = {1, 2, 4};
  for (size_t i = 0; i < 3; i++) {
    CU_ASSERT_PTR_EQUAL(s.list[0].points[i], ring[i]);
    CU_ASSERT_PTR_EQUAL(s.list[1].points[i], tree[i]);
    CU_ASSERT_EQUAL(s.list[0].x[i], x[i]);
  }
  stu_series_free(&s);
  CU_ASSERT_EQUAL_FATAL(stu_series_collect(&study, 0, &s), 0);
  CU_ASSERT_EQUAL(s.count, 3);
  CU_ASSERT_EQUAL(s.list[0].count, 2);
  CU_ASSERT_PTR_EQUAL(s.list[0].points[1], &points[3]);
  stu_series_free(&s);
}

/* A numeric sweep has two values at least, every one a number; p is the processors' x, the grid's rows another x, the
 * rest a work size. */
static void test_stu_series_numeric_sweep(void)
{
  char *one[] = {"8"};
  char *mixed[] = {"8", "mesh"};
  scn_param_t p = {.name = "p", .values = ps, .nvalues = 3, .role = SCN_ROLE_PROCESSES};
  scn_param_t n = {.name = "n", .values = ps, .nvalues = 3};
  scn_param_t rows = {.name = "rows", .values = ps, .nvalues = 3, .role = SCN_ROLE_GRID_ROWS};
  CU_ASSERT_TRUE(stu_numeric_sweep(&p));
  CU_ASSERT_FALSE(stu_numeric_sweep(&(scn_param_t){.name = "n", .values = one, .nvalues = 1}));
  CU_ASSERT_FALSE(stu_numeric_sweep(&(scn_param_t){.name = "n", .values = mixed, .nvalues = 2}));
  CU_ASSERT_FALSE(stu_numeric_sweep(&(scn_param_t){.name = "b", .values = bcasts, .nvalues = 2}));
  CU_ASSERT_EQUAL(stu_fit_x(&p), MET_FIT_X_PROCESSORS);
  CU_ASSERT_EQUAL(stu_fit_x(&n), MET_FIT_X_WORK);
  CU_ASSERT_EQUAL(stu_fit_x(&rows), MET_FIT_X_OTHER);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_stu_series_groups_and_order", test_stu_series_groups_and_order},
                                    {"test_stu_series_numeric_sweep", test_stu_series_numeric_sweep},
                                    {NULL, NULL}};
  return tu_run("stu_series", cases);
}
