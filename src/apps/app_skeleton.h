/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a program skeleton provides: each names its parameters (checked by the scenario module), turns one sweep
 * point's values into a program argument, and provides the per-rank body run by the replay layer. */
#ifndef APP_SKELETON_H
#define APP_SKELETON_H

#include "met_bottleneck.h"
#include "met_machine.h"
#include "met_view.h"
#include "scn_scenario.h"
#include "sim_replay.h"

#include <stddef.h>

/* One sweep point: the value of every parameter, by name. Borrowed strings. */
typedef struct app_point {
  size_t count;
  const char *const *names;
  const char *const *values;
} app_point_t;

/* The value of parameter `name` at this point, or NULL. */
const char *app_point_value(const app_point_t *point, const char *name);
/* The value as a long (the scenario module checked it already); `fallback` when absent. */
long app_point_long(const app_point_t *point, const char *name, long fallback);

/* Every member's operations in one broadcast of `bytes` among `members` by the point's "broadcast" algorithm
 * (one-to-all without one), as the collectives library plans it from member 0, each message counted at both ends: for
 * the skeletons' work counts (app_skeleton_t.work). */
double app_bcast_ops(const app_point_t *point, int members, double bytes);

typedef struct app_skeleton {
  const scn_skeleton_spec_t *spec;
  unsigned views; /* the MET_VIEW_* flags of its studies (met_view.h); 0 (unset) means MET_VIEW_LOST_CYCLES */
  /* Builds the program argument for `point` with `nranks` ranks. Returns 0, or SIM_EPARAM with a message in err and
   * the name of the parameter to blame in *bad_param (so that the caller can point at its line). */
  int (*prepare)(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen, const char **bad_param);
  sim_program_fn program;
  void (*release)(void *arg); /* frees what prepare built; accepts NULL */
  /* Optional (NULL: T_seq is the program's run on one rank, the group's p = 1 point when it has one): the sequential
   * run that gives T_seq for `point` when it is something else, such as ti-replay's sum of its trace's computation.
   * Builds an argument for `program` run on one rank, like prepare (freed by release), and says where T_seq comes
   * from in `source` (one line for the report). Returns 0; 0 with *arg NULL and the reason in `source` when the point
   * has none (the study then has no lost-cycle view); or SIM_EPARAM with a message and the parameter to blame. */
  int (*prepare_seq)(const app_point_t *point, void **arg, char *source, size_t sourcelen, char *err, size_t errlen,
                     const char **bad_param);
  /* Optional (NULL for none): an analytic model's predicted run time in seconds for `point` on `nranks` ranks of the
   * machine `m` (the run's platform and mapping), or NAN with what the model lacks in `missing` (one line) when the
   * point is outside the model or the platform lacks one of its inputs. The report shows it beside T_par. */
  double (*model)(const app_point_t *point, int nranks, const met_platform_t *m, char *missing, size_t missinglen);
  const char *model_name; /* with model: which model and with which machine figures, one line for the report */
  /* Optional (NULL: the point's p): about how many operations the run of `point` on `nranks` ranks simulates (every
   * rank's messages, each end counted, and computations), for the progress bar's time left (stu_sweep.h). */
  double (*work)(const app_point_t *point, int nranks);
  /* Optional (NULL for none): a warning about `point` on `nranks` ranks of machine `m` for the report, such as data
   * exceeding a node's memory. Returns 1 with the text in msg, or 0 when there is nothing to say. */
  int (*advise)(const app_point_t *point, int nranks, const met_platform_t *m, char *msg, size_t msglen);
  /* Optional (NULL for none): which of the program's phase labels (sim_phase) are rows of Table 5 (seed 001): the
   * bottleneck view reads its trace through them and the report shows the rows the skeleton has. */
  const met_phase_role_t *phases;
  /* Optional (NULL for none): SimGrid settings the run of `arg` (prepare's) needs, as sim_job_t.engine_cfg takes
   * them, such as ti-replay's SMPI network model. The string lives as long as arg. */
  const char *(*engine_cfg)(const void *arg);
  /* Ranks may share hosts: p beyond the platform's host count wraps round (rank i on host i mod n), as smpirun places
   * ranks from a hostfile (ti-replay, which then moves each rank to its hostfile host). */
  int shares_hosts;
  /* An eager send the program never received is dropped at the end with a warning (sim_job_t.drop_unreceived), as
   * smpirun -replay does for a real program's trace; 0: the run fails, as a skeleton's mismatch is a bug. */
  int drops_unreceived;
  /* Optional (NULL for none): the program of `arg` in closed form across ranks (sim_job_t.closed), which the run uses
   * instead of executing it where that is exact (sim_replay_closed.h), or NULL when this arg's program has none. */
  sim_closed_fn (*closed)(const void *arg);
} app_skeleton_t;

#endif
