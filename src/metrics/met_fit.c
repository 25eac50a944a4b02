/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Least-squares fits for the regression analysis of seed 000 §1.2. Every form is linear in its coefficients (the power
 * law after taking logarithms), so one solver serves all: Givens rotations triangularise the column-scaled design
 * matrix row by row, which avoids the normal equations' squared condition number (1, x, x^2 at x = 512). */
#include "met_fit.h"
#include "bas_error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const form_names[MET_FIT_COUNT] = {"linear",        "quadratic", "power",      "amdahl",  "xlog",
                                                      "amdahl-linear", "work",      "saturating", "constant"};
static const int form_ncoefs[MET_FIT_COUNT] = {2, 3, 2, 2, 2, 3, 2, 2, 1};

/* A least-squares problem being triangularised: R c = z, with the columns of the design matrix divided by scale. */
typedef struct lsq {
  int k;
  double scale[MET_FIT_MAX_COEFS]; /* the largest |entry| of each column */
  double norm[MET_FIT_MAX_COEFS];  /* each scaled column's Euclidean norm */
  double r[MET_FIT_MAX_COEFS][MET_FIT_MAX_COEFS];
  double z[MET_FIT_MAX_COEFS];
} lsq_t;

const char *met_fit_name(met_fit_form_t form)
{
  return (unsigned)form < MET_FIT_COUNT ? form_names[form] : NULL;
}

static int in_domain(met_fit_form_t form, double x, double y)
{
  if (!isfinite(x) || !isfinite(y))
    return 0;
  if (form == MET_FIT_POWER || form == MET_FIT_SATURATING)
    return x > 0 && y > 0;
  return form == MET_FIT_LINEAR || form == MET_FIT_QUADRATIC || x > 0;
}

/* Fills the design row of x (the form's basis functions) and returns the value fitted: log y for the power law. */
static double design_row(met_fit_form_t form, double x, double y, double row[MET_FIT_MAX_COEFS])
{
  switch (form) {
  case MET_FIT_POWER:
    row[0] = 1;
    row[1] = log(x);
    return log(y);
  case MET_FIT_AMDAHL:
    row[0] = 1;
    row[1] = 1 / x;
    return y;
  case MET_FIT_XLOG:
    row[0] = x;
    row[1] = log2(x);
    return y;
  case MET_FIT_AMDAHL_LINEAR:
    row[0] = 1;
    row[1] = 1 / x;
    row[2] = x;
    return y;
  case MET_FIT_WORK:
    row[0] = x * x * x;
    row[1] = x * x;
    return y;
  case MET_FIT_SATURATING:
    row[0] = 1;
    row[1] = 1 / x;
    return 1 / y;
  default:
    row[0] = 1;
    row[1] = x;
    row[2] = x * x;
    return y;
  }
}

/* Column scales and norms, so that the rank test below is relative. Returns -1 when a column is all zeros. */
static int lsq_scale(lsq_t *s, met_fit_form_t form, const double *x, const double *y, size_t n)
{
  double row[MET_FIT_MAX_COEFS];
  double sum[MET_FIT_MAX_COEFS] = {0};
  for (size_t i = 0; i < n; i++) {
    design_row(form, x[i], y[i], row);
    for (int j = 0; j < s->k; j++)
      s->scale[j] = fmax(s->scale[j], fabs(row[j]));
  }
  for (int j = 0; j < s->k; j++)
    if (!(s->scale[j] > 0))
      return -1;
  for (size_t i = 0; i < n; i++) {
    design_row(form, x[i], y[i], row);
    for (int j = 0; j < s->k; j++)
      sum[j] += (row[j] / s->scale[j]) * (row[j] / s->scale[j]);
  }
  for (int j = 0; j < s->k; j++)
    s->norm[j] = sqrt(sum[j]);
  return 0;
}

/* Rotates one data row (a, t) into the triangular system. */
static void lsq_add(lsq_t *s, const double *row, double t)
{
  double a[MET_FIT_MAX_COEFS];
  for (int j = 0; j < s->k; j++)
    a[j] = row[j] / s->scale[j];
  for (int j = 0; j < s->k; j++) {
    if (a[j] == 0)
      continue;
    double h = hypot(s->r[j][j], a[j]);
    double c = s->r[j][j] / h;
    double sn = a[j] / h;
    for (int m = j; m < s->k; m++) {
      double rm = s->r[j][m];
      s->r[j][m] = c * rm + sn * a[m];
      a[m] = c * a[m] - sn * rm;
    }
    double zj = s->z[j];
    s->z[j] = c * zj + sn * t;
    t = c * t - sn * zj;
  }
}

/* Back-substitution into coef. Returns -1 when a column is (numerically) a combination of the others. */
static int lsq_solve(const lsq_t *s, double *coef)
{
  for (int j = s->k - 1; j >= 0; j--) {
    if (fabs(s->r[j][j]) <= 1e-9 * s->norm[j])
      return -1;
    double v = s->z[j];
    for (int m = j + 1; m < s->k; m++)
      v -= s->r[j][m] * coef[m];
    coef[j] = v / s->r[j][j];
  }
  for (int j = 0; j < s->k; j++)
    coef[j] /= s->scale[j];
  return 0;
}

double met_fit_eval(const met_fit_t *fit, double x)
{
  const double *c = fit->coef;
  if (!in_domain(fit->form, x, 1))
    return NAN;
  switch (fit->form) {
  case MET_FIT_CONSTANT:
    return c[0];
  case MET_FIT_POWER:
    return c[0] * pow(x, c[1]);
  case MET_FIT_AMDAHL:
    return c[0] + c[1] / x;
  case MET_FIT_XLOG:
    return c[0] * x + c[1] * log2(x);
  case MET_FIT_AMDAHL_LINEAR:
    return c[0] + c[1] / x + c[2] * x;
  case MET_FIT_WORK:
    return c[0] * x * x * x + c[1] * x * x;
  case MET_FIT_SATURATING:
    return 1 / (c[0] + c[1] / x);
  case MET_FIT_QUADRATIC:
    return c[0] + c[1] * x + c[2] * x * x;
  default:
    return c[0] + c[1] * x;
  }
}

/* R^2 and adjusted R^2 of `fit` on the data as given. Constant data has no variance to explain: R^2 is then 1 when the
 * fit reproduces it and 0 otherwise. */
static void goodness(met_fit_t *fit, const double *x, const double *y, size_t n)
{
  double mean = 0;
  double squares = 0;
  for (size_t i = 0; i < n; i++) {
    mean += y[i] / (double)n;
    squares += y[i] * y[i];
  }
  double ss_res = 0;
  double ss_tot = 0;
  for (size_t i = 0; i < n; i++) {
    double e = y[i] - met_fit_eval(fit, x[i]);
    ss_res += e * e;
    ss_tot += (y[i] - mean) * (y[i] - mean);
  }
  if (ss_tot <= 1e-24 * squares)
    fit->r2 = ss_res <= 1e-20 * squares ? 1 : 0;
  else
    fit->r2 = 1 - ss_res / ss_tot;
  size_t k = (size_t)fit->ncoefs;
  fit->adj_r2 = n > k ? 1 - (1 - fit->r2) * (double)(n - 1) / (double)(n - k) : fit->r2;
}

int met_fit(met_fit_form_t form, const double *x, const double *y, size_t n, met_fit_t *out)
{
  if ((unsigned)form >= MET_FIT_COUNT || n < (size_t)form_ncoefs[form])
    return BAS_EINVAL;
  for (size_t i = 0; i < n; i++)
    if (!in_domain(form, x[i], y[i]))
      return BAS_EINVAL;
  lsq_t s = {.k = form_ncoefs[form]};
  if (lsq_scale(&s, form, x, y, n) != 0)
    return BAS_EINVAL;
  double row[MET_FIT_MAX_COEFS];
  for (size_t i = 0; i < n; i++) {
    double t = design_row(form, x[i], y[i], row);
    lsq_add(&s, row, t);
  }
  met_fit_t fit = {.form = form, .ncoefs = s.k};
  if (lsq_solve(&s, fit.coef) != 0)
    return BAS_EINVAL;
  if (form == MET_FIT_POWER)
    fit.coef[0] = exp(fit.coef[0]);
  fit.x_min = fit.x_max = x[0];
  for (size_t i = 1; i < n; i++) {
    fit.x_min = fmin(fit.x_min, x[i]);
    fit.x_max = fmax(fit.x_max, x[i]);
  }
  goodness(&fit, x, y, n);
  *out = fit;
  return 0;
}

/* Whether y does not vary: every value within MET_FIT_CONSTANT_REL of the largest in size, or all below 1e-12. */
static int constant_data(const double *y, size_t n)
{
  double lo = INFINITY, hi = -INFINITY, size = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(y[i]))
      return 0;
    lo = fmin(lo, y[i]);
    hi = fmax(hi, y[i]);
    size = fmax(size, fabs(y[i]));
  }
  return n > 0 && (size < 1e-12 || hi - lo <= MET_FIT_CONSTANT_REL * size);
}

/* The constant form of data that does not vary: its mean (0 when all are below 1e-12), over x's range. */
static void constant_fit(const double *x, const double *y, size_t n, met_fit_t *out)
{
  double mean = 0, size = 0;
  *out = (met_fit_t){.form = MET_FIT_CONSTANT, .ncoefs = 1, .r2 = 1, .adj_r2 = 1, .x_min = x[0], .x_max = x[0]};
  for (size_t i = 0; i < n; i++) {
    mean += y[i] / (double)n;
    size = fmax(size, fabs(y[i]));
    out->x_min = fmin(out->x_min, x[i]);
    out->x_max = fmax(out->x_max, x[i]);
  }
  out->coef[0] = size < 1e-12 ? 0 : mean;
}

int met_fit_best(const double *x, const double *y, size_t n, met_fit_x_t xkind, met_fit_t *out)
{
  if (n >= 3 && constant_data(y, n)) { /* as many points as a two-coefficient form would need */
    constant_fit(x, y, n, out);
    return 0;
  }
  static const met_fit_form_t against_p[] = {MET_FIT_LINEAR, MET_FIT_AMDAHL,    MET_FIT_POWER,
                                             MET_FIT_XLOG,   MET_FIT_QUADRATIC, MET_FIT_AMDAHL_LINEAR};
  static const met_fit_form_t against_work[] = {MET_FIT_LINEAR, MET_FIT_POWER, MET_FIT_WORK, MET_FIT_SATURATING,
                                                MET_FIT_QUADRATIC};
  static const met_fit_form_t against_other[] = {MET_FIT_LINEAR, MET_FIT_QUADRATIC};
  const met_fit_form_t *order = xkind == MET_FIT_X_WORK    ? against_work
                                : xkind == MET_FIT_X_OTHER ? against_other
                                                           : against_p;
  size_t forms = xkind == MET_FIT_X_WORK    ? sizeof against_work / sizeof *order
                 : xkind == MET_FIT_X_OTHER ? sizeof against_other / sizeof *order
                                            : sizeof against_p / sizeof *order;
  int found = 0;
  for (size_t i = 0; i < forms; i++) {
    met_fit_t fit;
    if (n < (size_t)form_ncoefs[order[i]] + 2 || met_fit(order[i], x, y, n, &fit) != 0)
      continue;
    if (!found || fit.adj_r2 > out->adj_r2 + 1e-9)
      *out = fit;
    found = 1;
  }
  return found ? 0 : BAS_EINVAL;
}

int met_fit_honest(const met_fit_t *fit, double lo, double hi)
{
  if (!(fit->adj_r2 >= MET_FIT_MIN_ADJ_R2))
    return 0;
  for (int i = 0; i <= 256; i++) {
    double x = fit->x_min + (fit->x_max - fit->x_min) * i / 256.0;
    double y = met_fit_eval(fit, x);
    if (!(y >= lo && y <= hi))
      return 0;
  }
  return 1;
}

static char sign(double v)
{
  return v < 0 ? '-' : '+';
}

int met_fit_format(const met_fit_t *fit, const char *var, char *buf, size_t len)
{
  const double *c = fit->coef;
  switch (fit->form) {
  case MET_FIT_CONSTANT:
    return snprintf(buf, len, "%.4g", c[0]);
  case MET_FIT_POWER:
    return snprintf(buf, len, "%.4g %s^%.4g", c[0], var, c[1]);
  case MET_FIT_AMDAHL:
    return snprintf(buf, len, "%.4g %c %.4g/%s", c[0], sign(c[1]), fabs(c[1]), var);
  case MET_FIT_XLOG:
    return snprintf(buf, len, "%.4g %s %c %.4g log2(%s)", c[0], var, sign(c[1]), fabs(c[1]), var);
  case MET_FIT_QUADRATIC:
    return snprintf(buf, len, "%.4g %c %.4g %s %c %.4g %s^2", c[0], sign(c[1]), fabs(c[1]), var, sign(c[2]), fabs(c[2]),
                    var);
  case MET_FIT_AMDAHL_LINEAR:
    return snprintf(buf, len, "%.4g %c %.4g/%s %c %.4g %s", c[0], sign(c[1]), fabs(c[1]), var, sign(c[2]), fabs(c[2]),
                    var);
  case MET_FIT_WORK:
    return snprintf(buf, len, "%.4g %s^3 %c %.4g %s^2", c[0], var, sign(c[1]), fabs(c[1]), var);
  case MET_FIT_SATURATING:
    return snprintf(buf, len, "1 / (%.4g %c %.4g/%s)", c[0], sign(c[1]), fabs(c[1]), var);
  default:
    return snprintf(buf, len, "%.4g %c %.4g %s", c[0], sign(c[1]), fabs(c[1]), var);
  }
}
