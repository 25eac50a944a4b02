/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The recorded thread's CPU time (trc_cpu.h), read without the scheduler's accounting. Linux's thread CPU clock
 * (clock_gettime(CLOCK_THREAD_CPUTIME_ID), and getrusage(RUSAGE_SELF)) brings the running thread's share up to date at
 * each reading (task_sched_runtime, update_curr), and the scheduler then preempts it at once when its slice is used up,
 * where it would otherwise wait for the next tick: two ranks exchanging a message after each 11 us of work, beside a
 * busy loop on each of the machine's two cores, took 10.8 s reading that clock around each exchange against 1.0 s
 * without, and 4.6 s traced by a tracer that read it (bench/loaded.sh; 1.0 s now); CP2K traced took 1.5 times as long
 * as untraced there, MPB twice as long (by hand; the same on a quiet machine). Instead a reading is the wall clock and
 * /proc/thread-self/schedstat (which reads the thread's fields as they are): between two readings where the thread
 * never blocked (no voluntary context switch), its CPU time is the wall time less what it waited for a processor
 * (run_delay, brought up to date each time the thread gets one back). That agreed with the thread's CPU clock to 0.03%
 * over 1.7 s of work read every 80 us, 0.23% beside the two busy loops (the difference: the hypervisor's and
 * interrupts' time, which the wall clock holds). An interval in which the thread blocked (a read, a sleep, a wait for a
 * child) reads the CPU clock; so does every reading where schedstat cannot be read. */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "trc_cpu.h"

#include "trc_clock.h"

#include <fcntl.h>
#include <math.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* A schedstat reading whose two wall-clock readings around it are further apart than this was preempted in it: the
 * wait may be in one and not in the other, so the CPU clock is read instead. */
#define READ_SPAN 20e-6

/* The thread's /proc/thread-self/schedstat, kept open, plus one: 0 not opened yet, -1 not to be. A reading is one
 * pread(2): fopen, fscanf and fclose took five system calls and a malloc each time, which under strace or perf trace,
 * where every recorder's gap then passes OWN_CPU_MAX, came to 290,824 opens a rank of pisoFoam (trc_record.c). */
static __thread int schedstat_fd;

/* What a schedstat reading gives. */
typedef struct schedstat {
  double waited;      /* run_delay, seconds */
  unsigned long runs; /* pcount: the times the thread got a processor; 0 where Linux keeps no schedstat */
} schedstat_t;

/* The last reading of the counter (the recorded thread's only, as the wall clock's calibration). */
static struct {
  int known;          /* a reading was made */
  double wall;        /* trc_clock_now at it */
  schedstat_t stat;   /* schedstat at it */
  long voluntary;     /* the thread's voluntary context switches at it (blocked: a sleep, a read, a lock) */
  double cpu;         /* the counter's value */
  double clock;       /* the CPU clock at the last reading that read it */
  double since_clock; /* what the counter added since that reading */
} last;

double trc_cpu_clock(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The unsigned decimal number after the spaces at *at, *at moved past it: 0, or -1 where none is there. By hand, not
 * sscanf, whose three fields took 129 ns a reading against 15 ns so (10^6 parses by hand on this machine; beside the
 * pread's 0.73 us): some 6 ms of a traced pisoFoam run's 57,000 readings. */
static int next_number(const char **at, unsigned long long *value)
{
  const char *p = *at;
  while (*p == ' ')
    p++;
  if (*p < '0' || *p > '9')
    return -1;
  unsigned long long v = 0;
  for (; *p >= '0' && *p <= '9'; p++)
    v = v * 10 + (unsigned long long)(*p - '0');
  *value = v;
  *at = p;
  return 0;
}

/* Reads schedstat ("RAN DELAY RUNS\n": the thread's nanoseconds on a processor and waiting for one, its times on one)
 * into *s: 0, or -1 where it cannot be read. */
static int read_schedstat(schedstat_t *s)
{
  if (schedstat_fd == 0) {
    int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    schedstat_fd = fd >= 0 ? fd + 1 : -1;
  }
  char text[128];
  ssize_t len = schedstat_fd > 0 ? pread(schedstat_fd - 1, text, sizeof text - 1, 0) : -1;
  if (len <= 0)
    return -1;
  text[len] = '\0';
  const char *at = text;
  unsigned long long ran = 0, delay = 0, runs = 0;
  if (next_number(&at, &ran) != 0 || next_number(&at, &delay) != 0 || next_number(&at, &runs) != 0)
    return -1;
  s->runs = (unsigned long)runs;
  s->waited = 1e-9 * (double)delay;
  return 0;
}

double trc_cpu_waited(void)
{
  schedstat_t s;
  return read_schedstat(&s) == 0 ? s.waited : NAN;
}

void trc_cpu_close(void)
{
  if (schedstat_fd > 0)
    close(schedstat_fd - 1);
  schedstat_fd = -1;
}

/* The thread's voluntary context switches so far, or -1. */
static long voluntary_switches(void)
{
  struct rusage u;
  return getrusage(RUSAGE_THREAD, &u) == 0 ? u.ru_nvcsw : -1;
}

/* Adds `cpu` seconds, at most the wall time since the last reading, to the counter. */
static void add(double cpu, double wall)
{
  double most = wall - last.wall;
  cpu = cpu < 0 ? 0 : cpu > most ? most : cpu;
  last.cpu += cpu;
  last.since_clock += cpu;
}

/* A reading of the CPU clock at `wall`: the counter moves by what the clock moved since its last reading, less what
 * the counter added since. */
static void read_clock(double wall, long voluntary)
{
  double clock = trc_cpu_clock();
  if (last.known)
    add(clock - last.clock - last.since_clock, wall);
  else
    last.cpu = clock;
  last.clock = clock;
  last.since_clock = 0;
  last.voluntary = voluntary >= 0 ? voluntary : voluntary_switches();
}

double trc_cpu_now_waited(double *waited)
{
  schedstat_t s = {0, 0};
  double before = trc_clock_now();
  int got = read_schedstat(&s) == 0, read = got && s.runs > 0;
  double wall = trc_clock_now();
  if (waited)
    *waited = got ? s.waited : NAN;
  if (!read || !last.known || last.stat.runs == 0 || wall - before > READ_SPAN) {
    read_clock(wall, -1);
  } else if (s.runs == last.stat.runs) { /* never off its processor since */
    add(wall - last.wall, wall);
  } else {
    long voluntary = voluntary_switches();
    if (voluntary >= 0 && voluntary == last.voluntary)
      add((wall - last.wall) - (s.waited - last.stat.waited), wall);
    else
      read_clock(wall, voluntary);
  }
  last.known = 1;
  last.wall = wall;
  last.stat = read ? s : (schedstat_t){0, 0};
  return last.cpu;
}

double trc_cpu_now(void)
{
  return trc_cpu_now_waited(NULL);
}
