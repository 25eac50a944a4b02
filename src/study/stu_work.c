/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The predicted cost of a plan's tasks and their schedule (stu_work.h), from the skeleton's own count of its
 * operations, and the time left from what the tasks measured as they ran. */
#include "stu_work.h"
#include "bas_error.h"
#include "app_skeleton.h"
#include "sim_coll.h"

#include <stdlib.h>
#include <string.h>

/* The slot free first. */
static size_t first_free(const double *free_at, size_t slots)
{
  size_t first = 0;
  for (size_t s = 1; s < slots; s++)
    first = free_at[s] < free_at[first] ? s : first;
  return first;
}

/* Tasks [lo, hi) on `slots` slots all free at `start`; returns when the last ends. */
static double schedule_phase(const double *cost, size_t lo, size_t hi, size_t slots, double start, double *free_at,
                             double *finish)
{
  double end = start;
  for (size_t s = 0; s < slots; s++)
    free_at[s] = start;
  for (size_t t = lo; t < hi; t++) {
    size_t first = first_free(free_at, slots);
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
  work->nseq = nseq < work->count ? nseq : work->count;
  work->slots = slots ? slots : 1;
  work->finish = calloc(n, sizeof *work->finish);
  work->order = malloc(n * sizeof *work->order);
  work->clock = malloc(n * sizeof *work->clock);
  if (!work->finish || !work->order || !work->clock ||
      schedule(work->cost, work->count, nseq, slots, work->finish) != 0)
    return BAS_ENOMEM;
  for (size_t t = 0; t < work->count; t++) {
    work->span = work->finish[t] > work->span ? work->finish[t] : work->span;
    work->clock[t] = (stu_task_clock_t){-1, -1, -1, -1, -1, -1, -1, -1};
  }
  sort_by_end(work);
  return 0;
}

/* Whether points a and b are of one class: the same broadcast (or none) on the same platform. */
static int same_class(const stu_study_t *study, const stu_point_t *a, const stu_point_t *b)
{
  const char *x = a->role.broadcast, *y = b->role.broadcast;
  return (x == y || (x && y && strcmp(x, y) == 0)) && strcmp(stu_platform(study, a), stu_platform(study, b)) == 0;
}

/* Whether point task t is the first point task of its platform and p: the model view describes that machine once, when
 * it finishes (stu_model.c). */
static int first_of_its_p(const stu_plan_t *plan, const stu_study_t *study, size_t t)
{
  const stu_point_t *point = &study->points[plan->tasks[t].point];
  for (size_t u = 0; u < t; u++) {
    const stu_point_t *other = &study->points[plan->tasks[u].point];
    if (plan->tasks[u].kind == STU_TASK_POINT && other->p == point->p &&
        strcmp(stu_platform(study, other), stu_platform(study, point)) == 0)
      return 0;
  }
  return 1;
}

double stu_work_weight(double at_128, int nranks)
{
  return 1 + (at_128 - 1) * (nranks - 1) / 127.0;
}

/* Each task's class (the first task of the same class gives its number), the weight of its operations, and whether
 * its trace is kept (stu_task_t.keep_trace: its pixels or its whole trace). */
static void classes(stu_work_t *work, const stu_plan_t *plan, const stu_study_t *study)
{
  static const double bcast_weight[SIM_BCAST_COUNT] = STU_BCAST_OP_WEIGHTS;
  for (size_t t = 0; t < plan->count; t++) {
    const stu_point_t *point = &study->points[plan->tasks[t].point];
    size_t first = 0;
    while (!same_class(study, &study->points[plan->tasks[first].point], point))
      first++;
    work->klass[t] = first == t ? work->classes++ : work->klass[first];
    int alg = point->role.broadcast ? sim_bcast_parse(point->role.broadcast) : -1;
    work->weight[t] = alg >= 0 ? stu_work_weight(bcast_weight[alg], plan->tasks[t].nranks) : 1;
    work->kept[t] = plan->tasks[t].keep_trace != 0;
    work->describes[t] = plan->tasks[t].kind == STU_TASK_POINT && first_of_its_p(plan, study, t);
  }
}

int stu_work_new(stu_work_t *work, const stu_plan_t *plan, const stu_sweep_ctx_t *ctx, stu_cache_t *cache, size_t slots)
{
  size_t n = plan->count ? plan->count : 1;
  *work = (stu_work_t){.count = plan->count,
                       .cost = malloc(n * sizeof *work->cost),
                       .klass = malloc(n * sizeof *work->klass),
                       .weight = malloc(n * sizeof *work->weight),
                       .kept = malloc(n * sizeof *work->kept),
                       .describes = malloc(n * sizeof *work->describes)};
  if (work->cost && work->klass && work->weight && work->kept && work->describes) {
    costs(work, plan, ctx, cache);
    classes(work, plan, ctx->study);
  }
  if (!work->cost || !work->klass || !work->weight || !work->kept || !work->describes ||
      stu_work_lay_out(work, plan->nseq, slots) != 0) {
    stu_work_free(work);
    return BAS_ENOMEM;
  }
  return 0;
}

void stu_work_free(stu_work_t *work)
{
  free(work->cost);
  free(work->finish);
  free(work->order);
  free(work->clock);
  free(work->klass);
  free(work->weight);
  free(work->kept);
  free(work->describes);
  *work = (stu_work_t){0};
}

void stu_work_started(stu_work_t *work, size_t t, double now)
{
  work->clock[t].start = now;
}

void stu_work_reported(stu_work_t *work, size_t t, double ops, int ended, double now)
{
  stu_task_clock_t *c = &work->clock[t];
  if (ended) {
    c->end_at = c->end_ops < 0 ? now : c->end_at; /* the first "end" is when the simulation ended */
    c->end_ops = ops;
    return;
  }
  if (c->first_at < 0) {
    c->first_at = now;
    c->first_ops = ops;
  }
  c->last_at = now;
  c->last_ops = ops;
}

double stu_work_finished(stu_work_t *work, size_t t, double now)
{
  work->clock[t].end = now;
  work->done += work->cost[t];
  double sum = 0;
  for (size_t i = 0; work->done > 0 && i < work->count; i++) {
    sum += work->cost[work->order[i]];
    if (sum >= work->done * (1 - 1e-12))
      return work->finish[work->order[i]];
  }
  return work->done > 0 ? work->span : 0;
}

/* What the tasks measured so far say a simulation costs (stu_work_left); -1 for what nothing measured yet. */
typedef struct pace {
  double weighted; /* seconds an operation of weight 1 within a simulation, all classes together */
  double start;    /* S: seconds before a simulation's first operation */
  double end;      /* T: seconds from a simulation's end to its result taken, its trace not kept (0 before any) */
  double describe; /* D: what describing a platform for a p adds to T (stu_model.c) */
  double kept;     /* K: what a kept trace adds to T, over the seconds its simulation took */
  double rho;      /* the operations reported over those predicted */
  double unit;     /* without any pace: the seconds a unit of predicted cost took, whole simulations */
  double *seconds; /* per class: the seconds of its reported operations */
  double *ops;     /* per class: those operations, each at its task's weight */
} pace_t;

/* The operations the skeleton predicted for task t. */
static double predicted_ops(const stu_work_t *work, size_t t)
{
  double ops = work->cost[t] - STU_TASK_FIXED_WORK;
  return ops > 0 ? ops : 0;
}

static int reported(const stu_task_clock_t *c)
{
  return c->first_at >= 0;
}

/* The span of task t's reports within its simulation, from its first to its end's (once its simulation is over) or
 * its last: its seconds and operations; 0 seconds when it has none. */
static double window(const stu_task_clock_t *c, double *ops)
{
  int over = c->end_at >= 0 && c->end_ops >= 0;
  double last_at = over ? c->end_at : c->last_at, last_ops = over ? c->end_ops : c->last_ops;
  *ops = reported(c) ? last_ops - c->first_ops : 0;
  return reported(c) && *ops > 0 && last_at > c->first_at ? last_at - c->first_at : 0;
}

/* The seconds an operation over `seconds` of reports that saw `ops` operations, with `prior` (seconds an operation,
 * or -1 for none) counted as STU_WORK_PRIOR seconds of them: the prior at first, the reports' own pace once they span
 * well more; -1 when neither says. */
static double shrunk(double seconds, double ops, double prior)
{
  if (prior > 0)
    return (seconds + STU_WORK_PRIOR) / (ops + STU_WORK_PRIOR / prior);
  return seconds > 0 && ops > 0 ? seconds / ops : -1;
}

static size_t class_of(const stu_work_t *work, size_t t)
{
  return work->klass ? work->klass[t] : 0;
}

static double weight_of(const stu_work_t *work, size_t t)
{
  return work->weight ? work->weight[t] : 1;
}

static int kept(const stu_work_t *work, size_t t)
{
  return work->kept && work->kept[t];
}

static int describes(const stu_work_t *work, size_t t)
{
  return work->describes && work->describes[t];
}

/* P, the seconds an operation of task t: its class's reports, with the pace of all classes as their prior (shrunk),
 * at its weight; -1 before any pace is measured. */
static double op_pace(const stu_work_t *work, size_t t, const pace_t *p)
{
  size_t k = class_of(work, t);
  return p->weighted >= 0 ? shrunk(p->seconds[k], p->ops[k], p->weighted) * weight_of(work, t) : -1;
}

/* The paces and rho, and the fallback's seconds a unit, from every task. */
static void measure_rates(const stu_work_t *work, pace_t *p)
{
  double seconds = 0, weighted = 0, got = 0, predicted = 0, whole = 0, units = 0;
  for (size_t t = 0; t < work->count; t++) {
    const stu_task_clock_t *c = &work->clock[t];
    double ops, span = window(c, &ops);
    if (span > 0) {
      p->seconds[class_of(work, t)] += span;
      p->ops[class_of(work, t)] += ops * weight_of(work, t);
      seconds += span;
      weighted += ops * weight_of(work, t);
    }
    if (c->end_ops >= 0 && predicted_ops(work, t) > 0) {
      got += c->end_ops;
      predicted += predicted_ops(work, t);
    }
    if (c->end >= 0 && c->start >= 0) {
      whole += c->end - c->start;
      units += work->cost[t];
    }
  }
  p->weighted = seconds >= STU_WORK_MIN_PACE && weighted > 0 ? seconds / weighted : -1;
  p->rho = predicted > 0 && got > 0 ? got / predicted : 1;
  p->unit = units > 0 ? whole / units : -1;
}

/* The seconds task t's simulation takes from its first operation to its last, by the pace. */
static double simulating(const stu_work_t *work, size_t t, const pace_t *p)
{
  return p->rho * predicted_ops(work, t) * op_pace(work, t, p);
}

/* S, once some pace is known: the mean over the tasks that measured it, from their start to their first report (or
 * their end's, for a simulation too short to report before), less the operations done by then. */
static void measure_start(const stu_work_t *work, pace_t *p)
{
  double start = 0;
  size_t starts = 0;
  for (size_t t = 0; p->weighted >= 0 && t < work->count; t++) {
    const stu_task_clock_t *c = &work->clock[t];
    int first = reported(c);
    if (c->start < 0 || (!first && c->end_at < 0))
      continue;
    double s = first ? c->first_at - c->start - c->first_ops * op_pace(work, t, p)
                     : c->end_at - c->start - c->end_ops * op_pace(work, t, p);
    start += s > 0 ? s : 0;
    starts++;
  }
  p->start = starts ? start / (double)starts : -1;
}

/* The seconds from finished task t's simulation's end to its result taken, or -1 when not measured. */
static double after_end(const stu_task_clock_t *c)
{
  return c->end >= 0 && c->end_at >= 0 ? c->end - c->end_at : -1;
}

/* The mean of what finished tasks with `kept` and `describing` as given took after their simulation's end more than
 * `base` seconds (0 at least), each over `per` (1: seconds; 0: its simulation's seconds); `fallback` when none. */
static double mean_after(const stu_work_t *work, const pace_t *p, int kept_trace, int describing, double base, int per,
                         double fallback)
{
  double sum = 0;
  size_t n = 0;
  for (size_t t = 0; t < work->count; t++) {
    double after = after_end(&work->clock[t]), took = per ? 1 : work->clock[t].end_ops * op_pace(work, t, p);
    if (after < 0 || kept(work, t) != kept_trace || describes(work, t) != describing || took <= 0)
      continue;
    sum += (after > base ? after - base : 0) / took;
    n++;
  }
  return n ? sum / (double)n : fallback;
}

/* T, D and K from the finished tasks, once some pace is known: T the mean from a simulation's end to its result taken
 * where nothing more came after it; D the mean of what that took more for the first point of a platform and p (its
 * machine described: a process started and the platform loaded, as S, before any); K the mean of what that took more
 * where the trace was kept (written, read and analysed: the DSM's requests; the per-process point's pixels drawn from
 * its file),
 * over the seconds its simulation took (STU_WORK_KEPT_END before any). */
static void measure_ends(const stu_work_t *work, pace_t *p)
{
  if (p->weighted < 0)
    return;
  p->end = mean_after(work, p, 0, 0, 0, 1, 0);
  p->describe = mean_after(work, p, 0, 1, p->end, 1, p->start > 0 ? p->start : 0);
  p->kept = mean_after(work, p, 1, 0, p->end, 0, -1);
  if (p->kept < 0)
    p->kept = mean_after(work, p, 1, 1, p->end + p->describe, 0, STU_WORK_KEPT_END);
}

/* T for task t: what any simulation's end takes, and what its platform's description and its kept trace add. */
static double ending(const stu_work_t *work, size_t t, const pace_t *p)
{
  return p->end + (describes(work, t) ? p->describe : 0) + (kept(work, t) ? p->kept * simulating(work, t, p) : 0);
}

/* How long task t takes in all by the pace, or -1 when nothing says. */
static double expected(const stu_work_t *work, size_t t, const pace_t *p)
{
  if (p->weighted >= 0 && p->start >= 0)
    return p->start + simulating(work, t, p) + ending(work, t, p);
  return p->unit >= 0 ? p->unit * work->cost[t] : -1;
}

/* How long running task t still takes at `now`: from its last report, at its own pace once it has one, else its
 * class's; by the expected length of a simulation before it reported; its end's alone once its simulation is over. */
static double remaining(const stu_work_t *work, size_t t, const pace_t *p, double now)
{
  const stu_task_clock_t *c = &work->clock[t];
  double left;
  if (c->end_ops >= 0) { /* its simulation is over: its result is on its way */
    left = p->weighted >= 0 ? ending(work, t, p) - (now - (c->end_at >= 0 ? c->end_at : now)) : 0;
    return left > 0 ? left : 0;
  }
  double ops, span = window(c, &ops);
  double prior = op_pace(work, t, p); /* its class's, -1 before any pace: then by the fallback below */
  double pace = reported(c) && prior >= 0 ? shrunk(span, ops, prior) : -1;
  if (pace >= 0) {
    double todo = p->rho * predicted_ops(work, t) - c->last_ops;
    left = (todo > 0 ? todo : 0) * pace - (now - c->last_at);
    return (left > 0 ? left : 0) + (p->weighted >= 0 ? ending(work, t, p) : 0);
  }
  double all = expected(work, t, p);
  left = all - (now - c->start);
  return all < 0 ? -1 : left > 0 ? left : 0;
}
/* Lays the tasks not started in [lo, hi) out on the slots free at free_at; returns 0, or -1 when one has no
 * expected length. */
static int lay_out_left(const stu_work_t *work, size_t lo, size_t hi, const pace_t *p, double *free_at)
{
  for (size_t t = lo; t < hi; t++) {
    const stu_task_clock_t *c = &work->clock[t];
    if (c->start >= 0 || c->end >= 0 || work->cost[t] <= 0)
      continue;
    double length = expected(work, t, p);
    if (length < 0)
      return -1;
    free_at[first_free(free_at, work->slots)] += length;
  }
  return 0;
}

/* The latest of the slots' times; with `all` set, every slot is set to it. */
static double latest(double *free_at, size_t slots, int all)
{
  double last = 0;
  for (size_t s = 0; s < slots; s++)
    last = free_at[s] > last ? free_at[s] : last;
  for (size_t s = 0; all && s < slots; s++)
    free_at[s] = last;
  return last;
}

/* The running tasks' times left on the slots (stu_work_left): 0, or -1 when one has no expected length. */
static int lay_out_running(const stu_work_t *work, const pace_t *p, double now, double *free_at, int *seq_left)
{
  size_t slot = 0;
  for (size_t t = 0; t < work->count; t++) {
    const stu_task_clock_t *c = &work->clock[t];
    *seq_left |= t < work->nseq && c->end < 0 && work->cost[t] > 0;
    if (c->start < 0 || c->end >= 0 || slot == work->slots)
      continue;
    if ((free_at[slot++] = remaining(work, t, p, now)) < 0)
      return -1;
  }
  return 0;
}

double stu_work_left(const stu_work_t *work, double now)
{
  size_t classes = work->classes ? work->classes : 1;
  double *scratch = calloc(work->slots + 2 * classes, sizeof *scratch);
  if (!scratch)
    return -1;
  double *free_at = scratch;
  pace_t p = {.seconds = scratch + work->slots, .ops = scratch + work->slots + classes};
  measure_rates(work, &p);
  measure_start(work, &p);
  measure_ends(work, &p);
  int seq_left = 0;
  double left = -1;
  if ((p.weighted >= 0 || p.unit >= 0) && lay_out_running(work, &p, now, free_at, &seq_left) == 0 &&
      lay_out_left(work, 0, work->nseq, &p, free_at) == 0) {
    latest(free_at, work->slots, seq_left); /* the sequential phase ends before the rest starts */
    if (lay_out_left(work, work->nseq, work->count, &p, free_at) == 0)
      left = latest(free_at, work->slots, 0);
  }
  free(scratch);
  return left;
}
