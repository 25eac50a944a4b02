/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs for the tests, through the public API the product uses: one simulation in a child process with its whole
 * trace handed back (sim_run_start and sim_run_wait_any, as the study's tasks run), and a study with one job, no cache
 * and no farm (stu_run_with, as `simrun run` runs one). */
#ifndef TU_RUN_H
#define TU_RUN_H

#include "met_trace.h"
#include "scn_scenario.h"
#include "sim_error.h"
#include "sim_run.h"
#include "stu_sweep.h"

#include <stdio.h>

static inline int tu_write_trace(const met_trace_t *trace, const void *ctx, FILE *out)
{
  (void)ctx;
  return met_trace_write(trace, out);
}

/* Simulates `job` in a forked child. Returns 0 and a new whole trace in *trace (the caller frees it; job->aggregate is
 * ignored: only a whole trace can be written), or a negative SIM_E* code with a message in err. */
static inline int tu_sim_run(const sim_job_t *job, met_trace_t **trace, char *err, size_t errlen)
{
  sim_job_t whole = *job;
  sim_run_child_t child = {0};
  size_t which = 0;
  int rc;
  whole.aggregate = 0;
  *trace = NULL;
  if ((rc = sim_run_start(&whole, tu_write_trace, NULL, &child, err, errlen)) != 0)
    return rc;
  while ((rc = sim_run_wait_any(&child, 1, &which, NULL, err, errlen)) == SIM_RUN_PROGRESS)
    ;
  if (rc != 0) {
    sim_run_stop(&child, 1);
    return rc;
  }
  *trace = met_trace_read(child.channel);
  fclose(child.channel);
  if (*trace)
    return 0;
  snprintf(err, errlen, "the simulation process wrote a malformed trace");
  return SIM_ECHILD;
}

/* Runs `scenario`'s study with one job, no cache, no farm, the per-process view at p = per_process (0: none) and
 * `progress` told of each point; as stu_run_with. */
static inline int tu_study_run(const scn_scenario_t *scenario, const app_skeleton_t *skeleton, int per_process,
                               stu_progress_fn progress, void *ctx, stu_study_t **out, scn_error_t *err)
{
  stu_options_t options = {.per_process = per_process, .jobs = 1, .progress = progress, .ctx = ctx};
  return stu_run_with(scenario, skeleton, &options, out, err);
}

#endif
