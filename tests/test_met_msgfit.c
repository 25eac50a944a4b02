/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the least-squares fit of seed 001 eq. 4 (met_msgfit): samples made from Table 2 itself give back its small
 * regime, never a negative term; cross-validation finds a change of regime; relative weighting keeps small messages
 * right; one distance fits alpha and beta only; too few samples and bad residuals are refused. */
#include "met_msgfit.h"
#include "tu.h"
#include "bas_error.h"

#include <math.h>
#include <string.h>

/* Table 2 (seed 001, eq. 4), written from the paper. */
static double table2_us(double l, double d)
{
  return l <= 120 ? 51.1 + 0.27 * l + 8.86 * d + 0.68 * l * d : -81.5 + 1.33 * l + 93.04 * d + 0.05 * l * d;
}

/* Sizes on both sides of 120 bytes, distances 1 to 4. */
static size_t table2_samples(met_msg_sample_t *s, int distances)
{
  const double sizes[] = {8, 32, 64, 100, 120, 200, 512, 1024, 4096};
  size_t n = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (int d = 1; d <= distances; d++)
      s[n++] = (met_msg_sample_t){.bytes = sizes[i], .hops = d, .us = table2_us(sizes[i], d)};
  return n;
}

/* Given Table 2's packet size, its small regime comes back exactly. Its large regime has alpha = -81.5 us, which the
 * fit never gives (a negative term): every coefficient is >= 0, and the fit is at least as close, in relative terms,
 * as the non-negative candidate that keeps the paper's other three terms and sets alpha to 0. */
static void test_met_msgfit_table2_non_negative(void)
{
  met_msg_sample_t s[64];
  size_t n = table2_samples(s, 4);
  met_msgfit_t fit;
  char err[256];
  CU_ASSERT_FATAL(met_msgfit(s, n, 120, &fit, err, sizeof err) == 0);
  const double small[] = {51.1, 0.27, 8.86, 0.68};
  for (int i = 0; i < 4; i++) {
    TU_ASSERT_CLOSE(fit.model.small[i], small[i], 1e-8);
    CU_ASSERT(fit.model.large[i] >= 0);
  }
  double candidate = 0;
  size_t large = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i].bytes > 120) {
      double r = (s[i].us - (1.33 * s[i].bytes + 93.04 * s[i].hops + 0.05 * s[i].bytes * s[i].hops)) / s[i].us;
      candidate += r * r;
      large++;
    }
  CU_ASSERT(fit.rms_rel[1] <= sqrt(candidate / (double)large));
  CU_ASSERT(fit.distance_terms && fit.n_small == 20 && fit.n_large == 16 && fit.rms_rel[0] < 1e-10);
}

/* A message time with every term > 0 and a change of regime at 120 bytes: cross-validation finds the split (the only
 * one where both regimes are exact, leave-one-out error 0) and the coefficients come back. */
static void test_met_msgfit_cross_validation_finds_split(void)
{
  const double sizes[] = {8, 32, 64, 100, 120, 200, 512, 1024, 4096};
  met_msg_sample_t s[64];
  size_t n = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (int d = 1; d <= 4; d++) {
      double l = sizes[i];
      double us = l <= 120 ? 51.1 + 0.27 * l + 8.86 * d + 0.68 * l * d : 20 + 1.33 * l + 93.04 * d + 0.05 * l * d;
      s[n++] = (met_msg_sample_t){.bytes = l, .hops = d, .us = us};
    }
  met_msgfit_t fit;
  char err[256];
  CU_ASSERT_FATAL(met_msgfit(s, n, -1, &fit, err, sizeof err) == 0);
  CU_ASSERT_EQUAL(fit.model.packet_bytes, 120);
  TU_ASSERT_CLOSE(fit.model.large[0], 20, 1e-6);
  TU_ASSERT_CLOSE(fit.model.large[2], 93.04, 1e-6);
  CU_ASSERT(fit.cv_rel < 1e-9 && !fit.one_regime);
}

/* Times spanning 5 decades (0.225 us + 0.1 ns/B, 1 B to 4 MiB, one distance) with +-5% noise, alternating: weighted by
 * relative error, no sample is off by more than 10% (an unweighted fit serves the large messages, whose noise is tens
 * of microseconds, and misses the 0.2 us ones by several times). */
static void test_met_msgfit_relative_error(void)
{
  met_msg_sample_t s[64];
  size_t n = 0;
  for (double l = 1; l <= 4194304; l *= 2, n++)
    s[n] = (met_msg_sample_t){.bytes = l, .hops = 1, .us = (0.225 + 1e-4 * l) * (n % 2 ? 1.05 : 0.95)};
  met_msgfit_t fit;
  char err[256];
  CU_ASSERT_FATAL(met_msgfit(s, n, -1, &fit, err, sizeof err) == 0);
  CU_ASSERT(fit.max_rel[0] <= 0.10 && fit.max_rel[1] <= 0.10);
  CU_ASSERT(fit.model.small[0] >= 0 && fit.model.small[1] >= 0 && fit.model.large[0] >= 0);
}

/* At one distance (d = 1) the fit can only give alpha + gamma d and beta + delta d: 59.96 and 0.95 us below the packet
 * size; gamma and delta are 0. */
static void test_met_msgfit_one_distance(void)
{
  met_msg_sample_t s[64];
  size_t n = table2_samples(s, 1);
  met_msgfit_t fit;
  char err[256];
  CU_ASSERT_FATAL(met_msgfit(s, n, 120, &fit, err, sizeof err) == 0);
  CU_ASSERT(!fit.distance_terms);
  TU_ASSERT_CLOSE(fit.model.small[0], 59.96, 1e-8);
  TU_ASSERT_CLOSE(fit.model.small[1], 0.95, 1e-10);
  CU_ASSERT(fit.model.small[2] == 0 && fit.model.large[3] == 0);
}

/* Two samples cannot make a regime of three sizes (two terms and one to leave out); a split that leaves two sizes in
 * a regime is refused rather than fitted exactly. */
static void test_met_msgfit_too_few_samples(void)
{
  met_msg_sample_t s[5] = {{8, 1, 60}, {16, 1, 66}, {256, 1, 400}, {512, 1, 700}, {1024, 1, 1300}};
  met_msgfit_t fit;
  char err[256] = "";
  CU_ASSERT_EQUAL(met_msgfit(s, 2, -1, &fit, err, sizeof err), BAS_EDATA);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "no packet size leaves each regime of the 2 samples 3 sizes or more"));
  CU_ASSERT_EQUAL(met_msgfit(s, 5, 16, &fit, err, sizeof err), BAS_EDATA);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "with the packet size at 16 bytes a regime has fewer than 3 sizes"));
  /* no samples at all (an empty CSV: fuzz_pingpong's first crash, a NULL array handed to memcpy) */
  err[0] = '\0';
  CU_ASSERT_EQUAL(met_msgfit(NULL, 0, -1, &fit, err, sizeof err), BAS_EDATA);
  CU_ASSERT(err[0] != '\0');
}

/* Times that are not eq. 4's shape (a size that takes 10 times its neighbours) are refused, naming the regime. */
static void test_met_msgfit_refuses_bad_residuals(void)
{
  met_msg_sample_t s[6] = {{8, 1, 1}, {16, 1, 10}, {32, 1, 1}, {64, 1, 10}, {128, 1, 1}, {256, 1, 10}};
  met_msgfit_t fit;
  char err[512] = "";
  CU_ASSERT_EQUAL(met_msgfit(s, 6, 256, &fit, err, sizeof err), BAS_EDATA);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "the fit misses the samples up to 256 bytes by"));
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_met_msgfit_table2_non_negative", test_met_msgfit_table2_non_negative},
      {"test_met_msgfit_cross_validation_finds_split", test_met_msgfit_cross_validation_finds_split},
      {"test_met_msgfit_relative_error", test_met_msgfit_relative_error},
      {"test_met_msgfit_one_distance", test_met_msgfit_one_distance},
      {"test_met_msgfit_too_few_samples", test_met_msgfit_too_few_samples},
      {"test_met_msgfit_refuses_bad_residuals", test_met_msgfit_refuses_bad_residuals},
      {NULL, NULL}};
  return tu_run("met_msgfit", cases);
}
