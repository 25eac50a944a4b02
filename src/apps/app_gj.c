/* Gauss-Jordan elimination (seed 001 §4.1-4.2, eqs. 10-15) as a skeleton of the replay layer. Compute time comes from
 * cycle counts per module, split into CPU, FPU, internal and external memory (eq. 2), calibrated below. */
#include "app_gj.h"
#include "met_model.h"
#include "sim_error.h"
#include "sim_map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Calibration, from documented p = 1 figures only (REFERENCE.md §3.2-3.3), N = 256:
 *  - measured p = 1 run: 78.21 s (Table 3) and 78.15 s (Table 4), mean 78.18 s;
 *  - less input, eq. 5 with N(N+2) doubles (1.9715 s, Table 5's T_inp = 1.97), and output, eq. 6 with N doubles
 *    (0.0061 s, Table 5's T_out = 0.006), leaves 76.2024 s of computation;
 *  - Table 5 splits its predicted 72.29 s of computation into CPU 19.75, FPU 12.34, internal memory 7.04 and external
 *    memory 33.16 s (p = 1); that split is kept and scaled to the measured total (x 1.05412);
 *  - spread over app_gj_element_ops(256) = 8,460,902.4 Rsub-equivalent element operations at 25e6 cycles/s (the
 *    platform's T800 clock), that is 225.160 cycles per Rsub element.
 * The other modules are weighted against Rsub by their memory and floating-point operations per element, since the
 * paper gives no per-module split: Rsub a[i][j] -= f * a[k][j] (2 loads, fmul, fsub, store) weighs 1; Norm
 * a[k][j] *= inv (load, fmul, store) 0.6; Set (read f, clear a[i][k]) and Buf (copy one element) 0.4; Inv (one
 * division per step) 1. Rsub is 99% of all cycles, so these weights move results by well under 1%. */
const sim_cycles_t app_gj_rsub_cycles = {.cpu = 61.515, .fpu = 38.435, .intmem = 21.927, .extmem = 103.283};

#define GJ_WEIGHT_NORM 0.6
#define GJ_WEIGHT_SET 0.4
#define GJ_WEIGHT_BUF 0.4
#define GJ_WEIGHT_INV 1.0
#define GJ_DOUBLE 8.0
#define GJ_CLOCK_HZ 25e6 /* the T800 of platforms/t800-mesh-128.xml, for the analytic model only */

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

static void compute_ops(sim_rank_t *rank, double ops)
{
  sim_cycles_t c = {.cpu = ops * app_gj_rsub_cycles.cpu, .fpu = ops * app_gj_rsub_cycles.fpu,
                    .intmem = ops * app_gj_rsub_cycles.intmem, .extmem = ops * app_gj_rsub_cycles.extmem};
  sim_compute(rank, &c, SIM_WORK);
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
  distribute(rank, n, p);
  for (int k = 0; k < n; k++) {
    int owner = owner_of(n, p, k);
    sim_phase(rank, "normalise");
    if (me == owner)
      compute_ops(rank, pivot_ops(n, k));
    sim_phase(rank, "broadcast");
    sim_bcast(rank, owner, app_gj_row_bytes(n));
    sim_phase(rank, "update");
    compute_ops(rank, update_ops(n, k, rows_of(n, p, me) - (me == owner)));
  }
  collect(rank, n, p);
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

/* Zemerly et al.'s eq. 11 for this point, with the T800 figures simrun's platform uses: Table 2's message model, a
 * 16 x 8 mesh cut into the same compact snake-ordered partitions as sim_map (for the distances of eqs. 12-14), the
 * calibrated sequential computation and the I/O of eqs. 5-6. NAN for a broadcast the paper has no model of. */
static double gj_model(const app_point_t *point, int nranks)
{
  static const met_piecewise_t t800 = {.packet_bytes = 120,
                                       .small = {51.1, 0.27, 8.86, 0.68},
                                       .large = {-81.5, 1.33, 93.04, 0.05}};
  const char *bcast = app_point_value(point, "broadcast");
  int n = (int)app_point_long(point, "n", 0);
  int rows = 0;
  int cols = 0;
  int modelled = bcast && (strcmp(bcast, "one-to-all") == 0 || strcmp(bcast, "neighbour") == 0);
  if (!modelled || n < 1 || sim_map_rectangle(nranks, 16, 8, &rows, &cols) != 0)
    return NAN; /* the paper models its two broadcasts only */
  int hops[nranks];
  for (int r = 0; r < nranks; r++) {
    int row;
    int col;
    sim_map_snake(r, cols, &row, &col);
    hops[r] = row + col;
  }
  const sim_cycles_t *c = &app_gj_rsub_cycles;
  double cycles_per_op = c->cpu + c->fpu + c->intmem + c->extmem;
  met_gj_t g = {.n = n, .p = nranks, .t_comp = app_gj_element_ops(n) * cycles_per_op / GJ_CLOCK_HZ,
                .t_io = 1e-6 * (642.16 + 3.73 * app_gj_input_bytes(n) + 1583.73 + 2.2 * app_gj_result_bytes(n)),
                .bcast = strcmp(bcast, "neighbour") == 0 ? MET_GJ_NEIGHBOUR : MET_GJ_ONE_TO_ALL, .msg = &t800,
                .hops = hops};
  return met_gj_time(&g);
}

static const scn_param_spec_t gj_params[] = {
    {.name = "n", .kind = SCN_INT, .min = 1, .required = 1, .help = "number of equations N"},
    {.name = "broadcast", .kind = SCN_CHOICE, .choices = sim_bcast_names, .required = 1,
     .help = "broadcast algorithm: one-to-all (eq. 14), neighbour (eq. 15) or another of docs/broadcasts.md"},
};

static const scn_skeleton_spec_t gj_spec = {.name = "gauss-jordan", .params = gj_params,
                                            .nparams = sizeof gj_params / sizeof gj_params[0]};

const app_skeleton_t app_gj_skeleton = {
    .spec = &gj_spec,
    .prepare = gj_prepare,
    .program = gj_program,
    .release = free,
    .model = gj_model,
    .model_name = "Zemerly et al. eq. 11 (no overlap, no idling) with the T800 figures: Table 2, eqs. 5-6, the "
                  "calibrated computation, compact mesh partitions"};
