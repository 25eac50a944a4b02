/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: the plan of a sweep. Its points fall into T_seq groups (the points equal but for p,
 * which share the sequential time of seed 000 §1.1); the plan lists the tasks in two phases, the sequential runs
 * first (a group's p = 1 point, or a run of its own for a group without one that has a point to simulate), then
 * every other point, and computes each task's cache key once. */
#ifndef STU_PLAN_H
#define STU_PLAN_H

#include "stu_task.h"

#include <stddef.h>

/* The cache key of `task` into `key`: 0, or -1 when it has none (never cached). */
typedef int (*stu_key_fn)(void *ctx, const stu_task_t *task, char *key, size_t len);
/* Whether a result is stored under `key`. */
typedef int (*stu_has_fn)(void *ctx, const char *key);

typedef struct stu_plan_options {
  unsigned views;  /* the MET_VIEW_* flags the point tasks compute */
  int seq;         /* the views need a sequential time per group (STU_NEED_SEQ) */
  int own_seq;     /* with seq: every group's comes from a SEQ run of its own (app_skeleton_t.prepare_seq), its p = 1
                    * point being an ordinary one */
  int procs;       /* the views keep the per-process view at per_process (STU_NEED_PROCS) */
  int traces;      /* every point's whole trace is kept (stu_facts_t.requests) */
  int per_process; /* the p whose per-process view and timeline (STU_KEEP_PIXELS) are kept; 0: none */
  int whole;       /* the per-process p's whole traces are kept too (stu_options_t.whole_traces) */
  stu_key_fn key;  /* or NULL: no cache, no keys */
  stu_has_fn has;  /* with key */
  void *ctx;       /* for key and has */
} stu_plan_options_t;

typedef struct stu_plan {
  size_t npoints;
  size_t ngroups;
  size_t *group; /* per point: its group, numbered in the order of their first points */
  size_t *first; /* per group: its first point */
  size_t *one;   /* per group: its first p = 1 point, or npoints when it has none */
  double *t_seq; /* per group: its sequential time once known (stu_plan_set_seq), else 0 */
  unsigned char *known;
  char **point_keys; /* per point: the cache key of its task, or NULL */
  char **seq_keys;   /* per group: the cache key of its SEQ task, or NULL */
  stu_task_t *tasks; /* [0, nseq): the sequential phase; [nseq, count): the other points */
  const char **keys; /* per task: its cache key (one of the above), or NULL */
  size_t nseq;
  size_t count;
} stu_plan_t;

/* Plans the sweep of `study`, whose parameter at `p_index` is p. 0, or SIM_ENOMEM (the plan is freed). Free with
 * stu_plan_free. */
int stu_plan_build(stu_plan_t *plan, const stu_study_t *study, size_t p_index, const stu_plan_options_t *options);
void stu_plan_free(stu_plan_t *plan);

/* Records the sequential time of point i's group, unless it is known already (the first one stays). */
void stu_plan_set_seq(stu_plan_t *plan, size_t i, double t_seq);
/* Gives the second phase's tasks their groups' sequential times (0 where unknown: the group was not simulated, or
 * the views need none). */
void stu_plan_fill_seq(stu_plan_t *plan);

#endif
