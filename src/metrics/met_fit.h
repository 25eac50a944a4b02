/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Regression fits of a performance metric against p or the work size W (seed 000 §1.2: "a regression analysis can be
 * applied on the displayed functions, returning the curve that best fits the data"): a few documented forms, each
 * fitted by least squares; no SimGrid. */
#ifndef MET_FIT_H
#define MET_FIT_H

#include <stddef.h>

/* The forms, every one linear in its coefficients a, b (, c). */
typedef enum met_fit_form {
  MET_FIT_LINEAR = 0, /* a + b x */
  MET_FIT_QUADRATIC,  /* a + b x + c x^2 */
  MET_FIT_POWER,      /* a x^b, fitted as log y = log a + b log x (needs x > 0 and y > 0) */
  MET_FIT_AMDAHL,     /* a + b / x (x > 0): a part that stays and a part shared among x processors */
  MET_FIT_XLOG,       /* a x + b log2 x (x > 0): a cost growing with x (a chain) plus one growing as log x (a tree) */
  MET_FIT_AMDAHL_LINEAR, /* a + b / x + c x (x > 0): Amdahl plus an overhead growing with x (one-to-all messages) */
  MET_FIT_WORK,       /* a x^3 + b x^2 (x > 0): T against the work size N at fixed p, Zemerly et al.'s eq. 11 for Gauss-
                       * Jordan: computation grows as N^3 / p, the broadcast rows' communication as N^2 */
  MET_FIT_SATURATING, /* 1 / (a + b / x) (x > 0, y > 0), fitted as 1/y = a + b/x: speedup against the work size, with
                       * T_seq ~ N^3 and T_par ~ N^3/p + N^2, so speedup tends to 1/a (at most p) as N grows */
  MET_FIT_CONSTANT,   /* a: data that does not vary (met_fit_best), named as such rather than fitted (a linear fit of
                       * it read "0.125 - 1.499e-17 grid-rows, R^2 = 1.0000") */
  MET_FIT_COUNT
} met_fit_form_t;

#define MET_FIT_MAX_COEFS 3

typedef struct met_fit {
  met_fit_form_t form;
  int ncoefs;                     /* 1 (constant), 2 or 3 */
  double coef[MET_FIT_MAX_COEFS]; /* a, b, c in the order written above */
  double r2;                      /* 1 - SS_res / SS_tot on y as given (for the power law too); 1 for exact data */
  double adj_r2;       /* 1 - (1 - r2) (n - 1) / (n - k), k coefficients: the criterion that compares forms */
  double x_min, x_max; /* the data's range: the fit says nothing outside it */
} met_fit_t;

/* Fits `form` to the n points (x[i], y[i]). Returns 0 and fills *out, or BAS_EINVAL when the form does not apply: fewer
 * points than coefficients, data outside the form's domain, a non-finite value, or x values that cannot separate the
 * coefficients (all x equal, say). */
int met_fit(met_fit_form_t form, const double *x, const double *y, size_t n, met_fit_t *out);

/* What x is: the number of processors p, or a work size such as N. Each has its own forms, those with a physical
 * reason for it: against p, linear, amdahl, power, xlog, quadratic, amdahl-linear (what is shared among p, what grows
 * with p as a chain or a tree); against a work size, linear, power, work, saturating, quadratic (eq. 11's N^3 and N^2
 * terms, a speedup that saturates); against another swept parameter (a grid's rows, say), linear and quadratic
 * only, no physical form being known. */
typedef enum met_fit_x { MET_FIT_X_PROCESSORS = 0, MET_FIT_X_WORK, MET_FIT_X_OTHER } met_fit_x_t;

/* Fits every form of `xkind` that applies with at least two points more than coefficients (so that no fit just
 * interpolates, and the adjusted R^2 has residuals to judge) and keeps the one with the largest adjusted R^2; a later
 * form in the order above replaces an earlier one only when it is better by more than 1e-9 (simpler forms win ties).
 * Data that does not vary (every y within MET_FIT_CONSTANT_REL of the largest |y|, or all of them below 1e-12 in size)
 * is the constant form instead, its value the mean, exact zeros 0. Returns 0, or -1 when no form applies. */
#define MET_FIT_CONSTANT_REL 1e-9
int met_fit_best(const double *x, const double *y, size_t n, met_fit_x_t xkind, met_fit_t *out);

/* The least adjusted R^2 of a fit honest enough to show (met_fit_honest): below it, the form explains too little of
 * the data's variation to describe it. */
#define MET_FIT_MIN_ADJ_R2 0.9

/* Whether the fit is an honest description of its data: adjusted R^2 at least MET_FIT_MIN_ADJ_R2, and the fitted
 * function within [lo, hi] (the metric's range: an efficiency in [0, 100], a speedup above 0) at 257 evenly spaced
 * x across the data's range, its ends included. */
int met_fit_honest(const met_fit_t *fit, double lo, double hi);

/* The fitted function at x (NaN outside the form's domain; beyond the data, x_min to x_max, an extrapolation). */
double met_fit_eval(const met_fit_t *fit, double x);

/* "linear", "quadratic", "power", "amdahl", "xlog", "amdahl-linear", "work", "saturating"; NULL out of range. */
const char *met_fit_name(met_fit_form_t form);

/* Writes the fitted function of variable `var` into buf, such as "0.5 + 0.8 p" or "2 p^1.5", coefficients with 4
 * significant digits. Returns the length snprintf would have written. */
int met_fit_format(const met_fit_t *fit, const char *var, char *buf, size_t len);

#endif
