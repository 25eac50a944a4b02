/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A message alone under SimGrid's CM02-family network models (met_net) against hand calculations from SimGrid 3.32's
 * rule (src/surf/network_cm02.cpp): latency x factor + bytes / (min(bandwidth, TCP-gamma / (2 latency)) x factor),
 * with LV08's factors (13.01, 0.97), a TCP window that binds, and SMPI-style steps by size. */
#include "met_net.h"
#include "tu.h"

#include <string.h>

static met_net_t lv08(void)
{
  return (met_net_t){.model = "LV08",
                     .priced = 1,
                     .nlat = 1,
                     .nbw = 1,
                     .lat = {{-1, 13.01}},
                     .bw = {{-1, 0.97}},
                     .tcp_gamma = 4194304,
                     .crosstraffic = 1};
}

/* 8 bytes over one link of 50 us and 1.25e8 B/s: 13.01 x 50 us = 650.5 us, plus 8 / (0.97 x 1.25e8) s = 0.0659794 us;
 * the window bounds the rate at 4194304 / (2 x 50e-6) = 4.19e10 B/s, far above the link's. */
static void test_met_net_lv08_by_hand(void)
{
  met_net_t net = lv08();
  TU_ASSERT_CLOSE(met_net_time(&net, 50e-6, 1.25e8, 8), 650.5e-6 + 8 / (0.97 * 1.25e8), 1e-18);
  TU_ASSERT_CLOSE(met_net_time(&net, 50e-6, 1.25e8, 8), 650.5659794e-6, 1e-13);
  TU_ASSERT_CLOSE(met_net_rate(&net, 50e-6, 1.25e8, 8), 1.2125e8, 1e-3);
  CU_ASSERT_TRUE(met_net_size_free(&net));
}

/* The TCP window binds on a long link: 10 ms and 1.25e9 B/s under CM02 (factors 1) carry at most 4194304 / 0.02 =
 * 209715200 B/s, so 1e6 bytes take 10 ms + 4.76837158 ms. Without a window, 10 ms + 0.8 ms. */
static void test_met_net_tcp_window_by_hand(void)
{
  met_net_t net = {.model = "CM02", .priced = 1, .tcp_gamma = 4194304};
  TU_ASSERT_CLOSE(met_net_time(&net, 10e-3, 1.25e9, 1e6), 14.76837158e-3, 1e-11);
  net.tcp_gamma = 0;
  TU_ASSERT_CLOSE(met_net_time(&net, 10e-3, 1.25e9, 1e6), 10.8e-3, 1e-15);
}

/* Steps as SMPI reads them: a size at or below a bound keeps the factor before it. Latency 0:2;1024:3, bandwidth
 * 0:0.5;1024:0.25 on 10 us and 1e8 B/s: 1024 bytes take 2 x 10 us + 1024 / 5e7 s = 40.48 us, 1025 bytes 3 x 10 us +
 * 1025 / 2.5e7 s = 71 us; sizes 8 to 1024 take one factor, 8 to 1025 two. */
static void test_met_net_steps_by_hand(void)
{
  met_net_t net = {
      .model = "SMPI", .priced = 1, .nlat = 2, .nbw = 2, .lat = {{0, 2}, {1024, 3}}, .bw = {{0, 0.5}, {1024, 0.25}}};
  TU_ASSERT_CLOSE(met_net_time(&net, 10e-6, 1e8, 1024), 40.48e-6, 1e-15);
  TU_ASSERT_CLOSE(met_net_time(&net, 10e-6, 1e8, 1025), 71e-6, 1e-15);
  TU_ASSERT_CLOSE(met_net_factor(net.lat, net.nlat, 0), 1, 0);
  CU_ASSERT_TRUE(met_net_one_step(&net, 8, 1024));
  CU_ASSERT_FALSE(met_net_one_step(&net, 8, 1025));
  CU_ASSERT_FALSE(met_net_size_free(&net));
}

/* The line names the model, its factors and, for one the models cannot follow, the reason. */
static void test_met_net_describe(void)
{
  char line[512];
  met_net_t net = lv08();
  met_net_describe(&net, line, sizeof line);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "LV08: latency x 13.01, bandwidth x 0.97"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "TCP-gamma 4194304 B"));
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "cross-traffic on"));
  met_net_t ib = {.model = "IB", .reason = "not followed"};
  met_net_describe(&ib, line, sizeof line);
  CU_ASSERT_STRING_EQUAL(line, "IB: the models print \"-\": not followed");
  met_net_describe(&net, line, 20); /* cut, never overrun */
  CU_ASSERT_EQUAL(strlen(line), 19);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"test_met_net_lv08_by_hand", test_met_net_lv08_by_hand},
      {"test_met_net_tcp_window_by_hand", test_met_net_tcp_window_by_hand},
      {"test_met_net_steps_by_hand", test_met_net_steps_by_hand},
      {"test_met_net_describe", test_met_net_describe},
      {NULL, NULL},
  };
  return tu_run("met_net", cases);
}
