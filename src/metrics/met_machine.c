/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The instruction-level characterisation of a host (seed 001 eqs. 1-2): operation counts by class times cycles per
 * operation times the cycle time. */
#include "met_machine.h"
#include "bas_error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const met_class_names[MET_CLASS_COUNT] = {"cpu", "flop", "intmem", "extmem"};

met_charac_t met_charac_default(double speed, double memory_bytes)
{
  return (met_charac_t){.clock_hz = speed,
                        .cycles = {[MET_CLASS_CPU] = 1, [MET_CLASS_FLOP] = 1},
                        .memory_bytes = memory_bytes,
                        .derived = 1};
}

void met_charac_cycles(const met_charac_t *c, const met_ops_t *ops, double items, double cycles[MET_CLASS_COUNT])
{
  for (int i = 0; i < MET_CLASS_COUNT; i++)
    cycles[i] = items * (ops->n[i] * c->cycles[i]);
  if (c->cache_bytes > 0 && ops->working_set > 0 && ops->working_set <= c->cache_bytes)
    cycles[MET_CLASS_EXTMEM] = items * (ops->n[MET_CLASS_EXTMEM] * c->cache_cycles);
}

double met_charac_seconds(const met_charac_t *c, const met_ops_t *ops, double items)
{
  double cycles[MET_CLASS_COUNT];
  met_charac_cycles(c, ops, items, cycles);
  double total = 0;
  for (int i = 0; i < MET_CLASS_COUNT; i++)
    total += cycles[i];
  return total / c->clock_hz;
}

met_anomaly_t met_charac_anomaly(const met_charac_t *c, const met_charac_t *seq, const met_ops_t *ops, double items)
{
  met_ops_t seq_ops = *ops;
  if (ops->seq_working_set > 0)
    seq_ops.working_set = ops->seq_working_set;
  int same_host = met_charac_equal(c, seq); /* the same costs: exactly nothing, not a rounding difference */
  met_anomaly_t a = {0, 0};
  if (c->cache_bytes > 0 && ops->seq_working_set > 0)
    a.anomaly = met_charac_seconds(c, ops, items) - met_charac_seconds(c, &seq_ops, items);
  if (!same_host)
    a.host = met_charac_seconds(c, &seq_ops, items) - met_charac_seconds(seq, &seq_ops, items);
  return a;
}

int met_charac_equal(const met_charac_t *a, const met_charac_t *b)
{
  if (a->clock_hz != b->clock_hz || a->memory_bytes != b->memory_bytes || a->cache_bytes != b->cache_bytes ||
      a->cache_cycles != b->cache_cycles)
    return 0;
  for (int i = 0; i < MET_CLASS_COUNT; i++)
    if (a->cycles[i] != b->cycles[i])
      return 0;
  return 1;
}

void met_charac_describe(const met_charac_t *c, char *out, size_t len)
{
  int used = snprintf(out, len, "%.6g Hz; cycles per cpu %.6g, flop %.6g, intmem %.6g, extmem %.6g", c->clock_hz,
                      c->cycles[MET_CLASS_CPU], c->cycles[MET_CLASS_FLOP], c->cycles[MET_CLASS_INTMEM],
                      c->cycles[MET_CLASS_EXTMEM]);
  if (used < 0 || (size_t)used >= len)
    return;
  if (c->cache_bytes > 0) {
    int more = snprintf(out + used, len - (size_t)used, "; cache %.0f KiB at %.6g cycles", c->cache_bytes / 1024.0,
                        c->cache_cycles);
    if (more < 0 || (size_t)(used += more) >= len)
      return;
  }
  if (c->memory_bytes > 0)
    snprintf(out + used, len - (size_t)used, "; memory %.6g MiB", c->memory_bytes / 1048576.0);
  else
    snprintf(out + used, len - (size_t)used, "; memory not given");
}

double met_io_time(const double us[2], double bytes)
{
  return 1e-6 * (us[0] + us[1] * bytes);
}

const char *met_platform_unpriced(const met_platform_t *m)
{
  return m->piecewise || !m->net.model[0] || m->net.priced ? NULL : m->net.reason;
}

/* Hockney's figures for messages of `bytes` over `hops` links of `latency` and `bandwidth` (the route's), or from
 * the piecewise model; -1 without either. */
static int route_hockney(const met_platform_t *m, int hops, double latency, double bandwidth, double bytes,
                         met_hockney_t *link)
{
  if (m->piecewise) {
    *link = (met_hockney_t){.lambda = 1e-6 * (m->msg.large[0] + m->msg.large[2] * hops),
                            .tau = 1e-6 * (m->msg.large[1] + m->msg.large[3] * hops)};
    return 0;
  }
  if (bandwidth <= 0 || met_platform_unpriced(m))
    return -1;
  *link = (met_hockney_t){.lambda = latency * met_net_factor(m->net.lat, m->net.nlat, bytes),
                          .tau = 1 / met_net_rate(&m->net, latency, bandwidth, bytes)};
  return 0;
}

int met_platform_hockney(const met_platform_t *m, double bytes, met_hockney_t *link)
{
  *link = (met_hockney_t){0};
  if (m->p <= 1)
    return 0;
  return route_hockney(m, m->hops[1], m->latency, m->bandwidth, bytes, link);
}

/* Hockney's figures for the route between ranks i and j (i != j, both below MET_PLATFORM_PAIR_RANKS). */
static int pair_hockney(const met_platform_t *m, int i, int j, double bytes, met_hockney_t *link)
{
  return route_hockney(m, m->pair_hops[i][j], m->pair_latency[i][j], m->pair_bandwidth[i][j], bytes, link);
}

/* The mean of Hockney's figures over the pairs of ranks in one process row (by_row) or one process column of a grid
 * of `cols` columns numbered row-major; no such pair: *link left alone. */
static int line_link(const met_platform_t *m, int cols, int by_row, double bytes, met_hockney_t *link)
{
  met_hockney_t sum = {0};
  long pairs = 0;
  for (int a = 0; a < m->p; a++)
    for (int b = 0; b < m->p; b++) {
      int same = by_row ? a / cols == b / cols : a % cols == b % cols;
      met_hockney_t one;
      if (a == b || !same)
        continue;
      if (pair_hockney(m, a, b, bytes, &one) != 0)
        return -1;
      sum.lambda += one.lambda;
      sum.tau += one.tau;
      pairs++;
    }
  if (pairs > 0)
    *link = (met_hockney_t){.lambda = sum.lambda / pairs, .tau = sum.tau / pairs};
  return 0;
}

int met_platform_grid_links(const met_platform_t *m, int rows, int cols, double row_bytes, double col_bytes,
                            met_hockney_t *row, met_hockney_t *col)
{
  if (met_platform_hockney(m, row_bytes, row) != 0 || met_platform_hockney(m, col_bytes, col) != 0)
    return BAS_EPLATFORM;
  if (m->p > MET_PLATFORM_PAIR_RANKS || m->p <= 1)
    return 0;
  if (line_link(m, cols, 1, row_bytes, row) != 0 || line_link(m, cols, 0, col_bytes, col) != 0)
    return BAS_EPLATFORM;
  if (cols == 1) /* no row pairs: the column's figures (and the other way round) */
    *row = *col;
  if (rows == 1)
    *col = *row;
  return 0;
}

int met_platform_logp(const met_platform_t *m, double bytes, met_logp_t *logp)
{
  const double word = 8;
  *logp = (met_logp_t){.word_bytes = word, .P = m->p};
  if (m->p <= 1)
    return BAS_EPLATFORM;
  if (m->piecewise) {
    int d = m->hops[1];
    logp->L = met_piecewise_time(&m->msg, word, d);
    logp->g = 1e-6 * (m->msg.large[1] + m->msg.large[3] * d) * word;
    return 0;
  }
  met_hockney_t link;
  if (met_platform_hockney(m, bytes, &link) != 0)
    return BAS_EPLATFORM;
  logp->L = link.lambda + word * link.tau;
  logp->g = word * link.tau;
  return 0;
}

void met_platform_p2p_describe(const met_platform_t *m, double bytes, char *out, size_t len)
{
  met_hockney_t link;
  met_logp_t logp;
  if (m->p <= 1) {
    snprintf(out, len, "%s", "");
    return;
  }
  if (met_platform_unpriced(m)) {
    snprintf(out, len, "Point-to-point models, ranks 0 and 1: Hockney -, LogP -: %s", met_platform_unpriced(m));
    return;
  }
  if (met_platform_hockney(m, bytes, &link) != 0 || met_platform_logp(m, bytes, &logp) != 0) {
    snprintf(out, len,
             "Point-to-point models, ranks 0 and 1: Hockney -, LogP -: the platform gives neither a piecewise "
             "message model nor a route bandwidth between their hosts");
    return;
  }
  char sized[96] = ""; /* under factors that change with the size, lambda and tau hold for this size only */
  if (!m->piecewise && !met_net_size_free(&m->net))
    snprintf(sized, sizeof sized, ", %s's factors for %.0f bytes", m->net.model, bytes);
  snprintf(out, len,
           "Point-to-point models, ranks 0 and 1 (%d hop%s%s): Hockney lambda %.6g us, tau %.6g us/B; LogP (Culler et "
           "al. 1993) L %.6g us, o 0 (no processor time per message), g %.6g us per 8-byte word, P = p; %.0f bytes: "
           "Hockney %.6g us, LogP %.6g us",
           m->hops[1], m->hops[1] == 1 ? "" : "s", sized, 1e6 * link.lambda, 1e6 * link.tau, 1e6 * logp.L, 1e6 * logp.g,
           bytes, 1e6 * met_hockney(&link, bytes), 1e6 * met_logp_time(&logp, bytes));
}

/* Whether the TCP window (network/TCP-gamma) bounds the rate of a route of `latency` s and `bandwidth` B/s below its
 * bandwidth: SimGrid's rate is then gamma / (2 latency), whatever the bandwidth (met_net_rate). */
static int window_binds(const met_net_t *net, double latency, double bandwidth)
{
  return net->tcp_gamma > 0 && latency > 0 && net->tcp_gamma / (2 * latency) < bandwidth * (1 - 1e-9);
}

int met_platform_msg(const met_platform_t *m, met_piecewise_t *msg)
{
  *msg = (met_piecewise_t){0};
  if (m->piecewise) {
    *msg = m->msg;
    return 0;
  }
  if (m->p <= 1)
    return 0;
  if (m->bandwidth <= 0 || m->hops[1] <= 0 || met_platform_unpriced(m))
    return BAS_EPLATFORM;
  msg->net = &m->net;
  double per_link_us = 1e6 * m->latency / m->hops[1];
  msg->small[2] = msg->large[2] = per_link_us;
  if (window_binds(&m->net, m->latency, m->bandwidth)) /* 1 / rate = 2 latency / gamma: per byte and hop */
    msg->small[3] = msg->large[3] = 2 * per_link_us / m->net.tcp_gamma;
  else
    msg->small[1] = msg->large[1] = 1e6 / m->bandwidth;
  return 0;
}

/* Whether a and b agree to a part in 1e9 (figures read back from SimGrid's sums of link figures). */
static int same(double a, double b)
{
  return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Why ranks i and j's route differs from ranks a and b's in latency per link or bandwidth, into why (naming `model`
 * and what it assumes); 0 when it does not. */
static int links_unlike(const met_platform_t *m, int i, int j, int a, int b, const char *model, char *why, size_t len)
{
  int d = m->pair_hops[i][j];
  int e = m->pair_hops[a][b];
  double latency = m->pair_latency[i][j];
  double bandwidth = m->pair_bandwidth[i][j];
  if (d <= 0 || e <= 0 || (same(latency / d, m->pair_latency[a][b] / e) && same(bandwidth, m->pair_bandwidth[a][b])))
    return 0;
  snprintf(why, len,
           "the routes differ: ranks %d and %d's has %.6g us over %d link%s and %.6g B/s, ranks %d and %d's %.6g us "
           "over %d and %.6g B/s, and %s",
           i, j, 1e6 * latency, d, d == 1 ? "" : "s", bandwidth, a, b, 1e6 * m->pair_latency[a][b], e,
           m->pair_bandwidth[a][b], model);
  return 1;
}

/* Why ranks i and j's route is not priced as ranks 0 and 1's per-hop figures give it, into why; 0 when it is. */
static int route_unlike(const met_platform_t *m, int i, int j, char *why, size_t len)
{
  int binds = window_binds(&m->net, m->pair_latency[i][j], m->pair_bandwidth[i][j]);
  if (links_unlike(m, i, j, 0, 1, "eq. 4 prices every hop alike", why, len))
    return 1;
  if (m->pair_hops[i][j] > 0 && binds != window_binds(&m->net, m->latency, m->bandwidth)) {
    snprintf(why, len,
             "the TCP window (network/TCP-gamma %.6g B) bounds the rate of ranks %d and %d's route below its "
             "bandwidth but not ranks 0 and 1's, or the other way, so a message's time is not linear in its hops as "
             "eq. 4 prices it",
             m->net.tcp_gamma, i, j);
    return 1;
  }
  return 0;
}

/* Why a relay from each rank to the next is not eq. 15's, into why; 0 when it is. */
static int relay_unlike(const met_platform_t *m, char *why, size_t len)
{
  if (m->relay_shared)
    snprintf(why, len,
             "the relay's messages between ranks with no host in common cross a shared link (such as a backbone) that "
             "slows them when rows are relayed at once, and eq. 15 charges each message alone");
  return m->relay_shared;
}

int met_platform_routes_alike(const met_platform_t *m, int relay, char *why, size_t len)
{
  if (m->piecewise || m->p > MET_PLATFORM_PAIR_RANKS || m->p <= 1)
    return 1;
  for (int i = 0; i < m->p; i++)
    for (int j = 0; j < m->p; j++)
      if (i != j && route_unlike(m, i, j, why, len))
        return 0;
  return !(relay && relay_unlike(m, why, len));
}

int met_platform_lines_alike(const met_platform_t *m, int cols, char *why, size_t len)
{
  static const char model[] = "FAST's eqs. 2-3 price a process row's or column's broadcast with one latency and "
                              "bandwidth, where its slowest route sets a tree's pace";
  if (m->piecewise || m->p > MET_PLATFORM_PAIR_RANKS)
    return 1;
  for (int i = 0; i < m->p; i++)
    for (int j = 0; j < m->p; j++) {
      int row = i / cols == j / cols;
      int first = row ? i / cols * cols : i % cols; /* the line's first rank, and the next one on it */
      int next = row ? first + 1 : first + cols;
      if (i != j && (row || i % cols == j % cols) && next < m->p && links_unlike(m, i, j, first, next, model, why, len))
        return 0;
    }
  return 1;
}

double met_platform_flops(const met_platform_t *m)
{
  if (m->nkinds > MET_PLATFORM_MAX_KINDS)
    return 0;
  double slowest = 0;
  for (int k = 0; k < m->nkinds; k++) {
    double cycles = m->kinds[k].charac.cycles[MET_CLASS_FLOP];
    if (cycles <= 0)
      return 0;
    double flops = m->kinds[k].charac.clock_hz / cycles;
    slowest = k == 0 || flops < slowest ? flops : slowest;
  }
  return slowest;
}

double met_platform_rank_flops(const met_platform_t *m, int i)
{
  if (i < 0 || i >= m->p || i >= MET_PLATFORM_PAIR_RANKS || m->nkinds > MET_PLATFORM_MAX_KINDS)
    return 0;
  const met_charac_t *c = &m->kinds[m->rank_kind[i]].charac;
  return c->cycles[MET_CLASS_FLOP] > 0 ? c->clock_hz / c->cycles[MET_CLASS_FLOP] : 0;
}

double met_platform_slowest_seconds(const met_platform_t *m, const met_ops_t *ops, double items)
{
  if (m->nkinds > MET_PLATFORM_MAX_KINDS)
    return NAN;
  double slowest = 0;
  for (int k = 0; k < m->nkinds; k++) {
    double t = met_charac_seconds(&m->kinds[k].charac, ops, items);
    slowest = t > slowest ? t : slowest;
  }
  return slowest;
}

/* The first rank of `kind` whose share does not fit its memory, with that share; -1 when all fit. */
static int short_rank(const met_host_kind_t *kind, double rank0_bytes, double other_bytes, double *bytes)
{
  double memory = kind->charac.memory_bytes;
  int first_other = kind->first_rank == 0 ? kind->second_rank : kind->first_rank;
  if (kind->first_rank == 0 && rank0_bytes > memory) {
    *bytes = rank0_bytes;
    return 0;
  }
  *bytes = other_bytes;
  return first_other >= 0 && other_bytes > memory ? first_other : -1;
}

int met_platform_memory_check(const met_platform_t *m, double rank0_bytes, double other_bytes, met_memory_fail_t *fail)
{
  int given = 0;
  *fail = (met_memory_fail_t){.rank = -1};
  int kinds = m->nkinds < MET_PLATFORM_MAX_KINDS ? m->nkinds : MET_PLATFORM_MAX_KINDS;
  for (int k = 0; k < kinds; k++) {
    const met_host_kind_t *kind = &m->kinds[k];
    double bytes = 0;
    if (kind->charac.memory_bytes <= 0)
      continue;
    given = 1;
    int rank = short_rank(kind, rank0_bytes, other_bytes, &bytes);
    if (rank >= 0 && (!fail->kind || kind->charac.memory_bytes < fail->kind->charac.memory_bytes))
      *fail = (met_memory_fail_t){.kind = kind, .rank = rank, .bytes = bytes};
  }
  return !given ? -1 : fail->kind ? 1 : 0;
}
