/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The plan of a sweep: T_seq groups, the tasks of its two phases and their cache keys, each computed once. */
#include "stu_plan.h"
#include "sim_error.h"

#include <stdlib.h>
#include <string.h>

#define KEY_LEN 4096

/* Numbers the groups: point i joins the group of the first earlier point equal to it but for p. */
static void find_groups(stu_plan_t *plan, const stu_study_t *study, size_t p_index)
{
  for (size_t i = 0; i < plan->npoints; i++) {
    size_t g = 0;
    while (g < plan->ngroups && !stu_same_except(study, &study->points[plan->first[g]], &study->points[i], p_index))
      g++;
    if (g == plan->ngroups) {
      plan->first[plan->ngroups] = i;
      plan->one[plan->ngroups++] = plan->npoints;
    }
    plan->group[i] = g;
    if (study->points[i].p == 1 && plan->one[g] == plan->npoints)
      plan->one[g] = i;
  }
}

/* The task simulating point i (its sequential time comes later: stu_plan_fill_seq). */
static stu_task_t point_task(const stu_study_t *study, size_t i, const stu_plan_options_t *o)
{
  int p = study->points[i].p;
  return (stu_task_t){.kind = STU_TASK_POINT,
                      .point = (int32_t)i,
                      .nranks = p,
                      .views = (int32_t)o->views,
                      .keep_procs = o->procs && p == o->per_process,
                      .keep_trace = (p == o->per_process ? STU_KEEP_PIXELS : 0) |
                                    ((p == o->per_process && o->whole) || o->traces ? STU_KEEP_WHOLE : 0)};
}

/* The key of `task` into a new string in *key (NULL when it has none). 0, or SIM_ENOMEM. */
static int make_key(const stu_task_t *task, const stu_plan_options_t *o, char **key)
{
  char buf[KEY_LEN];
  *key = NULL;
  if (!o->key || o->key(o->ctx, task, buf, sizeof buf) != 0)
    return 0;
  *key = strdup(buf);
  return *key ? 0 : SIM_ENOMEM;
}

static void add_task(stu_plan_t *plan, stu_task_t task, const char *key)
{
  plan->tasks[plan->count] = task;
  plan->keys[plan->count++] = key;
}

/* Whether a point of group g must be simulated: it has no key, or nothing is stored under it. */
static int group_to_simulate(const stu_plan_t *plan, size_t g, const stu_plan_options_t *o)
{
  for (size_t i = 0; i < plan->npoints; i++)
    if (plan->group[i] == g && (!plan->point_keys[i] || !o->has(o->ctx, plan->point_keys[i])))
      return 1;
  return 0;
}

/* The sequential phase: per group, its p = 1 point's task or, for a group without one that has a point to simulate,
 * a SEQ run of its own. 0, or SIM_ENOMEM. */
static int plan_sequential(stu_plan_t *plan, const stu_study_t *study, const stu_plan_options_t *o)
{
  for (size_t g = 0; o->seq && g < plan->ngroups; g++) {
    size_t one = plan->one[g];
    if (one < plan->npoints && !o->own_seq) {
      add_task(plan, point_task(study, one, o), plan->point_keys[one]);
      continue;
    }
    if (o->key && !group_to_simulate(plan, g, o))
      continue;
    stu_task_t seq = {.kind = STU_TASK_SEQ, .point = (int32_t)plan->first[g], .nranks = 1};
    if (make_key(&seq, o, &plan->seq_keys[g]) != 0)
      return SIM_ENOMEM;
    add_task(plan, seq, plan->seq_keys[g]);
  }
  plan->nseq = plan->count;
  return 0;
}

/* The second phase: every point not simulated in the first. */
static void plan_points(stu_plan_t *plan, const stu_study_t *study, const stu_plan_options_t *o)
{
  for (size_t i = 0; i < plan->npoints; i++)
    if (!o->seq || o->own_seq || study->points[i].p != 1)
      add_task(plan, point_task(study, i, o), plan->point_keys[i]);
}

int stu_plan_build(stu_plan_t *plan, const stu_study_t *study, size_t p_index, const stu_plan_options_t *o)
{
  size_t n = study->npoints;
  *plan = (stu_plan_t){.npoints = n,
                       .group = calloc(n + 1, sizeof *plan->group),
                       .first = calloc(n + 1, sizeof *plan->first),
                       .one = calloc(n + 1, sizeof *plan->one),
                       .t_seq = calloc(n + 1, sizeof *plan->t_seq),
                       .known = calloc(n + 1, sizeof *plan->known),
                       .point_keys = calloc(n + 1, sizeof *plan->point_keys),
                       .seq_keys = calloc(n + 1, sizeof *plan->seq_keys),
                       .tasks = calloc(2 * n + 1, sizeof *plan->tasks),
                       .keys = calloc(2 * n + 1, sizeof *plan->keys)};
  int rc = plan->group && plan->first && plan->one && plan->t_seq && plan->known && plan->point_keys &&
                   plan->seq_keys && plan->tasks && plan->keys
               ? 0
               : SIM_ENOMEM;
  if (rc == 0)
    find_groups(plan, study, p_index);
  for (size_t i = 0; rc == 0 && i < n; i++) {
    stu_task_t task = point_task(study, i, o);
    rc = make_key(&task, o, &plan->point_keys[i]);
  }
  rc = rc ? rc : plan_sequential(plan, study, o);
  if (rc == 0)
    plan_points(plan, study, o);
  else
    stu_plan_free(plan);
  return rc;
}

void stu_plan_free(stu_plan_t *plan)
{
  for (size_t i = 0; plan->point_keys && i < plan->npoints; i++)
    free(plan->point_keys[i]);
  for (size_t g = 0; plan->seq_keys && g < plan->ngroups; g++)
    free(plan->seq_keys[g]);
  free(plan->group);
  free(plan->first);
  free(plan->one);
  free(plan->t_seq);
  free(plan->known);
  free(plan->point_keys);
  free(plan->seq_keys);
  free(plan->tasks);
  free(plan->keys);
  *plan = (stu_plan_t){0};
}

void stu_plan_set_seq(stu_plan_t *plan, size_t i, double t_seq)
{
  size_t g = plan->group[i];
  if (plan->known[g])
    return;
  plan->known[g] = 1;
  plan->t_seq[g] = t_seq;
}

void stu_plan_fill_seq(stu_plan_t *plan)
{
  for (size_t t = plan->nseq; t < plan->count; t++)
    plan->tasks[t].t_seq = plan->t_seq[plan->group[plan->tasks[t].point]];
}
