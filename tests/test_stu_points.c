/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the points of a sweep (stu_points.h) on hand-built scenarios: the cross product's order, the process grid's
 * filter with its bad-input checks, and the shards. */
#include "sim_error.h"
#include "stu_points.h"
#include "tu.h"

#include <stdlib.h>
#include <string.h>

static char *rows[] = {"1", "2", "4"};
static char *ps[] = {"1", "2", "4", "6"};
static scn_param_t params[] = {{.name = "grid-rows", .values = rows, .nvalues = 3, .swept = 1},
                               {.name = "p", .values = ps, .nvalues = 4, .swept = 1, .role = SCN_ROLE_PROCESSES}};
static scn_scenario_t scenario = {.name = "s", .params = params, .nparams = 2};

/* A study of the scenario whose first parameter has role `first` (SCN_ROLE_GRID_ROWS: a process grid; or none). */
static stu_study_t *new_study(scn_role_t first)
{
  stu_study_t *study = calloc(1, sizeof *study);
  CU_ASSERT_FATAL(study != NULL);
  params[0].role = first;
  *study = (stu_study_t){.scenario = &scenario, .facts = {.grid = first == SCN_ROLE_GRID_ROWS}};
  CU_ASSERT_FATAL(stu_points_build(study, 1) == 0);
  return study;
}

/* 3 x 4 points, the last parameter fastest: point 5 is grid-rows = 2 (5 / 4 = 1), p = 2 (5 mod 4 = 1). */
static void test_points_cross_product(void)
{
  stu_study_t *study = new_study(SCN_ROLE_NONE);
  CU_ASSERT_EQUAL(study->npoints, 12);
  CU_ASSERT_STRING_EQUAL(study->points[5].values[0], "2");
  CU_ASSERT_EQUAL(study->points[5].p, 2);
  CU_ASSERT_EQUAL(study->points[11].p, 6);
  const char *blame = NULL;
  char err[256] = "";
  CU_ASSERT_EQUAL(stu_points_keep_grid(study, 1, &blame, err, sizeof err), 0); /* no grid: all kept */
  CU_ASSERT_EQUAL(study->npoints, 12);
  stu_free(study);
}

/* Rows dividing p: (1, 1) (1, 2) (1, 4) (1, 6) (2, 2) (2, 4) (2, 6) (4, 4): 8 points; every value keeps one. Without
 * p = 4, grid-rows = 4 keeps none and is blamed. */
static void test_points_grid(void)
{
  stu_study_t *study = new_study(SCN_ROLE_GRID_ROWS);
  const char *blame = NULL;
  char err[256] = "";
  CU_ASSERT_EQUAL(stu_points_keep_grid(study, 1, &blame, err, sizeof err), 0);
  CU_ASSERT_EQUAL(study->npoints, 8);
  for (size_t i = 0; i < study->npoints; i++)
    CU_ASSERT_EQUAL(study->points[i].p % atoi(study->points[i].values[0]), 0);
  stu_free(study);
  params[1].nvalues = 2; /* p in {1, 2} */
  study = new_study(SCN_ROLE_GRID_ROWS);
  CU_ASSERT_EQUAL(stu_points_keep_grid(study, 1, &blame, err, sizeof err), SIM_EPARAM);
  CU_ASSERT_STRING_EQUAL(blame, "grid-rows");
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "grid-rows = 4 divides none of the values of p"));
  params[1].nvalues = 4;
  stu_free(study);
}

/* Shard 2 of 5 of 12 points: points 1, 6 and 11; shard 13 of 13 has none. */
static void test_points_shard(void)
{
  stu_study_t *study = new_study(SCN_ROLE_NONE);
  char err[256] = "";
  CU_ASSERT_EQUAL(stu_points_keep_shard(study, 2, 5, err, sizeof err), 0);
  CU_ASSERT_EQUAL(study->npoints, 3);
  int p[] = {2, 4, 6}; /* points 1, 6, 11: p index 1, 2, 3 */
  for (size_t i = 0; i < 3; i++)
    CU_ASSERT_EQUAL(study->points[i].p, p[i]);
  stu_free(study);
  study = new_study(SCN_ROLE_NONE);
  CU_ASSERT_EQUAL(stu_points_keep_shard(study, 13, 13, err, sizeof err), SIM_EPARAM);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "the study has 12 points, so this shard has none"));
  stu_free(study);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_points_cross_product", test_points_cross_product},
                                    {"test_points_grid", test_points_grid},
                                    {"test_points_shard", test_points_shard},
                                    {NULL, NULL}};
  return tu_run("points", cases);
}
