/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The study summary on a hand-built study: the best point per p, the runner-up, and its extra seconds per process by
 * class, which add up to the difference in T_par (p T_par = work + ctrl + comm + idle); nothing without a comparison.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "rep_report.h"
#include "stu_lost_cycles.h"
#include "stu_view.h"
#include "tu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *broadcasts[] = {"ring", "tree", "flat"};
static char *ps[] = {"4"};
static const char *values[3][2] = {{"ring", "4"}, {"tree", "4"}, {"flat", "4"}};

/* A point at p = 4 with these seconds, summed over ranks: work, ctrl, comm, idle (T_par is their sum / 4). */
static stu_point_t point(int which, double work, double ctrl, double comm, double idle)
{
  stu_point_t pt = {.values = values[which], .p = 4, .t_par = (work + ctrl + comm + idle) / 4};
  stu_lost_cycles_t *r = stu_lost_cycles_make(&pt);
  CU_ASSERT_FATAL(r != NULL);
  r->eppa.work = work;
  r->eppa.ovh_time[MET_OVH_CTRL] = ctrl;
  r->eppa.ovh_time[MET_OVH_COMM] = comm;
  r->eppa.ovh_time[MET_OVH_IDLE] = idle;
  return pt;
}

/* The summary of `points` as text (the caller frees it); their results are freed. */
static char *summary(stu_point_t *points, size_t npoints, size_t nbroadcasts)
{
  scn_param_t params[] = {{.name = "broadcast", .values = broadcasts, .nvalues = nbroadcasts, .swept = 1},
                          {.name = "p", .values = ps, .nvalues = 1, .swept = 1}};
  scn_scenario_t scenario = {.name = "s", .params = params, .nparams = 2};
  stu_study_t study = {
      .scenario = &scenario, .facts.views = MET_VIEW_LOST_CYCLES, .npoints = npoints, .points = points};
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_FATAL(out != NULL);
  CU_ASSERT_EQUAL_FATAL(stu_view_summarise(&study), 0); /* the best point at each p */
  rep_print_study(out, &study, 80);
  fclose(out);
  stu_summaries_release(&study); /* every view's summary: the lost cycles' and the model's */
  for (size_t i = 0; i < npoints; i++)
    stu_slots_release(&points[i]);
  return text;
}

/* Work 40 s in all; ring: ctrl 0, comm 4, idle 4 -> T_par 12; tree: ctrl 0, comm 2, idle 14 -> 14; flat: 0, 8, 20 ->
 * 17. Best ring, runner-up tree, whose extra per process is comm (2 - 4) / 4 = -0.5 and idle (14 - 4) / 4 = +2.5:
 * 2 s in all, the difference in T_par, mostly idle. */
static void test_rep_study_best_and_why(void)
{
  stu_point_t points[] = {point(0, 40, 0, 4, 4), point(1, 40, 0, 2, 14), point(2, 40, 0, 8, 20)};
  char *text = summary(points, 3, 3);
  CU_ASSERT_FATAL(text != NULL);
  CU_ASSERT(strstr(text, "Study summary") != NULL);
  const char *row = strstr(text, "\n4  ring");
  CU_ASSERT_FATAL(row != NULL);
  char best[16];
  char second[16];
  double t_best;
  double t_second;
  double extra[4];
  char most[16];
  CU_ASSERT_EQUAL(sscanf(row, "%*d %15s %lf %15s %lf %lf %lf %lf %lf %15s", best, &t_best, second, &t_second, &extra[0],
                         &extra[1], &extra[2], &extra[3], most),
                  9);
  CU_ASSERT_STRING_EQUAL(best, "ring");
  CU_ASSERT_STRING_EQUAL(second, "tree");
  TU_ASSERT_CLOSE(t_best, 12, 1e-9);
  TU_ASSERT_CLOSE(t_second, 14, 1e-9);
  TU_ASSERT_CLOSE(extra[0], 0, 1e-9);
  TU_ASSERT_CLOSE(extra[1], 0, 1e-9);
  TU_ASSERT_CLOSE(extra[2], -0.5, 1e-9);
  TU_ASSERT_CLOSE(extra[3], 2.5, 1e-9);
  TU_ASSERT_CLOSE(extra[0] + extra[1] + extra[2] + extra[3], t_second - t_best, 1e-9);
  CU_ASSERT_STRING_EQUAL(most, "idle");
  free(text);
}

/* Equal times are a tie, not a win for the earlier point. */
static void test_rep_study_tie(void)
{
  stu_point_t points[] = {point(0, 40, 0, 4, 4), point(1, 40, 0, 4, 4)};
  char *text = summary(points, 2, 2);
  CU_ASSERT(text && strstr(text, "(a tie)"));
  free(text);
}

/* A sweep of p alone compares nothing: no summary. */
static void test_rep_study_nothing_to_compare(void)
{
  stu_point_t points[] = {point(0, 40, 0, 4, 4)};
  char *text = summary(points, 1, 1);
  CU_ASSERT(text && *text == '\0');
  free(text);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_rep_study_best_and_why", test_rep_study_best_and_why},
                                    {"test_rep_study_tie", test_rep_study_tie},
                                    {"test_rep_study_nothing_to_compare", test_rep_study_nothing_to_compare},
                                    {NULL, NULL}};
  return tu_run("rep_study", cases);
}
