/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: what each task of a plan is predicted to cost, in simulated operations, and when it is
 * predicted to finish on the executor's slots, so that the progress bar's time left follows the predicted schedule
 * rather than the count of points (stu_progress_t). */
#ifndef STU_WORK_H
#define STU_WORK_H

#include "stu_cache.h"
#include "stu_plan.h"
#include "stu_task.h"

/* What a simulation costs whatever it simulates (a process, SimGrid's start, the platform's loading), in operations:
 * bench/eta.sh --costs, twice on this project's 2-core machine under load (23 November 2026), gave 4,600 to 12,600
 * (one simulation of bcast-t800's Gauss-Jordan at p = 2 against p = 128, for two broadcasts; 0.9 to 1.9 us an
 * operation): 7,900 on average. */
#define STU_TASK_FIXED_WORK 8e3

/* What was measured of one task, in seconds from any fixed origin (the sweep's start), -1 when not yet. */
typedef struct stu_task_clock {
  double start;    /* it started in a slot (a task the cache held never does) */
  double end;      /* its result was taken */
  double first_at; /* its first report (sim_progress.h) while it simulated: its operations had begun */
  double first_ops;
  double last_at; /* its last such report */
  double last_ops;
  double end_ops; /* the count it reported at its simulation's end */
  double end_at;  /* when that came */
} stu_task_clock_t;

/* What an operation costs in a simulation of each broadcast at p = 128 (sim_bcast_alg_t's order: one-to-all,
 * neighbour, binomial, pipelined-chain, scatter-allgather, mesh) against neighbour's, for a class of simulations the
 * run has not measured yet: bench/eta.sh --costs's measurement (one simulation of bcast-t800's Gauss-Jordan at p = 128
 * for each, less its p = 1 run and the fixed cost, over its operations), twice on this project's 2-core machine under
 * load, 23 November 2026 (by hand with a fixed cost of 0.013 s, then by the bench):
 * 1.6 and 2.05, 1, 1.0 and 1.1, 1.08 and 1.13, 1.05 and 1.3, 2.2 and 2.49 (neighbour's 1.32 and 1.00 us); their means.
 * The root's p - 1 messages at once (one-to-all) and the mesh's crossing relays cost SimGrid more an operation than a
 * chain's one message at a time. */
#define STU_BCAST_OP_WEIGHTS                                                                                           \
  {                                                                                                                    \
    1.8, 1.0, 1.05, 1.1, 1.2, 2.3                                                                                      \
  }

/* The weight of an operation on `nranks` ranks of a broadcast whose weight at p = 128 is `at_128`: 1 at p = 1, growing
 * with p in a straight line. SimGrid's cost of an event grows with the flows that share a link with the one that
 * starts or ends (its sharing is solved again over them): p - 1 at a one-to-all's root, none at p = 1. gj256's tasks
 * (the -j 1 sweep on this machine, 24 November 2026, each one's pace from its first report to its end's, logged by a
 * build instrumented for it) gave one-to-all's against neighbour's, at p = 16, 32, 64, 128:
 * 1.19, 1.34, 1.59, 1.94 (N = 256) and 1.23, 1.25, 1.40, 1.65 (N = 512); the line through 1.8 at 128 gives 1.09,
 * 1.20, 1.40, 1.8. Before, each class's operations cost the same at every p, and the small points' pace, measured
 * first, made the large ones' too short. */
double stu_work_weight(double at_128, int nranks);

/* K before any task whose whole trace comes back has finished: its end (the trace written by the simulation's process,
 * read by simrun and analysed: the DSM's cause-effect view) over its simulation's time. The DSM scenarios, each point
 * alone (-j 1) at the highest priority, twice, 24 November 2026 (the end from the simulation's "end" report to its
 * result taken, logged by a build instrumented for it): dsm-gj 0.16 and 0.26 (controller yes and no), 0.17 and 0.27;
 * dsm-false-sharing's interleaved points 0.35, 0.27, 0.19, 0.28; their mean, 0.24. Gauss-Jordan's per-process point
 * takes more (about 1.5), measured from the run once one has finished. */
#define STU_WORK_KEPT_END 0.24

typedef struct stu_work {
  size_t count;
  double *cost;   /* per plan task: its predicted cost, 0 for one whose result the cache holds */
  double *finish; /* per plan task: its predicted end, in operations of one job from the start (stu_work_lay_out) */
  size_t *order;  /* the tasks by predicted end */
  double done;    /* the cost of the tasks finished so far */
  double span;    /* the predicted end of the last task */
  size_t nseq;    /* the tasks of the sequential phase, the first ones (stu_work_lay_out) */
  size_t slots;
  stu_task_clock_t *clock; /* per plan task: what was measured (stu_work_started, _reported, _finished) */
  size_t *klass;           /* or NULL (all one class): per plan task, its class, from 0; an operation costs the same
                            * in the tasks of a class (the same broadcast on the same platform) */
  size_t classes;          /* how many */
  double *weight;          /* or NULL (all 1): per plan task, what an operation of it is predicted to cost against
                            * the others' (STU_BCAST_OP_WEIGHTS at its p, stu_work_weight) */
  int *kept;               /* or NULL (none): per plan task, 1 when its trace is kept (its pixels drawn from its file
                            * by the simulation's process, or its whole trace read and analysed by simrun:
                            * stu_task_t.keep_trace) */
  int *describes;          /* or NULL (none): per plan task, 1 when simrun describes its platform for its p once it
                            * finishes (the first point of each, stu_model.c) */
} stu_work_t;

/* Per task of `plan`: the skeleton's operation count for its point on its ranks (app_skeleton_t.work; the ranks for a
 * skeleton without one) plus STU_TASK_FIXED_WORK, or 0 for a task whose result `cache` (or NULL) holds; its class and
 * weight (its point's broadcast and platform, STU_BCAST_OP_WEIGHTS at its p), whether its whole trace comes back and
 * whether its end describes its platform; and the schedule of the plan on `slots` slots. 0, or BAS_ENOMEM when out of
 * memory (nothing to free then). */
int stu_work_new(stu_work_t *work, const stu_plan_t *plan, const stu_sweep_ctx_t *ctx, stu_cache_t *cache,
                 size_t slots);
/* Frees what stu_work_new made in *work (the struct is the caller's); accepts a work stu_work_new failed to make. */
void stu_work_free(stu_work_t *work);

/* With work->count and work->cost set: lays the tasks out on `slots` jobs, each starting in order on the first job
 * free, the first `nseq` (the sequential phase) all ended before any other starts, as the sweep runs them
 * (stu_runner.h): each one's predicted end (finish), the tasks by it (order) and the last (span); every task's clock
 * unset. 0, or BAS_ENOMEM when out of memory (stu_work_free frees what there is). */
int stu_work_lay_out(stu_work_t *work, size_t nseq, size_t slots);

/* Task t started in a slot at `now` (seconds). */
void stu_work_started(stu_work_t *work, size_t t, double now);

/* The least time over which the pace of all classes is measured (seconds of reports of all simulations together; a
 * class's and a running simulation's own weigh against it, STU_WORK_PRIOR): two reports (at most a hundred a second in
 * a simulation's first second, sim_progress.h) of a few hundred operations say little about a pace. With 0.02 s, the
 * first pace of topology-gj's sweep (0.9 s) came from a few slow starts and put the time left at 4.3 s (+421%) for a
 * tenth of a second; 0.1 s of reports come within the first fifth of a sweep of half a second on 2 jobs. */
#define STU_WORK_MIN_PACE 0.1

/* How much a prior pace weighs against measured reports, in seconds of them: a running simulation's own pace against
 * its class's, a class's against all classes': the reports of a simulation's first tenths of a second, on a machine
 * whose other jobs take and give back the cores, stray by a factor of 2 to 5 (a DSM simulation 21 us an operation
 * over its first 0.06 s, 3 us over its run, at a load of 15), so a prior is outweighed only once the reports span
 * more than 0.2 s, as the pace measured over at least 0.2 s of reports was before. */
#define STU_WORK_PRIOR 0.2

/* Task t reported at `now` that it has simulated `ops` operations (sim_progress.h), its count at its simulation's end
 * when `ended`. */
void stu_work_reported(stu_work_t *work, size_t t, double ops, int ended, double now);

/* Task t is finished at `now`: returns how far the predicted schedule is, the predicted end by which tasks costing as
 * much as all those finished so far are finished (0 before any cost is done, work->span once all is). */
double stu_work_finished(stu_work_t *work, size_t t, double now);

/* The time left at `now`, in seconds, or -1 while nothing has been measured (no task finished, none reported
 * progress within its simulation). Each simulation is taken to last S + rho ops P + T: S its start (a process,
 * SimGrid, the platform), the mean of those measured; P the seconds an operation, the operations reported over the
 * time they took (from a simulation's first report to its last, or to its end's), at each one's weight: all classes'
 * once they span STU_WORK_MIN_PACE, as the prior of its class's (STU_WORK_PRIOR), times its own weight
 * (stu_work_weight); rho the operations the finished tasks reported at their end over those predicted (1 before any);
 * T its end (from its simulation's end to its result taken), the mean of those measured, D more for the first point
 * of a platform and p (its machine described), and where its whole trace comes back, K rho ops P more (K from the
 * finished ones that kept theirs, STU_WORK_KEPT_END before). A running task goes on at its own pace, its class's as
 * the prior, so that a wrong prediction corrects itself as it runs. Without any pace measured (every simulation so far
 * too short), a simulation lasts its predicted cost times the seconds each unit of the finished ones took. The tasks
 * left are laid out on the slots as the runner starts them, the sequential phase first: the time left is when the last
 * one ends. */
double stu_work_left(const stu_work_t *work, double now);

#endif
