/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracer's reading of its thread's CPU time (src/tracer/trc_cpu.c and trc_clock.c, compiled into this test: plain
 * C): while the thread computes it never reads Linux's thread CPU clock, whose readings bring the scheduler's
 * accounting up to date and hand the processor to others on a loaded machine (clock_gettime is wrapped at link time
 * and its CPU clock readings counted); its counter agrees with that clock, leaves out a sleep and the time the thread
 * waited for a processor it shared with another; without schedstat every reading is the clock's. */
#define _GNU_SOURCE /* sched_setaffinity, sched_getcpu */
#include "trc_clock.h"
#include "trc_cpu.h"
#include "tu.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

int __real_clock_gettime(clockid_t id, struct timespec *t);

static atomic_long cpu_clock_readings; /* of CLOCK_THREAD_CPUTIME_ID, by any caller */

int __wrap_clock_gettime(clockid_t id, struct timespec *t)
{
  if (id == CLOCK_THREAD_CPUTIME_ID)
    atomic_fetch_add(&cpu_clock_readings, 1);
  return __real_clock_gettime(id, t);
}

/* Spins for `seconds` of wall time. */
static void spin(double seconds)
{
  double end = trc_clock_now() + seconds;
  while (trc_clock_now() < end)
    ;
}

enum { READINGS = 2000 };

/* 2,000 readings 20 us of work apart: the thread never blocked, so no CPU clock reading (each one did, before) */
static void test_trc_cpu_computing_reads_no_cpu_clock(void)
{
  trc_clock_init();
  double previous = trc_cpu_now();
  atomic_store(&cpu_clock_readings, 0);
  int backwards = 0;
  for (int i = 0; i < READINGS; i++) {
    spin(20e-6);
    double now = trc_cpu_now();
    backwards += now < previous;
    previous = now;
  }
  long read = atomic_load(&cpu_clock_readings);
  if (read > READINGS / 100)
    printf("\n  %ld CPU clock readings in %d counter readings\n", read, READINGS);
  CU_ASSERT(read <= READINGS / 100);
  CU_ASSERT_EQUAL(backwards, 0);
}

/* The counter's difference over 2,000 readings of 50 us apart against the CPU clock's: within 3% (0.03% by hand on a
 * quiet machine, 0.23% beside two busy loops on its two cores) */
static void test_trc_cpu_agrees_with_the_cpu_clock(void)
{
  trc_clock_init();
  double counter = trc_cpu_now(), clock = trc_cpu_clock();
  atomic_store(&cpu_clock_readings, 0);
  for (int i = 0; i < READINGS; i++) {
    spin(50e-6);
    trc_cpu_now();
  }
  counter = trc_cpu_now() - counter;
  clock = trc_cpu_clock() - clock;
  printf("\n  counter %.6f s, CPU clock %.6f s (%ld readings)\n", counter, clock, atomic_load(&cpu_clock_readings));
  CU_ASSERT(clock > 0.05);
  CU_ASSERT_DOUBLE_EQUAL(counter, clock, 0.03 * clock);
}

/* A sleep of 20 ms between two readings: the thread blocked (a voluntary switch), so its CPU clock is read and the
 * interval holds its few microseconds of CPU, not the sleep (the wall time less the waits for a processor would) */
static void test_trc_cpu_leaves_out_a_sleep(void)
{
  trc_clock_init();
  double before = trc_cpu_now();
  nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
  double slept = trc_cpu_now() - before;
  printf("\n  a 20-ms sleep counted as %.6f s of CPU\n", slept);
  CU_ASSERT(slept >= 0 && slept < 2e-3);
}

static atomic_int helper_stop;

/* Spins until told to stop, on the CPU it was given. */
static void *spinner(void *cpu)
{
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(*(int *)cpu, &one);
  sched_setaffinity(0, sizeof one, &one);
  while (!atomic_load(&helper_stop))
    ;
  return NULL;
}

/* This thread and a spinning one on one processor, which Linux shares between them: over 0.2 s of readings 30 us
 * apart the counter moves as the CPU clock (within 5%), not as the wall clock (some twice as much: checked, so that
 * the test shows the waits left out) */
static void test_trc_cpu_leaves_out_waits_for_the_processor(void)
{
  int cpu = sched_getcpu();
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  CU_ASSERT_EQUAL_FATAL(sched_setaffinity(0, sizeof one, &one), 0);
  trc_clock_init();
  atomic_store(&helper_stop, 0);
  pthread_t helper;
  CU_ASSERT_EQUAL_FATAL(pthread_create(&helper, NULL, spinner, &cpu), 0);
  double counter = trc_cpu_now(), clock = trc_cpu_clock(), wall = trc_clock_now();
  while (trc_cpu_clock() - clock < 0.2) {
    spin(30e-6);
    trc_cpu_now();
  }
  counter = trc_cpu_now() - counter;
  clock = trc_cpu_clock() - clock;
  wall = trc_clock_now() - wall;
  atomic_store(&helper_stop, 1);
  pthread_join(helper, NULL);
  printf("\n  counter %.6f s, CPU clock %.6f s, wall %.6f s\n", counter, clock, wall);
  CU_ASSERT(wall > 1.3 * clock);
  CU_ASSERT_DOUBLE_EQUAL(counter, clock, 0.05 * clock);
}

/* Without schedstat (closed at MPI_Finalize; a kernel without CONFIG_SCHED_INFO, no /proc), every reading is the CPU
 * clock's, and the counter still agrees with it. Last: the thread's schedstat stays closed. */
static void test_trc_cpu_without_schedstat_reads_the_clock(void)
{
  trc_clock_init();
  trc_cpu_close();
  CU_ASSERT(isnan(trc_cpu_waited()));
  double counter = trc_cpu_now(), clock = trc_cpu_clock();
  atomic_store(&cpu_clock_readings, 0);
  for (int i = 0; i < 100; i++) {
    spin(50e-6);
    trc_cpu_now();
  }
  CU_ASSERT_EQUAL(atomic_load(&cpu_clock_readings), 100);
  counter = trc_cpu_now() - counter;
  clock = trc_cpu_clock() - clock;
  CU_ASSERT_DOUBLE_EQUAL(counter, clock, 0.03 * clock);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_trc_cpu_computing_reads_no_cpu_clock", test_trc_cpu_computing_reads_no_cpu_clock},
      {"test_trc_cpu_agrees_with_the_cpu_clock", test_trc_cpu_agrees_with_the_cpu_clock},
      {"test_trc_cpu_leaves_out_a_sleep", test_trc_cpu_leaves_out_a_sleep},
      {"test_trc_cpu_leaves_out_waits_for_the_processor", test_trc_cpu_leaves_out_waits_for_the_processor},
      {"test_trc_cpu_without_schedstat_reads_the_clock", test_trc_cpu_without_schedstat_reads_the_clock},
      {NULL, NULL}};
  return tu_run("trc_cpu", cases);
}
