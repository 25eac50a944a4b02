/* Shared parts of the dense linear algebra skeletons (seeds 000 Ex. 1.2 and 003 §4-5): flops, problem sizes and process
 * grids of a sweep point, icluster's figures for the FAST models, the node-memory check of seed 003 §5.2. */
#include "app_linalg.h"
#include "sim_error.h"

#include <math.h>
#include <stdio.h>

const met_machine_t app_icluster_machine = {
    .link = {.lambda = 124.04e-6, .tau = 1.0 / 11866059.8}, .flops = 733e6, .elem_bytes = 8};

void app_linalg_flops(sim_rank_t *rank, double flops, sim_purpose_t purpose)
{
  /* All of it is floating-point work: the FPU part of the split of seed 001 eq. 2. */
  sim_cycles_t cycles = {.fpu = flops};
  sim_compute(rank, &cycles, purpose);
}

static int blame(const char **bad_param, const char *param)
{
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

double app_linalg_model(const app_point_t *point, int nranks,
                        double (*model)(const met_dense_t *, const met_machine_t *))
{
  char err[256];
  const char *bad_param = NULL;
  met_dense_t d;
  if (app_linalg_dense(point, nranks, &d, err, sizeof err, &bad_param) != 0)
    return NAN;
  return model(&d, &app_icluster_machine);
}

int app_linalg_memory_advice(const app_point_t *point, int nranks, double (*node_bytes)(const met_dense_t *, double),
                             char *msg, size_t msglen)
{
  const char *bad_param = NULL;
  met_dense_t d;
  if (app_linalg_dense(point, nranks, &d, msg, msglen, &bad_param) != 0)
    return 0;
  double bytes = node_bytes(&d, app_icluster_machine.elem_bytes);
  if (bytes <= APP_ICLUSTER_MEMORY_BYTES)
    return 0;
  snprintf(msg, msglen,
           "grid %dx%d: the busiest node holds %.1f MiB of matrix data, more than an icluster node's %.0f MiB; the "
           "real run would swap (seed 003 §5.2), which simrun does not model",
           d.rows, d.cols, bytes / 1048576.0, APP_ICLUSTER_MEMORY_BYTES / 1048576.0);
  return 1;
}
