/* Least squares for the piecewise message time of seed 001 eq. 4, weighted by relative error (a ping-pong's times span
 * decades: an unweighted fit serves the largest messages and misses the small ones by several times), with every term
 * >= 0 (the best of the fits of each subset of the terms whose coefficients are all >= 0: exact non-negative least
 * squares for four terms), the packet size chosen by leave-one-out cross-validation, and fits that cannot be trusted
 * refused with the reason. */
#include "met_msgfit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { TERMS = 4 };

/* A regime whose fit misses its samples by more than this (rms of the relative residuals) does not have eq. 4's shape:
 * a ping-pong repeated at one size varies by a few percent, so 20% is a wrong model or a noisy measurement. */
static const double TRUST_RMS_REL = 0.20;

/* The terms of a sample, 1, l, d and l d. */
static void terms_of(const met_msg_sample_t *s, double t[TERMS])
{
  t[0] = 1;
  t[1] = s->bytes;
  t[2] = s->hops;
  t[3] = s->bytes * s->hops;
}

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

/* Which samples a regime fits: bytes <= split (small) or above, all but sample `skip` (-1: none). */
typedef struct regime {
  const met_msg_sample_t *samples;
  size_t count;
  double split;
  int small;
  long skip;
} regime_t;

static int in_regime(const regime_t *g, size_t i)
{
  return (long)i != g->skip && (g->samples[i].bytes <= g->split) == g->small;
}

static double fitted_us(const met_msg_sample_t *s, const double c[TERMS])
{
  double t[TERMS];
  terms_of(s, t);
  return c[0] * t[0] + c[1] * t[1] + c[2] * t[2] + c[3] * t[3];
}

/* The weighted squared relative residuals of the regime's samples with coefficients c. */
static double weighted_sse(const regime_t *g, const double c[TERMS])
{
  double sum = 0;
  for (size_t i = 0; i < g->count; i++)
    if (in_regime(g, i)) {
      double r = (g->samples[i].us - fitted_us(&g->samples[i], c)) / g->samples[i].us;
      sum += r * r;
    }
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
    double t[TERMS];
    terms_of(&g->samples[i], t);
    double w = 1 / (g->samples[i].us * g->samples[i].us);
    for (int r = 0; r < n; r++) {
      for (int k = 0; k < n; k++)
        a[r][k] += w * t[idx[r]] * t[idx[k]];
      b[r] += w * t[idx[r]] * g->samples[i].us;
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

/* The leave-one-out rms relative error of fitting both regimes split at `split`: each sample predicted by its regime
 * fitted without it. NAN when a regime cannot be fitted without one of its samples. */
static double cross_validate(const met_msg_sample_t *samples, size_t count, double split, int nterms)
{
  double sum = 0;
  for (size_t i = 0; i < count; i++) {
    regime_t g = {samples, count, split, samples[i].bytes <= split, (long)i};
    double c[TERMS];
    if (fit_regime(&g, nterms, c) != 0)
      return NAN;
    double r = (samples[i].us - fitted_us(&samples[i], c)) / samples[i].us;
    sum += r * r;
  }
  return sqrt(sum / (double)count);
}

/* The number of the regime's samples and of its distinct sizes and distances. */
static void regime_counts(const regime_t *g, size_t *n, size_t *sizes, size_t *distances)
{
  *n = *sizes = *distances = 0;
  for (size_t i = 0; i < g->count; i++) {
    if (!in_regime(g, i))
      continue;
    int new_size = 1, new_distance = 1;
    for (size_t j = 0; j < i; j++)
      if (in_regime(g, j)) {
        new_size = new_size && g->samples[j].bytes != g->samples[i].bytes;
        new_distance = new_distance && g->samples[j].hops != g->samples[i].hops;
      }
    (*n)++;
    *sizes += (size_t)new_size;
    *distances += (size_t)new_distance;
  }
}

/* Whether the split leaves each non-empty regime enough samples to fit and cross-validate: one more than its terms,
 * two sizes (and two distances with distance terms) at least; the small regime may not be empty. */
static int enough(const met_msg_sample_t *samples, size_t count, double split, int nterms)
{
  for (int small = 1; small >= 0; small--) {
    regime_t g = {samples, count, split, small, -1};
    size_t n, sizes, distances;
    regime_counts(&g, &n, &sizes, &distances);
    if (n == 0 && !small)
      continue;
    if (n < (size_t)nterms + 1 || sizes < 2 || (nterms == TERMS && distances < 2))
      return 0;
  }
  return 1;
}

/* Both regimes' fits at `split` and their residuals into fit. 0, or -1 when a regime is undetermined. */
static int fit_at(const met_msg_sample_t *samples, size_t count, double split, int nterms, met_msgfit_t *fit)
{
  regime_t small = {samples, count, split, 1, -1};
  regime_t large = {samples, count, split, 0, -1};
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
    double r = samples[i].us - fitted_us(&samples[i], g ? fit->model.large : fit->model.small);
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

/* Whether the samples span more than one distance. */
static int several_distances(const met_msg_sample_t *samples, size_t count)
{
  for (size_t i = 1; i < count; i++)
    if (samples[i].hops != samples[0].hops)
      return 1;
  return 0;
}

/* The split with the smallest cross-validated error over the sample sizes (the largest: one regime); NAN when none
 * leaves both regimes enough samples. */
static double best_split(const met_msg_sample_t *samples, size_t count, int nterms, double *cv)
{
  double split = NAN;
  *cv = INFINITY;
  for (size_t i = 0; i < count; i++) {
    int seen = 0;
    for (size_t j = 0; j < i; j++)
      seen = seen || samples[j].bytes == samples[i].bytes;
    if (seen || !enough(samples, count, samples[i].bytes, nterms))
      continue;
    double e = cross_validate(samples, count, samples[i].bytes, nterms);
    if (!isnan(e) && (e < *cv * (1 - 1e-9) || (e <= *cv * (1 + 1e-9) && samples[i].bytes < split))) {
      *cv = e;
      split = samples[i].bytes;
    }
  }
  return split;
}

/* A refusal when a regime's residuals are too large to trust; 0, or -1 with the reason. */
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
      return -1;
    }
  return 0;
}

int met_msgfit(const met_msg_sample_t *samples, size_t count, double packet_bytes, met_msgfit_t *fit, char *err,
               size_t errlen)
{
  memset(fit, 0, sizeof *fit);
  for (size_t i = 0; i < count; i++)
    if (!(samples[i].us > 0)) {
      snprintf(err, errlen, "sample %zu (%g bytes) took %g us: a fit weighted by relative error needs times > 0", i + 1,
               samples[i].bytes, samples[i].us);
      return -1;
    }
  fit->distance_terms = several_distances(samples, count);
  int nterms = fit->distance_terms ? TERMS : 2;
  const char *need = fit->distance_terms ? "5 samples, 2 sizes and 2 distances" : "3 samples and 2 sizes";
  if (packet_bytes < 0)
    packet_bytes = best_split(samples, count, nterms, &fit->cv_rel);
  else if (!enough(samples, count, packet_bytes, nterms)) {
    snprintf(err, errlen, "with the packet size at %g bytes a regime has fewer than %s to fit and cross-validate",
             packet_bytes, need);
    return -1;
  } else
    fit->cv_rel = cross_validate(samples, count, packet_bytes, nterms);
  if (isnan(packet_bytes)) {
    snprintf(err, errlen, "no packet size leaves each regime of the %zu samples %s or more to fit and cross-validate",
             count, need);
    return -1;
  }
  if (fit_at(samples, count, packet_bytes, nterms, fit) != 0) {
    snprintf(err, errlen, "with the packet size at %g bytes a regime's terms are not determined by its samples",
             packet_bytes);
    return -1;
  }
  return trusted(fit, err, errlen);
}
