/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A study's data: the points of a scenario's sweep with their values, platforms and results, and the facts the report
 * needs about the skeleton, copied into plain data so that the report never sees the skeleton catalogue or the
 * simulator. Filled by stu_sweep.h (simulated runs) or stu_measured.h (measured runs, simrun analyse): the same views.
 */
#ifndef STU_STUDY_H
#define STU_STUDY_H

#include "met_pixels.h"
#include "met_trace.h"
#include "met_view.h"
#include "scn_scenario.h"

#include <stddef.h>

/* The facts about the skeleton that the report shows; strings are static (the skeleton's). */
typedef struct stu_facts {
  const char *skeleton;         /* its name, or NULL for measured runs (simrun analyse): no machine to weigh */
  unsigned views;               /* MET_VIEW_* flags */
  unsigned subs;                /* Table 5's sub-components the program declares, met_phase_subs() */
  int has_model;                /* an analytic model of T_par (the report shows it beside T_par) */
  const char *model_name;       /* with has_model: which model, with which machine figures, one line */
  int has_advice;               /* the skeleton may warn about a point (stu_model_warning) */
  int grid;                     /* the skeleton runs on a process grid of rows x (p / rows) (SCN_ROLE_GRID_ROWS) */
  const char *no_breakdown;     /* or NULL: why the bottleneck view is left out of every output (a measured run) */
  const char *no_anomaly_split; /* or NULL: why the per-process anomaly is not split into true anomaly and imbalance */
  int requests; /* every point kept its whole trace for the cause-effect view's list of requests (stu_options_t) */
  int scaled;   /* p is zipped with other parameters: a scaled sweep, with fixed-size points beside (stu_scaled.h) */
} stu_facts_t;

/* The parameters with a role (scn_role_t) at one point, resolved once (stu_resolve_roles): what the layers above the
 * scenario read instead of a parameter's name. */
typedef struct stu_roles {
  const char *broadcast; /* SCN_ROLE_BROADCAST's value, or NULL without one (the engine's default) */
  int grid_rows;         /* SCN_ROLE_GRID_ROWS's value, or 0 without a process grid */
  int analytic;          /* SCN_ROLE_NETWORK is SCN_NETWORK_ANALYTIC */
  int baseline;          /* SCN_ROLE_VARIANT is SCN_VARIANT_BASELINE, or the scenario has no variant */
} stu_roles_t;

/* The slots of a point's results, one per view (stu_study_views.h): each view's module owns its results' type, fills
 * its slot and reads it back through typed accessors (stu_lost_cycles.h, stu_messages.h, stu_cause_effect.h,
 * stu_waits.h, stu_model.h, stu_phases.h), so that a new view is its module and a line of stu_study_views.h, never a
 * field of the point. */
#define STU_VIEW(slot, row) STU_SLOT_##slot,
typedef enum stu_slot_id {
#include "stu_study_views.h"
  STU_SLOTS
} stu_slot_id_t;
#undef STU_VIEW

typedef struct stu_slot {
  void *data;                  /* the view's results at the point, or NULL: it has none */
  void (*release)(void *data); /* frees data (set with it, stu_slot_make) */
} stu_slot_t;

typedef struct stu_point {
  const char **values; /* one per scenario parameter, in the scenario's order; borrowed from the scenario */
  int p;               /* SCN_ROLE_PROCESSES's value */
  stu_roles_t role;
  double t_par;               /* simulated run time */
  size_t messages;            /* point-to-point messages simulated */
  stu_slot_t view[STU_SLOTS]; /* each view's results, read through its module's accessors */
  met_pixels_t *pixels;       /* the timeline as its pictures draw it (met_pixels.h), kept for the per-process p only
                               * (a measured run read whole or spilled: every such run); otherwise NULL */
  met_trace_t *trace;         /* the whole trace, kept for the exports that need every event (the per-process p's with
                               * stu_options_t.whole_traces; every point's with stu_facts_t.requests; a measured run
                               * read whole), or a measured run's spilled one (met_trace_new_spilled: sums, its
                               * intervals in a file, which the exports walk); otherwise NULL */
  char t_seq_source[512];     /* where T_seq comes from when the skeleton says (app_skeleton_t.prepare_seq), or "": the
                               * run on one process */
  int fixed_size; /* a scaled sweep's fixed-size point (stu_scaled.h): 1, added beside the zip's points; -1 once the
                   * skeleton refused it (dropped before anything runs); 0 for every other point */
} stu_point_t;

typedef struct stu_study {
  const scn_scenario_t *scenario; /* borrowed, or the study's own (owned) */
  void *owned;                    /* what the study made for itself (a measured study's scenario), freed with it */
  stu_facts_t facts;
  size_t npoints;
  stu_point_t *points;           /* the cross product of the swept parameters, earlier parameters varying slowest; for a
                                  * skeleton with a process grid, only the points whose grid rows divide p */
  stu_slot_t summary[STU_SLOTS]; /* each view's summary of the whole study (fits, verdicts), read through its module */
  char *runs_text; /* or NULL: the command's own lines on the measured runs it read, before the study's report (simrun
                    * analyse's: pairing, tracer time, children, oversubscription, T_seq's source), unwrapped, which
                    * the HTML page shows in 80 columns; the study's own, freed with it */
} stu_study_t;

/* Whether the study has view `view` (a MET_VIEW_* flag). */
int stu_has_view(const stu_study_t *study, unsigned view);

/* The position of parameter `name` in the scenario, or the parameter count when it has none. */
size_t stu_param_index(const stu_study_t *study, const char *name);

/* Whether points a and b have the same value for every parameter but the one at position `except` (a position past
 * the last parameter excepts none). Values are compared as strings. */
int stu_same_except(const stu_study_t *study, const stu_point_t *a, const stu_point_t *b, size_t except);

/* Fills point->role from point->values, the values of `scenario`'s parameters. */
void stu_resolve_roles(const scn_scenario_t *scenario, stu_point_t *point);

/* The platform file `point` runs on: its platform parameter's (resolved against the scenario's folder), or the
 * scenario's <platform>. Borrowed from the scenario. */
const char *stu_platform(const stu_study_t *study, const stu_point_t *point);

/* The value of parameter `name` at `point`, or NULL. */
const char *stu_value(const stu_study_t *study, const stu_point_t *point, const char *name);

/* The results in `slot`, made first as `size` zeroed bytes that `release` frees when the slot is empty. NULL when out
 * of memory. */
void *stu_slot_make(stu_slot_t *slot, size_t size, void (*release)(void *data));
/* Frees every view's results of `point` (not its trace) and leaves its slots empty. */
void stu_slots_release(stu_point_t *point);
/* Frees every view's summary of `study` and leaves its summary slots empty. */
void stu_summaries_release(stu_study_t *study);

/* Frees the study, its points and what they own; accepts NULL. */
void stu_free(stu_study_t *study);

#endif
