/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Matrix multiply C = A B in shared memory on TreadMarks/NCP2 (seed 002 §3): read sharing of B, served by the node
 * that allocated it, and C collected through diffs. */
#include "app_dsm_matmul.h"
#include "app_dsm_common.h"
#include "sim_error.h"

#include <stdlib.h>

#define DSM_MM_DOUBLE 8L

/* Layout: A, B and C, n x n doubles each, row-major and one after the other from address 0 (n = 256: 128 pages of
 * 4 KB each, two rows per page). Node 0 allocates and initialises A and B. Sharing: node r computes the block of rows
 * [r n / p, (r + 1) n / p) of C, reading the same rows of A and all of B, so that every other node fetches all of B's
 * pages from node 0 (page requests, all served by node 0); C's blocks are written by one node each and node 0
 * collects C at the end (diff requests). */
typedef struct dsm_matmul {
  sim_dsm_program_t program; /* first: app_dsm_program reads it */
  long n;
} dsm_matmul_t;

/* Address of row `row` of matrix `which` (0: A, 1: B, 2: C). */
static long row_at(long n, int which, long row)
{
  return (which * n + row) * n * DSM_MM_DOUBLE;
}

static void matmul_body(sim_dsm_node_t *node, const void *arg)
{
  long n = ((const dsm_matmul_t *)arg)->n;
  long first = 0;
  long rows = 0;
  app_dsm_block(n, sim_dsm_node_count(node), sim_dsm_node_id(node), &first, &rows);
  sim_dsm_scope(node, "init");
  if (sim_dsm_node_id(node) == 0) {
    sim_dsm_write(node, 0, row_at(n, 2, 0));
    sim_dsm_work(node, &app_dsm_element, 2.0 * n * n);
  }
  sim_dsm_barrier(node);
  sim_dsm_scope(node, "multiply");
  sim_dsm_read(node, row_at(n, 1, 0), n * n * DSM_MM_DOUBLE);
  for (long i = first; i < first + rows; i++) {
    sim_dsm_read(node, row_at(n, 0, i), n * DSM_MM_DOUBLE);
    sim_dsm_work(node, &app_dsm_element, (double)n * n);
    sim_dsm_write(node, row_at(n, 2, i), n * DSM_MM_DOUBLE);
  }
  sim_dsm_barrier(node);
  sim_dsm_scope(node, "collect");
  if (sim_dsm_node_id(node) == 0)
    sim_dsm_read(node, row_at(n, 2, 0), n * n * DSM_MM_DOUBLE);
}

static int dsm_matmul_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                              const char **bad_param)
{
  long n = 0;
  int rc = app_dsm_size(
      point, "n", nranks, 1024,
      "simrun runs this skeleton up to 24 MiB of shared data (A, B and C at n = 1024; NCP2's nodes have 32 MB, seed "
      "002), whatever the platform's memory, which the run checks against every node's simrun:memory-bytes",
      &n, err, errlen, bad_param);
  dsm_matmul_t *mm = rc == 0 ? app_dsm_new(sizeof *mm, point, row_at(n, 3, 0), matmul_body) : NULL;
  if (mm)
    mm->n = n;
  *arg = mm;
  return rc != 0 ? rc : mm ? 0 : SIM_ENOMEM;
}

static int dsm_matmul_advise(const app_point_t *point, int nranks, const met_platform_t *m, char *msg, size_t msglen)
{
  (void)nranks;
  long n = app_point_long(point, "n", 0);
  return app_dsm_memory_advice(m, (double)row_at(n, 3, 0), msg, msglen);
}

/* Every node's operations (app_skeleton_t.work): a computation per row of C; the p - 1 nodes other than node 0
 * fetch all of B's pages and their blocks of A's and C's (page requests), node 0 collects C's pages from their
 * writers (diff requests); three barriers. */
static double dsm_matmul_work(const app_point_t *point, int nranks)
{
  double n = (double)app_point_long(point, "n", 1), p = nranks;
  double pages = (double)row_at((long)n, 1, 0) / APP_DSM_PAGE_BYTES; /* one matrix */
  double requests = (p - 1) * pages + 2 * (p - 1) / p * pages + (p > 1 ? pages : 0);
  return n + 3 * APP_DSM_BARRIER_OPS(p) + APP_DSM_REQUEST_OPS * requests;
}

static const scn_param_spec_t dsm_matmul_params[] = {
    {.name = "n", .kind = SCN_INT, .min = 1, .required = 1, .help = "order of the matrices", .role = SCN_ROLE_SIZE},
    APP_DSM_CONTROLLER_PARAM,
};

static const scn_skeleton_spec_t dsm_matmul_spec = {.name = "dsm-matmul",
                                                    .params = dsm_matmul_params,
                                                    .nparams = sizeof dsm_matmul_params / sizeof dsm_matmul_params[0]};

const app_skeleton_t app_dsm_matmul_skeleton =
    APP_DSM_SKELETON(dsm_matmul_spec, dsm_matmul_prepare, dsm_matmul_advise, dsm_matmul_work);
