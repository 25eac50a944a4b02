/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: the table of views (met_view.h's MET_VIEW_*). Skeletons register views by flag
 * (app_skeleton_t.views); each view says what its runs need, analyses a point's trace, finishes a point and writes,
 * reads and frees its own results, so that the sweep, the plan, the tasks, the result codec and the measured runs ask
 * the table instead of branching on views (docs/architecture.md, "Views"). */
#ifndef STU_VIEW_H
#define STU_VIEW_H

#include "app_skeleton.h"
#include "met_trace.h"
#include "stu_study.h"

#include <stdint.h>
#include <stdio.h>

/* What a view needs of the runs (stu_view_needs). */
typedef enum stu_need {
  STU_NEED_SEQ = 1u << 0,   /* the sequential time of each group (p = 1 runs first) */
  STU_NEED_PROCS = 1u << 1, /* the per-process view at the per-process p */
  STU_NEED_HOPS = 1u << 2   /* hop counts per message (sim_job_t.message_hops) */
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
  int no_breakdown;               /* no bottleneck breakdown (a measured run, stu_facts_t.no_breakdown) */
  int unsplit_anomaly;            /* the per-process anomaly is not split into true anomaly and imbalance (NAN: a
                                   * measured run, stu_facts_t.no_anomaly_split) */
} stu_view_input_t;

/* What a point's finish reads besides the point (borrowed). */
typedef struct stu_view_context {
  const stu_study_t *study;
  const app_skeleton_t *skeleton; /* the study's skeleton, or NULL: a measured run */
  const char *const *names;       /* with a skeleton: the scenario's parameter names, in its order */
  struct stu_models *models;      /* with a skeleton: the platforms described so far (stu_model.h's stu_models_new) */
} stu_view_context_t;

/* One view: a row of stu_view.c's table, defined by the view's own module (stu_lost_cycles.c, stu_messages.c,
 * stu_cause_effect.c, stu_waits.c, stu_model.c, stu_phases.c), which owns its results' type, their slot of the point
 * (stu_point_t.view, freed through the slot) and their typed accessors. */
typedef struct stu_view_row {
  unsigned flag;  /* MET_VIEW_*: what skeletons register and studies have; 0: every study */
  unsigned needs; /* STU_NEED_* */
  /* Optional: analyses a point's trace in the simulating child (POINT tasks only); 0 or a SIM_E* status. */
  int32_t (*analyse)(stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in);
  /* Optional: in the study, once the point's result is in: what needs its whole trace or the skeleton; 0 or
   * SIM_ENOMEM. */
  int (*finish)(stu_point_t *point, const stu_view_context_t *ctx);
  /* With analyse, or what the simulating child put in the view's slot (the wait states, stu_waits_compute): writes the
   * view's results of a point, empty when it has none; 0 or -1. A view that analyses without
   * encoding is a measured run's only: stu_view_flags refuses it to skeletons (its results could not leave the
   * simulating child). */
  int (*encode)(stu_point_t *r, FILE *out);
  /* With encode: reads them back into point; 0, or -1 (what was read stays in point's slot, for release). */
  int (*decode)(stu_point_t *point, FILE *in);
  /* Optional: once every point is in, before anything is reported: what the view draws from the whole study; 0 or
   * SIM_ENOMEM. */
  int (*summarise)(stu_study_t *study);
} stu_view_row_t;

/* The rows, one per view module (each defines its own), as stu_study_views.h lists them. */
#define STU_VIEW(slot, row) extern const stu_view_row_t row;
#include "stu_study_views.h"
#undef STU_VIEW

/* In the simulating child: each of `views`'s analysis of a point's trace into r. The first failing view's status
 * (SIM_EINVAL: undefined, SIM_ENOMEM), or 0. */
int32_t stu_view_analyse(unsigned views, stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in);
/* In the study, once a point's result is in (simulated or measured): each of `views`'s finish, which reads the point's
 * trace when the point kept it (the per-process p's, or every point's with stu_facts_t.requests). 0, or SIM_ENOMEM. */
int stu_view_finish(unsigned views, stu_point_t *point, const stu_view_context_t *ctx);
/* Once the study is complete (every point finished), before any rendering: each view's summary of the study (the
 * study's views, study->facts.views, and those of every study), in place of any earlier one. 0, or SIM_ENOMEM. */
int stu_view_summarise(stu_study_t *study);

/* Every view's section of a point's result stream, in the table's order (a view the point lacks writes an empty
 * section, or zeros), so that the stream's layout does not depend on the views. 0, or -1 when writing fails. */
int stu_view_encode(stu_point_t *r, FILE *out);
/* Reads what stu_view_encode wrote into `point`. 0, or -1 on a malformed or truncated stream (what was read is freed).
 */
int stu_view_decode(stu_point_t *point, FILE *in);

#endif
