/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The recorder's wall clock (trc_clock.h). A traced call reads it at its entry and exit, so its cost is most of the
 * tracer's on a program that polls: the vDSO's clock_gettime(CLOCK_MONOTONIC) took 21.9 ns of CPU per reading on this
 * machine (AMD EPYC under KVM, clocksource tsc; 10^7 readings, least of three), rdtsc 9.6 ns. Where the kernel itself
 * computes CLOCK_MONOTONIC from the time-stamp counter (clocksource "tsc": it found the counter constant-rate and in
 * step across the cores, else it would have chosen another source), the counter is read instead and mapped onto
 * CLOCK_MONOTONIC linearly from the last reading of both, taken again once TICKS_SPAN has gone by: between two such
 * anchors the map's slope, calibrated on all the run so far, errs by a few ns. */
#include "trc_clock.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* The longest the counter is extrapolated from an anchor, in seconds: one clock_gettime per millisecond is a
 * thousandth of a percent of the time, and a slope off by 1e-5 (a first calibration on CALIBRATION, each end known to
 * some 10 ns) errs by 10 ns over it. */
#define SPAN        1e-3
#define CALIBRATION 0.5e-3

static struct {
  int tsc;                       /* read the counter */
  double per_tick;               /* seconds per tick */
  unsigned long long first_tick; /* the first anchor: the slope's baseline */
  double first;
  unsigned long long anchor_tick; /* the last anchor */
  double anchor;
  unsigned long long span; /* SPAN in ticks */
  double last;             /* the last value returned */
} clk;

static double monotonic(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#if defined(__x86_64__)
static unsigned long long ticks(void)
{
  return __rdtsc();
}
#else
static unsigned long long ticks(void)
{
  return 0;
}
#endif

/* The counter and CLOCK_MONOTONIC read together: the counter's midpoint around the clock's reading, the tightest of
 * three (a reading the kernel preempted is wide). */
static void anchor_pair(unsigned long long *tick, double *when)
{
  unsigned long long best = ~0ULL;
  for (int i = 0; i < 3; i++) {
    unsigned long long a = ticks();
    double m = monotonic();
    unsigned long long b = ticks();
    if (b - a < best) {
      best = b - a;
      *tick = a + (b - a) / 2;
      *when = m;
    }
  }
}

/* Whether the kernel's clocksource is the time-stamp counter. */
static int kernel_uses_tsc(void)
{
#if defined(__x86_64__)
  char name[32] = "";
  FILE *in = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
  if (in && !fgets(name, sizeof name, in))
    name[0] = '\0';
  if (in)
    fclose(in);
  return strcmp(name, "tsc\n") == 0;
#else
  return 0;
#endif
}

void trc_clock_init(void)
{
  clk.tsc = kernel_uses_tsc();
  if (!clk.tsc)
    return;
  anchor_pair(&clk.first_tick, &clk.first);
  unsigned long long tick;
  double when;
  do
    anchor_pair(&tick, &when);
  while (when - clk.first < CALIBRATION);
  if (tick <= clk.first_tick) { /* a counter that does not advance: not one to read */
    clk.tsc = 0;
    return;
  }
  clk.per_tick = (when - clk.first) / (double)(tick - clk.first_tick);
  clk.span = (unsigned long long)(SPAN / clk.per_tick);
  clk.anchor_tick = tick;
  clk.anchor = when;
}

/* A new anchor, now, and the slope over the run so far: its value. */
static double reanchor(void)
{
  anchor_pair(&clk.anchor_tick, &clk.anchor);
  if (clk.anchor_tick > clk.first_tick && clk.anchor > clk.first)
    clk.per_tick = (clk.anchor - clk.first) / (double)(clk.anchor_tick - clk.first_tick);
  return clk.anchor;
}

double trc_clock_now(void)
{
  if (!clk.tsc)
    return monotonic();
  unsigned long long tick = ticks();
  unsigned long long since = tick - clk.anchor_tick;
  double now = since < clk.span ? clk.anchor + (double)since * clk.per_tick : reanchor();
  if (now < clk.last)
    now = clk.last;
  clk.last = now;
  return now;
}

double trc_clock_now_ordered(void)
{
#if defined(__x86_64__)
  _mm_lfence();
#endif
  return trc_clock_now();
}

const char *trc_clock_source(void)
{
  return clk.tsc ? "tsc" : "clock_gettime";
}
