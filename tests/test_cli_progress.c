/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The progress bar's line: the bar, the count, and the time left at the pace so far (elapsed / done per point left). */
#include "cli_progress.h"
#include "tu.h"

#include <string.h>

static void test_progress_time_left(void)
{
  char line[160];
  /* 12 of 48 points in 60 s: 5 s a point, 36 left: 180 s */
  cli_progress_line(line, sizeof line, 12, 48, 60);
  CU_ASSERT_STRING_EQUAL(line, "simrun: [#######.......................]   12/48 points, 3m00s left");
  /* 1 of 3 in 2 hours: 4 hours left */
  cli_progress_line(line, sizeof line, 1, 3, 7200);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "   1/3 points, 4h00m left"));
  /* 9 of 10 in 9 s: 1 s left */
  cli_progress_line(line, sizeof line, 9, 10, 9);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "9/10 points, 1s left"));
}

/* No estimate before the first point, nor once all are done. */
static void test_progress_no_estimate(void)
{
  char line[160];
  cli_progress_line(line, sizeof line, 0, 48, 10);
  CU_ASSERT_STRING_EQUAL(line, "simrun: [..............................]    0/48 points");
  cli_progress_line(line, sizeof line, 48, 48, 10);
  CU_ASSERT_STRING_EQUAL(line, "simrun: [##############################]   48/48 points");
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_progress_time_left", test_progress_time_left},
                                    {"test_progress_no_estimate", test_progress_no_estimate},
                                    {NULL, NULL}};
  return tu_run("cli_progress", cases);
}
