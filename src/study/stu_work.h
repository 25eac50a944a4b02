/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: what each task of a plan is predicted to cost, in simulated operations, so that the
 * progress bar's time left follows the work rather than the count of points (stu_progress_t). */
#ifndef STU_WORK_H
#define STU_WORK_H

#include "stu_cache.h"
#include "stu_plan.h"
#include "stu_task.h"

/* What a simulation costs whatever it simulates (a process, SimGrid's start, the platform's loading), in the cost of
 * one operation: about 0.05 s of CPU against 2.5 us per operation of Gauss-Jordan at p = 128 (bench/eta.sh). */
#define STU_TASK_FIXED_WORK 2e4

/* Per task of `plan`: the skeleton's operation count for its point on its ranks (app_skeleton_t.work; the ranks for a
 * skeleton without one) plus STU_TASK_FIXED_WORK, or 0 for a task whose result `cache` (or NULL) holds. A new array of
 * plan->count (free it), or NULL when out of memory. */
double *stu_work_of_tasks(const stu_plan_t *plan, const stu_sweep_ctx_t *ctx, stu_cache_t *cache);

#endif
