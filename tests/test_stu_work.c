/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The predicted schedule behind the progress bar (stu_work.h), laid out by hand: tasks start in order on the first job
 * free, the sequential phase ends before the other tasks start, and how far the schedule is follows the cost of the
 * tasks finished, whatever order they finish in. And the time left (stu_work_left) as a function of what the tasks
 * measured, given by hand (start, report and end times in seconds): no clock is read, nothing is simulated. */
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
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 0, 0), 1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 1, 0), 1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 3, 0), 11, 1e-12);
  /* the 80 finishes before the tens (the prediction was wrong): 92 done, what the schedule has done by 81 */
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 2, 0), 81, 1e-12);
  stu_work_finished(&w, 4, 0);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 5, 0), 81, 1e-12);
  stu_work_free(&w);
}

/* One job: the tasks one after the other, the schedule is the sum; a cached task costs 0 and moves nothing. */
static void test_work_schedule_on_one_job(void)
{
  const double cost[] = {3, 0, 4, 5};
  stu_work_t w = work_of(cost, 4, 1, 1);
  CU_ASSERT_DOUBLE_EQUAL(w.finish[3], 12, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 1, 0), 0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 0, 0), 3, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_finished(&w, 2, 0), 7, 1e-12);
  stu_work_free(&w);
}

/* A work of tasks predicted to cost `ops` operations each (plus the fixed cost; 0: a task the cache holds). */
static stu_work_t work_ops(const double *ops, size_t count, size_t nseq, size_t slots)
{
  double cost[8];
  for (size_t t = 0; t < count; t++)
    cost[t] = ops[t] > 0 ? STU_TASK_FIXED_WORK + ops[t] : 0;
  return work_of(cost, count, nseq, slots);
}

/* One simulation of 100,000 operations: nothing is measured before its operations have run a while (no estimate, nor
 * after reports 0.01 s apart: STU_WORK_MIN_PACE is 0.1 s); reports of 1,000 operations at 0.5 s and 21,000 at 2.5 s
 * give 1e-4 s an operation, so the 79,000 left take 7.9 s from 2.5 s, 7.4 s left at 3 s. A report of no more at 4.5 s
 * halves the pace (4 s for the 20,000): 15.8 s left. The pace is the run's own, whatever an operation was predicted to
 * cost. */
static void test_work_left_one_simulation(void)
{
  const double ops[] = {100000};
  stu_work_t w = work_ops(ops, 1, 0, 1);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.2), -1, 1e-12);
  stu_work_started(&w, 0, 0);
  stu_work_reported(&w, 0, 1000, 0, 0.5);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.5), -1, 1e-12); /* one report: no pace yet */
  stu_work_reported(&w, 0, 1100, 0, 0.51);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.51), -1, 1e-12); /* 0.01 s of reports: too little */
  stu_work_reported(&w, 0, 21000, 0, 2.5);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 2.5), 7.9, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 3.0), 7.4, 1e-9);
  stu_work_reported(&w, 0, 21000, 0, 4.5);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 4.5), 15.8, 1e-9);
  stu_work_free(&w);
}

/* Simulations too short to report before their end, on one job: the first, 1,000 operations (9,000 units with the
 * fixed cost), took 0.9 s, 1e-4 s a unit; the second started then: 0.9 s left of it at 0.9 s, 0.4 at 1.4, and the
 * third, 11,000 units, 1.1 s: 2.0 and 1.5 s left. */
static void test_work_left_short_simulations(void)
{
  const double ops[] = {1000, 1000, 3000};
  stu_work_t w = work_ops(ops, 3, 0, 1);
  stu_work_started(&w, 0, 0);
  stu_work_reported(&w, 0, 1000, 1, 0.85);
  stu_work_finished(&w, 0, 0.9);
  stu_work_started(&w, 1, 0.9);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.9), 2.0, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 1.4), 1.5, 1e-9);
  stu_work_free(&w);
}

/* The pace of an operation from a large simulation and a small one together (110,000 operations in 1.1 s: 1e-5 s; the
 * small one's from its first report to its end's), the start from the first reports (both 0.2 s after their starts,
 * before their first operation) and the end from the small one, finished (its result came 0.05 s after its end). So a
 * simulation of 50,000 operations not started yet takes 0.2 + 0.5 + 0.05 = 0.75 s; on 2 jobs it runs beside the large
 * one, which has 400,000 operations left at its own pace, 4 s from 1.5 s, and its end's 0.05 s: 4.05 s left. At 4
 * s, 1.55 s. */
static void test_work_left_start_pace_end(void)
{
  const double ops[] = {500000, 10000, 50000};
  stu_work_t w = work_ops(ops, 3, 0, 2);
  stu_work_started(&w, 0, 0.3);
  stu_work_started(&w, 1, 0);
  stu_work_reported(&w, 1, 0, 0, 0.2);
  stu_work_reported(&w, 0, 0, 0, 0.5);
  stu_work_reported(&w, 1, 10000, 1, 0.3);
  stu_work_reported(&w, 1, 10000, 1, 0.32); /* the end's count again: its time is the first's */
  stu_work_finished(&w, 1, 0.35);
  stu_work_reported(&w, 0, 100000, 0, 1.5);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 1.5), 4.05, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 4.0), 1.55, 1e-9);
  stu_work_free(&w);
}

/* The operations a simulation counts need not be those predicted: the first finished one counted 50,000 of 100,000
 * at its end (rho = 0.5), so the second, as large, at 20,000 at 1e-4 s an operation, has 30,000 left: 3 s. */
static void test_work_left_counts_what_the_runs_count(void)
{
  const double ops[] = {100000, 100000};
  stu_work_t w = work_ops(ops, 2, 0, 1);
  stu_work_started(&w, 0, 0);
  stu_work_reported(&w, 0, 50000, 1, 5.0);
  stu_work_finished(&w, 0, 5.0);
  stu_work_started(&w, 1, 5.0);
  stu_work_reported(&w, 1, 10000, 0, 6.0);
  stu_work_reported(&w, 1, 20000, 0, 7.0);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 7.0), 3.0, 1e-9);
  stu_work_free(&w);
}

/* A class not measured yet takes the others' pace at its weight: a simulation of class 0 (weight 1) at 1e-5 s an
 * operation (50,000 in 0.5 s) has 0.5 s left; then, on the one job, one of class 1 (weight 2, say twice as costly an
 * operation, as one-to-all's against neighbour's) of 100,000 operations: 2 s. 2.5 s left. */
static void test_work_left_classes(void)
{
  const double ops[] = {100000, 100000};
  stu_work_t w = work_ops(ops, 2, 0, 1);
  w.klass = malloc(2 * sizeof *w.klass);
  w.weight = malloc(2 * sizeof *w.weight);
  CU_ASSERT_FATAL(w.klass && w.weight);
  w.classes = 2;
  w.klass[0] = 0, w.klass[1] = 1;
  w.weight[0] = 1, w.weight[1] = 2;
  stu_work_started(&w, 0, 0);
  stu_work_reported(&w, 0, 0, 0, 0);
  stu_work_reported(&w, 0, 50000, 0, 0.5);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.5), 2.5, 1e-9);
  stu_work_free(&w);
}

/* A simulation's first reports weigh against its class's pace as STU_WORK_PRIOR (0.2 s) of reports would: the first
 * simulation did 99,000 operations in 0.95 s, the second 1,000 in its first 0.05 s, five times slower: 1e-5 s an
 * operation for the class (100,000 in 1 s), and for the second (0.05 + 0.2) / (1,000 + 0.2 / 1e-5) s: its 99,000
 * left take 99,000 x 0.25 / 21,000 = 1.1786 s (4.95 s at its own pace alone, 0.99 s at its class's). */
static void test_work_left_own_pace_against_its_class(void)
{
  const double ops[] = {99000, 100000};
  stu_work_t w = work_ops(ops, 2, 0, 1);
  stu_work_started(&w, 0, 0);
  stu_work_reported(&w, 0, 0, 0, 0.05);
  stu_work_reported(&w, 0, 99000, 1, 1.0);
  stu_work_finished(&w, 0, 1.0);
  stu_work_started(&w, 1, 1.0);
  stu_work_reported(&w, 1, 0, 0, 1.0);
  stu_work_reported(&w, 1, 1000, 0, 1.05);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 1.05), 99000 * 0.25 / 21000, 1e-9);
  stu_work_free(&w);
}

/* An operation's weight grows with p in a straight line from 1 at p = 1 to the broadcast's at 128, and a class's pace
 * is per unit of weight: the first simulation (p = 1, weight 1) did 10,000 operations in 0.1 s, from its first report
 * to its end's; the second, of the same class at p = 128 (one-to-all's 1.8), 100,000 operations, takes 1.8 s. */
static void test_work_left_weight_grows_with_p(void)
{
  CU_ASSERT_DOUBLE_EQUAL(stu_work_weight(1.8, 1), 1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_weight(1.8, 128), 1.8, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_weight(1.8, 64), 1 + 0.8 * 63 / 127, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_weight(1.0, 64), 1, 1e-12);
  const double ops[] = {10000, 100000};
  stu_work_t w = work_ops(ops, 2, 0, 1);
  w.klass = calloc(2, sizeof *w.klass);
  w.weight = malloc(2 * sizeof *w.weight);
  CU_ASSERT_FATAL(w.klass && w.weight);
  w.classes = 1;
  w.weight[0] = stu_work_weight(1.8, 1), w.weight[1] = stu_work_weight(1.8, 128);
  stu_work_started(&w, 0, 0);
  stu_work_reported(&w, 0, 0, 0, 0);
  stu_work_reported(&w, 0, 10000, 1, 0.1);
  stu_work_finished(&w, 0, 0.1);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.1), 1.8, 1e-9);
  stu_work_free(&w);
}

/* Two simulations of 100,000 operations whose whole traces come back, on 2 jobs, at 1e-5 s an operation (10,000 in
 * 0.1 s each), started at 0 and reporting first at 0.1 (S = 0.1): nothing finished, so each one's end is K = 0.24
 * (STU_WORK_KEPT_END) of its simulation's 1 s: 0.9 + 0.24 = 1.14 s left at 0.2. The first ends its simulation at 1.1
 * and its result is taken at 1.4: 0.3 s, K = 0.3 / 1 s; the second, at 90,000 at 1.0 (its own pace still 1e-5), has
 * 10,000 operations left, 0.1 s, already past at 1.4, and its end: 0.3 s left. */
static void test_work_left_kept_trace_end(void)
{
  const double ops[] = {100000, 100000};
  stu_work_t w = work_ops(ops, 2, 0, 2);
  w.kept = malloc(2 * sizeof *w.kept);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w.kept);
  w.kept[0] = w.kept[1] = 1;
  for (size_t t = 0; t < 2; t++) {
    stu_work_started(&w, t, 0);
    stu_work_reported(&w, t, 0, 0, 0.1);
    stu_work_reported(&w, t, 10000, 0, 0.2);
  }
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.2), 0.9 + STU_WORK_KEPT_END * 1.0, 1e-9);
  stu_work_reported(&w, 1, 90000, 0, 1.0);
  stu_work_reported(&w, 0, 100000, 1, 1.1);
  stu_work_finished(&w, 0, 1.4);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 1.4), 0.3, 1e-9);
  stu_work_free(&w);
}

/* The first point of a platform and p takes D more at its end (simrun describes the machine), S before one is
 * measured: on one job, four simulations of 10,000 operations, the first and third the first of their p. The first
 * started at 0, reported first at 0.1 and ended its simulation at 0.2 (1e-5 s an operation, S = 0.1): at 0.2 its end
 * has D = S = 0.1 to go; the second and fourth take 0.1 + 0.1, the third 0.1 + 0.1 + 0.1: 0.8 s left. Its result
 * came at 0.35 (D = 0.15, T = 0 yet); the second's 0.05 s after its end: T = 0.05, D = 0.1; then the third takes
 * 0.1 + 0.1 + 0.05 + 0.1 and the fourth 0.25: 0.6 s left at 0.6. */
static void test_work_left_describes(void)
{
  const double ops[] = {10000, 10000, 10000, 10000};
  stu_work_t w = work_ops(ops, 4, 0, 1);
  w.describes = calloc(4, sizeof *w.describes);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w.describes);
  w.describes[0] = w.describes[2] = 1;
  stu_work_started(&w, 0, 0);
  stu_work_reported(&w, 0, 0, 0, 0.1);
  stu_work_reported(&w, 0, 10000, 1, 0.2);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.2), 0.8, 1e-9);
  stu_work_finished(&w, 0, 0.35);
  stu_work_started(&w, 1, 0.35);
  stu_work_reported(&w, 1, 0, 0, 0.45);
  stu_work_reported(&w, 1, 10000, 1, 0.55);
  stu_work_finished(&w, 1, 0.6);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.6), 0.6, 1e-9);
  stu_work_free(&w);
}

/* The sequential phase ends before the rest starts: on 2 jobs, the first sequential run finished (9,000 units in 0.9
 * s, 1e-4 s a unit) and the second started then, 0.9 s to go; the point of 1,000 operations waits for it: 0.9 + 0.9 =
 * 1.8 s left, where the free job would have ended it in 0.9 s. */
static void test_work_left_sequential_phase_first(void)
{
  const double ops[] = {1000, 1000, 1000};
  stu_work_t w = work_ops(ops, 3, 2, 2);
  stu_work_started(&w, 0, 0);
  stu_work_reported(&w, 0, 1000, 1, 0.9);
  stu_work_finished(&w, 0, 0.9);
  stu_work_started(&w, 1, 0.9);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.9), 1.8, 1e-9);
  stu_work_free(&w);
}

/* A resumed study: the two points the cache held cost nothing and are finished at once, with no time measured; the
 * time left is the third's alone, at its own pace: 8,000 operations left at 1e-4 s, 0.8 s. */
static void test_work_left_resume_counts_the_cache(void)
{
  const double ops[] = {0, 0, 10000};
  stu_work_t w = work_ops(ops, 3, 0, 2);
  stu_work_finished(&w, 0, 0);
  stu_work_finished(&w, 1, 0);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0), -1, 1e-12);
  stu_work_started(&w, 2, 0);
  stu_work_reported(&w, 2, 0, 0, 0.2);
  stu_work_reported(&w, 2, 2000, 0, 0.4);
  CU_ASSERT_DOUBLE_EQUAL(stu_work_left(&w, 0.4), 0.8, 1e-9);
  stu_work_free(&w);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_work_schedule_on_two_jobs", test_work_schedule_on_two_jobs},
      {"test_work_schedule_on_one_job", test_work_schedule_on_one_job},
      {"test_work_left_one_simulation", test_work_left_one_simulation},
      {"test_work_left_short_simulations", test_work_left_short_simulations},
      {"test_work_left_start_pace_end", test_work_left_start_pace_end},
      {"test_work_left_counts_what_the_runs_count", test_work_left_counts_what_the_runs_count},
      {"test_work_left_classes", test_work_left_classes},
      {"test_work_left_own_pace_against_its_class", test_work_left_own_pace_against_its_class},
      {"test_work_left_weight_grows_with_p", test_work_left_weight_grows_with_p},
      {"test_work_left_kept_trace_end", test_work_left_kept_trace_end},
      {"test_work_left_describes", test_work_left_describes},
      {"test_work_left_sequential_phase_first", test_work_left_sequential_phase_first},
      {"test_work_left_resume_counts_the_cache", test_work_left_resume_counts_the_cache},
      {NULL, NULL}};
  return tu_run("stu_work", cases);
}
