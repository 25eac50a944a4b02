/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The predicted schedule behind the progress bar's time left (stu_work.h), laid out by hand: tasks start in order on
 * the first job free, the sequential phase ends before the other tasks start, and how far the schedule is follows the
 * cost of the tasks finished, whatever order they finish in. */
#include "stu_work.h"
#include "tu.h"

#include <stdlib.h>
#include <string.h>

/* A work of `count` tasks of `cost` laid out on `slots` jobs, `nseq` tasks in the first phase. */
static stu_work_t work_of(const double *cost, size_t count, size_t nseq, size_t slots)
{
  stu_work_t w = {.count = count, .cost = malloc(count * sizeof(double))};
  CU_ASSERT_PTR_NOT_NULL_FATAL(w.cost);
  memcpy(w.cost, cost, count * sizeof(double));
  CU_ASSERT_EQUAL_FATAL(stu_work_lay_out(&w, nseq, slots), 0);
  return w;
}

/* Two sequential runs of 1 on 2 jobs end at 1; then 80 on the first job (ends at 81) while the other runs the three
 * tens one after the other (11, 21, 31): the schedule is 81 long, not the 113 / 2 = 56.5 the work over the jobs says.
 */
static void test_work_schedule_on_two_jobs(void)
{
  const double cost[] = {1, 1, 80, 10, 10, 10};
  stu_work_t w = work_of(cost, 6, 2, 2);
  double expected[] = {1, 1, 81, 11, 21, 31};
  for (size_t t = 0; t < 6; t++)
    CU_ASSERT_DOUBLE_EQUAL(w.finish[t], expected[t], 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(w.span, 81, 1e-12);
  /* both sequential runs done: 2 of cost, at 1; a ten done: 12, the cost finished by 11. So after 11 s the bar says
   * 11 * (81 - 11) / 11 = 70 s left, the 80 running alone, where the work left over the work done says 101 s. */
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 0), 1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 1), 1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 3), 11, 1e-12);
  /* the 80 finishes before the tens (the prediction was wrong): 92 done, what the schedule has done by 81 */
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 2), 81, 1e-12);
  stu_work_finished(&w, 4);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 5), 81, 1e-12);
  stu_work_free(&w);
}

/* One job: the tasks one after the other, the schedule is the sum; a cached task costs 0 and moves nothing. */
static void test_work_schedule_on_one_job(void)
{
  const double cost[] = {3, 0, 4, 5};
  stu_work_t w = work_of(cost, 4, 1, 1);
  CU_ASSERT_DOUBLE_EQUAL(w.finish[3], 12, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 1), 0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 0), 3, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 2), 7, 1e-12);
  stu_work_free(&w);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_work_schedule_on_two_jobs", test_work_schedule_on_two_jobs},
                                    {"test_work_schedule_on_one_job", test_work_schedule_on_one_job},
                                    {NULL, NULL}};
  return tu_run("stu_work", cases);
}
