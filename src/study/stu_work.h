/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: what each task of a plan is predicted to cost, in simulated operations, and when it is
 * predicted to finish on the executor's slots, so that the progress bar's time left follows the predicted schedule
 * rather than the count of points (stu_progress_t). */
#ifndef STU_WORK_H
#define STU_WORK_H

#include "stu_cache.h"
#include "stu_plan.h"
#include "stu_task.h"

/* What a simulation costs whatever it simulates (a process, SimGrid's start, the platform's loading), in operations:
 * bench/eta.sh --costs, twice on this project's 2-core machine under load (23 November 2026), gave 4,600 to 12,600
 * (one simulation of bcast-t800's Gauss-Jordan at p = 2 against p = 128, for two broadcasts; 0.9 to 1.9 us an
 * operation): 7,900 on average. */
#define STU_TASK_FIXED_WORK 8e3

typedef struct stu_work {
  size_t count;
  double *cost;   /* per plan task: its predicted cost, 0 for one whose result the cache holds */
  double *finish; /* per plan task: its predicted end, in operations of one job from the start (stu_work_lay_out) */
  size_t *order;  /* the tasks by predicted end */
  double done;    /* the cost of the tasks finished so far */
  double span;    /* the predicted end of the last task */
} stu_work_t;

/* Per task of `plan`: the skeleton's operation count for its point on its ranks (app_skeleton_t.work; the ranks for a
 * skeleton without one) plus STU_TASK_FIXED_WORK, or 0 for a task whose result `cache` (or NULL) holds; and the
 * schedule of the plan on `slots` slots. 0, or -1 when out of memory (nothing to free then). */
int stu_work_new(stu_work_t *work, const stu_plan_t *plan, const stu_sweep_ctx_t *ctx, stu_cache_t *cache,
                 size_t slots);
void stu_work_free(stu_work_t *work);

/* With work->count and work->cost set: lays the tasks out on `slots` jobs, each starting in order on the first job
 * free, the first `nseq` (the sequential phase) all ended before any other starts, as the sweep runs them
 * (stu_runner.h): each one's predicted end (finish), the tasks by it (order) and the last (span). 0, or -1 when out
 * of memory (stu_work_free frees what there is). */
int stu_work_lay_out(stu_work_t *work, size_t nseq, size_t slots);

/* Task t is finished: returns how far the predicted schedule is, the predicted end by which tasks costing as much as
 * all those finished so far are finished (0 before any cost is done, work->span once all is). */
double stu_work_finished(stu_work_t *work, size_t t);

#endif
