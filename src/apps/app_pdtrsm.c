/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ScaLAPACK pdtrsm (seed 003 §4.2, Fig. 3) as a skeleton: per diagonal block, the owner's trsm, a broadcast along its
 * process row treated as a ring, the update (whole on a row grid; on a general grid the first P - 1 blocks, sent to
 * the next process row and accumulated there, then the rest); model: FAST eqs. 4-7 along the ring and the pipeline
 * (met_pdtrsm.c). */
#include "app_pdtrsm.h"
#include "app_linalg.h"
#include "met_pdtrsm.h"
#include "sim_coll_run.h"
#include "sim_error.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct pdtrsm_arg {
  met_dense_t d;
  /* Process row s's ranks twice over, in column order, from rings[s * 2 * cols]: the ring that starts at column c
   * is the `cols` members from rings[s * 2 * cols + c]. */
  int rings[];
} pdtrsm_arg_t;

/* Where one step stands: block i of a block row of height `height`, solved by process (row, col). */
typedef struct trsm_step {
  long i;
  double height;
  int row;
  int col;
} trsm_step_t;

static int pdtrsm_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                          const char **bad_param)
{
  met_dense_t d;
  int rc = app_linalg_dense(point, nranks, &d, err, errlen, bad_param);
  if (rc != 0)
    return rc;
  pdtrsm_arg_t *a = malloc(sizeof *a + 2 * (size_t)nranks * sizeof a->rings[0]);
  if (!a)
    return SIM_ENOMEM;
  a->d = d;
  for (int s = 0; s < d.rows; s++)
    for (int c = 0; c < 2 * d.cols; c++)
      a->rings[s * 2 * d.cols + c] = s * d.cols + c % d.cols;
  *arg = a;
  return 0;
}

static double block_width(const met_dense_t *d, long j)
{
  return (double)(d->n - j * d->r < d->r ? d->n - j * d->r : d->r);
}

/* Columns of B in the first `limit` unsolved blocks (after block i) that process column `col` holds. */
static double unsolved_columns(const met_dense_t *d, long i, int col, long limit)
{
  long blocks = (d->n + d->r - 1) / d->r;
  long first = i + 1 + ((col - (i + 1) % d->cols) % d->cols + d->cols) % d->cols;
  double columns = 0;
  for (long j = first; j < blocks && limit > 0; j += d->cols, limit--)
    columns += block_width(d, j);
  return columns;
}

/* The solving row's part of a step: trsm by the owner, the ring broadcast, the update, and on a general grid the
 * first part sent down to the next process row. */
static void solve_step(sim_rank_t *rank, const pdtrsm_arg_t *a, const trsm_step_t *t, int my_col)
{
  const met_dense_t *d = &a->d;
  double width = block_width(d, t->i);
  if (my_col == t->col) {
    sim_phase(rank, "trsm");
    app_linalg_flops(rank, t->height * width * width, SIM_WORK);
  }
  sim_phase(rank, "broadcast");
  sim_group_t ring = {.members = a->rings + t->row * 2 * d->cols + t->col, .count = d->cols};
  sim_bcast_group(rank, &ring, 0, t->height * width * 8);
  sim_phase(rank, "update");
  double all = unsolved_columns(d, t->i, my_col, LONG_MAX);
  double first = d->rows == 1 ? all : unsolved_columns(d, t->i, my_col, d->rows - 1);
  app_linalg_flops(rank, met_dgemm_flops(t->height, width, first), SIM_WORK);
  if (d->rows > 1 && first > 0) {
    sim_phase(rank, "send");
    sim_send(rank, (t->row + 1) % d->rows * d->cols + my_col, t->height * first * 8);
    sim_phase(rank, "update");
  }
  app_linalg_flops(rank, met_dgemm_flops(t->height, width, all - first), SIM_WORK);
}

/* The next process row's part: receive the first part of the update and add it to its own blocks. */
static void accumulate_step(sim_rank_t *rank, const pdtrsm_arg_t *a, const trsm_step_t *t, int my_col)
{
  const met_dense_t *d = &a->d;
  double first = unsolved_columns(d, t->i, my_col, d->rows - 1);
  if (first <= 0)
    return;
  sim_phase(rank, "accumulate");
  sim_recv(rank, t->row * d->cols + my_col, t->height * first * 8);
  app_linalg_flops(rank, t->height * first, SIM_CTRL); /* adding partial sums: parallel work only */
}

/* One pbdtrsm call: the block row of B starting at row `top`, solved block by block. */
static void pbdtrsm(sim_rank_t *rank, const pdtrsm_arg_t *a, long top)
{
  const met_dense_t *d = &a->d;
  int me = sim_rank_id(rank);
  int my_row = me / d->cols;
  int my_col = me % d->cols;
  long blocks = (d->n + d->r - 1) / d->r;
  for (long i = 0; i < blocks; i++) {
    trsm_step_t t = {.i = i,
                     .height = (double)(d->m - top < d->r ? d->m - top : d->r),
                     .row = (int)(i % d->rows),
                     .col = (int)(i % d->cols)};
    if (my_row == t.row)
      solve_step(rank, a, &t, my_col);
    else if (my_row == (t.row + 1) % d->rows)
      accumulate_step(rank, a, &t, my_col);
  }
}

static void pdtrsm_program(sim_rank_t *rank, const void *arg)
{
  const pdtrsm_arg_t *a = arg;
  for (long top = 0; top < a->d.m; top += a->d.r)
    pbdtrsm(rank, a, top);
}

/* pdtrsm's messages: a solved block along a process row (its height by its width, the last ones smaller) and the
 * parts of it sent down a column, up to a block's height by what (rows - 1) process rows take of it; a range wider
 * than the real one only leaves the model out more often under SMPI's factors, never prices it another way. */
static app_linalg_sizes_t pdtrsm_sizes(const met_dense_t *d)
{
  double r = (double)d->r;
  double last = 8.0 * (double)(d->m % d->r ? d->m % d->r : d->r) * (double)(d->n % d->r ? d->n % d->r : d->r);
  double down = 8.0 * r * r * (d->rows > 2 ? d->rows - 1 : 1);
  return (app_linalg_sizes_t){.row_lo = last, .row = 8.0 * r * r, .col_lo = last, .col = down};
}

/* The critical path (met_pdtrsm_pipeline), or nothing, with the reason in missing, where a link of the run's routes
 * carries three of a step's streams at once (met_pdtrsm_crowded), as pdgemm's check of its broadcasts. */
static double pdtrsm_model(const app_point_t *point, int nranks, const met_platform_t *m, char *missing, size_t len)
{
  met_dense_t d;
  met_machine_t fast;
  const char *bad_param = NULL;
  if (app_linalg_dense(point, nranks, &d, missing, len, &bad_param) != 0)
    return NAN;
  app_linalg_sizes_t sizes = pdtrsm_sizes(&d);
  if (app_linalg_fast_machine(m, &d, &sizes, &fast, missing, len) != 0)
    return NAN;
  int crowded = met_pdtrsm_crowded(&d, &fast);
  if (crowded != 0) {
    snprintf(missing, len, "%s",
             crowded < 0 ? "out of memory"
                         : "one link of this platform's routes carries a solved block's ring and the parts two process "
                           "columns send down at once, three messages, and the model shares a link between two");
    return NAN;
  }
  double t = met_pdtrsm_pipeline(&d, &fast);
  if (isnan(t))
    snprintf(missing, len, "out of memory");
  return t;
}

static int pdtrsm_advise(const app_point_t *point, int nranks, const met_platform_t *m, char *msg, size_t msglen)
{
  return app_linalg_memory_advice(point, nranks, m, met_pdtrsm_node_bytes, msg, msglen);
}

/* At most `count`, at least 0. */
static long clamp(long value, long count)
{
  return value < 0 ? 0 : value > count ? count : value;
}

/* The operations of step i (of `blocks`) but its broadcast, as the recorder counts them (a computation of no flop is
 * none): the owner's trsm; per process column holding some of the blocks after i (one each of the next `cols`: as
 * many columns as those blocks, at most all), its first update, and on a general grid its send and the next row's
 * receive (two message ends; the next row's sums are control, not counted), and its second update when it holds more
 * than P - 1 of them (the columns whose first such block is followed by P - 1 more, `cols` apart). */
static double step_ops(const met_dense_t *d, long i, long blocks)
{
  long holding = clamp(blocks - 1 - i, d->cols);
  if (d->rows == 1)
    return 1.0 + (double)holding;
  return 1.0 + 3.0 * (double)holding + (double)clamp(blocks - 1 - i - (long)(d->rows - 1) * d->cols, d->cols);
}

/* Every rank's operations (app_skeleton_t.work), exactly as the simulation counts them: per block row of B (its height
 * R, or what is left at the bottom) and per diagonal block (its width R, or what is left), step_ops and the ring
 * broadcast of the solved block over the process row (app_bcast_ops, its bytes the block's); the ranks when the grid
 * is not the point's. */
static double pdtrsm_work(const app_point_t *point, int nranks)
{
  met_dense_t d;
  if (app_linalg_dense(point, nranks, &d, NULL, 0, NULL) != 0)
    return nranks;
  long blocks = (d.n + d.r - 1) / d.r, block_rows = (d.m + d.r - 1) / d.r;
  double steps = 0;
  for (long i = 0; i < blocks; i++)
    steps += step_ops(&d, i, blocks);
  double heights[2] = {(double)d.r, (double)(d.m - (block_rows - 1) * d.r)}; /* a full block row's, the last's */
  double widths[2] = {(double)d.r, block_width(&d, blocks - 1)};
  double ops = (double)block_rows * steps;
  for (int h = 0; h < 2; h++)
    for (int w = 0; w < 2; w++)
      ops += (double)(h ? 1 : block_rows - 1) * (double)(w ? 1 : blocks - 1) *
             app_bcast_ops(point, d.cols, heights[h] * widths[w] * 8);
  return ops;
}

static const scn_param_spec_t pdtrsm_params[] = {
    {.name = "m", .kind = SCN_INT, .min = 1, .required = 1, .help = "rows of B and X", .role = SCN_ROLE_SIZE},
    {.name = "n",
     .kind = SCN_INT,
     .min = 1,
     .required = 1,
     .help = "order of the triangular A, columns of B",
     .role = SCN_ROLE_SIZE},
    {.name = "block", .kind = SCN_INT, .min = 1, .required = 1, .help = "block R of the block-cyclic distribution"},
    {.name = "grid-rows",
     .kind = SCN_INT,
     .min = 1,
     .required = 1,
     .help = "process rows P of the P x (p / P) grid (1: a single row, no pipelining); swept with p, only divisors "
             "of p are run",
     .role = SCN_ROLE_GRID_ROWS},
    {.name = "broadcast",
     .kind = SCN_CHOICE,
     .choices = sim_bcast_names,
     .required = 1,
     .help = "broadcast of a solved block along its process row, from the owner (neighbour: the ring of §4.2)",
     .role = SCN_ROLE_BROADCAST},
};

static const scn_skeleton_spec_t pdtrsm_spec = {
    .name = "pdtrsm", .params = pdtrsm_params, .nparams = sizeof pdtrsm_params / sizeof pdtrsm_params[0]};

/* The broadcast of a solved block along the process row is Table 5's broadcast row. */
static const met_phase_role_t pdtrsm_phases[] = {{"broadcast", MET_SUB_BROADCAST}, {NULL, MET_SUB_COUNT}};

const app_skeleton_t app_pdtrsm_skeleton = {
    .spec = &pdtrsm_spec,
    .phases = pdtrsm_phases,
    .prepare = pdtrsm_prepare,
    .program = pdtrsm_program,
    .release = free,
    .model = pdtrsm_model,
    .work = pdtrsm_work,
    .model_name =
        "FAST pdtrsm model (Caron & Suter 2002, eqs. 4-7) followed along the ring and the pipeline, with their "
        "shared links and idle times (docs/icluster.md), with the platform's figures: each rank's host's "
        "flop rate, Hockney's lambda and tau "
        "averaged over the routes within a process row (row broadcasts) and a process column (column "
        "broadcasts)",
    .advise = pdtrsm_advise};
