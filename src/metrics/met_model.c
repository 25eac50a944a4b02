/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Analytic models: Hockney's lambda + L tau; LogP's 2 o + L + (k - 1) max(g, o); FAST's pdgemm (Caron & Suter 2002,
 * eqs. 1-3) with the tree broadcast of §3 (pdtrsm's eqs. 4-7 along its critical path: met_pdtrsm.c); Zemerly et al.'s
 * Gauss-Jordan model (seed 001 eqs. 4, 11-15). */
#include "met_model.h"
#include "met_net.h"

#include <math.h>

double met_hockney(const met_hockney_t *link, double bytes)
{
  return link->lambda + bytes * link->tau;
}

double met_logp_time(const met_logp_t *m, double bytes)
{
  double k = bytes > m->word_bytes ? ceil(bytes / m->word_bytes) : 1;
  return 2 * m->o + m->L + (k - 1) * (m->g > m->o ? m->g : m->o);
}

int met_ceil_log2(long n)
{
  int rounds = 0;
  for (long reach = 1; reach < n; reach *= 2)
    rounds++;
  return rounds;
}

static long ceil_div(long a, long b)
{
  return a <= 0 ? 0 : (a + b - 1) / b;
}

double met_dgemm_flops(double a, double b, double c)
{
  return 2 * a * b * c;
}

long met_numroc(long n, long r, int iproc, int nprocs)
{
  long blocks = n / r;
  long rows = blocks / nprocs * r;
  long extra = blocks % nprocs;
  if (iproc < extra)
    rows += r;
  else if (iproc == extra)
    rows += n % r;
  return rows;
}

double met_pdgemm_comp(const met_dense_t *d, const met_machine_t *m)
{
  double dgemm_time =
      met_dgemm_flops((double)ceil_div(d->m, d->rows), (double)d->r, (double)ceil_div(d->n, d->cols)) / m->flops;
  return (double)ceil_div(d->k, d->r) * dgemm_time;
}

double met_pdgemm_comm(const met_dense_t *d, const met_machine_t *m)
{
  int log_q = met_ceil_log2(d->cols);
  int log_p = met_ceil_log2(d->rows);
  double row_rounds = m->row_rounds > 0 ? m->row_rounds : log_q;
  double col_rounds = m->col_rounds > 0 ? m->col_rounds : log_p;
  double row_bytes = row_rounds * d->m * d->k / d->rows * m->elem_bytes;
  double col_bytes = col_rounds * d->k * d->n / d->cols * m->elem_bytes;
  double steps = (double)ceil_div(d->k, d->r);
  return row_bytes * m->link.tau + col_bytes * m->col_link.tau +
         steps * (log_q * m->link.lambda + log_p * m->col_link.lambda);
}

double met_pdgemm_time(const met_dense_t *d, const met_machine_t *m)
{
  return met_pdgemm_comp(d, m) + met_pdgemm_comm(d, m);
}

/* Process (0, 0) holds the most of every block-cyclic matrix (NUMROC does not grow with the process index). */
static double local_elements(long rows, long cols, const met_dense_t *d)
{
  return (double)met_numroc(rows, d->r, 0, d->rows) * (double)met_numroc(cols, d->r, 0, d->cols);
}

double met_pdgemm_node_bytes(const met_dense_t *d, double elem_bytes)
{
  double matrices = local_elements(d->m, d->k, d) + local_elements(d->k, d->n, d) + local_elements(d->m, d->n, d);
  /* the received pivot panels: a block column of A and a block row of B */
  double panels = (double)d->r * (met_numroc(d->m, d->r, 0, d->rows) + met_numroc(d->n, d->r, 0, d->cols));
  return (matrices + panels) * elem_bytes;
}

double met_pdtrsm_node_bytes(const met_dense_t *d, double elem_bytes)
{
  return (local_elements(d->n, d->n, d) + local_elements(d->m, d->n, d)) * elem_bytes;
}

double met_piecewise_time(const met_piecewise_t *model, double bytes, int hops)
{
  const double *c = bytes <= model->packet_bytes ? model->small : model->large;
  if (model->net) /* a route's latency and bandwidth, priced by the network model */
    return met_net_time(model->net, 1e-6 * (c[0] + c[2] * hops), 1e6 / (c[1] + c[3] * hops), bytes);
  return 1e-6 * (c[0] + c[1] * bytes + c[2] * hops + c[3] * bytes * hops);
}

/* Eq. 4 at a mean distance (it is linear in d within a regime). */
static double piecewise_at(const met_piecewise_t *msg, double bytes, double hops)
{
  double t0 = met_piecewise_time(msg, bytes, 0);
  return t0 + (met_piecewise_time(msg, bytes, 1) - t0) * hops;
}

/* The later of the farthest member's time and a shared link's bound: n flows after the nearest's start, each at the
 * network model's bandwidth factor for the size (SimGrid scales every flow's rate by it). */
static double overlapped(const met_piecewise_t *msg, double bytes, double hops_max, double share, double share_hops)
{
  double farthest = piecewise_at(msg, bytes, hops_max);
  double factor = msg->net ? met_net_factor(msg->net->bw, msg->net->nbw, bytes) : 1.0;
  double busiest = piecewise_at(msg, bytes, share_hops) + bytes * share / factor;
  return farthest > busiest ? farthest : busiest;
}

double met_bcast_sends(const met_piecewise_t *msg, const met_bcast_routes_t *r, double bytes, int overlap,
                       double *upper)
{
  double t = 0;
  if (r->members > 0 && overlap)
    t = overlapped(msg, bytes, r->hops_max, r->share, r->share_hops);
  else if (r->members > 0) {
    double t0 = met_piecewise_time(msg, bytes, 0);
    t = r->members * t0 + (met_piecewise_time(msg, bytes, 1) - t0) * r->hops_sum;
  }
  if (upper)
    *upper = r->members > 0 && overlap ? overlapped(msg, bytes, r->hops_max, r->share_all, r->share_all_hops) : t;
  return t;
}

static int eager(const met_gj_t *g, double bytes)
{
  return bytes <= g->eager_bytes;
}

/* Eq. 11 with the lower (upper = 0) or upper bound of every overlapped send. */
static double gj_time(const met_gj_t *g, int upper)
{
  double dist_hi;
  double broad_hi;
  double dist = met_gj_dist(g, &dist_hi);
  double broad = met_gj_broad(g, &broad_hi);
  return g->t_comp / g->p + (upper ? dist_hi + g->n * broad_hi : dist + g->n * broad) + met_gj_coll(g) + g->t_io;
}

double met_gj_dist(const met_gj_t *g, double *upper)
{
  double bytes = (double)g->n / g->p * (g->n + 1) * 8.0;
  return met_bcast_sends(g->msg, g->rank0_routes, bytes, eager(g, bytes), upper);
}

double met_gj_coll(const met_gj_t *g)
{
  return met_bcast_sends(g->msg, g->rank0_routes, (double)g->n / g->p * 8.0, 0, NULL);
}

double met_gj_broad(const met_gj_t *g, double *upper)
{
  double bytes = (g->n + 1) * 8.0;
  return met_bcast_sends(g->msg, g->bcast_routes, bytes, eager(g, bytes), upper);
}

double met_gj_time(const met_gj_t *g)
{
  return gj_time(g, 0);
}

double met_gj_time_upper(const met_gj_t *g)
{
  return gj_time(g, 1);
}
