/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The predicted cost of a plan's tasks (stu_work.h), from the skeleton's own count of its operations. */
#include "stu_work.h"
#include "app_skeleton.h"

#include <stdlib.h>

double *stu_work_of_tasks(const stu_plan_t *plan, const stu_sweep_ctx_t *ctx, stu_cache_t *cache)
{
  double *work = malloc((plan->count ? plan->count : 1) * sizeof *work);
  for (size_t t = 0; work && t < plan->count; t++) {
    const stu_task_t *task = &plan->tasks[t];
    const stu_point_t *point = &ctx->study->points[task->point];
    app_point_t at = {.count = ctx->scenario->nparams, .names = ctx->names, .values = point->values};
    if (cache && plan->keys[t] && stu_cache_has(cache, plan->keys[t]))
      work[t] = 0;
    else
      work[t] = STU_TASK_FIXED_WORK + (ctx->skeleton->work ? ctx->skeleton->work(&at, task->nranks) : task->nranks);
  }
  return work;
}
