/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ScaLAPACK pdgemm (seed 003 §4.1) as a skeleton: ceil(K/R) steps of row broadcast, column broadcast and local dgemm on
 * a block-cyclic grid, with the job's broadcast algorithm (binomial on a switch, §3); model: FAST eqs. 1-3. */
#include "app_pdgemm.h"
#include "app_linalg.h"
#include "sim_coll_run.h"
#include "sim_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct pdgemm_arg {
  met_dense_t d;
  /* Ranks are numbered row-major on the grid: process row i is by_row[i * cols ...], process column j is
   * by_col[j * rows ...]. */
  int *by_row;
  int *by_col;
  int members[]; /* storage for both lists */
} pdgemm_arg_t;

static int pdgemm_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                          const char **bad_param)
{
  met_dense_t d;
  int rc = app_linalg_dense(point, nranks, &d, err, errlen, bad_param);
  if (rc != 0)
    return rc;
  pdgemm_arg_t *a = malloc(sizeof *a + 2 * (size_t)nranks * sizeof a->members[0]);
  if (!a)
    return SIM_ENOMEM;
  a->d = d;
  a->by_row = a->members;
  a->by_col = a->members + nranks;
  for (int i = 0; i < d.rows; i++)
    for (int j = 0; j < d.cols; j++) {
      a->by_row[i * d.cols + j] = i * d.cols + j;
      a->by_col[j * d.rows + i] = i * d.cols + j;
    }
  *arg = a;
  return 0;
}

/* One step: the owner column of block column `step` of A broadcasts its panel along every process row, the owner
 * row of block row `step` of B along every process column; then every process multiplies the panels it holds. */
static void pdgemm_step(sim_rank_t *rank, const pdgemm_arg_t *a, long step, const sim_group_t *row,
                        const sim_group_t *col, double my_rows, double my_cols)
{
  const met_dense_t *d = &a->d;
  double width = (double)(d->k - step * d->r < d->r ? d->k - step * d->r : d->r);
  sim_phase(rank, "row-broadcast");
  if (my_rows > 0)
    sim_bcast_group(rank, row, (int)(step % d->cols), my_rows * width * 8);
  sim_phase(rank, "column-broadcast");
  if (my_cols > 0)
    sim_bcast_group(rank, col, (int)(step % d->rows), width * my_cols * 8);
  sim_phase(rank, "dgemm");
  app_linalg_flops(rank, met_dgemm_flops(my_rows, width, my_cols), SIM_WORK);
}

static void pdgemm_program(sim_rank_t *rank, const void *arg)
{
  const pdgemm_arg_t *a = arg;
  const met_dense_t *d = &a->d;
  int me = sim_rank_id(rank);
  int i = me / d->cols;
  int j = me % d->cols;
  sim_group_t row = {.members = a->by_row + i * d->cols, .count = d->cols};
  sim_group_t col = {.members = a->by_col + j * d->rows, .count = d->rows};
  double my_rows = (double)met_numroc(d->m, d->r, i, d->rows);
  double my_cols = (double)met_numroc(d->n, d->r, j, d->cols);
  long steps = (d->k + d->r - 1) / d->r;
  for (long step = 0; step < steps; step++)
    pdgemm_step(rank, a, step, &row, &col, my_rows, my_cols);
}

/* Whether FAST's no-contention assumption fails for grid d on m, with the reason in missing: eager panels that move
 * while their senders go on to the other broadcast (so one process's link carries a row and a column panel at once).
 * Two messages of one round of the trees crossing one link at once are priced (app_linalg_fast_machine). */
static int contended(const met_dense_t *d, const met_platform_t *m, char *missing, size_t len)
{
  double row_panel = (double)((d->m + d->rows - 1) / d->rows) * (double)d->r * 8;
  double col_panel = (double)d->r * (double)((d->n + d->cols - 1) / d->cols) * 8;
  int both = d->rows > 1 && d->cols > 1;
  if (both && m->eager_at_send && (row_panel <= m->eager_bytes || col_panel <= m->eager_bytes)) {
    snprintf(missing, len,
             "eager panels move while their senders go on to the other broadcast (simrun:eager-start = send), so one "
             "process's link carries a row and a column panel at once, which FAST's eqs. 2-3 add one after the other");
    return 1;
  }
  return 0;
}

/* pdgemm's panels (pdgemm_step): along a process row, a process's rows of A by one block column (the last one
 * narrower), the first process holding the most (met_numroc); along a column, a block row of B by a process's
 * columns. */
static app_linalg_sizes_t pdgemm_sizes(const met_dense_t *d)
{
  double last = (double)(d->k % d->r ? d->k % d->r : d->r);
  return (app_linalg_sizes_t){.row_lo = 8.0 * (double)met_numroc(d->m, d->r, d->rows - 1, d->rows) * last,
                              .row = 8.0 * (double)met_numroc(d->m, d->r, 0, d->rows) * (double)d->r,
                              .col_lo = 8.0 * (double)met_numroc(d->n, d->r, d->cols - 1, d->cols) * last,
                              .col = 8.0 * (double)met_numroc(d->n, d->r, 0, d->cols) * (double)d->r};
}

static double pdgemm_model(const app_point_t *point, int nranks, const met_platform_t *m, char *missing, size_t len)
{
  met_dense_t d;
  const char *bad_param = NULL;
  if (app_linalg_dense(point, nranks, &d, missing, len, &bad_param) == 0 && contended(&d, m, missing, len))
    return NAN;
  return app_linalg_model(point, nranks, m, missing, len, met_pdgemm_time, pdgemm_sizes);
}

static int pdgemm_advise(const app_point_t *point, int nranks, const met_platform_t *m, char *msg, size_t msglen)
{
  return app_linalg_memory_advice(point, nranks, m, met_pdgemm_node_bytes, msg, msglen);
}

/* Every rank's operations (app_skeleton_t.work): per step its dgemm, and the row broadcasts (P of them among Q) and
 * column broadcasts (Q among P) of the panels (app_bcast_ops); the ranks when the grid is not the point's. */
static double pdgemm_work(const app_point_t *point, int nranks)
{
  met_dense_t d;
  if (app_linalg_dense(point, nranks, &d, NULL, 0, NULL) != 0)
    return nranks;
  double panel = (double)d.r * (double)(d.m / d.rows + 1) * 8;
  double step = nranks + d.rows * app_bcast_ops(point, d.cols, panel) + d.cols * app_bcast_ops(point, d.rows, panel);
  return (double)((d.k + d.r - 1) / d.r) * step;
}

static const scn_param_spec_t pdgemm_params[] = {
    {.name = "m", .kind = SCN_INT, .min = 1, .required = 1, .help = "rows of A and C", .role = SCN_ROLE_SIZE},
    {.name = "n", .kind = SCN_INT, .min = 1, .required = 1, .help = "columns of B and C", .role = SCN_ROLE_SIZE},
    {.name = "k", .kind = SCN_INT, .min = 1, .required = 1, .help = "columns of A, rows of B", .role = SCN_ROLE_SIZE},
    {.name = "block", .kind = SCN_INT, .min = 1, .required = 1, .help = "block R of the block-cyclic distribution"},
    {.name = "grid-rows",
     .kind = SCN_INT,
     .min = 1,
     .required = 1,
     .help = "process rows P of the P x (p / P) grid; swept with p, only divisors of p are run",
     .role = SCN_ROLE_GRID_ROWS},
    {.name = "broadcast",
     .kind = SCN_CHOICE,
     .choices = sim_bcast_names,
     .required = 1,
     .help = "broadcast algorithm along process rows and columns (binomial: seed 003 §3)",
     .role = SCN_ROLE_BROADCAST},
};

static const scn_skeleton_spec_t pdgemm_spec = {
    .name = "pdgemm", .params = pdgemm_params, .nparams = sizeof pdgemm_params / sizeof pdgemm_params[0]};

const app_skeleton_t app_pdgemm_skeleton = {
    .spec = &pdgemm_spec,
    .prepare = pdgemm_prepare,
    .program = pdgemm_program,
    .release = free,
    .model = pdgemm_model,
    .work = pdgemm_work,
    .model_name = "FAST pdgemm model (Caron & Suter 2002, eqs. 1-3, binomial tree) with the platform's figures: the "
                  "slowest rank's host's flop rate, Hockney's lambda and tau "
                  "averaged over the routes within a process row (row broadcasts) and a process column (column "
                  "broadcasts)",
    .advise = pdgemm_advise};
