/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the study's data model (stu_study.h) on a hand-built study: which points differ only in one parameter,
 * the values and platforms of a point, and the views it reports. */
#include "stu_study.h"
#include "tu.h"

#include <string.h>

static char *ns[] = {"64", "128"};
static char *bcasts[] = {"ring", "tree"};
static char *ps[] = {"1", "4"};
static char *platforms[] = {"a.xml", "b.xml"};
static char *platform_paths[] = {"/data/a.xml", "/data/b.xml"};

/* n, broadcast, p, platform */
static const char *v0[] = {"64", "ring", "1", "a.xml"};
static const char *v1[] = {"64", "ring", "4", "a.xml"};
static const char *v2[] = {"128", "ring", "4", "a.xml"};
static const char *v3[] = {"64", "tree", "4", "b.xml"};

static scn_param_t params[] = {
    {.name = "n", .values = ns, .nvalues = 2, .swept = 1},
    {.name = "broadcast", .values = bcasts, .nvalues = 2, .swept = 1, .role = SCN_ROLE_BROADCAST},
    {.name = "p", .values = ps, .nvalues = 2, .swept = 1, .role = SCN_ROLE_PROCESSES},
    {.name = "platform", .values = platforms, .paths = platform_paths, .nvalues = 2, .role = SCN_ROLE_PLATFORM}};
static scn_scenario_t scenario = {.name = "s", .platform = "/data/default.xml", .params = params, .nparams = 4};

static stu_study_t make_study(stu_point_t *points)
{
  points[0] = (stu_point_t){.values = v0, .p = 1};
  points[1] = (stu_point_t){.values = v1, .p = 4};
  points[2] = (stu_point_t){.values = v2, .p = 4};
  points[3] = (stu_point_t){.values = v3, .p = 4};
  return (stu_study_t){.scenario = &scenario, .facts = {.views = MET_VIEW_LOST_CYCLES}, .npoints = 4, .points = points};
}

/* v0 and v1 differ in p only; v1 and v2 in n only; v1 and v3 in two parameters (broadcast and platform). */
static void test_study_same_except(void)
{
  stu_point_t points[4];
  stu_study_t study = make_study(points);
  size_t n = stu_param_index(&study, "n");
  size_t p = stu_param_index(&study, "p");
  CU_ASSERT_EQUAL(n, 0);
  CU_ASSERT_EQUAL(p, 2);
  CU_ASSERT_TRUE(stu_same_except(&study, &points[0], &points[1], p));
  CU_ASSERT_FALSE(stu_same_except(&study, &points[0], &points[1], n));
  CU_ASSERT_TRUE(stu_same_except(&study, &points[1], &points[2], n));
  CU_ASSERT_FALSE(stu_same_except(&study, &points[1], &points[2], p));
  CU_ASSERT_FALSE(stu_same_except(&study, &points[1], &points[3], stu_param_index(&study, "broadcast")));
  CU_ASSERT_FALSE(stu_same_except(&study, &points[1], &points[3], p));
  /* past the last parameter: nothing excepted, so only a point with itself */
  CU_ASSERT_EQUAL(stu_param_index(&study, "missing"), 4);
  CU_ASSERT_TRUE(stu_same_except(&study, &points[3], &points[3], 4));
  CU_ASSERT_FALSE(stu_same_except(&study, &points[0], &points[1], 4));
}

/* A point's values by name, and its platform: its platform parameter's resolved path. */
static void test_study_value_and_platform(void)
{
  stu_point_t points[4];
  stu_study_t study = make_study(points);
  CU_ASSERT_STRING_EQUAL(stu_value(&study, &points[2], "n"), "128");
  CU_ASSERT_STRING_EQUAL(stu_value(&study, &points[3], "broadcast"), "tree");
  CU_ASSERT_PTR_NULL(stu_value(&study, &points[3], "missing"));
  CU_ASSERT_STRING_EQUAL(stu_platform(&study, &points[1]), "/data/a.xml");
  CU_ASSERT_STRING_EQUAL(stu_platform(&study, &points[3]), "/data/b.xml");
  study.scenario = &(scn_scenario_t){.name = "t", .platform = "/data/default.xml", .params = params, .nparams = 3};
  CU_ASSERT_STRING_EQUAL(stu_platform(&study, &points[3]), "/data/default.xml");
}

/* The roles at a point, resolved once: the broadcast's value, no grid, the SimGrid network and no variant (so the
 * point is its own baseline); the network parameter by role, whatever its name. */
static void test_study_roles(void)
{
  stu_point_t points[4];
  stu_study_t study = make_study(points);
  stu_resolve_roles(study.scenario, &points[3]);
  CU_ASSERT_STRING_EQUAL(points[3].role.broadcast, "tree");
  CU_ASSERT_EQUAL(points[3].role.grid_rows, 0);
  CU_ASSERT_FALSE(points[3].role.analytic);
  CU_ASSERT_TRUE(points[3].role.baseline);
  CU_ASSERT_EQUAL(scn_role_index(study.scenario, SCN_ROLE_PLATFORM), 3);
  params[1].role = SCN_ROLE_NETWORK; /* "tree" is not the analytic network; "analytic" would be */
  stu_resolve_roles(study.scenario, &points[3]);
  CU_ASSERT_PTR_NULL(points[3].role.broadcast);
  CU_ASSERT_FALSE(points[3].role.analytic);
  const char *analytic[] = {"64", SCN_NETWORK_ANALYTIC, "4", "b.xml"};
  points[3].values = analytic;
  stu_resolve_roles(study.scenario, &points[3]);
  CU_ASSERT_TRUE(points[3].role.analytic);
  params[1].role = SCN_ROLE_VARIANT;
  stu_resolve_roles(study.scenario, &points[3]);
  CU_ASSERT_FALSE(points[3].role.baseline);
  params[1].role = SCN_ROLE_BROADCAST;
}

/* A study with both the lost-cycle and the message views has each, and not the cause-effect view. */
static void test_study_views(void)
{
  stu_point_t points[4];
  stu_study_t study = make_study(points);
  study.facts.views = MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES;
  CU_ASSERT_TRUE(stu_has_view(&study, MET_VIEW_LOST_CYCLES));
  CU_ASSERT_TRUE(stu_has_view(&study, MET_VIEW_MESSAGES));
  CU_ASSERT_FALSE(stu_has_view(&study, MET_VIEW_CAUSE_EFFECT));
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_study_same_except", test_study_same_except},
                                    {"test_study_value_and_platform", test_study_value_and_platform},
                                    {"test_study_roles", test_study_roles},
                                    {"test_study_views", test_study_views},
                                    {NULL, NULL}};
  return tu_run("study", cases);
}
