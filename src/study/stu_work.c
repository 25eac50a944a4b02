/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The predicted cost of a plan's tasks and their schedule (stu_work.h), from the skeleton's own count of its
 * operations. */
#include "stu_work.h"
#include "app_skeleton.h"

#include <stdlib.h>

/* Tasks [lo, hi) on `slots` slots all free at `start`; returns when the last ends. */
static double schedule_phase(const double *cost, size_t lo, size_t hi, size_t slots, double start, double *free_at,
                             double *finish)
{
  double end = start;
  for (size_t s = 0; s < slots; s++)
    free_at[s] = start;
  for (size_t t = lo; t < hi; t++) {
    size_t first = 0;
    for (size_t s = 1; s < slots; s++)
      first = free_at[s] < free_at[first] ? s : first;
    finish[t] = free_at[first] += cost[t];
    end = finish[t] > end ? finish[t] : end;
  }
  return end;
}

/* Into finish[t]: when each of `count` tasks of cost[t] ends (stu_work_lay_out). 0, or -1 when out of memory. */
static int schedule(const double *cost, size_t count, size_t nseq, size_t slots, double *finish)
{
  size_t n = slots ? slots : 1;
  size_t seq = nseq < count ? nseq : count;
  double *free_at = malloc(n * sizeof *free_at);
  if (!free_at)
    return -1;
  schedule_phase(cost, seq, count, n, schedule_phase(cost, 0, seq, n, 0, free_at, finish), free_at, finish);
  free(free_at);
  return 0;
}

/* work->order: the tasks by predicted end (an insertion sort: a plan has a few thousand tasks at most). */
static void sort_by_end(stu_work_t *work)
{
  for (size_t t = 0; t < work->count; t++) {
    size_t i = t;
    for (; i > 0 && work->finish[work->order[i - 1]] > work->finish[t]; i--)
      work->order[i] = work->order[i - 1];
    work->order[i] = t;
  }
}

/* Each task's predicted cost (stu_work.h). */
static void costs(stu_work_t *work, const stu_plan_t *plan, const stu_sweep_ctx_t *ctx, stu_cache_t *cache)
{
  for (size_t t = 0; t < plan->count; t++) {
    const stu_task_t *task = &plan->tasks[t];
    const stu_point_t *point = &ctx->study->points[task->point];
    app_point_t at = {.count = ctx->scenario->nparams, .names = ctx->names, .values = point->values};
    if (cache && plan->keys[t] && stu_cache_has(cache, plan->keys[t]))
      work->cost[t] = 0;
    else
      work->cost[t] =
          STU_TASK_FIXED_WORK + (ctx->skeleton->work ? ctx->skeleton->work(&at, task->nranks) : task->nranks);
  }
}

int stu_work_lay_out(stu_work_t *work, size_t nseq, size_t slots)
{
  size_t n = work->count ? work->count : 1;
  work->finish = calloc(n, sizeof *work->finish);
  work->order = malloc(n * sizeof *work->order);
  if (!work->finish || !work->order || schedule(work->cost, work->count, nseq, slots, work->finish) != 0)
    return -1;
  for (size_t t = 0; t < work->count; t++)
    work->span = work->finish[t] > work->span ? work->finish[t] : work->span;
  sort_by_end(work);
  return 0;
}

int stu_work_new(stu_work_t *work, const stu_plan_t *plan, const stu_sweep_ctx_t *ctx, stu_cache_t *cache, size_t slots)
{
  *work = (stu_work_t){.count = plan->count, .cost = malloc((plan->count ? plan->count : 1) * sizeof *work->cost)};
  if (work->cost)
    costs(work, plan, ctx, cache);
  if (!work->cost || stu_work_lay_out(work, plan->nseq, slots) != 0) {
    stu_work_free(work);
    return -1;
  }
  return 0;
}

void stu_work_free(stu_work_t *work)
{
  free(work->cost);
  free(work->finish);
  free(work->order);
  *work = (stu_work_t){0};
}

double stu_work_finished(stu_work_t *work, size_t t)
{
  work->done += work->cost[t];
  double sum = 0;
  for (size_t i = 0; work->done > 0 && i < work->count; i++) {
    sum += work->cost[work->order[i]];
    if (sum >= work->done * (1 - 1e-12))
      return work->finish[work->order[i]];
  }
  return work->done > 0 ? work->span : 0;
}
