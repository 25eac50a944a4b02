/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Progress from inside a running simulation (sim_progress.h): the count, its throttled reports through a pipe, and
 * their reading in the parent. */
#include "sim_progress.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One simulation per process (sim_run.h), so one count per process. */
static double counted;
static unsigned calls;
static int out = -1;
static double last_report = -1;
static double attached; /* when the count started */

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void report(const char *word)
{
  char line[48];
  int n = snprintf(line, sizeof line, "%s %.17g\n", word, counted);
  if (out >= 0 && n > 0 && write(out, line, (size_t)n) < 0) /* full pipe: this report is dropped, the next goes */
    return;
  last_report = now();
}

void sim_progress_attach(int fd)
{
  counted = 0;
  calls = 0;
  last_report = -1;
  attached = now();
  out = fd;
  if (fd >= 0)
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void sim_progress_count(double ops)
{
  counted += ops;
  if (out < 0 || (++calls & 255u) != 0)
    return;
  double at = now();
  double period = at - attached < SIM_PROGRESS_EARLY ? SIM_PROGRESS_EARLY_PERIOD : SIM_PROGRESS_PERIOD;
  if (last_report < 0 || at - last_report >= period)
    report("ops");
}

void sim_progress_flush(void)
{
  if (out >= 0)
    report("end");
}

/* A whole line (without its newline): the new count, or -1 when it is not one; *ended when it is the end's. */
static double parse(const char *line, double last, int *ended)
{
  *ended = strncmp(line, "end ", 4) == 0;
  if ((!*ended && strncmp(line, "ops ", 4) != 0) || line[4] == '\0' || line[4] == ' ')
    return -1;
  char *end;
  double ops = strtod(line + 4, &end);
  return *end == '\0' && isfinite(ops) && ops >= last ? ops : -1;
}

int sim_progress_feed(sim_progress_reader_t *r, const char *bytes, size_t len)
{
  int fresh = 0;
  for (size_t i = 0; i < len; i++) {
    if (bytes[i] != '\n') {
      if (r->len < sizeof r->line)
        r->line[r->len] = bytes[i];
      r->len += r->len <= sizeof r->line; /* one past the line: too long, skipped at its end */
      continue;
    }
    double ops = -1;
    int ended = 0;
    if (r->len < sizeof r->line && !r->ended) {
      r->line[r->len] = '\0';
      ops = strlen(r->line) == r->len ? parse(r->line, r->ops, &ended) : -1; /* no NUL inside */
    }
    r->len = 0;
    if (ops >= 0) {
      r->ops = ops;
      r->ended = ended;
      r->reports++;
      fresh = 1;
    }
  }
  return fresh;
}
