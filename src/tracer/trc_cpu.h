/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: the recorded thread's CPU time and its waits for a processor (trc_cpu.c), read
 * without calling the scheduler's accounting, which on a loaded machine handed the processor to others at every
 * reading. */
#ifndef TRC_CPU_H
#define TRC_CPU_H

/* The thread's CPU seconds so far, a counter whose differences between two readings are the CPU time between them:
 * the wall time less the time it waited for a processor while it did not block, else its CPU clock. Never less than
 * the value it returned before. The recorded thread's only. */
double trc_cpu_now(void);

/* trc_cpu_now, and into *waited (when not NULL) what trc_cpu_waited gives, from the same reading of schedstat: where
 * both are wanted at one moment, one read of the file, not two. */
double trc_cpu_now_waited(double *waited);

/* The thread's CPU clock itself (CLOCK_THREAD_CPUTIME_ID), in seconds: for a reading or two at MPI_Init and
 * MPI_Finalize, where its cost to the scheduling does not matter. */
double trc_cpu_clock(void);

/* The seconds the thread has been runnable but waiting for a processor (run_delay, the second field of
 * /proc/thread-self/schedstat: Linux's CONFIG_SCHED_INFO), or NAN where it cannot be read. */
double trc_cpu_waited(void);

/* Closes the thread's schedstat file, at MPI_Finalize: later readings are its CPU clock's. */
void trc_cpu_close(void);

#endif
