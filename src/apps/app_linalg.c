/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared parts of the dense linear algebra skeletons (seeds 000 Ex. 1.2 and 003 §4-5): flops, problem sizes and process
 * grids of a sweep point, the FAST models with the platform's figures, the node-memory check of seed 003 §5.2. */
#include "app_linalg.h"
#include "sim_error.h"

#include <math.h>
#include <stdio.h>

#define APP_LINALG_DOUBLE 8.0

void app_linalg_flops(sim_rank_t *rank, double flops, sim_purpose_t purpose)
{
  /* Blocked kernels (dgemm, trsm, the inner products of a row block): their memory traffic is hidden behind the
   * floating-point work, which is all they are charged (the FPU part of eq. 2). */
  static const met_ops_t flop = {.n = {[MET_CLASS_FLOP] = 1}};
  sim_work(rank, &flop, flops, purpose);
}

static int blame(const char **bad_param, const char *param)
{
  if (bad_param)
    *bad_param = param;
  return SIM_EPARAM;
}

/* Reads dimension `name` (absent: 0) and checks it against APP_LINALG_MAX_DIM. */
static int read_dim(const app_point_t *point, const char *name, long *out, char *err, size_t errlen,
                    const char **bad_param)
{
  *out = app_point_long(point, name, 0);
  if (*out <= APP_LINALG_MAX_DIM)
    return 0;
  snprintf(err, errlen, "%s = %ld is too large for a simulated matrix; use %s <= %ld", name, *out, name,
           APP_LINALG_MAX_DIM);
  return blame(bad_param, name);
}

/* The block must fit in every dimension the skeleton has. */
static int check_block(const met_dense_t *d, char *err, size_t errlen, const char **bad_param)
{
  const char *names[] = {"m", "n", "k"};
  const long dims[] = {d->m, d->n, d->k};
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
    if (dims[i] > 0 && d->r > dims[i]) {
      snprintf(err, errlen, "block = %ld is larger than %s = %ld; use a block of at most %ld", d->r, names[i], dims[i],
               dims[i]);
      return blame(bad_param, "block");
    }
  return 0;
}

/* grid-rows x (p / grid-rows); the sequential run (p = 1) is the 1 x 1 grid whatever the rows. */
static int read_grid(const app_point_t *point, int nranks, met_dense_t *d, char *err, size_t errlen,
                     const char **bad_param)
{
  long rows = app_point_long(point, "grid-rows", 1);
  if (nranks == 1)
    rows = 1;
  if (nranks % rows != 0) {
    snprintf(err, errlen,
             "grid-rows = %ld does not divide p = %d: the grid is grid-rows x (p / grid-rows); use a divisor of p",
             rows, nranks);
    return blame(bad_param, "grid-rows");
  }
  d->rows = (int)rows;
  d->cols = nranks / (int)rows;
  return 0;
}

int app_linalg_dense(const app_point_t *point, int nranks, met_dense_t *d, char *err, size_t errlen,
                     const char **bad_param)
{
  *d = (met_dense_t){.r = app_point_long(point, "block", 1)};
  int rc = read_dim(point, "m", &d->m, err, errlen, bad_param);
  rc = rc ? rc : read_dim(point, "n", &d->n, err, errlen, bad_param);
  rc = rc ? rc : read_dim(point, "k", &d->k, err, errlen, bad_param);
  rc = rc ? rc : check_block(d, err, errlen, bad_param);
  return rc ? rc : read_grid(point, nranks, d, err, errlen, bad_param);
}

/* Whether every size of `sizes` prices as its range's end does under m's network model; else says why not. */
static int one_price(const met_platform_t *m, const app_linalg_sizes_t *sizes, char *missing, size_t len)
{
  if (m->piecewise || met_net_size_free(&m->net) ||
      (met_net_one_step(&m->net, sizes->row_lo, sizes->row) && met_net_one_step(&m->net, sizes->col_lo, sizes->col)))
    return 1;
  snprintf(missing, len,
           "its messages of %.0f to %.0f bytes (rows) and %.0f to %.0f bytes (columns) take different %s factors, "
           "and one Hockney lambda and tau per line cannot follow them",
           sizes->row_lo, sizes->row, sizes->col_lo, sizes->col, m->net.model);
  return 0;
}

/* Where messages of one round of pdgemm's trees share a link (sim_routes_grid_shared), the rounds that eqs. 2-3
 * charge bytes tau for, each at its slowest message's slowdown; left 0 (ceil log2) elsewhere. */
static void shared_rounds(const met_platform_t *m, const met_dense_t *d, met_machine_t *fast)
{
  if (m->p > MET_PLATFORM_PAIR_RANKS || !m->grid_shared[d->rows])
    return;
  fast->row_rounds = m->grid_rounds[d->rows][0];
  fast->col_rounds = m->grid_rounds[d->rows][1];
}

int app_linalg_fast_machine(const met_platform_t *m, const met_dense_t *d, const app_linalg_sizes_t *sizes,
                            met_machine_t *fast, char *missing, size_t len)
{
  *fast = (met_machine_t){.flops = met_platform_flops(m),
                          .elem_bytes = APP_LINALG_DOUBLE,
                          .eager_bytes = m->eager_bytes,
                          .eager_at_send = m->eager_at_send};
  if (m->p <= MET_PLATFORM_PAIR_RANKS && m->port_links >= 0)
    fast->ports = (met_ports_t){.count = m->p,
                                .stride = MET_PLATFORM_PAIR_RANKS,
                                .links = m->port_links,
                                .max_hops = MET_PLATFORM_ROUTE_LINKS,
                                .route = &m->pair_route[0][0][0],
                                .hops = &m->pair_route_hops[0][0]};
  int known = m->p <= MET_MODEL_RATES; /* each rank's own rate, where every rank's is known */
  for (int i = 0; known && i < m->p; i++)
    known = (fast->rank_flops[i] = met_platform_rank_flops(m, i)) > 0;
  fast->rates = known ? m->p : 0;
  shared_rounds(m, d, fast);
  if (fast->flops <= 0) {
    snprintf(missing, len, "rank 0's host has no flop rate (simrun:cycles-flop is 0)");
    return SIM_EPLATFORM;
  }
  if (met_platform_unpriced(m)) {
    snprintf(missing, len, "%s", met_platform_unpriced(m));
    return SIM_EPLATFORM;
  }
  if (!one_price(m, sizes, missing, len) || !met_platform_lines_alike(m, d->cols, missing, len))
    return SIM_EPLATFORM;
  if (met_platform_grid_links(m, d->rows, d->cols, sizes->row, sizes->col, &fast->link, &fast->col_link) != 0) {
    snprintf(missing, len, "a route between ranks gives no bandwidth and the platform no message model");
    return SIM_EPLATFORM;
  }
  return 0;
}

double app_linalg_model(const app_point_t *point, int nranks, const met_platform_t *m, char *missing, size_t len,
                        double (*model)(const met_dense_t *, const met_machine_t *),
                        app_linalg_sizes_t (*sizes_of)(const met_dense_t *))
{
  char err[256];
  const char *bad_param = NULL;
  met_dense_t d;
  met_machine_t fast;
  if (app_linalg_dense(point, nranks, &d, err, sizeof err, &bad_param) != 0) {
    snprintf(missing, len, "%s", err);
    return NAN;
  }
  app_linalg_sizes_t sizes = sizes_of(&d);
  return app_linalg_fast_machine(m, &d, &sizes, &fast, missing, len) == 0 ? model(&d, &fast) : NAN;
}

int app_memory_advice(const met_platform_t *m, const char *what, double rank0_bytes, double other_bytes,
                      int say_skipped, char *msg, size_t msglen)
{
  met_memory_fail_t fail;
  int rc = met_platform_memory_check(m, rank0_bytes, other_bytes, &fail);
  if (rc == -1 && say_skipped)
    snprintf(msg, msglen, "memory check skipped: the platform gives no simrun:memory-bytes for the ranks' hosts");
  if (rc != 1)
    return rc == -1 && say_skipped;
  snprintf(msg, msglen,
           "memory: rank %d's host%s%s fails first: %.1f MiB of %s, more than its %.4g MiB (simrun:memory-bytes); "
           "the real run would swap (seed 003 §5.2), which simrun does not model",
           fail.rank, fail.rank == fail.kind->first_rank ? " " : "",
           fail.rank == fail.kind->first_rank ? fail.kind->host : "", fail.bytes / 1048576.0, what,
           fail.kind->charac.memory_bytes / 1048576.0);
  return 1;
}

int app_linalg_memory_advice(const app_point_t *point, int nranks, const met_platform_t *m,
                             double (*node_bytes)(const met_dense_t *, double), char *msg, size_t msglen)
{
  const char *bad_param = NULL;
  met_dense_t d;
  if (app_linalg_dense(point, nranks, &d, msg, msglen, &bad_param) != 0)
    return 0;
  double bytes = node_bytes(&d, APP_LINALG_DOUBLE); /* the busiest process's, held against every host */
  char what[64];
  snprintf(what, sizeof what, "matrix data (grid %dx%d, the busiest process's)", d.rows, d.cols);
  return app_memory_advice(m, what, bytes, bytes, 1, msg, msglen);
}
