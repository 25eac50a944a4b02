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

/* "tsc" or "clock_gettime": how trc_clock_now reads the time, for the timeline's header. */
const char *trc_clock_source(void);

#endif
