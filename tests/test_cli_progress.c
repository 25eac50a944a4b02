/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The progress bar's line: the bar filled by the share of the predicted schedule done, the count of points, and the
 * time left at the pace so far along it (elapsed * schedule left / schedule done), given by hand: no clock is read. */
#include "cli_progress.h"
#include "tu.h"

#include <string.h>

/* The line for `at` after `elapsed` seconds holds `part`. */
static void expect(stu_progress_t at, double elapsed, const char *part)
{
  char line[160];
  cli_progress_line(line, sizeof line, &at, elapsed);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, part));
}

static void test_progress_time_left(void)
{
  /* 12 of 48 points, 100 of 400 units of work in 60 s: 0.6 s a unit, 300 left: 180 s; a quarter of the bar (7.5) */
  expect((stu_progress_t){12, 48, 100, 400}, 60, "simrun: [#######.......................]   12/48 points, 3m00s left");
  /* 1 of 3 in 2 hours, a third of the work: 4 hours left */
  expect((stu_progress_t){1, 3, 1, 3}, 7200, "   1/3 points, 4h00m left");
}

/* Points of unequal cost: the first of 3 points took 2 s but a tenth of the work, so 18 s are left (a pace per point
 * would say 4 s); a large first point, 90% of the work in 9 s, leaves 1 s (per point: 18 s). */
static void test_progress_follows_the_work(void)
{
  expect((stu_progress_t){1, 3, 10, 100}, 2, "[###...........................]    1/3 points, 18s left");
  expect((stu_progress_t){1, 3, 90, 100}, 9, "1/3 points, 1.0s left");
}

/* The schedule, not the sum of the work: 2 jobs, 30 units of a schedule of 130 done in 10 s (a large simulation left
 * running alone makes the schedule longer than the work over the jobs), 100 left at 3 a second: 33 s. */
static void test_progress_follows_the_schedule(void)
{
  expect((stu_progress_t){3, 10, 30, 130}, 10, "3/10 points, 33s left");
  expect((stu_progress_t){3, 10, 30, 50}, 10, "3/10 points, 6.7s left");
}

/* A resumed study: 10 of 12 points came from the cache (no work), the 11th took 5 s and half the work left, so 5 s
 * are left, not the 0 s a pace per point gives (5 s for 11 points). The sequential runs count as work before any point
 * is done. */
static void test_progress_resume_and_sequential_runs(void)
{
  expect((stu_progress_t){11, 12, 50, 100}, 5, "11/12 points, 5.0s left");
  expect((stu_progress_t){0, 12, 20, 100}, 4, "0/12 points, 16s left");
}

/* No estimate before any work is done, once all points are, nor when every point came from the cache (no work). */
static void test_progress_no_estimate(void)
{
  static const struct {
    stu_progress_t at;
    const char *line;
  } cases[] = {{{0, 48, 0, 400}, "simrun: [..............................]    0/48 points"},
               {{48, 48, 400, 400}, "simrun: [##############################]   48/48 points"},
               {{24, 48, 0, 0}, "simrun: [###############...............]   24/48 points"}};
  for (size_t i = 0; i < 3; i++) {
    char line[160];
    cli_progress_line(line, sizeof line, &cases[i].at, 10);
    CU_ASSERT_STRING_EQUAL(line, cases[i].line);
  }
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_progress_time_left", test_progress_time_left},
      {"test_progress_follows_the_work", test_progress_follows_the_work},
      {"test_progress_follows_the_schedule", test_progress_follows_the_schedule},
      {"test_progress_resume_and_sequential_runs", test_progress_resume_and_sequential_runs},
      {"test_progress_no_estimate", test_progress_no_estimate},
      {NULL, NULL}};
  return tu_run("cli_progress", cases);
}
