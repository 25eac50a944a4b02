/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: the recorder's wall clock (trc_clock.c), CLOCK_MONOTONIC read for less than the
 * vDSO's clock_gettime costs where the kernel's own clock is the processor's time-stamp counter. */
#ifndef TRC_CLOCK_H
#define TRC_CLOCK_H

/* Chooses how to read the clock (the time-stamp counter when the kernel's clocksource is "tsc" on x86-64, else
 * clock_gettime) and calibrates the counter against CLOCK_MONOTONIC (some 0.5 ms). Called once, by the recorded
 * thread, before the first trc_clock_now. */
void trc_clock_init(void);

/* CLOCK_MONOTONIC now, in seconds: never less than the value it returned before. The recorded thread's only (its
 * calibration is not shared). */
double trc_clock_now(void);

/* trc_clock_now after every instruction before it has completed (lfence on x86-64): the two ends of a window of
 * some 10-100 ns, which plain counter readings, made before the work ahead of them retires, stretched with that work
 * (bench/trc_polling.c's polls read 19-26 ns in their calls with no work between them, 52-90 with 200 multiply-adds;
 * with the fence 47-49 with 40 or 200). The fence waits for that work: some 60-150 ns of CPU a pair after 200
 * multiply-adds, so a window is timed so only now and then. */
double trc_clock_now_ordered(void);

/* "tsc" or "clock_gettime": how trc_clock_now reads the time, for the timeline's header. */
const char *trc_clock_source(void);

#endif
