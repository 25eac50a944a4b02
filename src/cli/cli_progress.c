/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The progress bar (cli_progress.h): a bar of 30 cells, the count, and the time left at the pace so far. */
#include "cli_progress.h"

#include <stdio.h>

/* "1h02m", "3m00s" or "42s". */
static void duration(char *buf, size_t len, double seconds)
{
  long s = (long)(seconds + 0.5);
  if (s >= 3600)
    snprintf(buf, len, "%ldh%02ldm", s / 3600, s % 3600 / 60);
  else if (s >= 60)
    snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
  else
    snprintf(buf, len, "%lds", s);
}

void cli_progress_line(char *buf, size_t len, size_t done, size_t total, double elapsed)
{
  enum { WIDTH = 30 };
  char bar[WIDTH + 1], left[48] = "";
  size_t filled = total ? done * WIDTH / total : WIDTH;
  for (size_t i = 0; i < WIDTH; i++)
    bar[i] = i < filled ? '#' : '.';
  bar[WIDTH] = '\0';
  if (done > 0 && done < total) {
    char text[24];
    duration(text, sizeof text, elapsed / (double)done * (double)(total - done));
    snprintf(left, sizeof left, ", %s left", text);
  }
  snprintf(buf, len, "simrun: [%s] %4zu/%zu points%s", bar, done, total, left);
}
