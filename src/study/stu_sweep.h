/* A study: every point of a scenario's sweep simulated in its own process, with the sequential time T_seq of each
 * point (the p = 1 run of the same skeleton and parameters) and the lost-cycle metrics computed from the traces. */
#ifndef STU_SWEEP_H
#define STU_SWEEP_H

#include "app_skeleton.h"
#include "met_bottleneck.h"
#include "met_comm.h"
#include "met_eppa.h"
#include "scn_scenario.h"

#include <stddef.h>

typedef struct stu_point {
  const char **values; /* one per scenario parameter, in the scenario's order; borrowed from the scenario */
  int p;
  double t_par;           /* simulated run time */
  size_t messages;        /* point-to-point messages simulated */
  met_eppa_t eppa;        /* lost-cycle view (skeletons with APP_VIEW_LOST_CYCLES) */
  met_breakdown_t breakdown; /* bottleneck view (seed 001 Table 5), with the lost-cycle view */
  met_eppa_proc_t *procs; /* per-process view, p entries, for the per-process p only; otherwise NULL */
  met_trace_t *trace;     /* the whole trace, kept for the per-process p only (timelines); otherwise NULL */
  met_msg_stat_t *msgs;   /* message view (APP_VIEW_MESSAGES): durations by size and distance; otherwise NULL */
  size_t nmsgs;
} stu_point_t;

typedef struct stu_study {
  const scn_scenario_t *scenario;
  app_view_t view;
  size_t npoints;
  stu_point_t *points; /* the cross product of the swept parameters, earlier parameters varying slowest */
} stu_study_t;

/* Called after each simulated point (done of total), for progress display. */
typedef void (*stu_progress_fn)(size_t done, size_t total, void *ctx);

/* Checks every point with the skeleton and the platform first (nothing is simulated when any point is wrong), then
 * simulates them all. `per_process` is the p whose per-process view is kept (0: none). Returns 0 and a new study in
 * *out (free with stu_free), or a SIM_E* code with *err filled: the scenario file and the line of the parameter to
 * blame for bad input, the platform file for a platform SimGrid rejects. */
int stu_run(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, int per_process, stu_progress_fn progress,
            void *ctx, stu_study_t **out, scn_error_t *err);

void stu_free(stu_study_t *study); /* accepts NULL */

/* The value of parameter `name` at `point`, or NULL. */
const char *stu_value(const stu_study_t *study, const stu_point_t *point, const char *name);

#endif
