/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: runs a list of tasks on an executor, taking each result from the cache when it is
 * there under the task's key (the plan computed it, stu_plan.h) and filing the others in it. */
#ifndef STU_RUNNER_H
#define STU_RUNNER_H

#include "stu_cache.h"
#include "stu_exec.h"

#include <stddef.h>
#include <stdio.h>

/* Takes the result of a finished task (a stream positioned at it): 0, or a SIM_E* code with a message and the
 * parameter to blame (or NULL). */
typedef int (*stu_deliver_fn)(void *owner, const stu_task_t *task, FILE *result, char *err, size_t errlen,
                              const char **blame);

/* Or NULL: task is running, and has simulated `ops` operations as it last reported (sim_progress.h), `ended` when
 * that was the count at its simulation's end; -1 as it starts, before any report. Called as it starts, at each report,
 * and with its last count before its result is delivered. */
typedef void (*stu_running_fn)(void *owner, const stu_task_t *task, double ops, int ended);

typedef struct stu_runner {
  stu_exec_t *exec;
  stu_cache_t *cache; /* or NULL */
  int (*stop)(void);  /* or NULL; when it returns 1, nothing more starts and what runs is ended (SIM_EINTR) */
  stu_deliver_fn deliver;
  stu_running_fn running; /* or NULL */
  void *owner;
  /* The failure of the earliest failed task in the list, whatever the order tasks end in: */
  int rc;
  char message[1024];
  const char *blame;
  size_t failed; /* that task's index in the list */
} stu_runner_t;

/* Runs `count` tasks; keys[i] is task i's cache key, or NULL when it has none (keys may be NULL: none has). Returns
 * 0, or runner->rc: the earliest failure (every task started is waited for first), or SIM_EINTR. */
int stu_runner_run(stu_runner_t *runner, const stu_task_t *tasks, const char *const *keys, size_t count);

#endif
