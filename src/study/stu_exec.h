/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: an executor runs up to `slots` tasks at once, in local processes (stu_pool.h) or on
 * the MPI workers (stu_farm.h); the runner (stu_runner.h) drives it. */
#ifndef STU_EXEC_H
#define STU_EXEC_H

#include "stu_task.h"

#include <stddef.h>
#include <stdio.h>

/* wait's answer when a running task reported how far it is (nothing ended): its slot in *slot. */
#define STU_EXEC_PROGRESS 1

typedef struct stu_exec stu_exec_t;
struct stu_exec {
  size_t slots;
  /* Starts `task` in free slot `slot`: 0 or a SIM_E* code with a message. */
  int (*start)(stu_exec_t *exec, size_t slot, const stu_task_t *task, char *err, size_t errlen);
  /* Waits for a started task to end: its slot in *slot; 0 with its result in *result (the caller closes it), the
   * task's error with a message, SIM_EINTR (a signal arrived; nothing ended) or STU_EXEC_PROGRESS. */
  int (*wait)(stu_exec_t *exec, size_t *slot, FILE **result, char *err, size_t errlen);
  /* Or NULL (no reports): the operations the task in `slot` reported it has simulated (sim_progress.h), the last
   * report's, until a task starts there again, and in *ended whether that was its end's; -1 before any. */
  double (*reported)(const stu_exec_t *exec, size_t slot, int *ended);
  /* Ends the tasks still running. */
  void (*stop)(stu_exec_t *exec);
  /* Set by the runner, or NULL: its stop request, which wait checks so that it returns SIM_EINTR within a moment of it,
   * whenever the signal came. */
  int (*stopped)(void);
  void *state;
};

#endif
