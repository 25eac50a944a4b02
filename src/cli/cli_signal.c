/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stopping a run on SIGINT, SIGTERM, SIGHUP or SIGPIPE at any step: the handler only records the signal; the study
 * polls it between points and its waits return early, the outputs are rolled back (rep_report.h), and a watchdog thread
 * ends the process itself when the main thread has not reported the stop within GRACE_MS (it may be busy or blocked).
 */
#define _GNU_SOURCE /* sigaction, nanosleep, strsignal */

#include "cli_signal.h"
#include "rep_report.h"

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { GRACE_MS = 500, TICK_MS = 10 };

static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
static struct sigaction before[sizeof caught / sizeof caught[0]];
static volatile sig_atomic_t received;
static volatile sig_atomic_t repeated; /* a second signal: no grace */
static sem_t wake;
static sem_t ready; /* the watchdog has started */
static pthread_t watchdog;
static int watching; /* the watchdog thread runs */
static int leaving;  /* cli_signal_release: the watchdog ends */
static int reported; /* the stop was reported (cli_signal_claim) */
static const char *step = "before the sweep";
static char outputs[2048]; /* cli_signal_outputs */

static void on_signal(int signal)
{
  if (!received)
    received = signal;
  else
    repeated = 1;
  sem_post(&wake); /* async-signal-safe */
}

static void nap(int ms)
{
  struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int cli_signal_claim(void)
{
  return !__atomic_exchange_n(&reported, 1, __ATOMIC_SEQ_CST);
}

void cli_signal_message(char *line, size_t len)
{
  int n = snprintf(line, len, "interrupted by SIG%s %s", sigabbrev_np(received), step);
  if (n > 0 && (size_t)n < len && outputs[0])
    snprintf(line + n, len - (size_t)n, "; not written: %s (earlier files of those names are as they were)", outputs);
}

/* The main thread did not report the stop in time: roll the outputs back, say so and leave. */
static void end_now(void)
{
  char line[2600];
  int written = rep_file_close_all();
  if (cli_signal_claim() && received != SIGPIPE) {
    if (written < 0)
      snprintf(line, sizeof line,
               "simrun: error: interrupted by SIG%s while the outputs were renamed into place: some may be written\n",
               sigabbrev_np(received));
    else if (written)
      snprintf(line, sizeof line, "simrun: error: interrupted by SIG%s after every output was written\n",
               sigabbrev_np(received));
    else {
      memcpy(line, "simrun: error: ", 15);
      cli_signal_message(line + 15, sizeof line - 16);
      strcat(line, "\n");
    }
    if (write(STDERR_FILENO, line, strlen(line)) < 0)
      _exit(cli_signal_status());
  } else
    nap(GRACE_MS); /* the main thread is reporting: a moment to finish its line */
  _exit(cli_signal_status());
}

static void *watch(void *unused)
{
  sem_post(&ready);
  for (;;) {
    while (sem_wait(&wake) != 0)
      ;
    if (leaving)
      return NULL;
    if (!received)
      continue;
    double deadline = now() + GRACE_MS / 1000.0; /* by the clock: naps overshoot on a loaded machine */
    while (now() < deadline && !repeated && !leaving)
      nap(TICK_MS);
    if (leaving)
      return NULL;
    end_now();
  }
}

/* The watchdog is started with every signal blocked, so that they all go to the main thread: the caught ones interrupt
 * its waits, and SIGCHLD must wake its ppoll (sim_run_wait_any). With only the caught signals blocked, a
 * simulation process's SIGCHLD could be taken by the watchdog, leaving a sweep of -j 2 asleep for ever beside its two
 * finished children (seen once in test_labs, 18 minutes, gdb: child_ended = 1 in the main thread's sigsuspend, as the
 * wait was then). */
void cli_signal_catch(void)
{
  struct sigaction on = {.sa_handler = on_signal};
  sigset_t block, was;
  sigemptyset(&on.sa_mask);
  sigfillset(&block);
  pthread_sigmask(SIG_BLOCK, &block, &was);
  watching =
      sem_init(&wake, 0, 0) == 0 && sem_init(&ready, 0, 0) == 0 && pthread_create(&watchdog, NULL, watch, NULL) == 0;
  /* the thread's start-up allocates (AddressSanitizer's allocator has no fork handler): a simulation process forked
   * meanwhile could inherit its lock taken and hang, so the watchdog is waited for until it only waits */
  while (watching && sem_wait(&ready) != 0)
    ;
  pthread_sigmask(SIG_SETMASK, &was, NULL);
  for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
    sigaction(caught[i], &on, &before[i]);
}

void cli_signal_release(void)
{
  for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
    sigaction(caught[i], &before[i], NULL);
  if (!watching)
    return;
  leaving = 1;
  sem_post(&wake);
  pthread_join(watchdog, NULL);
  sem_destroy(&wake);
  sem_destroy(&ready);
  watching = 0;
}

int cli_signal_stop(void)
{
  return received != 0;
}

int cli_signal_status(void)
{
  return received ? 128 + received : 0;
}

int cli_signal_quiet(void)
{
  return received == SIGPIPE;
}

void cli_signal_outputs(const char *list)
{
  snprintf(outputs, sizeof outputs, "%s", list);
}

/* The test hook: SIMRUN_TEST_PAUSE=STEP waits there for a signal; STEP:stuck waits forever, as a parent too busy to
 * poll would, so that only the watchdog can end the run. */
static void pause_for_test(const char *name)
{
  const char *want = getenv("SIMRUN_TEST_PAUSE");
  size_t len = strlen(name);
  if (!want || strncmp(want, name, len) != 0 || (want[len] != '\0' && strcmp(want + len, ":stuck") != 0))
    return;
  fprintf(stderr, "simrun: test: paused at %s\n", name);
  while (want[len] || !received)
    nap(TICK_MS);
}

void cli_signal_step(const char *name, const char *phrase)
{
  step = phrase;
  pause_for_test(name);
}

int cli_signal_report(void)
{
  char line[2600];
  if (cli_signal_claim() && !cli_signal_quiet()) {
    cli_signal_message(line, sizeof line);
    fprintf(stderr, "simrun: error: %s\n", line);
  }
  return cli_signal_status();
}
