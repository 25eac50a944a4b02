/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The local executor: up to `slots` simulations at once, each in its own forked process (-j N); whichever ends first
 * is collected first, and the results do not depend on that order. */
#include "sim_error.h"
#include "stu_pool.h"

#include <stdlib.h>

typedef struct pool {
  const stu_sweep_ctx_t *ctx;
  sim_run_child_t *children;
} pool_t;

static int pool_start(stu_exec_t *exec, size_t slot, const stu_task_t *task, char *err, size_t errlen)
{
  pool_t *pool = exec->state;
  return stu_task_start(pool->ctx, task, &pool->children[slot], err, errlen);
}

static int pool_wait(stu_exec_t *exec, size_t *slot, FILE **result, char *err, size_t errlen)
{
  pool_t *pool = exec->state;
  int rc = sim_run_wait_any(pool->children, exec->slots, slot, exec->stopped, err, errlen);
  if (rc == SIM_RUN_PROGRESS)
    return STU_EXEC_PROGRESS;
  *result = rc == 0 ? pool->children[*slot].channel : NULL;
  if (rc == 0)
    pool->children[*slot].channel = NULL;
  return rc;
}

static double pool_reported(const stu_exec_t *exec, size_t slot, int *ended)
{
  const pool_t *pool = exec->state;
  const sim_progress_reader_t *r = &pool->children[slot].progress;
  *ended = r->ended;
  return r->reports ? r->ops : -1;
}

static void pool_stop(stu_exec_t *exec)
{
  pool_t *pool = exec->state;
  sim_run_stop(pool->children, exec->slots);
}

int stu_pool_new(const stu_sweep_ctx_t *ctx, size_t slots, stu_exec_t *exec)
{
  pool_t *pool = malloc(sizeof *pool);
  sim_run_child_t *children = calloc(slots, sizeof *children);
  if (!pool || !children) {
    free(pool);
    free(children);
    return SIM_ENOMEM;
  }
  *pool = (pool_t){.ctx = ctx, .children = children};
  *exec = (stu_exec_t){.slots = slots,
                       .start = pool_start,
                       .wait = pool_wait,
                       .reported = pool_reported,
                       .stop = pool_stop,
                       .state = pool};
  return 0;
}

void stu_pool_free(stu_exec_t *exec)
{
  pool_t *pool = exec->state;
  if (!pool)
    return;
  pool_stop(exec);
  free(pool->children);
  free(pool);
  exec->state = NULL;
}
