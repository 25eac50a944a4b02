/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs a list of tasks on an executor (local processes or an MPI farm), as many at once as it has slots. Each result
 * comes from the cache when it is there and is filed in it otherwise. A failure is reported for the earliest failed
 * task in the list, so that the outcome does not depend on which task happens to end first. */
#include "stu_runner.h"
#include "sim_error.h"

#include <stdint.h>
#include <stdlib.h>

#define FREE_SLOT SIZE_MAX

typedef struct progress {
  size_t next;             /* the next task to start */
  size_t busy;             /* slots running a task */
  size_t failed_at;        /* the earliest failed task, or SIZE_MAX */
  size_t *running;         /* per slot: its task, or FREE_SLOT */
  const char *const *keys; /* per task: its cache key, or NULL */
} progress_t;

static int stopped(const stu_runner_t *r)
{
  return r->stop && r->stop();
}

/* Records the failure of task `index` when it is the earliest so far. */
static void fail(stu_runner_t *r, progress_t *at, size_t index, int rc, const char *message, const char *blame)
{
  if (index >= at->failed_at)
    return;
  at->failed_at = index;
  r->failed = index;
  r->rc = rc;
  r->blame = blame;
  snprintf(r->message, sizeof r->message, "%s", message);
}

/* Task i's cache key, or NULL. */
static const char *key_of(const stu_runner_t *r, const progress_t *at, size_t i)
{
  return r->cache && at->keys ? at->keys[i] : NULL;
}

/* Files a fresh result in the cache (a failure to do so only costs a later re-run), then delivers it. */
static int take(stu_runner_t *r, const stu_task_t *task, const char *key, FILE *result, char *msg, size_t len,
                const char **blame)
{
  if (key)
    stu_cache_put(r->cache, key, result);
  return r->deliver(r->owner, task, result, msg, len, blame);
}

/* Tells the owner how far a running task is (stu_running_fn). */
static void tell_running(const stu_runner_t *r, const stu_task_t *task, double ops, int ended)
{
  if (r->running)
    r->running(r->owner, task, ops, ended);
}

/* Tells the owner what the task in `slot` reported last, if anything. */
static void tell_reported(const stu_runner_t *r, const stu_task_t *task, size_t slot)
{
  int ended = 0;
  double ops = r->exec->reported ? r->exec->reported(r->exec, slot, &ended) : -1;
  if (ops >= 0)
    tell_running(r, task, ops, ended);
}

/* Starts task i in a free slot, or delivers it from the cache. */
static void start_next(stu_runner_t *r, progress_t *at, const stu_task_t *task, size_t i)
{
  const char *key = key_of(r, at, i);
  char msg[1024] = "";
  const char *blame = NULL;
  FILE *cached = key ? stu_cache_get(r->cache, key) : NULL;
  if (cached) {
    int rc = r->deliver(r->owner, task, cached, msg, sizeof msg, &blame);
    fclose(cached);
    if (rc != 0)
      fail(r, at, i, rc, msg, blame);
    return;
  }
  size_t slot = 0;
  while (at->running[slot] != FREE_SLOT)
    slot++;
  int rc = r->exec->start(r->exec, slot, task, msg, sizeof msg);
  if (rc != 0) {
    fail(r, at, i, rc, msg, NULL);
    return;
  }
  at->running[slot] = i;
  at->busy++;
  tell_running(r, task, -1, 0);
}

/* Waits for one running task and takes its result, or passes on how far one is; nothing happens when a signal
 * interrupts the wait. */
static void collect(stu_runner_t *r, progress_t *at, const stu_task_t *tasks)
{
  char msg[1024] = "";
  const char *blame = NULL;
  size_t slot = 0;
  FILE *result = NULL;
  int rc = r->exec->wait(r->exec, &slot, &result, msg, sizeof msg);
  if (rc == SIM_EINTR)
    return;
  size_t i = at->running[slot];
  if (rc == STU_EXEC_PROGRESS || rc == 0)
    tell_reported(r, &tasks[i], slot);
  if (rc == STU_EXEC_PROGRESS)
    return;
  at->running[slot] = FREE_SLOT;
  at->busy--;
  if (rc == 0) {
    rc = take(r, &tasks[i], key_of(r, at, i), result, msg, sizeof msg, &blame);
    fclose(result);
  }
  if (rc != 0)
    fail(r, at, i, rc, msg, blame);
}

int stu_runner_run(stu_runner_t *r, const stu_task_t *tasks, const char *const *keys, size_t count)
{
  size_t slots = r->exec->slots;
  progress_t at = {.failed_at = SIZE_MAX, .running = malloc(slots * sizeof *at.running), .keys = keys};
  r->rc = 0;
  if (!at.running) {
    snprintf(r->message, sizeof r->message, "%s", bas_strerror(SIM_ENOMEM));
    return r->rc = SIM_ENOMEM;
  }
  for (size_t s = 0; s < slots; s++)
    at.running[s] = FREE_SLOT;
  r->exec->stopped = r->stop;
  for (;;) {
    while (!stopped(r) && at.failed_at == SIZE_MAX && at.next < count && at.busy < slots) {
      at.next++;
      start_next(r, &at, &tasks[at.next - 1], at.next - 1);
    }
    if (at.busy == 0 || stopped(r))
      break;
    collect(r, &at, tasks);
  }
  if (stopped(r)) {
    r->exec->stop(r->exec);
    r->rc = SIM_EINTR;
    snprintf(r->message, sizeof r->message, "interrupted");
  }
  free(at.running);
  return r->rc;
}
