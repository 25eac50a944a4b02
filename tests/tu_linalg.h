/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers for the dense linear algebra tests: run a scenario of tests/data/linalg through the study runner, or one
 * skeleton point on a platform through the replay layer. */
#ifndef TU_LINALG_H
#define TU_LINALG_H

#include "app_catalogue.h"
#include "scn_scenario.h"
#include "sim_run.h"
#include "stu_model.h"
#include "stu_sweep.h"
#include "tu.h"
#include "tu_run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TU_DATA     SIMRUN_SOURCE_DIR "/tests/data/linalg/"
#define TU_ICLUSTER SIMRUN_SOURCE_DIR "/platforms/icluster-fe-32.xml"
#define TU_PENTIUM2 SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml"

/* icluster as the FAST models should see it, from the documented figures of platforms/icluster-fe-32.xml's comments:
 * lambda = 0.5 + 123.54 us (cable + a store-and-forward frame), tau = 1 / 11866059.8 s/B (Fast Ethernet's TCP
 * payload rate), 733e6 flop/s (one x87 flop per cycle at 733 MHz), doubles. */
static const met_machine_t tu_icluster_fast = {.link = {.lambda = 124.04e-6, .tau = 1.0 / 11866059.8},
                                               .col_link = {.lambda = 124.04e-6, .tau = 1.0 / 11866059.8},
                                               .flops = 733e6,
                                               .elem_bytes = 8};

/* Loads, checks and runs scenario `file` (in tests/data/linalg, or a path from the source root when it starts with
 * '/'). Returns the study (free it and *scenario), or NULL with the error in *err; *scenario is NULL when loading
 * failed. */
static inline stu_study_t *tu_run_scenario(const char *path, scn_scenario_t **scenario, scn_error_t *err)
{
  stu_study_t *study = NULL;
  *scenario = NULL;
  if (scn_load(path, scenario, err) != 0)
    return NULL;
  const app_skeleton_t *skeleton = app_find((*scenario)->skeleton);
  if (!skeleton || scn_check(*scenario, skeleton->spec, err) != 0)
    return NULL;
  if (tu_study_run(*scenario, skeleton, 0, NULL, NULL, &study, err) != 0)
    return NULL;
  return study;
}

/* Checks that scenario `name` of tests/data/linalg fails at line `line` with a message containing `part`. */
static inline void tu_expect_scenario_error(const char *name, int line, const char *part)
{
  char path[1024];
  snprintf(path, sizeof path, "%s%s", TU_DATA, name);
  scn_scenario_t *scenario = NULL;
  scn_error_t err = {.line = 0};
  stu_study_t *study = tu_run_scenario(path, &scenario, &err);
  CU_ASSERT_PTR_NULL(study);
  CU_ASSERT_EQUAL(err.line, line);
  CU_ASSERT_PTR_NOT_NULL(strstr(err.message, part));
  if (!strstr(err.message, part))
    fprintf(stderr, "\n%s: got '%s' at line %d\n", name, err.message, err.line);
  stu_free(study);
  scn_free(scenario);
}

/* Runs `skeleton` with parameters names[i] = values[i] on `nranks` ranks of `platform` with broadcast `bcast`.
 * Returns the trace (the caller frees it), or NULL with the reason on stderr. */
static inline met_trace_t *tu_run_point(const app_skeleton_t *skeleton, const char *platform, size_t count,
                                        const char *const *names, const char *const *values, int nranks,
                                        sim_bcast_alg_t bcast)
{
  app_point_t point = {.count = count, .names = names, .values = values};
  void *arg = NULL;
  char err[1024] = "";
  const char *bad_param = NULL;
  met_trace_t *trace = NULL;
  if (skeleton->prepare(&point, nranks, &arg, err, sizeof err, &bad_param) == 0) {
    sim_job_t job = {.platform = platform, .nranks = nranks, .bcast = bcast, .program = skeleton->program, .arg = arg};
    if (tu_sim_run(&job, &trace, err, sizeof err) != 0)
      trace = NULL;
  }
  if (!trace)
    fprintf(stderr, "simulation failed: %s\n", err);
  skeleton->release(arg);
  return trace;
}

/* `skeleton` with names[i] = values[i] on the two hosts of different speeds of
 * tests/data/machine/two-hosts-fast-first.xml, after checking that their description says they differ: its model
 * into *model, and the simulated T_par returned. */
static inline double tu_two_speeds(const app_skeleton_t *skeleton, size_t count, const char *const *names,
                                   const char *const *values, sim_bcast_alg_t bcast, double *model)
{
  const char *pair = SIMRUN_SOURCE_DIR "/tests/data/machine/two-hosts-fast-first.xml";
  static met_platform_t m;
  char err[1024];
  char missing[256] = "";
  app_point_t point = {.count = count, .names = names, .values = values};
  CU_ASSERT_FATAL(sim_run_describe(pair, 2, &m, err, sizeof err) == 0);
  CU_ASSERT_FALSE(m.uniform);
  *model = skeleton->model(&point, 2, &m, missing, sizeof missing);
  met_trace_t *trace = tu_run_point(skeleton, pair, count, names, values, 2, bcast);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  double end = met_trace_end(trace);
  met_trace_free(trace);
  return end;
}

/* Every point of study `path` at p = 2 has a model within 10% of its simulated T_par, on each of the `platforms`
 * shipped platforms (tests/data/machine/p2-*.xml), or none because the machine's eager messages move while their
 * receivers compute (simrun:eager-start = send: eq. 11 prints `-` there, saying so). */
static inline void tu_expect_models_within_10pc(const char *path, size_t platforms)
{
  scn_scenario_t *scenario;
  scn_error_t err;
  stu_study_t *study = tu_run_scenario(path, &scenario, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(study);
  size_t checked = 0;
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    if (point->p != 2)
      continue;
    checked++;
    double diff = (stu_model_time(point) - point->t_par) / point->t_par;
    if (isnan(stu_model_time(point)) && strstr(stu_model_missing(point), "simrun:eager-start"))
      continue;
    CU_ASSERT(isfinite(diff) && fabs(diff) <= 0.10);
    if (!(fabs(diff) <= 0.10))
      fprintf(stderr, "%s: model %g, simulated %g on %s\n", path, stu_model_time(point), point->t_par,
              stu_platform(study, point));
  }
  CU_ASSERT_EQUAL(checked, platforms);
  stu_free(study);
  scn_free(scenario);
}

#endif
