/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The progress bar (cli_progress.h): a bar of 30 cells, the count, and the time left the study estimated. */
#include "cli_progress.h"

#include <stdio.h>
#include <stdlib.h>

/* "1h02m", "3m00s", "42s" or, below 10 s, "2.5s". */
static void duration(char *buf, size_t len, double seconds)
{
  long s = (long)(seconds + 0.5);
  if (seconds < 9.95)
    snprintf(buf, len, "%.1fs", seconds);
  else if (s >= 3600)
    snprintf(buf, len, "%ldh%02ldm", s / 3600, s % 3600 / 60);
  else if (s >= 60)
    snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
  else
    snprintf(buf, len, "%lds", s);
}

/* The share of the sweep done, 0 to 1. */
static double share_done(const stu_progress_t *at, double elapsed)
{
  if (at->done == at->total)
    return 1;
  if (at->left >= 0 && elapsed + at->left > 0)
    return elapsed / (elapsed + at->left);
  return at->work_total > 0 ? at->work_done / at->work_total : at->total ? (double)at->done / (double)at->total : 1;
}

void cli_progress_line(char *buf, size_t len, const stu_progress_t *at, double elapsed)
{
  enum { WIDTH = 30 };
  char bar[WIDTH + 1], left[48] = "";
  size_t filled = (size_t)(share_done(at, elapsed) * WIDTH);
  for (size_t i = 0; i < WIDTH; i++)
    bar[i] = i < filled ? '#' : '.';
  bar[WIDTH] = '\0';
  if (at->left >= 0 && elapsed >= CLI_PROGRESS_QUIET && at->done < at->total) {
    char text[24];
    duration(text, sizeof text, at->left);
    snprintf(left, sizeof left, ", %s left", text);
  }
  snprintf(buf, len, "simrun: [%s] %4zu/%zu points%s", bar, at->done, at->total, left);
}

void cli_progress_log(const stu_progress_t *at, double elapsed)
{
  static FILE *log;
  static int tried;
  if (!tried) {
    tried = 1;
    const char *path = getenv("SIMRUN_TEST_PROGRESS");
    if (path && *path && !(log = fopen(path, "w")))
      fprintf(stderr, "simrun: warning: SIMRUN_TEST_PROGRESS=%s: cannot write it; no progress log\n", path);
  }
  if (log)
    fprintf(log, "%.6f %.6f %zu %zu\n", elapsed, at->left, at->done, at->total);
  if (log && at->done == at->total)
    fflush(log);
}
