/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The engine's count of the physical links between a run's hosts (sim_engine_links_between, by SimGrid's routes on the
 * explicit-routing T800 platform), seen as the link initialisation it costs: T_cni = 1270 us x links (seed 001 eq. 3),
 * against the links of each compact partition counted by hand. */
#include "sim_run.h"
#include "tu.h"

#include <stdio.h>

#define T800         SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"
#define LINK_INIT_US 1270.0 /* simrun:link-init-us of the T800 platform (seed 001 §3.2) */

/* Rank 0 initialises the links of the partition; the others do nothing. */
static void init_links(sim_rank_t *rank, const void *arg)
{
  if (sim_rank_id(rank) == 0)
    sim_init_links(rank);
}

static met_trace_t *run(int nranks)
{
  sim_job_t job = {.platform = T800, .nranks = nranks, .bcast = SIM_BCAST_ONE_TO_ALL, .program = init_links};
  char err[1024];
  met_trace_t *trace = NULL;
  if (sim_run_isolated(&job, &trace, err, sizeof err) != 0)
    fprintf(stderr, "simulation failed: %s\n", err);
  return trace;
}

/* The mapper's partitions of the 16 x 8 mesh (test_sim_map): p = 2 a 2 x 1 column, 4 2 x 2, 8 2 x 4, 16 4 x 4,
 * 32 4 x 8, 64 8 x 8, 128 16 x 8. An R x C mesh has R (C - 1) links along its rows and (R - 1) C along its columns:
 * 0, 1, 4, 2 x 3 + 1 x 4 = 10, 4 x 3 + 3 x 4 = 24, 4 x 7 + 3 x 8 = 52, 8 x 7 + 7 x 8 = 112, 16 x 7 + 15 x 8 = 232
 * links for p = 1 ... 128 (the 1, 4, 10, 24, 52 of docs/t800.md; 0.14 s and 0.29 s at p = 64, 128). Only rank 0 pays
 * them, as control of parallelism, so they are also T_par. */
static void test_sim_engine_link_init_per_partition(void)
{
  const int p[] = {1, 2, 4, 8, 16, 32, 64, 128};
  const int links[] = {0, 1, 4, 10, 24, 52, 112, 232};
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
    met_trace_t *trace = run(p[i]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
    double expected = 1e-6 * LINK_INIT_US * links[i];
    TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_CTRL), expected, 1e-12);
    TU_ASSERT_CLOSE(met_trace_end(trace), expected, 1e-12);
    for (int r = 1; r < p[i]; r++)
      TU_ASSERT_CLOSE(met_trace_category_time(trace, r, MET_CAT_CTRL), 0, 1e-15);
    met_trace_free(trace);
  }
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_engine_link_init_per_partition", test_sim_engine_link_init_per_partition}, {NULL, NULL}};
  return tu_run("sim_engine", cases);
}
