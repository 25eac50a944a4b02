/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracer's carry of the work its runs' caps cut (src/tracer/trc_carry.c, compiled into this test: plain C), on
 * hand-made estimates: the sum of a loop's runs' work is the sum of their estimates wherever later runs that hold work
 * have room for what the caps cut, and never more than a run's cap; runs that hold no work (tests back to back) take
 * none, and a call other than a poll drops it. */
#include "trc_carry.h"
#include "tu.h"

/* Four runs of one loop, each of cap 10 (its span), whose estimates from a sample of their times are 18, 2, 9 and 11
 * (a sum of 40, as the loop's work; by hand): the first is cut to 10 (8 carried), the second takes 8 (10), the third
 * is below its cap with nothing left to take (9), the fourth cut to 10. Booked 39 of 40, where the caps alone booked
 * 31; no run over its cap. */
static void test_trc_carry_gives_cut_work_to_later_runs(void)
{
  static const double estimates[] = {18, 2, 9, 11}, booked[] = {10, 10, 9, 10};
  trc_carry_t c = {0};
  double sum = 0;
  for (int i = 0; i < 4; i++) {
    double work = trc_carry_work(&c, estimates[i], 10, 1);
    CU_ASSERT_DOUBLE_EQUAL(work, booked[i], 1e-12);
    sum += work;
  }
  CU_ASSERT_DOUBLE_EQUAL(sum, 39, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(c.cut, 1, 1e-12);
}

/* A run that holds no work beside its polls (a wait for a message) takes nothing of what was cut, which the next run
 * that holds work takes; a negative cap is none. */
static void test_trc_carry_only_to_runs_that_work(void)
{
  trc_carry_t c = {0};
  CU_ASSERT_DOUBLE_EQUAL(trc_carry_work(&c, 5, 2, 1), 2, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(trc_carry_work(&c, 0, 100, 0), 0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(trc_carry_work(&c, 1, -1, 0), 0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(c.cut, 4, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(trc_carry_work(&c, 1, 100, 1), 5, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(c.cut, 0, 1e-12);
}

/* What was cut before a call other than a poll is not given to the runs after it. */
static void test_trc_carry_dropped(void)
{
  trc_carry_t c = {0};
  CU_ASSERT_DOUBLE_EQUAL(trc_carry_work(&c, 7, 3, 1), 3, 1e-12);
  trc_carry_drop(&c);
  CU_ASSERT_DOUBLE_EQUAL(trc_carry_work(&c, 1, 10, 1), 1, 1e-12);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_trc_carry_gives_cut_work_to_later_runs", test_trc_carry_gives_cut_work_to_later_runs},
      {"test_trc_carry_only_to_runs_that_work", test_trc_carry_only_to_runs_that_work},
      {"test_trc_carry_dropped", test_trc_carry_dropped},
      {NULL, NULL}};
  return tu_run("trc_carry", cases);
}
