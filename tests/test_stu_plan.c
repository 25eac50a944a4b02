/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the plan of a sweep (stu_plan.h) on a hand-built study of n in {64, 128} x p: its T_seq groups, its two
 * phases, the sequential times handed to the second, and each cache key computed once. */
#include "sim_error.h"
#include "stu_plan.h"
#include "tu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *ns[] = {"64", "128"};
static char *ps[] = {"1", "2", "4"};
static scn_param_t params[] = {{.name = "n", .values = ns, .nvalues = 2, .swept = 1},
                               {.name = "p", .values = ps, .nvalues = 3, .swept = 1}};
static scn_scenario_t scenario = {.name = "s", .platform = "x.xml", .params = params, .nparams = 2};
static const char *values[6][2] = {{"64", "1"}, {"64", "2"}, {"64", "4"}, {"128", "1"}, {"128", "2"}, {"128", "4"}};

/* The cross product from the first value of p on (from = 1: p in {2, 4}, no p = 1 point). */
static stu_study_t make_study(stu_point_t *points, size_t from)
{
  size_t n = 0;
  for (size_t i = 0; i < 6; i++)
    if (i % 3 >= from)
      points[n++] = (stu_point_t){.values = values[i], .p = atoi(values[i][1])};
  return (stu_study_t){.scenario = &scenario, .npoints = n, .points = points};
}

typedef struct counter {
  int calls[16][2]; /* per point, per task kind: keys computed */
  int stored;       /* 1: every key is in the cache */
} counter_t;

static int count_key(void *ctx, const stu_task_t *task, char *key, size_t len)
{
  counter_t *c = ctx;
  c->calls[task->point][task->kind]++;
  snprintf(key, len, "kind=%d point=%d", (int)task->kind, (int)task->point);
  return 0;
}

static int has_key(void *ctx, const char *key)
{
  (void)key;
  return ((counter_t *)ctx)->stored;
}

/* Two groups (n = 64: points 0-2; n = 128: points 3-5), each with its p = 1 point, which runs first; the other four
 * points follow, in order, and each point's key was computed once (no SEQ run: every group has its p = 1). */
static void test_plan_groups_and_phases(void)
{
  stu_point_t points[6];
  stu_study_t study = make_study(points, 0);
  counter_t c = {0};
  stu_plan_options_t o = {.views = MET_VIEW_LOST_CYCLES, .seq = 1, .key = count_key, .has = has_key, .ctx = &c};
  stu_plan_t plan;
  CU_ASSERT_FATAL(stu_plan_build(&plan, &study, 1, &o) == 0);
  CU_ASSERT_EQUAL(plan.ngroups, 2);
  size_t groups[] = {0, 0, 0, 1, 1, 1};
  for (size_t i = 0; i < 6; i++)
    CU_ASSERT_EQUAL(plan.group[i], groups[i]);
  CU_ASSERT_EQUAL(plan.one[0], 0);
  CU_ASSERT_EQUAL(plan.one[1], 3);
  CU_ASSERT_EQUAL(plan.nseq, 2);
  CU_ASSERT_EQUAL(plan.count, 6);
  int order[] = {0, 3, 1, 2, 4, 5};
  for (size_t t = 0; t < plan.count; t++) {
    CU_ASSERT_EQUAL(plan.tasks[t].kind, STU_TASK_POINT);
    CU_ASSERT_EQUAL(plan.tasks[t].views, MET_VIEW_LOST_CYCLES);
    CU_ASSERT_EQUAL(plan.tasks[t].point, order[t]);
    CU_ASSERT_PTR_EQUAL(plan.keys[t], plan.point_keys[order[t]]);
  }
  for (size_t i = 0; i < 6; i++) {
    CU_ASSERT_EQUAL(c.calls[i][STU_TASK_POINT], 1);
    CU_ASSERT_EQUAL(c.calls[i][STU_TASK_SEQ], 0);
  }
  stu_plan_free(&plan);
}

/* Without p = 1 points each group gets a SEQ run of its own (on its first point, 0 and 2), keyed once, unless every
 * point of the group is in the cache: then nothing of it runs and no SEQ key is made. */
static void test_plan_seq_runs_once_keyed(void)
{
  stu_point_t points[4];
  stu_study_t study = make_study(points, 1);
  for (int stored = 0; stored <= 1; stored++) {
    counter_t c = {.stored = stored};
    stu_plan_options_t o = {.seq = 1, .key = count_key, .has = has_key, .ctx = &c};
    stu_plan_t plan;
    CU_ASSERT_FATAL(stu_plan_build(&plan, &study, 1, &o) == 0);
    CU_ASSERT_EQUAL(plan.ngroups, 2);
    CU_ASSERT_EQUAL(plan.nseq, stored ? 0 : 2);
    CU_ASSERT_EQUAL(plan.count, plan.nseq + 4);
    for (size_t t = 0; t < plan.nseq; t++) {
      CU_ASSERT_EQUAL(plan.tasks[t].kind, STU_TASK_SEQ);
      CU_ASSERT_EQUAL(plan.tasks[t].nranks, 1);
      CU_ASSERT_EQUAL(plan.tasks[t].point, t == 0 ? 0 : 2);
      CU_ASSERT_STRING_EQUAL(plan.keys[t], t == 0 ? "kind=1 point=0" : "kind=1 point=2");
    }
    for (size_t i = 0; i < 4; i++) {
      CU_ASSERT_EQUAL(c.calls[i][STU_TASK_POINT], 1);
      CU_ASSERT_EQUAL(c.calls[i][STU_TASK_SEQ], !stored && (i == 0 || i == 2));
    }
    stu_plan_free(&plan);
  }
}

/* The second phase gets each group's first recorded sequential time: group n = 64 8 s (a later 9 s is ignored),
 * group n = 128 5 s. */
static void test_plan_fills_seq(void)
{
  stu_point_t points[6];
  stu_study_t study = make_study(points, 0);
  stu_plan_options_t o = {.seq = 1};
  stu_plan_t plan;
  CU_ASSERT_FATAL(stu_plan_build(&plan, &study, 1, &o) == 0);
  CU_ASSERT_PTR_NULL(plan.keys[0]); /* no cache, no keys */
  stu_plan_set_seq(&plan, 0, 8.0);
  stu_plan_set_seq(&plan, 1, 9.0);
  stu_plan_set_seq(&plan, 5, 5.0);
  stu_plan_fill_seq(&plan);
  for (size_t t = plan.nseq; t < plan.count; t++)
    CU_ASSERT_DOUBLE_EQUAL(plan.tasks[t].t_seq, plan.tasks[t].point < 3 ? 8.0 : 5.0, 0);
  stu_plan_free(&plan);
}

/* A view without T_seq (messages) runs every point in one phase; the per-process p keeps its procs and pixels, its
 * whole trace too for the exports (whole), and a view needing traces keeps every point's whole trace. */
static void test_plan_without_seq_and_keeps(void)
{
  stu_point_t points[6];
  stu_study_t study = make_study(points, 0);
  stu_plan_options_t o = {.procs = 1, .per_process = 4};
  stu_plan_t plan;
  CU_ASSERT_FATAL(stu_plan_build(&plan, &study, 1, &o) == 0);
  CU_ASSERT_EQUAL(plan.nseq, 0);
  CU_ASSERT_EQUAL(plan.count, 6);
  for (size_t t = 0; t < plan.count; t++) {
    CU_ASSERT_EQUAL(plan.tasks[t].point, (int)t);
    CU_ASSERT_EQUAL(plan.tasks[t].keep_procs, plan.tasks[t].nranks == 4);
    CU_ASSERT_EQUAL(plan.tasks[t].keep_trace, plan.tasks[t].nranks == 4 ? STU_KEEP_PIXELS : 0);
  }
  stu_plan_free(&plan);
  o.whole = 1;
  CU_ASSERT_FATAL(stu_plan_build(&plan, &study, 1, &o) == 0);
  for (size_t t = 0; t < plan.count; t++)
    CU_ASSERT_EQUAL(plan.tasks[t].keep_trace, plan.tasks[t].nranks == 4 ? STU_KEEP_PIXELS | STU_KEEP_WHOLE : 0);
  stu_plan_free(&plan);
  o = (stu_plan_options_t){.traces = 1};
  CU_ASSERT_FATAL(stu_plan_build(&plan, &study, 1, &o) == 0);
  for (size_t t = 0; t < plan.count; t++) {
    CU_ASSERT_EQUAL(plan.tasks[t].keep_procs, 0);
    CU_ASSERT_EQUAL(plan.tasks[t].keep_trace, STU_KEEP_WHOLE);
  }
  stu_plan_free(&plan);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_plan_groups_and_phases", test_plan_groups_and_phases},
                                    {"test_plan_seq_runs_once_keyed", test_plan_seq_runs_once_keyed},
                                    {"test_plan_fills_seq", test_plan_fills_seq},
                                    {"test_plan_without_seq_and_keeps", test_plan_without_seq_and_keeps},
                                    {NULL, NULL}};
  return tu_run("plan", cases);
}
