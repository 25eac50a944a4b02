/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the tracer's fixtures that work for a measured time (poll_work.c, poll_rhythm.c, own_time_pair.c, shared_core.c)
 * share: the thread's CPU clock and a piece of work of a given length (a chain of multiply-adds, some 4 ns an
 * iteration). */
#ifndef FIXTURE_WORK_H
#define FIXTURE_WORK_H

#include <time.h>

/* The calling thread's CPU seconds so far. */
static inline double cpu_seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile double sink;

/* `iterations` multiply-adds, their result kept in `sink` so that the compiler keeps them. */
static inline void work(long iterations)
{
  double x = sink;
  for (long i = 0; i < iterations; i++)
    x = x * 0.999999 + 1e-9;
  sink = x;
}

#endif
