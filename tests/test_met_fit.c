/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of met_fit: exact data from known functions gives back their coefficients with R^2 = 1; noisy cases against
 * hand calculations; the choice of the best form; domains and degenerate data; the printed formula. */
#include "met_fit.h"
#include "tu.h"
#include "bas_error.h"

#include <math.h>
#include <string.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const double pow2[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};

/* y[i] = f(pow2[i]) for the first n powers of two. */
static void sample(double (*f)(double), size_t n, double *y)
{
  for (size_t i = 0; i < n; i++)
    y[i] = f(pow2[i]);
}

static double linear_fn(double x)
{
  return 3 + 2 * x;
}

static double quadratic_fn(double x)
{
  return 1 - 2 * x + 0.5 * x * x;
}

static double power_fn(double x)
{
  return 2 * pow(x, 1.5);
}

static double amdahl_fn(double x)
{
  return 5 + 7 / x;
}

static double xlog_fn(double x)
{
  return 2 * x + 3 * log2(x);
}

static double amdahl_linear_fn(double x)
{
  return 1 + 78 / x + 0.5 * x;
}

/* Eq. 11's shape at fixed p: computation N^3, communication N^2. */
static double work_fn(double x)
{
  return 2e-6 * x * x * x + 3e-4 * x * x;
}

/* Speedup T_seq / T_par with T_seq = N^3 and T_par = N^3 / 16 + 4 N^2: 1 / (1/16 + 4/N). */
static double saturating_fn(double x)
{
  return (x * x * x) / (x * x * x / 16 + 4 * x * x);
}

/* Fits `form` to n exact samples of f and checks the coefficients (relative 1e-9) and R^2 = 1. */
static void check_exact(met_fit_form_t form, double (*f)(double), size_t n, const double *coef)
{
  double y[N_OF(pow2)];
  sample(f, n, y);
  met_fit_t fit;
  CU_ASSERT_EQUAL_FATAL(met_fit(form, pow2, y, n, &fit), 0);
  CU_ASSERT_EQUAL(fit.form, form);
  for (int j = 0; j < fit.ncoefs; j++)
    TU_ASSERT_CLOSE(fit.coef[j], coef[j], 1e-9 * fabs(coef[j]));
  TU_ASSERT_CLOSE(fit.r2, 1.0, 1e-12);
  TU_ASSERT_CLOSE(fit.adj_r2, 1.0, 1e-12);
}

static void test_met_fit_exact_forms(void)
{
  check_exact(MET_FIT_LINEAR, linear_fn, 4, (const double[]){3, 2});
  check_exact(MET_FIT_QUADRATIC, quadratic_fn, 10, (const double[]){1, -2, 0.5}); /* x up to 512: conditioning */
  check_exact(MET_FIT_POWER, power_fn, 5, (const double[]){2, 1.5});
  check_exact(MET_FIT_AMDAHL, amdahl_fn, 8, (const double[]){5, 7});
  check_exact(MET_FIT_XLOG, xlog_fn, 5, (const double[]){2, 3});
  check_exact(MET_FIT_AMDAHL_LINEAR, amdahl_linear_fn, 8, (const double[]){1, 78, 0.5});
  check_exact(MET_FIT_WORK, work_fn, 6, (const double[]){2e-6, 3e-4});
  check_exact(MET_FIT_SATURATING, saturating_fn, 6, (const double[]){1.0 / 16, 4});
}

/* A form needs two points more than its coefficients: 4 samples of amdahl-linear data leave it out (3 coefficients
 * would have one residual to judge), 5 bring it back; the fit knows its data's range. */
static void test_met_fit_needs_spare_points(void)
{
  double y[5];
  met_fit_t fit;
  sample(amdahl_linear_fn, 5, y);
  CU_ASSERT_EQUAL_FATAL(met_fit_best(pow2, y, 4, MET_FIT_X_PROCESSORS, &fit), 0);
  CU_ASSERT_EQUAL(fit.ncoefs, 2);
  CU_ASSERT_EQUAL_FATAL(met_fit_best(pow2, y, 5, MET_FIT_X_PROCESSORS, &fit), 0);
  CU_ASSERT_EQUAL(fit.form, MET_FIT_AMDAHL_LINEAR);
  CU_ASSERT_EQUAL(met_fit_best(pow2, y, 3, MET_FIT_X_PROCESSORS, &fit), BAS_EINVAL); /* 2 coefficients need 4 points */
  CU_ASSERT_EQUAL_FATAL(met_fit_best(pow2, y, 5, MET_FIT_X_PROCESSORS, &fit), 0);
  CU_ASSERT(fit.x_min == 1 && fit.x_max == 16); /* the data's range: p = 1 to 16 */
  char text[64];
  met_fit_t sat = {.form = MET_FIT_SATURATING, .ncoefs = 2, .coef = {0.0625, 4}};
  met_fit_format(&sat, "n", text, sizeof text);
  CU_ASSERT_STRING_EQUAL(text, "1 / (0.0625 + 4/n)");
  TU_ASSERT_CLOSE(met_fit_eval(&sat, 64), 1 / (0.0625 + 4.0 / 64), 1e-12);
}

/* x = 1 2 3 4, y = 1 3 2 4. By hand: mean x = mean y = 2.5, Sxx = 5, Sxy = 4, Syy = 5; b = Sxy / Sxx = 0.8,
 * a = 2.5 - 0.8 * 2.5 = 0.5; R^2 = b Sxy / Syy = 0.64; adjusted = 1 - 0.36 * 3 / 2 = 0.46. */
static void test_met_fit_noisy_linear(void)
{
  const double x[] = {1, 2, 3, 4};
  const double y[] = {1, 3, 2, 4};
  met_fit_t fit;
  CU_ASSERT_EQUAL_FATAL(met_fit(MET_FIT_LINEAR, x, y, 4, &fit), 0);
  TU_ASSERT_CLOSE(fit.coef[0], 0.5, 1e-12);
  TU_ASSERT_CLOSE(fit.coef[1], 0.8, 1e-12);
  TU_ASSERT_CLOSE(fit.r2, 0.64, 1e-12);
  TU_ASSERT_CLOSE(fit.adj_r2, 0.46, 1e-12);
}

/* x = 1 2 4, y = 1 4 8 in log2-log2 space: u = 0 1 2, v = 0 2 3; slope b = 3 / 2 = 1.5, intercept 5/3 - 1.5 = 1/6, so
 * a = 2^(1/6) = 1.1224620. R^2 on y as given: predictions 1.1224620, 3.1748021, 8.9796964; SS_res = 1.6557535,
 * SS_tot = 24.666667 (mean 13/3); R^2 = 0.9328749. */
static void test_met_fit_noisy_power(void)
{
  const double x[] = {1, 2, 4};
  const double y[] = {1, 4, 8};
  met_fit_t fit;
  CU_ASSERT_EQUAL_FATAL(met_fit(MET_FIT_POWER, x, y, 3, &fit), 0);
  TU_ASSERT_CLOSE(fit.coef[0], 1.1224620, 1e-7);
  TU_ASSERT_CLOSE(fit.coef[1], 1.5, 1e-12);
  TU_ASSERT_CLOSE(fit.r2, 0.9328749, 1e-7);
}

/* The best form for 8 exact samples of f against x of kind `xkind`. */
static met_fit_form_t best_for_x(double (*f)(double), met_fit_x_t xkind)
{
  double y[8];
  met_fit_t fit;
  sample(f, 8, y);
  return met_fit_best(pow2, y, 8, xkind, &fit) == 0 ? fit.form : MET_FIT_COUNT;
}

static met_fit_form_t best_for(double (*f)(double))
{
  return best_for_x(f, MET_FIT_X_PROCESSORS);
}

static void test_met_fit_best_form(void)
{
  CU_ASSERT_EQUAL(best_for(amdahl_fn), MET_FIT_AMDAHL);
  CU_ASSERT_EQUAL(best_for(xlog_fn), MET_FIT_XLOG);
  CU_ASSERT_EQUAL(best_for(amdahl_linear_fn), MET_FIT_AMDAHL_LINEAR);
  /* Exact linear data: the quadratic fits as well, with c = 0; the simpler form wins the tie. */
  CU_ASSERT_EQUAL(best_for(linear_fn), MET_FIT_LINEAR);
  /* The work-size forms are tried against a work size only, the processor forms against p only: exact eq. 11 data
   * (a N^3 + b N^2) is the work form against N, never against p; exact Amdahl data against N is not Amdahl. */
  CU_ASSERT_EQUAL(best_for_x(work_fn, MET_FIT_X_WORK), MET_FIT_WORK);
  CU_ASSERT_NOT_EQUAL(best_for_x(work_fn, MET_FIT_X_PROCESSORS), MET_FIT_WORK);
  CU_ASSERT_NOT_EQUAL(best_for_x(amdahl_fn, MET_FIT_X_WORK), MET_FIT_AMDAHL);
  CU_ASSERT_EQUAL(best_for_x(saturating_fn, MET_FIT_X_WORK), MET_FIT_SATURATING);
  /* Two points: every form would interpolate them, none is chosen. */
  met_fit_t fit;
  CU_ASSERT_EQUAL(met_fit_best(pow2, pow2, 2, MET_FIT_X_PROCESSORS, &fit), BAS_EINVAL);
}

static void test_met_fit_domains(void)
{
  const double x[] = {1, 2, 4};
  const double with_zero[] = {0, 1, 2};
  const double same[] = {3, 3, 3};
  const double ones[] = {1, 1, 1};
  met_fit_t fit;
  CU_ASSERT_EQUAL(met_fit(MET_FIT_POWER, x, with_zero, 3, &fit), BAS_EINVAL);  /* log 0 */
  CU_ASSERT_EQUAL(met_fit(MET_FIT_AMDAHL, with_zero, x, 3, &fit), BAS_EINVAL); /* 1 / 0 */
  CU_ASSERT_EQUAL(met_fit(MET_FIT_QUADRATIC, x, x, 2, &fit), BAS_EINVAL);      /* fewer points than coefficients */
  CU_ASSERT_EQUAL(met_fit(MET_FIT_LINEAR, same, x, 3, &fit), BAS_EINVAL);      /* all x equal */
  CU_ASSERT_EQUAL(met_fit(MET_FIT_XLOG, ones, x, 3, &fit), BAS_EINVAL);        /* log2 1 = 0 everywhere */
  CU_ASSERT_EQUAL(met_fit(MET_FIT_LINEAR, x, (const double[]){1, NAN, 2}, 3, &fit), BAS_EINVAL);
  CU_ASSERT_EQUAL(met_fit(MET_FIT_COUNT, x, x, 3, &fit), BAS_EINVAL);
  /* Constant y: nothing to explain; an intercept reproduces it. */
  CU_ASSERT_EQUAL_FATAL(met_fit(MET_FIT_LINEAR, x, same, 3, &fit), 0);
  TU_ASSERT_CLOSE(fit.coef[0], 3, 1e-12);
  TU_ASSERT_CLOSE(fit.r2, 1, 1e-12);
}

static void test_met_fit_eval_and_format(void)
{
  char buf[128];
  met_fit_t fit = {.form = MET_FIT_AMDAHL, .ncoefs = 2, .coef = {5, -7}};
  TU_ASSERT_CLOSE(met_fit_eval(&fit, 2), 1.5, 1e-12);
  CU_ASSERT(isnan(met_fit_eval(&fit, 0)));
  met_fit_format(&fit, "p", buf, sizeof buf);
  CU_ASSERT_STRING_EQUAL(buf, "5 - 7/p");
  fit = (met_fit_t){.form = MET_FIT_QUADRATIC, .ncoefs = 3, .coef = {1, -2, 0.5}};
  TU_ASSERT_CLOSE(met_fit_eval(&fit, 4), 1, 1e-12);
  met_fit_format(&fit, "n", buf, sizeof buf);
  CU_ASSERT_STRING_EQUAL(buf, "1 - 2 n + 0.5 n^2");
  fit = (met_fit_t){.form = MET_FIT_POWER, .ncoefs = 2, .coef = {2, 1.5}};
  met_fit_format(&fit, "p", buf, sizeof buf);
  CU_ASSERT_STRING_EQUAL(buf, "2 p^1.5");
  fit = (met_fit_t){.form = MET_FIT_XLOG, .ncoefs = 2, .coef = {0.25, 3}};
  TU_ASSERT_CLOSE(met_fit_eval(&fit, 8), 11, 1e-12);
  met_fit_format(&fit, "p", buf, sizeof buf);
  CU_ASSERT_STRING_EQUAL(buf, "0.25 p + 3 log2(p)");
  fit = (met_fit_t){.form = MET_FIT_AMDAHL_LINEAR, .ncoefs = 3, .coef = {1, 78, -0.5}};
  TU_ASSERT_CLOSE(met_fit_eval(&fit, 2), 39, 1e-12);
  met_fit_format(&fit, "p", buf, sizeof buf);
  CU_ASSERT_STRING_EQUAL(buf, "1 + 78/p - 0.5 p");
  CU_ASSERT_STRING_EQUAL(met_fit_name(MET_FIT_AMDAHL), "amdahl");
  CU_ASSERT_PTR_NULL(met_fit_name(MET_FIT_COUNT));
}

/* Honest fits, by hand: y = 100 - x^2 / 1.5 is efficiency-like on x in [1, 12]: exact (adjusted R^2 1), but it goes
 * below 0 at x = 12.25 > 12, so it stays within [0, 100] (96 at 12 is the least: 100 - 144/1.5 = 4). Over [1, 13] the
 * same form reaches 100 - 169/1.5 = -12.7 inside the data: not honest for an efficiency, honest for a time-like
 * range (-inf, inf). Noise that no form explains (adjusted R^2 < 0.9) is not honest either. Against grid rows
 * (MET_FIT_X_OTHER) only linear and quadratic forms are tried. */
static void test_met_fit_honest(void)
{
  double x[13], y[13];
  for (int i = 0; i < 13; i++) {
    x[i] = i + 1;
    y[i] = 100 - x[i] * x[i] / 1.5;
  }
  met_fit_t fit;
  CU_ASSERT_EQUAL_FATAL(met_fit(MET_FIT_QUADRATIC, x, y, 12, &fit), 0);
  CU_ASSERT_TRUE(met_fit_honest(&fit, 0, 100));
  CU_ASSERT_EQUAL_FATAL(met_fit(MET_FIT_QUADRATIC, x, y, 13, &fit), 0);
  CU_ASSERT_FALSE(met_fit_honest(&fit, 0, 100));
  CU_ASSERT_TRUE(met_fit_honest(&fit, -INFINITY, INFINITY));
  const double zigzag[] = {1, 9, 2, 8, 1, 9, 2, 8, 1, 9, 2, 8};
  CU_ASSERT_EQUAL_FATAL(met_fit_best(x, zigzag, 12, MET_FIT_X_PROCESSORS, &fit), 0);
  CU_ASSERT(fit.adj_r2 < MET_FIT_MIN_ADJ_R2);
  CU_ASSERT_FALSE(met_fit_honest(&fit, -INFINITY, INFINITY));
  CU_ASSERT_EQUAL_FATAL(met_fit_best(x, y, 12, MET_FIT_X_OTHER, &fit), 0);
  CU_ASSERT_EQUAL(fit.form, MET_FIT_QUADRATIC);
  const double straight[] = {1, 2, 3, 4, 5, 6};
  CU_ASSERT_EQUAL_FATAL(met_fit_best(x, straight, 6, MET_FIT_X_OTHER, &fit), 0);
  CU_ASSERT_EQUAL(fit.form, MET_FIT_LINEAR);
}

/* Data that does not vary is named constant, not fitted: 0.125 with rounding noise of 1e-17 (a linear fit read
 * "0.125 - 1.499e-17 grid-rows, R^2 = 1.0000") is the constant 0.125, values below 1e-12 in size are the constant 0
 * (exact zeros printed as 3.6e-16 before), and a variation of 1e-6 relative is fitted as before. */
static void test_met_fit_constant_data_is_no_fit(void)
{
  const double x[] = {1, 2, 4, 8};
  const double flat[] = {0.125, 0.125 + 1.5e-17, 0.125 - 2e-17, 0.125};
  const double tiny[] = {3.6e-16, 0, -1e-17, 2e-16};
  const double varies[] = {0.125, 0.125 * (1 + 1e-6), 0.125 * (1 + 2e-6), 0.125 * (1 + 4e-6)};
  met_fit_t fit;
  char text[160];
  CU_ASSERT_EQUAL_FATAL(met_fit_best(x, flat, 4, MET_FIT_X_OTHER, &fit), 0);
  CU_ASSERT_EQUAL(fit.form, MET_FIT_CONSTANT);
  CU_ASSERT_EQUAL(fit.ncoefs, 1);
  TU_ASSERT_CLOSE(fit.coef[0], 0.125, 1e-15);
  CU_ASSERT(fit.x_min == 1 && fit.x_max == 8);
  CU_ASSERT_STRING_EQUAL(met_fit_name(fit.form), "constant");
  met_fit_format(&fit, "grid-rows", text, sizeof text);
  CU_ASSERT_STRING_EQUAL(text, "0.125");
  CU_ASSERT_TRUE(met_fit_honest(&fit, 0, 1));
  CU_ASSERT_EQUAL(met_fit_eval(&fit, 3), fit.coef[0]);
  CU_ASSERT_EQUAL_FATAL(met_fit_best(x, tiny, 4, MET_FIT_X_PROCESSORS, &fit), 0);
  CU_ASSERT(fit.form == MET_FIT_CONSTANT && fit.coef[0] == 0);
  CU_ASSERT_EQUAL_FATAL(met_fit_best(x, varies, 4, MET_FIT_X_OTHER, &fit), 0);
  CU_ASSERT_EQUAL(fit.form, MET_FIT_LINEAR);
  CU_ASSERT_EQUAL(met_fit_best(x, flat, 2, MET_FIT_X_OTHER, &fit), BAS_EINVAL); /* two points say nothing */
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_met_fit_exact_forms", test_met_fit_exact_forms},
                                    {"test_met_fit_noisy_linear", test_met_fit_noisy_linear},
                                    {"test_met_fit_noisy_power", test_met_fit_noisy_power},
                                    {"test_met_fit_best_form", test_met_fit_best_form},
                                    {"test_met_fit_needs_spare_points", test_met_fit_needs_spare_points},
                                    {"test_met_fit_domains", test_met_fit_domains},
                                    {"test_met_fit_eval_and_format", test_met_fit_eval_and_format},
                                    {"test_met_fit_honest", test_met_fit_honest},
                                    {"test_met_fit_constant_data_is_no_fit", test_met_fit_constant_data_is_no_fit},
                                    {NULL, NULL}};
  return tu_run("met_fit", cases);
}
