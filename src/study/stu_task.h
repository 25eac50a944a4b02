/* Internal to the study module: the simulations a sweep needs (tasks), the result each hands back as a byte stream (the
 * same bytes whether they come from a local process, an MPI worker or the on-disk cache), and the executors that run
 * tasks: local processes (stu_pool.c) or an MPI task farm (stu_farm_mpi.c). */
#ifndef STU_TASK_H
#define STU_TASK_H

#include "sim_run.h"
#include "stu_sweep.h"

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

/* One simulation, self-contained given the sweep: fixed-size, so that it travels as bytes to an MPI worker. */
typedef struct stu_task {
  int32_t kind;       /* stu_task_kind_t */
  int32_t point;      /* the point's index (a SEQ task: any point of the group) */
  int32_t nranks;     /* the point's p, or 1 for a SEQ task */
  int32_t keep_procs; /* also the per-process view */
  int32_t keep_trace; /* also the whole trace */
  int32_t pad;        /* 0: the record has no unnamed padding before t_seq */
  double t_seq;       /* a POINT with p > 1: the group's sequential time; otherwise 0 (a p = 1 run is its own) */
} stu_task_t;

/* Starts `task` in a forked child, which simulates it and writes its result (stu_result_read reads it). Returns 0, or
 * a SIM_E* code with a message (the skeleton refused the point, or no process could be started). */
int stu_task_start(const stu_sweep_ctx_t *ctx, const stu_task_t *task, sim_run_child_t *child, char *err,
                   size_t errlen);
/* The program argument of `task`'s point with `nranks` ranks: the skeleton's prepare, with the parameter to blame. */
int stu_task_prepare(const stu_sweep_ctx_t *ctx, size_t point, int nranks, void **arg, char *err, size_t errlen,
                     const char **blame);

/* Reads a result into `point` (t_par, messages and the views the task asked for; p and values are left alone) and
 * the analysis status into *status (0, or SIM_EINVAL when the lost-cycle view is undefined). 0, or -1 on a malformed
 * or truncated stream (what was read is freed). */
int stu_result_read(stu_point_t *point, int32_t *status, FILE *in);

/* An executor runs up to `slots` tasks at once. */
typedef struct stu_exec stu_exec_t;
struct stu_exec {
  size_t slots;
  /* Starts `task` in free slot `slot`: 0 or a SIM_E* code with a message. */
  int (*start)(stu_exec_t *exec, size_t slot, const stu_task_t *task, char *err, size_t errlen);
  /* Waits for a started task to end: its slot in *slot; 0 with its result in *result (the caller closes it), the
   * task's error with a message, or SIM_EINTR (a signal arrived; nothing ended). */
  int (*wait)(stu_exec_t *exec, size_t *slot, FILE **result, char *err, size_t errlen);
  /* Ends the tasks still running. */
  void (*stop)(stu_exec_t *exec);
  void *state;
};

/* Takes the result of a finished task (a stream positioned at it): 0, or a SIM_E* code with a message and the
 * parameter to blame (or NULL). */
typedef int (*stu_deliver_fn)(void *owner, const stu_task_t *task, FILE *result, char *err, size_t errlen,
                              const char **blame);

typedef struct stu_cache stu_cache_t;

/* Runs tasks on an executor, taking each result from the cache when it is there and filing the others in it. */
typedef struct stu_runner {
  const stu_sweep_ctx_t *ctx;
  stu_exec_t *exec;
  stu_cache_t *cache; /* or NULL */
  int (*stop)(void);  /* or NULL; when it returns 1, nothing more starts and what runs is ended (SIM_EINTR) */
  stu_deliver_fn deliver;
  void *owner;
  /* The failure of the earliest failed task in the list, whatever the order tasks end in: */
  int rc;
  char message[1024];
  const char *blame;
  size_t failed; /* that task's index in the list */
} stu_runner_t;

/* Runs `count` tasks. Returns 0, or runner->rc: the earliest failure (every task started is waited for first), or
 * SIM_EINTR. */
int stu_runner_run(stu_runner_t *runner, const stu_task_t *tasks, size_t count);

/* An executor of `slots` local processes. Returns 0, or SIM_ENOMEM; free with stu_pool_free. */
int stu_pool_new(const stu_sweep_ctx_t *ctx, size_t slots, stu_exec_t *exec);
void stu_pool_free(stu_exec_t *exec);

/* Rank 0's executor under mpirun: one slot per worker rank (stu_farm.h). Returns 0, or SIM_EINVAL with a message
 * (not built with Open MPI, or no worker). Free with stu_farm_exec_free. */
int stu_farm_exec_new(stu_exec_t *exec, char *err, size_t errlen);
void stu_farm_exec_free(stu_exec_t *exec);
/* A worker's loop: runs the tasks rank 0 sends, one at a time, and sends each result back, until rank 0 says stop.
 * With ctx NULL (the worker could not read the scenario), answers every task with an error. 0, or -1 with a message
 * (not built with Open MPI). */
int stu_farm_serve(const stu_sweep_ctx_t *ctx, char *err, size_t errlen);

#endif
