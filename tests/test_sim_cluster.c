/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The SuperCluster's links between clusters (sim_cluster): the extra time of a message worked out by hand from the
 * C004 delay (docs/t800.md), and platforms whose cluster properties are wrong refused with a message. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include "app_pingpong.h"
#include "sim_cluster.h"
#include "sim_error.h"
#include "sim_run.h"
#include "tu.h"
#include "tu_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 2 stages, 1.75 bit periods each way at 20 Mbit/s: 2 x 1.75 / 20e6 s = 0.175 us per byte and stage; so a crossing
 * link (2 stages) costs Delta = 0.35 us per byte. Forwarders with one packet buffer (the platform's), or two. */
static const sim_cluster_t one_buffer = {
    .stage_delay_bits = 1.75, .link_bits_per_s = 20e6, .packet_bytes = 120, .us_per_byte = 0.175, .forward_buffers = 1};
static const sim_cluster_t two_buffers = {
    .stage_delay_bits = 1.75, .link_bits_per_s = 20e6, .packet_bytes = 120, .us_per_byte = 0.175, .forward_buffers = 2};
/* One buffer, and every message waits for an acknowledgement of Table 2 at l = 0: alpha_1 + gamma_1 d = 51.1 + 8.86 d
 * us (docs/t800.md, "Neighbour at p >= 32"). */
static const sim_cluster_t acked = {.stage_delay_bits = 1.75,
                                    .link_bits_per_s = 20e6,
                                    .packet_bytes = 120,
                                    .us_per_byte = 0.175,
                                    .forward_buffers = 1,
                                    .ack_us = {51.1, 8.86}};

/* Routes of 3 links, 2 extra stages on the crossing ones. A 2056-byte row is a first packet of 120 bytes, which pays
 * 120 x 0.35 = 42 us per crossing hop, and 1936 more bytes, which pay 1936 x 0.35 = 677.6 us per crossing in the
 * cycle of the pipeline's slowest stage. */
static const double none[] = {0, 0, 0};
static const double first[] = {2, 0, 0};
static const double middle[] = {0, 2, 0};
static const double last[] = {0, 0, 2};
static const double two[] = {2, 0, 2};
static const double adjacent[] = {0, 2, 2};

/* Each case: the forwarding mode, the message, its route and the extra time worked out by hand, in us. */
static const struct {
  const sim_cluster_t *mode;
  double bytes;
  const double *stages;
  int hops;
  double us;
} by_hand[] = {
    /* one buffer */
    {&one_buffer, 2056, none, 3, 0},
    {&one_buffer, 100, middle, 3, 35},     /* one packet crossing once: 100 x 0.35, wherever the crossing */
    {&one_buffer, 2056, first, 3, 719.6},  /* one crossing anywhere paces the stream: 42 + 677.6 (the sender's cycle, */
    {&one_buffer, 2056, middle, 3, 719.6}, /* or the forwarder's that sends on the crossing link) */
    {&one_buffer, 2056, last, 3, 719.6},
    {&one_buffer, 2056, two, 3, 761.6},       /* crossings at different transputers: 2 x 42 + 677.6 */
    {&one_buffer, 2056, adjacent, 3, 1439.2}, /* a forwarder between two crossing links: 2 x 42 + 2 x 677.6 */
    {&one_buffer, 64, two, 3, 44.8},          /* small messages pay at every crossing hop: 2 x 64 x 0.35 */
    {&one_buffer, 64, first, 0, 0},
    /* two buffers */
    {&two_buffers, 2056, none, 3, 0},
    {&two_buffers, 2056, first, 3, 719.6}, /* a crossing first hop slows the sender's whole stream: 2056 x 0.35 */
    {&two_buffers, 2056, middle, 3, 42},   /* a later one delays the first packet only: the forwarder overlaps */
    {&two_buffers, 2056, last, 3, 42},     /* its two transfers */
    {&two_buffers, 2056, adjacent, 3, 84},
    {&two_buffers, 2056, two, 3, 761.6}, /* first and last: 719.6 + 42 */
    {&two_buffers, 64, two, 3, 44.8},
    /* an acknowledgement back over the route: 51.1 + 3 x 8.86 = 77.68 us on 3 hops, 60.96 on 1 */
    {&acked, 2056, none, 3, 77.68},
    {&acked, 2056, middle, 3, 797.28}, /* 719.6 + 77.68 */
    {&acked, 8, first, 1, 62.76},      /* 8 x 0.35 + 51.1 + 8.86 */
};

static void test_sim_cluster_extra_time_by_hand(void)
{
  for (size_t i = 0; i < sizeof by_hand / sizeof by_hand[0]; i++) {
    double got = sim_cluster_extra_time(by_hand[i].mode, by_hand[i].bytes, by_hand[i].stages, by_hand[i].hops);
    if (fabs(got - 1e-6 * by_hand[i].us) > 1e-15)
      fprintf(stderr, "case %zu: %.12g s, expected %.12g us\n", i, got, by_hand[i].us);
    CU_ASSERT_DOUBLE_EQUAL(got, 1e-6 * by_hand[i].us, 1e-15);
  }
}

/* The CPU a forwarder loses with simrun:relay-cpu-us = 8.86 (gamma_1, the router's time per packet and hop): one per
 * started 120-byte packet, so 8.86 us for 1 to 120 bytes, 17.72 for 121, 18 x 8.86 = 159.48 for a 2056-byte row. */
static void test_sim_cluster_relay_cpu_by_hand(void)
{
  sim_cluster_t relay = one_buffer;
  CU_ASSERT_DOUBLE_EQUAL(sim_cluster_relay_cpu(&relay, 2056), 0, 1e-15); /* absent: nothing */
  relay.relay_cpu_us = 8.86;
  static const double cases[][2] = {{0, 0}, {1, 8.86}, {120, 8.86}, {121, 17.72}, {2056, 159.48}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    CU_ASSERT_DOUBLE_EQUAL(sim_cluster_relay_cpu(&relay, cases[i][0]), 1e-6 * cases[i][1], 1e-15);
}

/* A 1 x 2 T800 platform whose root zone gets `root_props` and whose one link gets `link_props`; path in `path`. */
static int write_platform(const char *root_props, const char *link_props, char *path, size_t len)
{
  const char *tmp = getenv("TMPDIR");
  snprintf(path, len, "%s/simrun-cluster-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(path);
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!out)
    return -1;
  fprintf(out,
          "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\"><config><prop id=\"network/model\" value=\"CM02\"/>"
          "<prop id=\"network/crosstraffic\" value=\"0\"/></config>\n"
          "<zone id=\"z\" routing=\"Floyd\">\n"
          "<prop id=\"simrun:comm-model\" value=\"piecewise\"/><prop id=\"simrun:comm-packet-bytes\" value=\"120\"/>\n"
          "<prop id=\"simrun:comm-small-us\" value=\"51.1 0.27 8.86 0.68\"/>\n"
          "<prop id=\"simrun:comm-large-us\" value=\"-81.5 1.33 93.04 0.05\"/>%s\n"
          "<host id=\"a\" speed=\"25Mf\"/><host id=\"b\" speed=\"25Mf\"/>\n"
          "<link id=\"l\" bandwidth=\"751879.7Bps\" latency=\"1us\" sharing_policy=\"SPLITDUPLEX\">%s</link>\n"
          "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\" direction=\"UP\"/></route>\n</zone></platform>\n",
          root_props, link_props);
  return fclose(out) == 0 ? 0 : -1;
}

/* The status of a 2-rank ping-pong of 8..1024 bytes on that platform; the message in err; the trace in *trace. */
static int run_on(const char *root_props, const char *link_props, met_trace_t **trace, char *err, size_t errlen)
{
  char path[512];
  if (write_platform(root_props, link_props, path, sizeof path) != 0)
    return -1;
  const char *names[] = {"min-bytes", "max-bytes"};
  const char *values[] = {"8", "1024"};
  app_point_t point = {.count = 2, .names = names, .values = values};
  void *arg = NULL;
  const char *bad = NULL;
  int rc = app_pingpong_skeleton.prepare(&point, 2, &arg, err, errlen, &bad);
  sim_job_t job = {.platform = path, .nranks = 2, .program = app_pingpong_skeleton.program, .arg = arg};
  rc = rc ? rc : tu_sim_run(&job, trace, err, errlen);
  app_pingpong_skeleton.release(arg);
  unlink(path);
  return rc;
}

#define C004      "<prop id=\"simrun:c004-delay-bits\" value=\"1.75\"/><prop id=\"simrun:link-bit-rate\" value=\"20e6\"/>"
#define STAGES(v) "<prop id=\"simrun:extra-c004-stages\" value=\"" v "\"/>"

static void expect_1024(const char *root, double extra_us);

/* The one link between the two hosts crosses clusters: a 1024-byte message over it, a crossing first hop, takes
 * T(1024, 1) + 1024 x 0.35 us = 1424.66 + 358.4 us, by hand. */
static void test_sim_cluster_crossing_link_slows_a_message(void)
{
  expect_1024(C004, 358.4);
}

/* The same message with simrun:ack-us = "51.1 8.86" also waits for its acknowledgement: 51.1 + 8.86 = 59.96 us. */
static void test_sim_cluster_ack_lengthens_a_message(void)
{
  expect_1024(C004 "<prop id=\"simrun:ack-us\" value=\"51.1 8.86\"/>", 358.4 + 59.96);
}

/* A 1024-byte message over the crossing link, with root properties `root`, takes T(1024, 1) + extra_us. */
static void expect_1024(const char *root, double extra_us)
{
  met_trace_t *trace = NULL;
  char err[1024] = "";
  CU_ASSERT_EQUAL_FATAL(run_on(root, STAGES("2"), &trace, err, sizeof err), 0);
  const met_interval_t *ivs = met_trace_intervals(trace, 1);
  int found = 0;
  for (size_t i = 0; i < met_trace_count(trace, 1); i++)
    if (ivs[i].category == MET_CAT_COMM && ivs[i].bytes == 1024) {
      double t800 = -81.5 + 1.33 * 1024 + 93.04 + 0.05 * 1024;
      CU_ASSERT(fabs(1e6 * (ivs[i].end - ivs[i].start) - (t800 + extra_us)) < 1e-6);
      found = 1;
    }
  CU_ASSERT(found);
  met_trace_free(trace);
}

/* Rank 1 computes 10 ms (250,000 cycles at 25 Mcycles/s) while rank 0 sends 1024 bytes to rank 2 through rank 1's
 * host, then 8 bytes to rank 1. */
static void relay_program(sim_rank_t *rank, const void *arg)
{
  (void)arg;
  const sim_cycles_t ten_ms = {.cpu = 250000};
  switch (sim_rank_id(rank)) {
  case 0:
    sim_send(rank, 2, 1024);
    sim_send(rank, 1, 8);
    break;
  case 1:
    sim_compute(rank, &ten_ms, SIM_WORK);
    sim_recv(rank, 0, 8);
    break;
  default:
    sim_recv(rank, 0, 1024);
  }
}

/* With simrun:relay-cpu-us = 8.86 on a line a - b - c, the 1024-byte message (9 packets of 120 bytes) costs rank 1,
 * computing on b, 9 x 8.86 = 79.74 us of control; its 8-byte message starts when it gets there, at 10079.74 us. */
static void test_sim_cluster_relay_delays_a_computing_forwarder(void)
{
  char path[512];
  const char *tmp = getenv("TMPDIR");
  snprintf(path, sizeof path, "%s/simrun-relay-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(path);
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fprintf(out,
          "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\"><config><prop id=\"network/model\" value=\"CM02\"/></config>\n"
          "<zone id=\"z\" routing=\"Full\">\n"
          "<prop id=\"simrun:comm-model\" value=\"piecewise\"/><prop id=\"simrun:comm-packet-bytes\" value=\"120\"/>\n"
          "<prop id=\"simrun:comm-small-us\" value=\"51.1 0.27 8.86 0.68\"/>\n"
          "<prop id=\"simrun:comm-large-us\" value=\"-81.5 1.33 93.04 0.05\"/>" C004
          "<prop id=\"simrun:relay-cpu-us\" value=\"8.86\"/>\n"
          "<host id=\"a\" speed=\"25Mf\"/><host id=\"b\" speed=\"25Mf\"/><host id=\"c\" speed=\"25Mf\"/>\n"
          "<link id=\"l1\" bandwidth=\"751879.7Bps\" latency=\"1us\"/>"
          "<link id=\"l2\" bandwidth=\"751879.7Bps\" latency=\"1us\"/>\n"
          "<route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route><route src=\"b\" dst=\"c\"><link_ctn "
          "id=\"l2\"/></route>\n"
          "<route src=\"a\" dst=\"c\"><link_ctn id=\"l1\"/><link_ctn id=\"l2\"/></route>\n</zone></platform>\n");
  CU_ASSERT_EQUAL_FATAL(fclose(out), 0);
  sim_job_t job = {.platform = path, .nranks = 3, .program = relay_program};
  met_trace_t *trace = NULL;
  char err[1024] = "";
  int rc = tu_sim_run(&job, &trace, err, sizeof err);
  unlink(path);
  if (rc != 0)
    fprintf(stderr, "%s\n", err);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  CU_ASSERT_DOUBLE_EQUAL(met_trace_category_time(trace, 1, MET_CAT_CTRL), 79.74e-6, 1e-9);
  const met_interval_t *ivs = met_trace_intervals(trace, 1);
  int found = 0;
  for (size_t i = 0; i < met_trace_count(trace, 1); i++)
    if (ivs[i].category == MET_CAT_COMM && ivs[i].bytes == 8) {
      CU_ASSERT_DOUBLE_EQUAL(ivs[i].start, 10079.74e-6, 1e-9);
      found = 1;
    }
  CU_ASSERT(found);
  met_trace_free(trace);
}

/* Wrong cluster properties: each refused with a message naming the property. */
static void test_sim_cluster_rejects_bad_properties(void)
{
  static const struct {
    const char *root;
    const char *link;
    const char *message;
  } bad[] = {
      {"<prop id=\"simrun:c004-delay-bits\" value=\"1.75\"/>", "", "go together"},
      {"<prop id=\"simrun:c004-delay-bits\" value=\"fast\"/><prop id=\"simrun:link-bit-rate\" value=\"20e6\"/>", "",
       "simrun:c004-delay-bits = \"fast\": expected a positive number"},
      {"<prop id=\"simrun:c004-delay-bits\" value=\"1.75\"/><prop id=\"simrun:link-bit-rate\" value=\"0\"/>", "",
       "simrun:link-bit-rate = \"0\": expected a positive number"},
      {C004, STAGES("two"), "link l: property simrun:extra-c004-stages = \"two\": expected a number >= 0"},
      {C004, STAGES("-1"), "expected a number >= 0"},
      {C004 "<prop id=\"simrun:forward-buffers\" value=\"3\"/>", STAGES("2"),
       "simrun:forward-buffers = \"3\": expected 1 or 2"},
      {C004 "<prop id=\"simrun:forward-buffers\" value=\"one\"/>", STAGES("2"),
       "simrun:forward-buffers = \"one\": expected 1 or 2"},
      {C004 "<prop id=\"simrun:ack-us\" value=\"51.1\"/>", STAGES("2"),
       "simrun:ack-us = \"51.1\": expected two numbers"},
      {C004 "<prop id=\"simrun:ack-us\" value=\"51.1 -1\"/>", STAGES("2"), "expected two numbers >= 0"},
      {C004 "<prop id=\"simrun:relay-cpu-us\" value=\"-1\"/>", STAGES("2"),
       "simrun:relay-cpu-us = \"-1\": expected a number >= 0"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    met_trace_t *trace = NULL;
    char err[1024] = "";
    CU_ASSERT_EQUAL(run_on(bad[i].root, bad[i].link, &trace, err, sizeof err), SIM_EPLATFORM);
    if (!strstr(err, bad[i].message))
      fprintf(stderr, "case %zu: %s\n", i, err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].message));
    met_trace_free(trace);
  }
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_cluster_extra_time_by_hand", test_sim_cluster_extra_time_by_hand},
      {"test_sim_cluster_crossing_link_slows_a_message", test_sim_cluster_crossing_link_slows_a_message},
      {"test_sim_cluster_relay_cpu_by_hand", test_sim_cluster_relay_cpu_by_hand},
      {"test_sim_cluster_relay_delays_a_computing_forwarder", test_sim_cluster_relay_delays_a_computing_forwarder},
      {"test_sim_cluster_ack_lengthens_a_message", test_sim_cluster_ack_lengthens_a_message},
      {"test_sim_cluster_rejects_bad_properties", test_sim_cluster_rejects_bad_properties},
      {NULL, NULL},
  };
  return tu_run("sim_cluster", cases);
}
