/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan elimination in shared memory on TreadMarks/NCP2 (seed 002 §3; the algorithm of seed 001 §4.1), with
 * the access pattern of its data: block rows, a pivot row read by all each step, one barrier per step. */
#include "app_dsm_gj.h"
#include "app_dsm_common.h"
#include "sim_error.h"

#include <stdlib.h>

#define DSM_GJ_DOUBLE 8L

/* Layout: the augmented matrix A, n rows of n + 1 doubles, row-major from address 0 (a 4 KB page holds two rows of
 * n = 256, and rows straddle pages); node 0 allocates and initialises it. Sharing: node r updates rows
 * [r n / p, (r + 1) n / p), as app_gj.c; at step k the owner of row k normalises it, a barrier, then every node reads
 * row k and updates its rows. Pages at block boundaries are written by two nodes (false sharing); the pivot row's pages
 * are read by all, so each step brings diffs. After a last barrier node 0 reads the solution column. */
typedef struct dsm_gj {
  sim_dsm_program_t program; /* first: app_dsm_program reads it */
  long n;
} dsm_gj_t;

/* Address of A[row][col]. */
static long at(long n, long row, long col)
{
  return (row * (n + 1) + col) * DSM_GJ_DOUBLE;
}

/* Reads, computes on and writes columns k..n of `row` (n + 1 - k elements). */
static void update_row(sim_dsm_node_t *node, long n, long row, long k)
{
  long bytes = (n + 1 - k) * DSM_GJ_DOUBLE;
  sim_dsm_read(node, at(n, row, k), bytes);
  sim_dsm_work(node, &app_dsm_element, (double)(n + 1 - k));
  sim_dsm_write(node, at(n, row, k), bytes);
}

static void gj_step(sim_dsm_node_t *node, long n, long k, long first, long rows)
{
  sim_dsm_scope(node, "normalise");
  if (app_dsm_owner(n, sim_dsm_node_count(node), k) == sim_dsm_node_id(node))
    update_row(node, n, k, k);
  sim_dsm_barrier(node);
  sim_dsm_scope(node, "update");
  sim_dsm_read(node, at(n, k, k), (n + 1 - k) * DSM_GJ_DOUBLE);
  for (long i = first; i < first + rows; i++)
    if (i != k)
      update_row(node, n, i, k);
}

static void gj_body(sim_dsm_node_t *node, const void *arg)
{
  long n = ((const dsm_gj_t *)arg)->n;
  long first = 0;
  long rows = 0;
  app_dsm_block(n, sim_dsm_node_count(node), sim_dsm_node_id(node), &first, &rows);
  sim_dsm_scope(node, "init");
  if (sim_dsm_node_id(node) == 0) {
    sim_dsm_write(node, 0, at(n, n, 0));
    sim_dsm_work(node, &app_dsm_element, (double)n * (n + 1));
  }
  sim_dsm_barrier(node);
  for (long k = 0; k < n; k++)
    gj_step(node, n, k, first, rows);
  sim_dsm_scope(node, "collect");
  sim_dsm_barrier(node); /* the last updates become visible to node 0 */
  for (long i = 0; sim_dsm_node_id(node) == 0 && i < n; i++)
    sim_dsm_read(node, at(n, i, n), DSM_GJ_DOUBLE);
}

static int dsm_gj_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                          const char **bad_param)
{
  long n = 0;
  int rc =
      app_dsm_size(point, "n", nranks, 2000,
                   "simrun runs this skeleton up to 32 MB of shared data (n = 2000; NCP2's node memory, seed 002), "
                   "whatever the platform's memory, which the run checks against every node's simrun:memory-bytes",
                   &n, err, errlen, bad_param);
  dsm_gj_t *gj = rc == 0 ? app_dsm_new(sizeof *gj, point, at(n, n, 0), gj_body) : NULL;
  if (gj)
    gj->n = n;
  *arg = gj;
  return rc != 0 ? rc : gj ? 0 : SIM_ENOMEM;
}

static int dsm_gj_advise(const app_point_t *point, int nranks, const met_platform_t *m, char *msg, size_t msglen)
{
  (void)nranks;
  long n = app_point_long(point, "n", 0);
  return app_dsm_memory_advice(m, (double)at(n, n, 0), msg, msglen);
}

/* Every node's operations (app_skeleton_t.work), per step: a computation per row (the pivot's and the updates), a
 * barrier, the pivot row's pages (1.5 at N = 256) fetched by the other nodes, and at each of the p - 1 block
 * boundaries a page written by two nodes, brought up to date at both (a diff request each). */
static double dsm_gj_work(const app_point_t *point, int nranks)
{
  double n = (double)app_point_long(point, "n", 1), p = nranks;
  double row_pages = (double)at((long)n, 1, 0) / APP_DSM_PAGE_BYTES + 1; /* a row straddles pages */
  double requests = (p - 1) * (row_pages + 2);
  return n * (n + APP_DSM_BARRIER_OPS(p) + APP_DSM_REQUEST_OPS * (p > 1 ? requests : 0));
}

static const scn_param_spec_t dsm_gj_params[] = {
    {.name = "n", .kind = SCN_INT, .min = 1, .required = 1, .help = "number of equations N", .role = SCN_ROLE_SIZE},
    APP_DSM_CONTROLLER_PARAM,
};

static const scn_skeleton_spec_t dsm_gj_spec = {
    .name = "dsm-gauss-jordan", .params = dsm_gj_params, .nparams = sizeof dsm_gj_params / sizeof dsm_gj_params[0]};

const app_skeleton_t app_dsm_gj_skeleton = APP_DSM_SKELETON(dsm_gj_spec, dsm_gj_prepare, dsm_gj_advise, dsm_gj_work);
