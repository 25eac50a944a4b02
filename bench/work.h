/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the tracer's bench programs (trc_calls.c, trc_polling.c) and its test fixtures that work for a measured time
 * (tests/data/tracer: poll_work.c, poll_rhythm.c, own_time_pair.c, shared_core.c...) share: CPU clocks and a piece of
 * work of a given number of multiply-adds (some 4 ns an iteration on this machine's cores). */
#ifndef BENCH_WORK_H
#define BENCH_WORK_H

#include <time.h>

/* The seconds CPU clock `clock` has counted so far. */
static inline double clock_seconds(clockid_t clock)
{
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The process's CPU seconds so far. */
static inline double cpu(void)
{
  return clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

/* The calling thread's CPU seconds so far. */
static inline double cpu_seconds(void)
{
  return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

static volatile double sink = 1;

/* `iterations` multiply-adds, their result kept in `sink` so that the compiler keeps them. */
static inline void work(long iterations)
{
  double x = sink;
  for (long i = 0; i < iterations; i++)
    x = x * 0.999999 + 1e-9;
  sink = x;
}

#endif
