/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Least squares for the piecewise message time of seed 001 eq. 4, weighted by relative error (a ping-pong's times span
 * decades: an unweighted fit serves the largest messages and misses the small ones by several times), with every term
 * >= 0 (the best of the fits of each subset of the terms whose coefficients are all >= 0: exact non-negative least
 * squares for four terms), the packet size chosen by cross-validation leaving out one (size, distance) at a time, and
 * fits that cannot be trusted refused with the reason. The samples are summed per (size, distance) first (count, sum
 * of 1 / t, sum of 1 / t^2: all a relative-error fit needs), so that every fit costs the groups, not the samples: a
 * million samples of a few dozen sizes fit at once. */
#include "met_msgfit.h"
#include "bas_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TERMS = 4 };

/* A regime whose fit misses its samples by more than this (rms of the relative residuals) does not have eq. 4's shape:
 * a ping-pong repeated at one size varies by a few percent, so 20% is a wrong model or a noisy measurement. */
static const double TRUST_RMS_REL = 0.20;

/* Solves a x = b (n x n, row-major, overwritten). Returns 0, or -1 when a pivot vanishes (the terms are dependent). */
static int solve(double a[TERMS][TERMS], double b[TERMS], int n, double x[TERMS])
{
  for (int col = 0; col < n; col++) {
    int pivot = col;
    for (int row = col + 1; row < n; row++)
      pivot = fabs(a[row][col]) > fabs(a[pivot][col]) ? row : pivot;
    double scale = 0;
    for (int k = 0; k < n; k++)
      scale = fmax(scale, fabs(a[col][k]));
    if (fabs(a[pivot][col]) <= 1e-12 * fmax(scale, 1e-300))
      return -1;
    for (int k = 0; k < n; k++) {
      double tmp = a[col][k];
      a[col][k] = a[pivot][k];
      a[pivot][k] = tmp;
    }
    double tmp = b[col];
    b[col] = b[pivot];
    b[pivot] = tmp;
    for (int row = col + 1; row < n; row++) {
      double f = a[row][col] / a[col][col];
      for (int k = col; k < n; k++)
        a[row][k] -= f * a[col][k];
      b[row] -= f * b[col];
    }
  }
  for (int row = n - 1; row >= 0; row--) {
    double sum = b[row];
    for (int k = row + 1; k < n; k++)
      sum -= a[row][k] * x[k];
    x[row] = sum / a[row][row];
  }
  return 0;
}

/* The samples of one size and distance: how many, and the sums of 1 / t and 1 / t^2 (t in us). Their relative
 * residuals against a fitted time f add up to n - 2 f s1 + f^2 s2. */
typedef struct group {
  double bytes, hops;
  double n, s1, s2;
} group_t;

/* Which groups a regime fits: bytes <= split (small) or above, all but group `skip` (-1: none). */
typedef struct regime {
  const group_t *groups;
  size_t count;
  double split;
  int small;
  long skip;
} regime_t;

static int in_regime(const regime_t *g, size_t i)
{
  return (long)i != g->skip && (g->groups[i].bytes <= g->split) == g->small;
}

static double fitted_us(double bytes, double hops, const double c[TERMS])
{
  return c[0] + c[1] * bytes + c[2] * hops + c[3] * bytes * hops;
}

static double group_sse(const group_t *g, double f)
{
  return g->n - 2 * f * g->s1 + f * f * g->s2;
}

/* The squared relative residuals of the regime's samples with coefficients c. */
static double weighted_sse(const regime_t *g, const double c[TERMS])
{
  double sum = 0;
  for (size_t i = 0; i < g->count; i++)
    if (in_regime(g, i))
      sum += group_sse(&g->groups[i], fitted_us(g->groups[i].bytes, g->groups[i].hops, c));
  return sum;
}

/* The relative-error fit of the regime with the terms in `mask` only (the others 0): 0, or -1 when undetermined. */
static int fit_terms(const regime_t *g, unsigned mask, double c[TERMS])
{
  int idx[TERMS];
  int n = 0;
  for (int k = 0; k < TERMS; k++)
    if (mask & (1u << k))
      idx[n++] = k;
  double a[TERMS][TERMS] = {{0}};
  double b[TERMS] = {0};
  double x[TERMS] = {0};
  for (size_t i = 0; i < g->count; i++) {
    if (!in_regime(g, i))
      continue;
    const group_t *grp = &g->groups[i];
    const double t[TERMS] = {1, grp->bytes, grp->hops, grp->bytes * grp->hops};
    for (int r = 0; r < n; r++) { /* sum of w t t' and w t y with w = 1 / y^2 */
      for (int k = 0; k < n; k++)
        a[r][k] += grp->s2 * t[idx[r]] * t[idx[k]];
      b[r] += grp->s1 * t[idx[r]];
    }
  }
  if (solve(a, b, n, x) != 0)
    return -1;
  memset(c, 0, TERMS * sizeof *c);
  for (int k = 0; k < n; k++)
    c[idx[k]] = x[k];
  return 0;
}

/* The non-negative fit of the regime with `nterms` terms (2: alpha, beta; 4: all): the best fit, over the subsets of
 * the terms, whose coefficients are all >= 0 (fewer terms on a tie). 0, or -1 when no subset is determined. */
static int fit_regime(const regime_t *g, int nterms, double c[TERMS])
{
  double best = INFINITY;
  for (unsigned mask = 1; mask < (1u << nterms); mask++) {
    double trial[TERMS];
    if (fit_terms(g, mask, trial) != 0 || trial[0] < 0 || trial[1] < 0 || trial[2] < 0 || trial[3] < 0)
      continue;
    double sse = weighted_sse(g, trial);
    if (sse < best * (1 - 1e-12)) {
      best = sse;
      memcpy(c, trial, sizeof trial);
    }
  }
  return isinf(best) ? -1 : 0;
}

/* The cross-validated rms relative error of fitting both regimes split at `split`: each (size, distance) predicted
 * by its regime fitted without it. NAN when a regime cannot be fitted without one of its groups. */
static double cross_validate(const group_t *groups, size_t count, double split, int nterms, double samples)
{
  double sum = 0;
  for (size_t i = 0; i < count; i++) {
    regime_t g = {groups, count, split, groups[i].bytes <= split, (long)i};
    double c[TERMS];
    if (fit_regime(&g, nterms, c) != 0)
      return NAN;
    sum += group_sse(&groups[i], fitted_us(groups[i].bytes, groups[i].hops, c));
  }
  return sqrt(fmax(sum, 0) / samples);
}

/* The number of the regime's groups and of its distinct sizes and distances. */
static void regime_counts(const regime_t *g, size_t *n, size_t *sizes, size_t *distances)
{
  *n = *sizes = *distances = 0;
  for (size_t i = 0; i < g->count; i++) {
    if (!in_regime(g, i))
      continue;
    int new_size = 1, new_distance = 1;
    for (size_t j = 0; j < i; j++)
      if (in_regime(g, j)) {
        new_size = new_size && g->groups[j].bytes != g->groups[i].bytes;
        new_distance = new_distance && g->groups[j].hops != g->groups[i].hops;
      }
    (*n)++;
    *sizes += (size_t)new_size;
    *distances += (size_t)new_distance;
  }
}

/* Whether the split leaves each non-empty regime enough to fit and cross-validate: one (size, distance) more than its
 * terms, two sizes (and two distances with distance terms) at least; the small regime may not be empty. */
static int enough(const group_t *groups, size_t count, double split, int nterms)
{
  for (int small = 1; small >= 0; small--) {
    regime_t g = {groups, count, split, small, -1};
    size_t n, sizes, distances;
    regime_counts(&g, &n, &sizes, &distances);
    if (n == 0 && !small)
      continue;
    if (n < (size_t)nterms + 1 || sizes < 2 || (nterms == TERMS && distances < 2))
      return 0;
  }
  return 1;
}

/* Both regimes' fits at `split` (over the groups) and their residuals over the samples into fit. 0, or -1 when a
 * regime is undetermined. */
static int fit_at(const group_t *groups, size_t ngroups, const met_msg_sample_t *samples, size_t count, double split,
                  int nterms, met_msgfit_t *fit)
{
  regime_t small = {groups, ngroups, split, 1, -1};
  regime_t large = {groups, ngroups, split, 0, -1};
  size_t n, sizes, distances;
  regime_counts(&large, &n, &sizes, &distances);
  fit->model.packet_bytes = split;
  if (fit_regime(&small, nterms, fit->model.small) != 0)
    return -1;
  if (n == 0) /* one regime: the large one never applies, and repeats the small one */
    memcpy(fit->model.large, fit->model.small, sizeof fit->model.large);
  else if (fit_regime(&large, nterms, fit->model.large) != 0)
    return -1;
  fit->one_regime = n == 0;
  double sum[2] = {0}, sum_abs = 0;
  size_t per[2] = {0};
  fit->max_abs_us = fit->max_rel[0] = fit->max_rel[1] = 0;
  for (size_t i = 0; i < count; i++) {
    int g = samples[i].bytes <= split ? 0 : 1;
    double r = samples[i].us - fitted_us(samples[i].bytes, samples[i].hops, g ? fit->model.large : fit->model.small);
    sum_abs += r * r;
    fit->max_abs_us = fmax(fit->max_abs_us, fabs(r));
    sum[g] += (r / samples[i].us) * (r / samples[i].us);
    fit->max_rel[g] = fmax(fit->max_rel[g], fabs(r / samples[i].us));
    per[g]++;
  }
  fit->n_small = per[0];
  fit->n_large = per[1];
  fit->rms_us = sqrt(sum_abs / (double)count);
  for (int g = 0; g < 2; g++)
    fit->rms_rel[g] = per[g] ? sqrt(sum[g] / (double)per[g]) : 0;
  return 0;
}

static int by_size(const void *a, const void *b)
{
  const met_msg_sample_t *x = a, *y = b;
  return x->bytes != y->bytes ? (x->bytes > y->bytes) - (x->bytes < y->bytes)
                              : (x->hops > y->hops) - (x->hops < y->hops);
}

/* The samples summed per (size, distance), in ascending order: a new array of *n groups, or NULL out of memory. */
static group_t *group_samples(const met_msg_sample_t *samples, size_t count, size_t *n)
{
  met_msg_sample_t *sorted = malloc((count ? count : 1) * sizeof *sorted);
  group_t *groups = malloc((count ? count : 1) * sizeof *groups);
  *n = 0;
  if (!sorted || !groups) {
    free(sorted);
    free(groups);
    return NULL;
  }
  if (count > 0) { /* no samples: samples may be NULL, which memcpy must not be given */
    memcpy(sorted, samples, count * sizeof *sorted);
    qsort(sorted, count, sizeof *sorted, by_size);
  }
  for (size_t i = 0; i < count; i++) {
    if (*n == 0 || groups[*n - 1].bytes != sorted[i].bytes || groups[*n - 1].hops != sorted[i].hops)
      groups[(*n)++] = (group_t){.bytes = sorted[i].bytes, .hops = sorted[i].hops};
    group_t *g = &groups[*n - 1];
    g->n += 1;
    g->s1 += 1 / sorted[i].us;
    g->s2 += 1 / (sorted[i].us * sorted[i].us);
  }
  free(sorted);
  return groups;
}

/* The split with the smallest cross-validated error over the sample sizes (the largest: one regime); NAN when none
 * leaves both regimes enough. */
static double best_split(const group_t *groups, size_t n, int nterms, double samples, double *cv)
{
  double split = NAN;
  *cv = INFINITY;
  for (size_t i = 0; i < n; i++) {
    if ((i > 0 && groups[i - 1].bytes == groups[i].bytes) || !enough(groups, n, groups[i].bytes, nterms))
      continue;
    double e = cross_validate(groups, n, groups[i].bytes, nterms, samples);
    if (!isnan(e) && e < *cv * (1 - 1e-9)) { /* ascending sizes: a tie keeps the smaller split */
      *cv = e;
      split = groups[i].bytes;
    }
  }
  return split;
}

/* Whether the samples span more than one distance. */
static int several_distances(const met_msg_sample_t *samples, size_t count)
{
  for (size_t i = 1; i < count; i++)
    if (samples[i].hops != samples[0].hops)
      return 1;
  return 0;
}

/* A refusal when a regime's residuals are too large to trust; 0, or BAS_EDATA with the reason. */
static int trusted(const met_msgfit_t *fit, char *err, size_t errlen)
{
  for (int g = 0; g < 2; g++)
    if (fit->rms_rel[g] > TRUST_RMS_REL) {
      snprintf(err, errlen,
               "the fit misses the samples %s %g bytes by %.0f%% rms (worst %.0f%%), more than the %.0f%% a fit of "
               "eq. 4 can be trusted with: the times do not have its shape there, or are too noisy (repeat each size "
               "and give the median)",
               g ? "above" : "up to", fit->model.packet_bytes, 100 * fit->rms_rel[g], 100 * fit->max_rel[g],
               100 * TRUST_RMS_REL);
      return BAS_EDATA;
    }
  return 0;
}

/* The fit of the groups: the split (given, or chosen), both regimes, the residuals. 0, or BAS_EDATA with the reason. */
static int fit_groups(const group_t *groups, size_t ngroups, const met_msg_sample_t *samples, size_t count,
                      double packet_bytes, met_msgfit_t *fit, char *err, size_t errlen)
{
  int nterms = fit->distance_terms ? TERMS : 2;
  const char *need = fit->distance_terms ? "5 (size, distance) pairs, 2 sizes and 2 distances" : "3 sizes";
  if (packet_bytes < 0)
    packet_bytes = best_split(groups, ngroups, nterms, (double)count, &fit->cv_rel);
  else if (!enough(groups, ngroups, packet_bytes, nterms)) {
    snprintf(err, errlen, "with the packet size at %g bytes a regime has fewer than %s to fit and cross-validate",
             packet_bytes, need);
    return BAS_EDATA;
  } else
    fit->cv_rel = cross_validate(groups, ngroups, packet_bytes, nterms, (double)count);
  if (isnan(packet_bytes)) {
    snprintf(err, errlen, "no packet size leaves each regime of the %zu samples %s or more to fit and cross-validate",
             count, need);
    return BAS_EDATA;
  }
  if (fit_at(groups, ngroups, samples, count, packet_bytes, nterms, fit) != 0) {
    snprintf(err, errlen, "with the packet size at %g bytes a regime's terms are not determined by its samples",
             packet_bytes);
    return BAS_EDATA;
  }
  return trusted(fit, err, errlen);
}

int met_msgfit(const met_msg_sample_t *samples, size_t count, double packet_bytes, met_msgfit_t *fit, char *err,
               size_t errlen)
{
  memset(fit, 0, sizeof *fit);
  for (size_t i = 0; i < count; i++)
    if (!(samples[i].us > 0)) {
      snprintf(err, errlen, "sample %zu (%g bytes) took %g us: a fit weighted by relative error needs times > 0", i + 1,
               samples[i].bytes, samples[i].us);
      return BAS_EDATA;
    }
  fit->distance_terms = several_distances(samples, count);
  size_t ngroups;
  group_t *groups = group_samples(samples, count, &ngroups);
  if (!groups) {
    snprintf(err, errlen, "out of memory for %zu samples", count);
    return BAS_ENOMEM;
  }
  int rc = fit_groups(groups, ngroups, samples, count, packet_bytes, fit, err, errlen);
  free(groups);
  return rc;
}
