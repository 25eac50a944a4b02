/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the point-to-point models a platform description gives (met_machine: Hockney's and LogP's parameters
 * between ranks 0 and 1, the report's line about them) against hand calculations on descriptions written out below:
 * a route of 10 us and 100 MB/s, a piecewise model with round coefficients, and a platform that gives neither; and
 * whether routes are what eq. 4's per-hop form and FAST's one link per line price (met_platform_routes_alike). */
#include "met_machine.h"
#include "tu.h"
#include "bas_error.h"

#include <stdio.h>
#include <string.h>

/* Two ranks one link apart on a route of 10 us and 1e8 B/s. */
static void route_platform(met_platform_t *m)
{
  memset(m, 0, sizeof *m);
  m->p = 2;
  m->hops[1] = 1;
  m->latency = 10e-6;
  m->bandwidth = 1e8;
}

/* By hand: L = 10 us + 8 / 1e8 s = 10.08 us, g = 8 / 1e8 s = 0.08 us, o = 0, P = 2. 1024 bytes are 128 words:
 * 10.08 + 127 x 0.08 = 20.24 us, which is Hockney's 10 + 1024 x 0.01 = 20.24 us (o = 0: LogP adds nothing). */
static void test_met_machine_logp_from_the_route(void)
{
  static met_platform_t m;
  route_platform(&m);
  met_logp_t logp;
  CU_ASSERT_EQUAL_FATAL(met_platform_logp(&m, 1024, &logp), 0);
  TU_ASSERT_CLOSE(logp.L, 10.08e-6, 1e-15);
  TU_ASSERT_CLOSE(logp.g, 0.08e-6, 1e-15);
  CU_ASSERT(logp.o == 0 && logp.P == 2 && logp.word_bytes == 8);
  TU_ASSERT_CLOSE(met_logp_time(&logp, 1024), 20.24e-6, 1e-15);
  char line[512];
  met_platform_p2p_describe(&m, 1024, line, sizeof line);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "Hockney lambda 10 us, tau 0.01 us/B"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "L 10.08 us, o 0"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "1024 bytes: Hockney 20.24 us, LogP 20.24 us"));
}

/* A piecewise model (us): small regime 10 + 1 l + 2 d, large 5 + 0.5 l + 1 d + 0.1 l d, split at 100 bytes; ranks 2
 * hops apart. L = 10 + 8 + 4 = 22 us (one word, small regime); g = (0.5 + 0.1 x 2) x 8 = 5.6 us. */
static void test_met_machine_logp_from_the_piecewise_model(void)
{
  static met_platform_t m;
  memset(&m, 0, sizeof m);
  m.p = 4;
  m.hops[1] = 2;
  m.piecewise = 1;
  m.msg = (met_piecewise_t){.packet_bytes = 100, .small = {10, 1, 2, 0}, .large = {5, 0.5, 1, 0.1}};
  met_logp_t logp;
  CU_ASSERT_EQUAL_FATAL(met_platform_logp(&m, 1024, &logp), 0);
  TU_ASSERT_CLOSE(logp.L, 22e-6, 1e-15);
  TU_ASSERT_CLOSE(logp.g, 5.6e-6, 1e-15);
  CU_ASSERT_EQUAL(logp.P, 4);
  /* 16 bytes = 2 words: 22 + 5.6 = 27.6 us */
  TU_ASSERT_CLOSE(met_logp_time(&logp, 16), 27.6e-6, 1e-15);
}

/* No route bandwidth and no piecewise model: both models print "-" and the line says what is missing; p = 1 sends
 * nothing, so there is no line. */
static void test_met_machine_missing_inputs(void)
{
  static met_platform_t m;
  route_platform(&m);
  m.bandwidth = 0;
  met_logp_t logp;
  CU_ASSERT_EQUAL(met_platform_logp(&m, 1024, &logp), BAS_EPLATFORM);
  char line[512];
  met_platform_p2p_describe(&m, 1024, line, sizeof line);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "Hockney -, LogP -: the platform gives neither"));
  CU_ASSERT_PTR_NULL(strchr(line, '\n'));
  route_platform(&m);
  m.p = 1;
  CU_ASSERT_EQUAL(met_platform_logp(&m, 1024, &logp), BAS_EPLATFORM);
  met_platform_p2p_describe(&m, 1024, line, sizeof line);
  CU_ASSERT_STRING_EQUAL(line, "");
}

/* Three ranks on a line of links of 10 us and 1e8 B/s, ranks 0 and 2 two links apart (20 us), under CM02 with the
 * default TCP window (4194304 B / (2 x 20 us) = 1.05e11 B/s: no bound), filled in as sim_machine_describe would. */
static void line_platform(met_platform_t *m)
{
  memset(m, 0, sizeof *m);
  m->p = 3;
  snprintf(m->net.model, sizeof m->net.model, "CM02");
  m->net.tcp_gamma = 4194304;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      m->pair_hops[i][j] = i > j ? i - j : j - i;
      m->pair_latency[i][j] = 10e-6 * m->pair_hops[i][j];
      m->pair_bandwidth[i][j] = i == j ? 0 : 1e8;
    }
  m->hops[1] = 1;
  m->hops[2] = 2;
  m->latency = 10e-6;
  m->bandwidth = 1e8;
}

/* Routes eq. 4's per-hop form prices (10 us a link, 1e8 B/s) are alike, and so are routes whose rate the TCP window
 * bounds, all of them (1024 B / (2 x 10 us) = 5.12e7 B/s, below 1e8 already between ranks 0 and 1): the rate is then
 * gamma / (2 latency), 1 / rate 2 x 10 us / 1024 B = 0.01953125 us per byte and link, so 1032 B over 2 links take
 * 20 us + 1032 x 2 x 0.01953125 us = 60.3125 us. Not alike, each with its reason: a window that bounds some routes
 * only (3000 B / (2 x 10 us) = 1.5e8 B/s above 1e8 between ranks 0 and 1, 3000 / (2 x 20 us) = 7.5e7 below it
 * between 0 and 2), a route of another latency per link, a relay over a shared link. FAST's lines: the 1 x 3 grid's
 * row has the 0 - 2 route, the 3 x 1 grid's column too. */
static void test_met_machine_routes_alike(void)
{
  static met_platform_t m;
  char why[512] = "";
  line_platform(&m);
  CU_ASSERT_EQUAL(met_platform_routes_alike(&m, 1, why, sizeof why), 1);
  CU_ASSERT_EQUAL(met_platform_lines_alike(&m, 3, why, sizeof why), 1);
  m.net.tcp_gamma = 4096;
  CU_ASSERT_EQUAL(met_platform_routes_alike(&m, 0, why, sizeof why), 1);
  m.net.tcp_gamma = 1024;
  CU_ASSERT_EQUAL(met_platform_routes_alike(&m, 0, why, sizeof why), 1);
  met_piecewise_t msg;
  m.net.priced = 1; /* CM02, factors 1 */
  CU_ASSERT_EQUAL_FATAL(met_platform_msg(&m, &msg), 0);
  TU_ASSERT_CLOSE(met_piecewise_time(&msg, 1032, 2), 60.3125e-6, 1e-15);
  m.net.tcp_gamma = 3000;
  CU_ASSERT_EQUAL(met_platform_routes_alike(&m, 0, why, sizeof why), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "the TCP window (network/TCP-gamma 3000 B) bounds the rate of ranks 0 and 2's "
                                     "route below its bandwidth but not ranks 0 and 1's"));
  line_platform(&m);
  m.relay_shared = 1;
  CU_ASSERT_EQUAL(met_platform_routes_alike(&m, 0, why, sizeof why), 1);
  CU_ASSERT_EQUAL(met_platform_routes_alike(&m, 1, why, sizeof why), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "cross a shared link (such as a backbone)"));
  line_platform(&m);
  m.pair_latency[0][2] = m.pair_latency[2][0] = 50e-6;
  CU_ASSERT_EQUAL(met_platform_routes_alike(&m, 0, why, sizeof why), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "ranks 0 and 2's has 50 us over 2 links and 1e+08 B/s, ranks 0 and 1's 10 us"));
  CU_ASSERT_EQUAL(met_platform_lines_alike(&m, 3, why, sizeof why), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "FAST's eqs. 2-3"));
  CU_ASSERT_EQUAL(met_platform_lines_alike(&m, 1, why, sizeof why), 0);
  m.piecewise = 1; /* the platform's own model prices every route */
  CU_ASSERT_EQUAL(met_platform_routes_alike(&m, 1, why, sizeof why), 1);
  CU_ASSERT_EQUAL(met_platform_lines_alike(&m, 3, why, sizeof why), 1);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"test_met_machine_logp_from_the_route", test_met_machine_logp_from_the_route},
      {"test_met_machine_logp_from_the_piecewise_model", test_met_machine_logp_from_the_piecewise_model},
      {"test_met_machine_missing_inputs", test_met_machine_missing_inputs},
      {"test_met_machine_routes_alike", test_met_machine_routes_alike},
      {NULL, NULL},
  };
  return tu_run("met_machine", cases);
}
