/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The engine's count of the physical links between a run's hosts (sim_engine_links_between, by SimGrid's routes on the
 * explicit-routing T800 platform), seen as the link initialisation it costs: T_cni = 1270 us x links (seed 001 eq. 3),
 * against the links of each compact partition counted by hand. And the network model the engine reads
 * (sim_engine_net): on two-host platforms written below, a message's time by hand from the XML and SimGrid 3.32's rule
 * for each model, against SimGrid's simulation, the analytic network and the models' Hockney figures. */
#include "sim_run.h"
#include "tu.h"
#include "tu_run.h"
#include "tu_cli.h"

#include <stdio.h>

#define T800         SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"
#define LINK_INIT_US 1270.0 /* simrun:link-init-us of the T800 platform (seed 001 §3.2) */

/* Rank 0 initialises the links of the partition; the others do nothing. */
static void init_links(sim_rank_t *rank, const void *arg)
{
  if (sim_rank_id(rank) == 0)
    sim_init_links(rank);
}

static met_trace_t *run(int nranks)
{
  sim_job_t job = {.platform = T800, .nranks = nranks, .bcast = SIM_BCAST_ONE_TO_ALL, .program = init_links};
  char err[1024];
  met_trace_t *trace = NULL;
  if (tu_sim_run(&job, &trace, err, sizeof err) != 0)
    fprintf(stderr, "simulation failed: %s\n", err);
  return trace;
}

/* The mapper's partitions of the 16 x 8 mesh (test_sim_map): p = 2 a 2 x 1 column, 4 2 x 2, 8 2 x 4, 16 4 x 4,
 * 32 4 x 8, 64 8 x 8, 128 16 x 8. An R x C mesh has R (C - 1) links along its rows and (R - 1) C along its columns:
 * 0, 1, 4, 2 x 3 + 1 x 4 = 10, 4 x 3 + 3 x 4 = 24, 4 x 7 + 3 x 8 = 52, 8 x 7 + 7 x 8 = 112, 16 x 7 + 15 x 8 = 232
 * links for p = 1 ... 128 (the 1, 4, 10, 24, 52 of docs/t800.md; 0.14 s and 0.29 s at p = 64, 128). Only rank 0 pays
 * them, as control of parallelism, so they are also T_par. */
static void test_sim_engine_link_init_per_partition(void)
{
  const int p[] = {1, 2, 4, 8, 16, 32, 64, 128};
  const int links[] = {0, 1, 4, 10, 24, 52, 112, 232};
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
    met_trace_t *trace = run(p[i]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
    double expected = 1e-6 * LINK_INIT_US * links[i];
    TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_CTRL), expected, 1e-12);
    TU_ASSERT_CLOSE(met_trace_end(trace), expected, 1e-12);
    for (int r = 1; r < p[i]; r++)
      TU_ASSERT_CLOSE(met_trace_category_time(trace, r, MET_CAT_CTRL), 0, 1e-15);
    met_trace_free(trace);
  }
}

/* Two hosts joined by one link of `link` (its XML attributes) with `routes`, under `config` (<config> props, or ""),
 * written into folder/name; the path in path. */
static void write_pair(const char *folder, const char *name, const char *config, const char *link, const char *routes,
                       char *path, size_t len)
{
  snprintf(path, len, "%s/%s", folder, name);
  FILE *out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fprintf(out,
          "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\">\n%s%s%s  <zone id=\"pair\" routing=\"Full\">\n"
          "    <host id=\"a\" speed=\"1Gf\"/>\n    <host id=\"b\" speed=\"1Gf\"/>\n"
          "    <link id=\"l\" %s/>\n%s  </zone>\n</platform>\n",
          *config ? "  <config>\n" : "", config, *config ? "  </config>\n" : "", link, routes);
  fclose(out);
}

static const double sizes[] = {8, 1048576};

/* Rank 0 sends each size to rank 1 and gets it back, one message at a time (synchronous sends). */
static void pingpong(sim_rank_t *rank, const void *arg)
{
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    if (sim_rank_id(rank) == 0) {
      sim_send(rank, 1, sizes[s]);
      sim_recv(rank, 1, sizes[s]);
    } else {
      sim_recv(rank, 0, sizes[s]);
      sim_send(rank, 0, sizes[s]);
    }
}

/* Rank 0's message times on `platform` (SimGrid's network, or the analytic one) each equal to expected[size]. */
static void expect_messages(const char *platform, int analytic, const double *expected)
{
  sim_job_t job = {.platform = platform, .nranks = 2, .program = pingpong, .analytic = analytic};
  char err[1024];
  met_trace_t *trace = NULL;
  int rc = tu_sim_run(&job, &trace, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "%s: %s\n", platform, err);
  CU_ASSERT_FATAL(rc == 0 && trace != NULL);
  const met_interval_t *iv = met_trace_intervals(trace, 0);
  size_t checked = 0;
  for (size_t i = 0; i < met_trace_count(trace, 0); i++)
    if (iv[i].category == MET_CAT_COMM) {
      size_t s = iv[i].bytes == sizes[0] ? 0 : 1;
      if (fabs(iv[i].end - iv[i].start - expected[s]) > 1e-9 * expected[s])
        fprintf(stderr, "%s (%s): %.0f B took %.12g s, by hand %.12g s\n", platform, analytic ? "analytic" : "SimGrid",
                iv[i].bytes, iv[i].end - iv[i].start, expected[s]);
      TU_ASSERT_CLOSE(iv[i].end - iv[i].start, expected[s], 1e-9 * expected[s]);
      checked++;
    }
  CU_ASSERT_EQUAL(checked, 2 * sizeof sizes / sizeof sizes[0]);
  met_trace_free(trace);
}

/* The models' Hockney time for each size between ranks 0 and 1 equal to expected[size], and the network model named. */
static void expect_models(const char *platform, const char *model, const double *expected)
{
  static met_platform_t m;
  char err[1024];
  CU_ASSERT_FATAL(sim_run_describe(platform, 2, &m, err, sizeof err) == 0);
  CU_ASSERT_STRING_EQUAL(m.net.model, model);
  CU_ASSERT_TRUE(m.net.priced);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    met_hockney_t link;
    CU_ASSERT_FATAL(met_platform_hockney(&m, sizes[s], &link) == 0);
    TU_ASSERT_CLOSE(met_hockney(&link, sizes[s]), expected[s], 1e-12 * expected[s]);
  }
}

/* One message time by hand, through SimGrid, the analytic network and the models. */
static void expect_everywhere(const char *platform, const char *model, const double *expected)
{
  expect_messages(platform, 0, expected);
  expect_messages(platform, 1, expected);
  expect_models(platform, model, expected);
}

#define SHARED_LINK "bandwidth=\"125MBps\" latency=\"50us\""
#define ONE_ROUTE   "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"

/* A pair of hosts joined by `link` with `routes` under `config`, in a folder of its own: every message time as
 * expected (expect_everywhere) under network model `model`. */
static void check_pair(const char *config, const char *link, const char *routes, const char *model,
                       const double *expected)
{
  char folder[256];
  char path[512];
  CU_ASSERT_FATAL(make_folder(folder, sizeof folder) == 0);
  write_pair(folder, "pair.xml", config, link, routes, path, sizeof path);
  expect_everywhere(path, model, expected);
  remove_folder(folder);
}

/* One shared link of 50 us and 1.25e8 B/s, no <config>: SimGrid's default LV08, latency x 13.01 and bandwidth x 0.97,
 * and network/crosstraffic on: the message's reverse flow takes 0.05 of the link, so its rate is 0.97 x 1.25e8 /
 * 1.05 B/s. 8 B: 650.5 us + 8 x 1.05 / 1.2125e8 s = 650.5692784 us; 1 MiB: 650.5 us + 9080.4513 us. Split-duplex (a
 * direction each way, the reverse flow on the other): 650.5 + 8 / 1.2125e8 s = 650.5659794 us (issue 46's figure). */
static void test_sim_engine_lv08_by_hand(void)
{
  double shared[] = {650.5e-6 + 8 * 1.05 / 1.2125e8, 650.5e-6 + 1048576 * 1.05 / 1.2125e8};
  TU_ASSERT_CLOSE(shared[0], 650.5692784e-6, 1e-13);
  check_pair("", SHARED_LINK, ONE_ROUTE, "LV08", shared);
  double split[] = {650.5e-6 + 8 / 1.2125e8, 650.5e-6 + 1048576 / 1.2125e8};
  TU_ASSERT_CLOSE(split[0], 650.5659794e-6, 1e-13);
  check_pair("", SHARED_LINK " sharing_policy=\"SPLITDUPLEX\"",
             "    <route src=\"a\" dst=\"b\" symmetrical=\"NO\"><link_ctn id=\"l\" direction=\"UP\"/></route>\n"
             "    <route src=\"b\" dst=\"a\" symmetrical=\"NO\"><link_ctn id=\"l\" direction=\"DOWN\"/></route>\n",
             "LV08", split);
}

/* The same shared link under CM02 (factors 1, cross-traffic still on): 50 us + 8 x 1.05 / 1.25e8 s = 50.0672 us. A
 * link of 10 ms and 1.25e9 B/s under CM02 without cross-traffic: the TCP window bounds the rate at 4194304 B /
 * (2 x 10 ms) = 209715200 B/s, so 1 MiB takes 10 ms + 5 ms. */
static void test_sim_engine_cm02_by_hand(void)
{
  double cm02[] = {50e-6 + 8 * 1.05 / 1.25e8, 50e-6 + 1048576 * 1.05 / 1.25e8};
  TU_ASSERT_CLOSE(cm02[0], 50.0672e-6, 1e-15);
  check_pair("    <prop id=\"network/model\" value=\"CM02\"/>\n", SHARED_LINK, ONE_ROUTE, "CM02", cm02);
  double window[] = {10e-3 + 8 / 209715200.0, 15e-3};
  check_pair("    <prop id=\"network/model\" value=\"CM02\"/>\n    <prop id=\"network/crosstraffic\" value=\"0\"/>\n",
             "bandwidth=\"1.25GBps\" latency=\"10ms\"", ONE_ROUTE, "CM02", window);
}

/* SMPI's factors by size (SimGrid 3.32's smpi/lat-factor and smpi/bw-factor defaults): 8 B is above the bound 0 and
 * takes latency x 2.01467, bandwidth x 0.812084; 1 MiB is above 65472: x 11.6436 and x 0.940694. On the shared link
 * with cross-traffic: 8 B, 100.7335 us + 8 x 1.05 / (0.812084 x 1.25e8) s; 1 MiB, 582.18 us + 1048576 x 1.05 /
 * (0.940694 x 1.25e8) s. */
static void test_sim_engine_smpi_by_hand(void)
{
  double smpi[] = {50e-6 * 2.01467 + 8 * 1.05 / (0.812084 * 1.25e8),
                   50e-6 * 11.6436 + 1048576 * 1.05 / (0.940694 * 1.25e8)};
  check_pair("    <prop id=\"network/model\" value=\"SMPI\"/>\n", SHARED_LINK, ONE_ROUTE, "SMPI", smpi);
}

/* Under SimGrid's IB model the models do not price messages: the description says so and why. */
static void test_sim_engine_ib_is_named_not_priced(void)
{
  char folder[256];
  char path[512];
  static met_platform_t m;
  char err[1024];
  CU_ASSERT_FATAL(make_folder(folder, sizeof folder) == 0);
  write_pair(folder, "ib.xml", "    <prop id=\"network/model\" value=\"IB\"/>\n", SHARED_LINK, ONE_ROUTE, path,
             sizeof path);
  CU_ASSERT_FATAL(sim_run_describe(path, 2, &m, err, sizeof err) == 0);
  CU_ASSERT_STRING_EQUAL(m.net.model, "IB");
  CU_ASSERT_FALSE(m.net.priced);
  CU_ASSERT_PTR_NOT_NULL(strstr(met_platform_unpriced(&m), "IB model"));
  met_hockney_t link;
  CU_ASSERT_EQUAL(met_platform_hockney(&m, 8, &link), -1);
  remove_folder(folder);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_engine_link_init_per_partition", test_sim_engine_link_init_per_partition},
      {"test_sim_engine_lv08_by_hand", test_sim_engine_lv08_by_hand},
      {"test_sim_engine_cm02_by_hand", test_sim_engine_cm02_by_hand},
      {"test_sim_engine_smpi_by_hand", test_sim_engine_smpi_by_hand},
      {"test_sim_engine_ib_is_named_not_priced", test_sim_engine_ib_is_named_not_priced},
      {NULL, NULL}};
  return tu_run("sim_engine", cases);
}
