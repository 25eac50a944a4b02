/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs a study (stu_study.h): every point of a scenario's sweep simulated in its own process, with the sequential time
 * T_seq of each point (the p = 1 run of the same skeleton and parameters) and the views computed from the traces.
 * Orchestration only: the plan (stu_plan.h), the runner, the pool, the farm and the cache do the work. */
#ifndef STU_SWEEP_H
#define STU_SWEEP_H

#include "scn_scenario.h"
#include "stu_study.h"

#include <stddef.h>
#include <stdint.h>

typedef struct app_skeleton app_skeleton_t; /* app_skeleton.h: only passed through, so the callers see no more */

/* How far a study is: its points finished (those taken from the cache included) of all, and how far the predicted
 * schedule of its simulations (sequential runs included) is and its whole length, in simulated operations of one job
 * (stu_work.h: each simulation's predicted cost, the skeleton's count of its messages and computations plus a fixed
 * cost, laid out on the jobs in the order they run); the simulations whose results the cache held at the start cost
 * nothing. work_done is the predicted time by which simulations costing as much as those finished are finished. left
 * is the time left in seconds from what the simulations measured as they ran (stu_work_left: the operations each
 * reported from inside its run against its predicted count, the measured pace of the run so far), -1 before anything
 * was measured. */
typedef struct stu_progress {
  size_t done;
  size_t total;
  double work_done;
  double work_total;
  double left;
} stu_progress_t;

/* Called once as the simulations start (nothing done yet: the time to start timing them), then after each finished
 * simulation or point and as the running simulations report how far they are (local jobs: a few times a second at
 * most; on the MPI farm, only as they finish), for progress display. */
typedef void (*stu_progress_fn)(const stu_progress_t *progress, void *ctx);

/* The default folder of the cache of finished points into `dir`: $SIMRUN_CACHE_DIR, else $XDG_CACHE_HOME/simrun,
 * else $HOME/.cache/simrun. 0, or BAS_EINVAL when none of these is set. */
int stu_cache_default_dir(char *dir, size_t len);
/* The bound on the cache folder's size when $SIMRUN_CACHE_MAX_MB is unset, in MiB: a rebuilt simrun or another SimGrid
 * keys every point anew, so the entries of older builds are never read again and only this bound removes them. */
#define STU_CACHE_MAX_MB_DEFAULT 1024
#define STU_CACHE_MAX_MB_LIMIT   (1 << 20) /* 1 TiB */
/* The cache folder's bound in bytes (stu_options_t.cache_max) from $SIMRUN_CACHE_MAX_MB (a whole number of MiB from 1
 * to STU_CACHE_MAX_MB_LIMIT; unset or empty: the default). 0, or BAS_EINVAL when it is not such a number. */
int stu_cache_default_max(uint64_t *bytes);

/* How a study runs its simulations. */
typedef struct stu_options {
  int per_process;          /* the p whose per-process view and timeline (met_pixels.h) are kept; 0: none */
  int whole_traces;         /* 1: the per-process p's whole traces are kept too, for the exports that need every event
                             * (Paje, OTF2): those points are simulated again rather than taken from the cache, and
                             * memory grows with their messages */
  int requests;             /* 1: a study with the cause-effect view keeps every point's whole trace, whose requests
                             * it lists (stu_ce_requests; memory then grows with the requests) */
  int jobs;                 /* simulations at once, each in its own process (-j); 0 counts as 1 */
  const char *cache_dir;    /* finished points are filed here and reused (stu_cache.h); NULL: no cache */
  uint64_t cache_max;       /* with cache_dir: its bound in bytes, trimmed to after the run (stu_cache_trim); 0: none */
  int farm;                 /* 1: the simulations go to the MPI workers (stu_farm.h) instead of local processes */
  const char *ti_dir;       /* or NULL: the per-process p's runs also write TI traces (sim_ti.h) in ti_dir/point-<k>
                             * (k: the point's index, from 0), folders made as needed; local runs only */
  int (*stop)(void);        /* or NULL; when it returns 1 (after a SIGINT, say), the study stops with SIM_EINTR,
                             * keeping in the cache every point already finished */
  stu_progress_fn progress; /* or NULL: called as the simulations start, then after each finished simulation or
                             * point, in the order they finish */
  void *ctx;                /* for progress and warn */
  void (*warn)(const char *message, void *ctx); /* or NULL: told of each damaged cache entry deleted */
  int shard_index; /* with shard_count N > 1: only the points k (from 0) with k mod N = shard_index - 1 are */
  int shard_count; /* simulated and reported (--shard I/N); 0: all */
} stu_options_t;

/* Checks every point with the skeleton and the platform first (nothing is simulated when any point is wrong), then
 * simulates them all, their sequential runs first. The results are the same whatever the number of jobs, the farm
 * and the cache. Returns 0 and a new study in *out (free with stu_free), or a SIM_E* code with *err filled: the
 * scenario file and the line of the parameter to blame for bad input, the platform file for a platform SimGrid
 * rejects; SIM_EINTR when stopped. */
int stu_run_with(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, const stu_options_t *options,
                 stu_study_t **out, scn_error_t *err);

/* An MPI worker's part of the study (stu_farm.h): simulates the points rank 0 hands out until it says stop. With
 * scenario NULL (this worker could not read it), answers every point with an error. Returns 0, or a SIM_E* code with
 * *err filled. */
int stu_serve(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, scn_error_t *err);

#endif
