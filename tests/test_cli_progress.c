/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The progress bar's line: the bar filled by the share of the time done (elapsed over elapsed plus the study's time
 * left) or, before the study has one, of the predicted schedule; the count of points; the time left once the
 * simulations have run a second. Given by hand: no clock is read. */
#include "cli_progress.h"
#include "tu.h"

#include <string.h>

/* The line for `at` after `elapsed` seconds holds `part`. */
static void expect(stu_progress_t at, double elapsed, const char *part)
{
  char line[160];
  cli_progress_line(line, sizeof line, &at, elapsed);
  if (!strstr(line, part))
    fprintf(stderr, "\n  line: %s\n  want: %s\n", line, part);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, part));
}

/* 12 of 48 points after 60 s, 180 s left: a quarter of the time (7.5 cells), "3m00s"; 1 of 3 after 2 hours with 4
 * left: a third, "4h00m"; below 10 s, tenths. */
static void test_progress_time_left(void)
{
  expect((stu_progress_t){12, 48, 100, 400, 180}, 60,
         "simrun: [#######.......................]   12/48 points, 3m00s left");
  expect((stu_progress_t){1, 3, 1, 3, 14400}, 7200, "   1/3 points, 4h00m left");
  expect((stu_progress_t){1, 3, 1, 3, 2.5}, 7.5, "[######################........]    1/3 points, 2.5s left");
}

/* The bar follows the time left, not the schedule predicted before the run: the schedule says 90% done (27 cells),
 * but 2 s done with 18 s left is a tenth (3). */
static void test_progress_follows_the_time_left(void)
{
  expect((stu_progress_t){1, 3, 90, 100, 18}, 2, "[###...........................]    1/3 points, 18s left");
}

/* During the first second (CLI_PROGRESS_QUIET) the time left is not shown, though the study has one: a sweep over
 * by then is over before a user reads it. The bar still follows it. */
static void test_progress_quiet_first_second(void)
{
  expect((stu_progress_t){0, 4, 0, 100, 0.5}, 0.5, "simrun: [###############...............]    0/4 points");
  char line[160];
  cli_progress_line(line, sizeof line, &(stu_progress_t){0, 4, 0, 100, 0.5}, 0.5);
  CU_ASSERT_PTR_NULL(strstr(line, "left"));
  expect((stu_progress_t){0, 4, 0, 100, 0.5}, 1.0, "0/4 points, 0.5s left");
}

/* No estimate before the study has one (the bar then follows the predicted schedule), once all points are done,
 * nor when every point came from the cache (no work). */
static void test_progress_no_estimate(void)
{
  static const struct {
    stu_progress_t at;
    const char *line;
  } cases[] = {{{0, 48, 0, 400, -1}, "simrun: [..............................]    0/48 points"},
               {{6, 48, 100, 400, -1}, "simrun: [#######.......................]    6/48 points"},
               {{48, 48, 400, 400, 0}, "simrun: [##############################]   48/48 points"},
               {{24, 48, 0, 0, -1}, "simrun: [###############...............]   24/48 points"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char line[160];
    cli_progress_line(line, sizeof line, &cases[i].at, 10);
    CU_ASSERT_STRING_EQUAL(line, cases[i].line);
  }
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_progress_time_left", test_progress_time_left},
                                    {"test_progress_follows_the_time_left", test_progress_follows_the_time_left},
                                    {"test_progress_quiet_first_second", test_progress_quiet_first_second},
                                    {"test_progress_no_estimate", test_progress_no_estimate},
                                    {NULL, NULL}};
  return tu_run("cli_progress", cases);
}
