/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun's light contexts (sim_fiber.h): contexts run in time order, ties first come first served, a suspended one
 * waits for its resume, and many contexts on small stacks run together. The orders are written out by hand. */
#include "sim_fiber.h"
#include "tu.h"

#include <stdio.h>
#include <string.h>

typedef struct log {
  sim_fibers_t *s;
  char text[256];
} log_t;

typedef struct actor {
  log_t *log;
  int id;
  double wake; /* when it sleeps until, after its first note */
} actor_t;

static void note(log_t *log, int id)
{
  size_t len = strlen(log->text);
  snprintf(log->text + len, sizeof log->text - len, "%d@%g ", id, sim_fibers_now(log->s));
}

static void sleeper(void *arg)
{
  actor_t *a = arg;
  note(a->log, a->id);
  sim_fibers_sleep_until(a->log->s, a->wake);
  note(a->log, a->id);
}

/* Three contexts start at 0 in the order started, then wake by time; the two that sleep until 2 wake in the order
 * they went to sleep, and a sleep into the past wakes at the clock. */
static void test_sim_fiber_time_order_and_ties(void)
{
  log_t log = {.s = sim_fibers_new(4, 16384)};
  CU_ASSERT_FATAL(log.s != NULL);
  actor_t a[4] = {{&log, 0, 2}, {&log, 1, 1}, {&log, 2, 2}, {&log, 3, 0}};
  for (int i = 0; i < 4; i++)
    sim_fibers_start(log.s, i, sleeper, &a[i]);
  sim_fibers_run(log.s);
  CU_ASSERT_STRING_EQUAL(log.text, "0@0 1@0 2@0 3@0 3@0 1@1 0@2 2@2 ");
  sim_fibers_free(log.s);
}

static int waiting = -1;

/* Context 0 suspends; context 1 sleeps until 5 and resumes it; context 0 then runs at 5, after context 1 is done. */
static void suspended(void *arg)
{
  actor_t *a = arg;
  waiting = a->id;
  sim_fibers_suspend(a->log->s);
  note(a->log, a->id);
}

static void waker(void *arg)
{
  actor_t *a = arg;
  sim_fibers_sleep_until(a->log->s, 5);
  sim_fibers_resume(a->log->s, waiting);
  note(a->log, a->id);
}

static void test_sim_fiber_suspend_and_resume(void)
{
  log_t log = {.s = sim_fibers_new(2, 16384)};
  CU_ASSERT_FATAL(log.s != NULL);
  actor_t a[2] = {{&log, 0, 0}, {&log, 1, 0}};
  sim_fibers_start(log.s, 0, suspended, &a[0]);
  sim_fibers_start(log.s, 1, waker, &a[1]);
  sim_fibers_run(log.s);
  CU_ASSERT_STRING_EQUAL(log.text, "1@5 0@5 ");
  sim_fibers_free(log.s);
}

/* A context nobody resumes is left behind when the run ends, and freed with the scheduler. */
static void test_sim_fiber_abandoned_context(void)
{
  log_t log = {.s = sim_fibers_new(1, 16384)};
  CU_ASSERT_FATAL(log.s != NULL);
  actor_t a = {&log, 0, 0};
  sim_fibers_start(log.s, 0, suspended, &a);
  sim_fibers_run(log.s);
  CU_ASSERT_STRING_EQUAL(log.text, "");
  sim_fibers_free(log.s);
}

enum { MANY = 20000 };
static int token_at[MANY];

/* Context i sleeps until i, records its clock and waits for the next: 20,000 contexts without guard pages. */
static void counter(void *arg)
{
  actor_t *a = arg;
  sim_fibers_sleep_until(a->log->s, a->wake);
  token_at[a->id] = (int)sim_fibers_now(a->log->s);
}

static void test_sim_fiber_many_contexts(void)
{
  static actor_t a[MANY];
  log_t log = {.s = sim_fibers_new(MANY, 16384)};
  CU_ASSERT_FATAL(log.s != NULL);
  for (int i = MANY - 1; i >= 0; i--) {
    a[i] = (actor_t){&log, i, (double)i};
    sim_fibers_start(log.s, i, counter, &a[i]);
  }
  sim_fibers_run(log.s);
  int ok = 1;
  for (int i = 0; i < MANY; i++)
    ok &= token_at[i] == i;
  CU_ASSERT(ok);
  sim_fibers_free(log.s);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_sim_fiber_time_order_and_ties", test_sim_fiber_time_order_and_ties},
                                    {"test_sim_fiber_suspend_and_resume", test_sim_fiber_suspend_and_resume},
                                    {"test_sim_fiber_abandoned_context", test_sim_fiber_abandoned_context},
                                    {"test_sim_fiber_many_contexts", test_sim_fiber_many_contexts},
                                    {NULL, NULL}};
  return tu_run("sim_fiber", cases);
}
