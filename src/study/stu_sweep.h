/* A study: every point of a scenario's sweep simulated in its own process, with the sequential time T_seq of each
 * point (the p = 1 run of the same skeleton and parameters) and the lost-cycle metrics computed from the traces. */
#ifndef STU_SWEEP_H
#define STU_SWEEP_H

#include "app_skeleton.h"
#include "met_bottleneck.h"
#include "met_carnival.h"
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
  met_carnival_t *carnival; /* cause-effect view (APP_VIEW_CAUSE_EFFECT); otherwise NULL */
  double t_model;         /* the skeleton's analytic model of T_par (app_skeleton_t.model); NAN when it has none */
  char warning[320];      /* the skeleton's advice on this point (app_skeleton_t.advise), or "" */
  char machine[512];      /* which characterisation rank 0's host used and where it came from (sim_machine_charac) */
  char model_missing[256]; /* with t_model NAN: what the model lacks, or "" */
} stu_point_t;

typedef struct stu_study {
  const scn_scenario_t *scenario;
  const app_skeleton_t *skeleton;
  app_view_t view;
  size_t npoints;
  stu_point_t *points; /* the cross product of the swept parameters, earlier parameters varying slowest; for a
                        * skeleton with a process grid, only the points whose grid rows divide p */
} stu_study_t;

/* Called after each simulated point (done of total), for progress display. */
typedef void (*stu_progress_fn)(size_t done, size_t total, void *ctx);

/* The default folder of the cache of finished points into `dir`: $SIMRUN_CACHE_DIR, else $XDG_CACHE_HOME/simrun,
 * else $HOME/.cache/simrun. 0, or -1 when none of these is set. */
int stu_cache_default_dir(char *dir, size_t len);

/* How a study runs its simulations. */
typedef struct stu_options {
  int per_process;          /* the p whose per-process view (and trace) is kept; 0: none */
  int jobs;                 /* simulations at once, each in its own process (-j); 0 counts as 1 */
  const char *cache_dir;    /* finished points are filed here and reused (stu_cache.h); NULL: no cache */
  int farm;                 /* 1: the simulations go to the MPI workers (stu_farm.h) instead of local processes */
  const char *ti_dir;       /* or NULL: the per-process p's runs also write TI traces (sim_ti.h) in ti_dir/point-<k>
                             * (k: the point's index, from 0), folders made as needed; local runs only */
  int (*stop)(void);        /* or NULL; when it returns 1 (after a SIGINT, say), the study stops with SIM_EINTR,
                             * keeping in the cache every point already finished */
  stu_progress_fn progress; /* or NULL: called after each finished point, in the order they finish */
  void *ctx;                /* for progress and warn */
  void (*warn)(const char *message, void *ctx); /* or NULL: told of each damaged cache entry deleted */
  int shard_index;          /* with shard_count N > 1: only the points k (from 0) with k mod N = shard_index - 1 are */
  int shard_count;          /* simulated and reported (--shard I/N); 0: all */
} stu_options_t;

/* Checks every point with the skeleton and the platform first (nothing is simulated when any point is wrong), then
 * simulates them all, their sequential runs first. The results are the same whatever the number of jobs, the farm
 * and the cache. Returns 0 and a new study in *out (free with stu_free), or a SIM_E* code with *err filled: the
 * scenario file and the line of the parameter to blame for bad input, the platform file for a platform SimGrid
 * rejects; SIM_EINTR when stopped. */
int stu_run_with(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, const stu_options_t *options,
                 stu_study_t **out, scn_error_t *err);

/* stu_run_with one job, no cache, no farm. */
int stu_run(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, int per_process, stu_progress_fn progress,
            void *ctx, stu_study_t **out, scn_error_t *err);

/* An MPI worker's part of the study (stu_farm.h): simulates the points rank 0 hands out until it says stop. With
 * scenario NULL (this worker could not read it), answers every point with an error. Returns 0, or a SIM_E* code with
 * *err filled. */
int stu_serve(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, scn_error_t *err);

void stu_free(stu_study_t *study); /* accepts NULL */

/* The platform file `point` runs on: its "platform" parameter's (resolved against the scenario's folder), or the
 * scenario's <platform>. Borrowed from the scenario. */
const char *stu_platform(const stu_study_t *study, const stu_point_t *point);

/* The value of parameter `name` at `point`, or NULL. */
const char *stu_value(const stu_study_t *study, const stu_point_t *point, const char *name);

#endif
