/* Tests of the least-squares fit of seed 001 eq. 4 (met_msgfit): samples made from Table 2 itself give back its
 * coefficients and its packet size; one distance fits alpha and beta only; too few samples are refused. */
#include "met_msgfit.h"
#include "tu.h"

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

static void test_met_msgfit_gives_back_table2(void)
{
  met_msg_sample_t s[64];
  size_t n = table2_samples(s, 4);
  met_msgfit_t fit;
  char err[256];
  CU_ASSERT_FATAL(met_msgfit(s, n, -1, &fit, err, sizeof err) == 0);
  const double small[] = {51.1, 0.27, 8.86, 0.68};
  const double large[] = {-81.5, 1.33, 93.04, 0.05};
  CU_ASSERT_EQUAL(fit.model.packet_bytes, 120);
  for (int i = 0; i < 4; i++) {
    TU_ASSERT_CLOSE(fit.model.small[i], small[i], 1e-8);
    TU_ASSERT_CLOSE(fit.model.large[i], large[i], 1e-8);
  }
  CU_ASSERT(fit.distance_terms && fit.n_small == 20 && fit.n_large == 16 && fit.rms_us < 1e-8);
}

/* At one distance (d = 1) the fit can only give alpha + gamma d and beta + delta d: 59.96 and 0.95 us below the packet
 * size, 11.54 and 1.38 above; gamma and delta are 0. */
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
  TU_ASSERT_CLOSE(fit.model.large[0], 11.54, 1e-8);
  TU_ASSERT_CLOSE(fit.model.large[1], 1.38, 1e-10);
  CU_ASSERT(fit.model.small[2] == 0 && fit.model.large[3] == 0);
}

/* Three samples cannot make two regimes of two sizes each. */
static void test_met_msgfit_too_few_samples(void)
{
  met_msg_sample_t s[3] = {{8, 1, 60}, {16, 1, 66}, {256, 1, 400}};
  met_msgfit_t fit;
  char err[256] = "";
  CU_ASSERT_EQUAL(met_msgfit(s, 3, -1, &fit, err, sizeof err), -1);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "no packet size splits the 3 samples"));
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_met_msgfit_gives_back_table2", test_met_msgfit_gives_back_table2},
                                    {"test_met_msgfit_one_distance", test_met_msgfit_one_distance},
                                    {"test_met_msgfit_too_few_samples", test_met_msgfit_too_few_samples},
                                    {NULL, NULL}};
  return tu_run("met_msgfit", cases);
}
