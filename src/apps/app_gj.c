/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan elimination (seed 001 §4.1-4.2, eqs. 10-15) as a skeleton of the replay layer. Its work is operation
 * counts per module, by class (CPU, FPU, internal and external memory: eq. 2); the platform says what they cost. */
#include "app_gj.h"
#include "app_gj_closed.h"
#include "app_linalg.h"
#include "met_model.h"
#include "sim_coll_run.h"
#include "sim_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `element_ops` Rsub-equivalent elements while the rank keeps touching its block of `rows` rows and the pivot row. */
static void compute_ops(sim_rank_t *rank, int n, int rows, double element_ops)
{
  met_ops_t ops = app_gj_ops(n, rows);
  sim_work(rank, &ops, element_ops, SIM_WORK);
}

/* Rank 0 sets up the links, reads the system from the host and sends every other rank its block of rows. */
static void distribute(sim_rank_t *rank, int n, int p)
{
  if (sim_rank_id(rank) != 0) {
    sim_phase(rank, "distribution");
    sim_recv(rank, 0, app_gj_block_bytes(n, app_gj_rows_of(n, p, sim_rank_id(rank))));
    return;
  }
  sim_phase(rank, "link-init");
  sim_init_links(rank);
  sim_phase(rank, "input");
  sim_io(rank, SIM_INPUT, app_gj_input_bytes(n));
  sim_phase(rank, "distribution");
  for (int r = 1; r < p; r++)
    sim_send(rank, r, app_gj_block_bytes(n, app_gj_rows_of(n, p, r)));
}

/* Every rank returns its part of the solution; rank 0 writes it to the host. */
static void collect(sim_rank_t *rank, int n, int p)
{
  sim_phase(rank, "collection");
  int me = sim_rank_id(rank);
  if (me != 0) {
    sim_send(rank, 0, app_gj_result_bytes(app_gj_rows_of(n, p, me)));
    return;
  }
  for (int r = 1; r < p; r++)
    sim_recv(rank, r, app_gj_result_bytes(app_gj_rows_of(n, p, r)));
  sim_phase(rank, "output");
  sim_io(rank, SIM_OUTPUT, app_gj_result_bytes(n));
}

static void gj_program(sim_rank_t *rank, const void *arg)
{
  int n = ((const app_gj_arg_t *)arg)->n;
  int p = sim_rank_count(rank);
  int me = sim_rank_id(rank);
  int rows = app_gj_rows_of(n, p, me);
  distribute(rank, n, p);
  for (int k = 0; k < n; k++) {
    int owner = app_gj_owner_of(n, p, k);
    sim_phase(rank, "normalise");
    if (me == owner)
      compute_ops(rank, n, rows, app_gj_pivot_ops(n, k));
    sim_phase(rank, "broadcast");
    sim_bcast(rank, owner, app_gj_row_bytes(n));
    sim_phase(rank, "update");
    compute_ops(rank, n, rows, app_gj_update_ops(n, k, rows - (me == owner)));
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
  app_gj_arg_t *gj = malloc(sizeof *gj);
  if (!gj)
    return SIM_ENOMEM;
  const char *bcast = app_point_value(point, "broadcast");
  gj->n = (int)n;
  gj->bcast = bcast ? sim_bcast_parse(bcast) : -1;
  *arg = gj;
  return 0;
}

/* Eq. 11 with the neighbour broadcast's every hop at the relay's slowest (eq. 15 takes their mean): rows relayed one
 * after the other go at the pace of the slowest hop, the bound above eq. 15's on a platform whose neighbouring ranks
 * are not all alike apart (a torus, a fat tree: ranks 3 and 4 cross the top). The paper's own platforms (a piecewise
 * message model) keep eq. 15 as published; the one-to-all broadcast sums its members' hops exactly: met_gj_time_upper.
 */
static double relay_at_slowest(const met_gj_t *g, const met_platform_t *m)
{
  if (m->piecewise || g->bcast_routes != &m->neighbour)
    return met_gj_time_upper(g);
  met_bcast_routes_t slowest = m->neighbour;
  slowest.hops_sum = slowest.members * slowest.hops_max;
  met_gj_t at_slowest = *g;
  at_slowest.bcast_routes = &slowest;
  return met_gj_time_upper(&at_slowest);
}

/* Zemerly et al.'s eq. 11 for this point on the run's platform: its message model (eq. 4, or the route's latency and
 * bandwidth in that form: met_platform_msg), the routes of the run's own mapping (eqs. 12-15), its eager limit, the
 * sequential computation on the slowest rank's host and the host I/O of eqs. 5-6: the mean of the bounds of
 * overlapped sends (met_gj_time, met_gj_time_upper) and of a relay at its slowest hop (relay_at_slowest) when they
 * agree within MET_GJ_BOUNDS_RATIO. NAN, with what is missing, for a broadcast the paper has no model of, a platform
 * with no message model, eager rows that move while their receivers compute (simrun:eager-start = send), routes that
 * eq. 4's per-hop form cannot price (met_platform_routes_alike), or bounds too far apart. */
static double gj_model(const app_point_t *point, int nranks, const met_platform_t *m, char *missing, size_t len)
{
  const char *bcast = app_point_value(point, "broadcast");
  int n = (int)app_point_long(point, "n", 0);
  if (!bcast || (strcmp(bcast, "one-to-all") != 0 && strcmp(bcast, "neighbour") != 0) || n < 1) {
    snprintf(missing, len, "eq. 11 models the one-to-all and neighbour broadcasts only");
    return NAN;
  }
  met_ops_t seq = app_gj_rsub_element; /* the sequential run keeps touching the whole system */
  seq.working_set = app_gj_block_bytes(n, n) + app_gj_row_bytes(n);
  met_piecewise_t msg;
  if (met_platform_unpriced(m)) {
    snprintf(missing, len, "%s", met_platform_unpriced(m));
    return NAN;
  }
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
  if (!met_platform_routes_alike(m, strcmp(bcast, "neighbour") == 0, missing, len))
    return NAN;
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
  double slowest = relay_at_slowest(&g, m);
  if (slowest > MET_GJ_BOUNDS_RATIO * lower) {
    snprintf(missing, len,
             "neighbouring ranks are %.3g links apart on average and %.3g at most: eq. 15 relays every row at the mean "
             "(%.4g s) while the slowest hop can set the relay's pace (%.4g s), too far apart to tell",
             m->neighbour.hops_sum / m->neighbour.members, m->neighbour.hops_max, lower, slowest);
    return NAN;
  }
  return (lower + (slowest > upper ? slowest : upper)) / 2;
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
    {.name = "n", .kind = SCN_INT, .min = 1, .required = 1, .help = "number of equations N", .role = SCN_ROLE_SIZE},
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
    .closed = app_gj_closed_form,
    .model_name =
        "Zemerly et al. eq. 11 (no idling) with the platform's figures: its message model (eq. 4, or the "
        "route's latency and bandwidth), its send semantics (eager sends overlap), host I/O (eqs. 5-6), "
        "the slowest rank's host's characterisation and the run's routes for both broadcasts (docs/machines.md)"};
