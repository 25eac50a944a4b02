/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: one simulation of a sweep (a task), run in a forked child that analyses its trace
 * where it is, and the result it hands back as a byte stream (the same bytes whether they come from a local process,
 * an MPI worker or the on-disk cache). */
#ifndef STU_TASK_H
#define STU_TASK_H

#include "app_skeleton.h"
#include "sim_run.h"
#include "stu_study.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What the tasks of one sweep share: read-only once the points are built. */
typedef struct stu_sweep_ctx {
  const scn_scenario_t *scenario;
  const app_skeleton_t *skeleton;
  const char **names; /* parameter names, in the scenario's order */
  size_t p_index;     /* the position of "p" among them */
  const stu_study_t *study;
  const char *ti_dir; /* stu_options_t's */
  int ti_p;           /* the p whose runs write TI traces */
} stu_sweep_ctx_t;

typedef enum stu_task_kind {
  STU_TASK_POINT = 0, /* simulate a point and analyse it */
  STU_TASK_SEQ        /* the sequential run (p = 1) of a point's group: its time only */
} stu_task_kind_t;

/* What of its trace a point's result carries: the timeline as its pictures draw it (the per-process p's, met_pixels.h:
 * it grows with ranks and pixels), and the whole trace (the exports that need every event, --requests' list; it grows
 * with the messages, and is never cached). */
enum { STU_KEEP_PIXELS = 1, STU_KEEP_WHOLE = 2 };

/* One simulation, self-contained given the sweep: fixed-size, so that it travels as bytes to an MPI worker. */
typedef struct stu_task {
  int32_t kind;       /* stu_task_kind_t */
  int32_t point;      /* the point's index (a SEQ task: any point of the group) */
  int32_t nranks;     /* the point's p, or 1 for a SEQ task */
  int32_t keep_procs; /* also the per-process view */
  int32_t keep_trace; /* STU_KEEP_* flags: what of the trace the result carries besides the views */
  int32_t views;      /* a POINT task: its views (MET_VIEW_*); so no unnamed padding comes before t_seq */
  double t_seq;       /* a POINT task: its group's sequential time, or 0 (a p = 1 run is its own sequential run) */
} stu_task_t;

/* Starts `task` in a forked child, which simulates it and writes its result (stu_result_read reads it). Returns 0, or
 * a SIM_E* code with a message (the skeleton refused the point, or no process could be started). */
int stu_task_start(const stu_sweep_ctx_t *ctx, const stu_task_t *task, sim_run_child_t *child, char *err,
                   size_t errlen);
/* The program argument of `task`: the skeleton's prepare for its point and ranks, or, for a SEQ task of a skeleton
 * with its own sequential run, its prepare_seq, which says where T_seq comes from in `source` (or NULL). 0, or a
 * SIM_E* code with a message and the parameter to blame. */
int stu_task_prepare(const stu_sweep_ctx_t *ctx, const stu_task_t *task, void **arg, char *source, size_t sourcelen,
                     char *err, size_t errlen, const char **blame);

/* Reads a result into `point` (t_par, messages and the views the task asked for; p and values are left alone) and
 * the analysis status into *status (0, or SIM_EINVAL when the lost-cycle view is undefined). 0, or BAS_EIO on a
 * malformed or truncated stream (what was read is freed). */
int stu_result_read(stu_point_t *point, int32_t *status, FILE *in);

#endif
