/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan elimination (seed 001 §4.1-4.2, eqs. 10-15) as a skeleton of the replay layer. Its work is operation
 * counts per module, by class (CPU, FPU, internal and external memory: eq. 2); the platform says what they cost. */
#include "app_gj.h"
#include "app_linalg.h"
#include "met_model.h"
#include "sim_coll_run.h"
#include "sim_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The work of one element of each module of eq. 10, as operation counts (met_machine.h); what an operation costs is
 * the platform's (simrun:cycles-*, docs/machines.md). Rsub, a[i][j] -= f * a[k][j], compiled as a loop over j:
 *  - cpu 3: the loop's index increment, compare and branch (the address arithmetic folds into the loads);
 *  - flop 2: one multiply, one subtract;
 *  - intmem 2: the loop index and the factor f, read from the workspace (on-chip memory on the T800);
 *  - extmem 3: load a[k][j], load a[i][j], store a[i][j] (the matrix, N(N+1) doubles, is in external memory).
 * The paper gives cycle counts per module (t_i of eq. 10) but not their instruction mix, so each other module is
 * described as Rsub's mix times a weight by its memory and floating-point operations per element: Norm a[k][j] *= inv
 * (load, fmul, store) 0.6; Set (read f, clear a[i][k]) and Buf (copy one element) 0.4; Inv (one division per step)
 * 1. Rsub is 99% of all the work, so these weights move results by well under 1%. */
static const met_ops_t rsub_element = {
    .n = {[MET_CLASS_CPU] = 3, [MET_CLASS_FLOP] = 2, [MET_CLASS_INTMEM] = 2, [MET_CLASS_EXTMEM] = 3}};

#define GJ_WEIGHT_NORM 0.6
#define GJ_WEIGHT_SET  0.4
#define GJ_WEIGHT_BUF  0.4
#define GJ_WEIGHT_INV  1.0
#define GJ_DOUBLE      8.0

typedef struct gj_arg {
  int n;
} gj_arg_t;

double app_gj_input_bytes(int n)
{
  return (double)n * (n + 2) * GJ_DOUBLE;
}

double app_gj_block_bytes(int n, int rows)
{
  return (double)rows * (n + 1) * GJ_DOUBLE;
}

double app_gj_row_bytes(int n)
{
  return (n + 1) * GJ_DOUBLE;
}

double app_gj_result_bytes(int rows)
{
  return rows * GJ_DOUBLE;
}

/* The pivot's work at step k: invert the pivot, normalise the N - k entries right of it, buffer the row. */
static double pivot_ops(int n, int k)
{
  return GJ_WEIGHT_INV + GJ_WEIGHT_NORM * (n - k) + GJ_WEIGHT_BUF * (n + 1);
}

/* Updating `rows` other rows at step k: clear their column k, subtract the pivot row from the N - k entries right. */
static double update_ops(int n, int k, int rows)
{
  return rows * (GJ_WEIGHT_SET + (double)(n - k));
}

double app_gj_element_ops(int n)
{
  double ops = 0;
  for (int k = 0; k < n; k++)
    ops += pivot_ops(n, k) + update_ops(n, k, n - 1);
  return ops;
}

/* Block rows: rank r holds rows_of(r) consecutive rows, in rank order; the first n % p ranks hold one more. */
static int rows_of(int n, int p, int r)
{
  return n / p + (r < n % p);
}

/* The rank holding `row`, in constant time: every rank asks at every step. */
static int owner_of(int n, int p, int row)
{
  int q = n / p;
  int big = (n % p) * (q + 1); /* rows held by the ranks with one more */
  return row < big ? row / (q + 1) : n % p + (row - big) / q;
}

/* `element_ops` Rsub-equivalent elements while the rank keeps touching its block of `rows` rows and the pivot row. */
static void compute_ops(sim_rank_t *rank, int n, int rows, double element_ops)
{
  met_ops_t ops = rsub_element;
  ops.working_set = app_gj_block_bytes(n, rows) + app_gj_row_bytes(n);
  ops.seq_working_set = app_gj_block_bytes(n, n) + app_gj_row_bytes(n);
  sim_work(rank, &ops, element_ops, SIM_WORK);
}

/* Rank 0 sets up the links, reads the system from the host and sends every other rank its block of rows. */
static void distribute(sim_rank_t *rank, int n, int p)
{
  if (sim_rank_id(rank) != 0) {
    sim_phase(rank, "distribution");
    sim_recv(rank, 0, app_gj_block_bytes(n, rows_of(n, p, sim_rank_id(rank))));
    return;
  }
  sim_phase(rank, "link-init");
  sim_init_links(rank);
  sim_phase(rank, "input");
  sim_io(rank, SIM_INPUT, app_gj_input_bytes(n));
  sim_phase(rank, "distribution");
  for (int r = 1; r < p; r++)
    sim_send(rank, r, app_gj_block_bytes(n, rows_of(n, p, r)));
}

/* Every rank returns its part of the solution; rank 0 writes it to the host. */
static void collect(sim_rank_t *rank, int n, int p)
{
  sim_phase(rank, "collection");
  int me = sim_rank_id(rank);
  if (me != 0) {
    sim_send(rank, 0, app_gj_result_bytes(rows_of(n, p, me)));
    return;
  }
  for (int r = 1; r < p; r++)
    sim_recv(rank, r, app_gj_result_bytes(rows_of(n, p, r)));
  sim_phase(rank, "output");
  sim_io(rank, SIM_OUTPUT, app_gj_result_bytes(n));
}

static void gj_program(sim_rank_t *rank, const void *arg)
{
  int n = ((const gj_arg_t *)arg)->n;
  int p = sim_rank_count(rank);
  int me = sim_rank_id(rank);
  int rows = rows_of(n, p, me);
  distribute(rank, n, p);
  for (int k = 0; k < n; k++) {
    int owner = owner_of(n, p, k);
    sim_phase(rank, "normalise");
    if (me == owner)
      compute_ops(rank, n, rows, pivot_ops(n, k));
    sim_phase(rank, "broadcast");
    sim_bcast(rank, owner, app_gj_row_bytes(n));
    sim_phase(rank, "update");
    compute_ops(rank, n, rows, update_ops(n, k, rows - (me == owner)));
  }
  collect(rank, n, p);
}

/* Every rank's operations (app_skeleton_t.work): per step the pivot's and the p updates' computations and the row's
 * broadcast (app_bcast_ops, from rank 0: the others' cost the same but for the mesh's), then the distribution's and
 * collection's 2 (p - 1) messages, two ends each. */
static double gj_work(const app_point_t *point, int nranks)
{
  long n = app_point_long(point, "n", 1);
  return (double)n * (1 + nranks + app_bcast_ops(point, nranks, app_gj_row_bytes((int)n))) + 4.0 * (nranks - 1);
}

static int gj_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                      const char **bad_param)
{
  long n = app_point_long(point, "n", 0);
  if (n < nranks) {
    snprintf(err, errlen, "n = %ld is smaller than p = %d: every rank needs at least one row; use n >= p", n, nranks);
    *bad_param = "n";
    return SIM_EPARAM;
  }
  if (n > 1000000) {
    snprintf(err, errlen, "n = %ld is too large for a simulated matrix; use n <= 1000000", n);
    *bad_param = "n";
    return SIM_EPARAM;
  }
  gj_arg_t *gj = malloc(sizeof *gj);
  if (!gj)
    return SIM_ENOMEM;
  gj->n = (int)n;
  *arg = gj;
  return 0;
}

/* Zemerly et al.'s eq. 11 for this point on the run's platform: its message model (eq. 4, or the route's latency and
 * bandwidth in that form: met_platform_msg), the routes of the run's own mapping (eqs. 12-15), its eager limit, the
 * sequential computation at rank 0's host's characterisation and the host I/O of eqs. 5-6: the mean of the bounds of
 * overlapped sends (met_gj_time, met_gj_time_upper) when they agree within MET_GJ_BOUNDS_RATIO. NAN, with what is
 * missing, for a broadcast the paper has no model of, a platform with no message model, eager rows that move while
 * their receivers compute (simrun:eager-start = send), or bounds too far apart. */
static double gj_model(const app_point_t *point, int nranks, const met_platform_t *m, char *missing, size_t len)
{
  const char *bcast = app_point_value(point, "broadcast");
  int n = (int)app_point_long(point, "n", 0);
  if (!bcast || (strcmp(bcast, "one-to-all") != 0 && strcmp(bcast, "neighbour") != 0) || n < 1) {
    snprintf(missing, len, "eq. 11 models the one-to-all and neighbour broadcasts only");
    return NAN;
  }
  met_ops_t seq = rsub_element; /* the sequential run keeps touching the whole system */
  seq.working_set = app_gj_block_bytes(n, n) + app_gj_row_bytes(n);
  met_piecewise_t msg;
  if (met_platform_msg(m, &msg) != 0 || nranks > MET_PLATFORM_MAX_RANKS) {
    snprintf(missing, len, "the platform gives no message model (simrun:comm-model) and the route no bandwidth");
    return NAN;
  }
  if (m->nkinds > MET_PLATFORM_MAX_KINDS) {
    snprintf(missing, len, "the ranks' hosts have more than %d characterisations", MET_PLATFORM_MAX_KINDS);
    return NAN;
  }
  if (m->eager_at_send && nranks > 1 && app_gj_row_bytes(n) <= m->eager_bytes) {
    snprintf(missing, len,
             "eager rows move while their receivers compute (simrun:eager-start = send): eq. 11 adds communication "
             "to computation and cannot say how much of it is hidden");
    return NAN;
  }
  met_gj_t g = {.n = n,
                .p = nranks,
                .t_comp = met_platform_slowest_seconds(m, &seq, app_gj_element_ops(n)),
                .t_io =
                    met_io_time(m->input_us, app_gj_input_bytes(n)) + met_io_time(m->output_us, app_gj_result_bytes(n)),
                .msg = &msg,
                .bcast_routes = strcmp(bcast, "neighbour") == 0 ? &m->neighbour : &m->one_to_all,
                .rank0_routes = &m->from_rank0,
                .eager_bytes = m->eager_bytes};
  double lower = met_gj_time(&g);
  double upper = met_gj_time_upper(&g);
  if (upper > MET_GJ_BOUNDS_RATIO * lower) {
    snprintf(missing, len,
             "eager sends overlap on shared links by an amount eq. 11 cannot tell: between %.4g s (members at other "
             "distances out of step) and %.4g s (all in step)",
             lower, upper);
    return NAN;
  }
  return (lower + upper) / 2;
}

/* The memory check of every rank's host: rank 0 reads the whole system (N (N + 2) doubles) before distributing it,
 * every other rank keeps its block of rows and the pivot row. Silent when no host gives its memory. */
static int gj_advise(const app_point_t *point, int nranks, const met_platform_t *m, char *msg, size_t msglen)
{
  int n = (int)app_point_long(point, "n", 0);
  if (n < nranks)
    return 0;
  double others = app_gj_block_bytes(n, n / nranks + (n % nranks != 0)) + app_gj_row_bytes(n);
  return app_memory_advice(m, "the system (rank 0 reads it whole) or its rows", app_gj_input_bytes(n), others, 0, msg,
                           msglen);
}

static const scn_param_spec_t gj_params[] = {
    {.name = "n", .kind = SCN_INT, .min = 1, .required = 1, .help = "number of equations N"},
    {.name = "broadcast",
     .kind = SCN_CHOICE,
     .choices = sim_bcast_names,
     .required = 1,
     .help = "broadcast algorithm: one-to-all (eq. 14), neighbour (eq. 15) or another of docs/broadcasts.md",
     .role = SCN_ROLE_BROADCAST},
};

static const scn_skeleton_spec_t gj_spec = {
    .name = "gauss-jordan", .params = gj_params, .nparams = sizeof gj_params / sizeof gj_params[0]};

const app_skeleton_t app_gj_skeleton = {
    .spec = &gj_spec,
    .prepare = gj_prepare,
    .program = gj_program,
    .release = free,
    .model = gj_model,
    .work = gj_work,
    .phases = met_table5_phases,
    .advise = gj_advise,
    .model_name = "Zemerly et al. eq. 11 (no idling) with the platform's figures: its message model (eq. 4, or the "
                  "route's latency and bandwidth), its send semantics (eager sends overlap), host I/O (eqs. 5-6), "
                  "rank 0's host's characterisation and the run's routes for both broadcasts (docs/machines.md)"};
