/* Least squares for the piecewise message time of seed 001 eq. 4: normal equations of the terms 1, l, d, l d per
 * regime, solved by Gaussian elimination with partial pivoting; the packet size, when not given, by trying each. */
#include "met_msgfit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TERMS = 4 };

/* The terms of a sample, 1, l, d and l d, of which the first `terms` are fitted (2 without distance terms). */
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

/* Fits one regime, the samples with small == (bytes <= split), with the first `n` terms; 0 or -1. */
static int fit_regime(const met_msg_sample_t *samples, size_t count, double split, int small, int n, double c[TERMS])
{
  double a[TERMS][TERMS] = {{0}};
  double b[TERMS] = {0};
  for (size_t i = 0; i < count; i++) {
    if ((samples[i].bytes <= split) != small)
      continue;
    double t[TERMS];
    terms_of(&samples[i], t);
    for (int r = 0; r < n; r++) {
      for (int k = 0; k < n; k++)
        a[r][k] += t[r] * t[k];
      b[r] += t[r] * samples[i].us;
    }
  }
  memset(c, 0, TERMS * sizeof *c);
  return solve(a, b, n, c);
}

/* The fit's residuals into fit; returns the sum of their squares. */
static double residuals(const met_msg_sample_t *samples, size_t count, met_msgfit_t *fit)
{
  double sum = 0;
  fit->max_abs_us = 0;
  fit->n_small = fit->n_large = 0;
  for (size_t i = 0; i < count; i++) {
    double r = samples[i].us - 1e6 * met_piecewise_time(&fit->model, samples[i].bytes, (int)samples[i].hops);
    sum += r * r;
    fit->max_abs_us = fmax(fit->max_abs_us, fabs(r));
    if (samples[i].bytes <= fit->model.packet_bytes)
      fit->n_small++;
    else
      fit->n_large++;
  }
  fit->rms_us = count ? sqrt(sum / (double)count) : 0;
  return sum;
}

/* Whether the samples span more than one distance. */
static int several_distances(const met_msg_sample_t *samples, size_t count)
{
  for (size_t i = 1; i < count; i++)
    if (samples[i].hops != samples[0].hops)
      return 1;
  return 0;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a;
  double y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The samples' distinct sizes, ascending: the splits to try, each once, so that the search costs samples x sizes,
 * not samples squared (a million samples of a few dozen sizes). A new array (*n of them), or NULL out of memory. */
static double *distinct_sizes(const met_msg_sample_t *samples, size_t count, size_t *n)
{
  double *sizes = malloc((count ? count : 1) * sizeof *sizes);
  *n = 0;
  for (size_t i = 0; sizes && i < count; i++)
    sizes[i] = samples[i].bytes;
  if (sizes && count)
    qsort(sizes, count, sizeof *sizes, by_value);
  for (size_t i = 0; sizes && i < count; i++)
    if (*n == 0 || sizes[i] != sizes[*n - 1])
      sizes[(*n)++] = sizes[i];
  return sizes;
}

/* Fits both regimes split at `split`; returns the sum of squared residuals, or -1 when a regime is undetermined. */
static double fit_at(const met_msg_sample_t *samples, size_t count, double split, int n, met_msgfit_t *fit)
{
  fit->model.packet_bytes = split;
  if (fit_regime(samples, count, split, 1, n, fit->model.small) != 0 ||
      fit_regime(samples, count, split, 0, n, fit->model.large) != 0)
    return -1;
  return residuals(samples, count, fit);
}

int met_msgfit(const met_msg_sample_t *samples, size_t count, double packet_bytes, met_msgfit_t *fit, char *err,
               size_t errlen)
{
  memset(fit, 0, sizeof *fit);
  fit->distance_terms = several_distances(samples, count);
  int n = fit->distance_terms ? TERMS : 2;
  if (packet_bytes >= 0) {
    if (fit_at(samples, count, packet_bytes, n, fit) >= 0)
      return 0;
    snprintf(err, errlen, "with the packet size at %g bytes a regime has too few distinct sizes%s to fit", packet_bytes,
             fit->distance_terms ? " and distances" : "");
    return -1;
  }
  double best = -1;
  met_msgfit_t trial;
  size_t count_sizes = 0;
  double *sizes = distinct_sizes(samples, count, &count_sizes);
  if (!sizes) {
    snprintf(err, errlen, "out of memory for %zu samples", count);
    return -1;
  }
  for (size_t i = 0; i < count_sizes; i++) {
    trial.distance_terms = fit->distance_terms;
    double sse = fit_at(samples, count, sizes[i], n, &trial);
    if (sse >= 0 && (best < 0 || sse < best || (sse == best && trial.model.packet_bytes < fit->model.packet_bytes))) {
      best = sse;
      *fit = trial;
    }
  }
  free(sizes);
  if (best >= 0)
    return 0;
  snprintf(err, errlen, "no packet size splits the %zu samples into two regimes of %d or more distinct (size%s) each",
           count, n, fit->distance_terms ? ", distance" : "");
  return -1;
}
