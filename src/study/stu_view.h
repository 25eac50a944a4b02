/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: the table of views (met_view.h's MET_VIEW_*). Skeletons register views by flag
 * (app_skeleton_t.views); each view says what its runs need and how a point's trace is analysed, so that the sweep,
 * the plan and the tasks ask the table instead of branching on views. */
#ifndef STU_VIEW_H
#define STU_VIEW_H

#include "app_skeleton.h"
#include "met_trace.h"
#include "stu_study.h"

#include <stdint.h>

/* What a view needs of the runs (stu_view_needs). */
typedef enum stu_need {
  STU_NEED_SEQ = 1u << 0,   /* the sequential time of each group (p = 1 runs first) */
  STU_NEED_PROCS = 1u << 1, /* the per-process view at the per-process p */
  STU_NEED_TRACE = 1u << 2, /* every point's whole trace, analysed by finish */
  STU_NEED_HOPS = 1u << 3   /* hop counts per message (sim_job_t.message_hops) */
} stu_need_t;

/* The views of a skeleton's studies: its MET_VIEW_* flags that this table knows, or the lost-cycle view when it
 * registers none. */
unsigned stu_view_flags(unsigned app_views);
/* Whether one of `views` (MET_VIEW_* flags) needs `need` (a STU_NEED_* flag). */
int stu_view_needs(unsigned views, unsigned need);
/* What a point's analysis reads besides its trace (borrowed). */
typedef struct stu_view_input {
  double t_seq;                   /* the group's sequential time; 0: the point is its own sequential run */
  int keep_procs;                 /* the per-process view is asked for */
  const met_phase_role_t *phases; /* the skeleton's Table 5 rows (app_skeleton_t.phases) */
} stu_view_input_t;

/* In the simulating child: each of `views`'s analysis of a point's trace into r. The first failing view's status
 * (SIM_EINVAL: undefined, SIM_ENOMEM), or 0. */
int32_t stu_view_analyse(unsigned views, stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in);
/* In the study: each of `views`'s analysis of a finished point's whole trace (STU_NEED_TRACE). 0, or SIM_ENOMEM. */
int stu_view_finish(unsigned views, stu_point_t *point);

#endif
