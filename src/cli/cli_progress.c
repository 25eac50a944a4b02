/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The progress bar (cli_progress.h): a bar of 30 cells, the count, and the time left at the pace so far along the
 * predicted schedule. */
#include "cli_progress.h"

#include <stdio.h>

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

void cli_progress_line(char *buf, size_t len, const stu_progress_t *at, double elapsed)
{
  enum { WIDTH = 30 };
  char bar[WIDTH + 1], left[48] = "";
  double share = at->work_total > 0 ? at->work_done / at->work_total
                 : at->total        ? (double)at->done / (double)at->total
                                    : 1;
  size_t filled = at->done == at->total ? WIDTH : (size_t)(share * WIDTH);
  for (size_t i = 0; i < WIDTH; i++)
    bar[i] = i < filled ? '#' : '.';
  bar[WIDTH] = '\0';
  if (at->work_done > 0 && at->work_done < at->work_total && at->done < at->total) {
    char text[24];
    duration(text, sizeof text, elapsed * (at->work_total - at->work_done) / at->work_done);
    snprintf(left, sizeof left, ", %s left", text);
  }
  snprintf(buf, len, "simrun: [%s] %4zu/%zu points%s", bar, at->done, at->total, left);
}
