/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* No platform property is ignored (issue 27 item 3): a two-host platform carries every machine property of
 * docs/machines.md; each is set in turn to an unusual but legal value, and the run's figures must change. The link's
 * latency is the one thing that must not matter under the piecewise message model (it times every message itself),
 * 0 included: a message then takes eq. 4's time exactly, by hand (CM02 without cross-traffic, so that SimGrid adds
 * nothing of its own). The other properties (DSM, C004, grid, mesh coordinates, memory) have their own tests. */
#include "met_trace.h"
#include "sim_error.h"
#include "sim_replay.h"
#include "sim_run.h"
#include "tu.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The base platform's properties (root zone, inherited by both hosts): round figures, every one in use below. */
typedef struct prop {
  const char *name;
  const char *value;
} prop_t;

static const prop_t base[] = {
    {"simrun:comm-model", "piecewise"},
    {"simrun:comm-packet-bytes", "1024"},
    {"simrun:comm-small-us", "10 0.01 1 0.001"},
    {"simrun:comm-large-us", "20 0.02 2 0.002"},
    {"simrun:link-init-us", "5"},
    {"simrun:io-input-us", "3 0.001"},
    {"simrun:io-output-us", "4 0.002"},
    {"simrun:eager-bytes", "1000"},
    {"simrun:clock-hz", "1e9"},
    {"simrun:cycles-cpu", "1"},
    {"simrun:cycles-flop", "2"},
    {"simrun:cycles-intmem", "3"},
    {"simrun:cycles-extmem", "10"},
    {"simrun:cache-bytes", "4096"},
    {"simrun:cycles-cache", "1"},
};
enum { NPROPS = sizeof base / sizeof base[0] };

/* Writes the platform with property `changed` (an index into base, or -1) set to `value` (NULL: left out) and the
 * link's latency. */
static void write_platform(const char *path, int changed, const char *value, const char *latency)
{
  FILE *out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fprintf(out,
          "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\">\n  <config>\n    <prop id=\"network/model\" value=\"CM02\"/>\n"
          "    <prop id=\"network/crosstraffic\" value=\"0\"/>\n  </config>\n  <zone id=\"pair\" routing=\"Full\">\n");
  for (int i = 0; i < NPROPS; i++)
    if (i != changed || value)
      fprintf(out, "    <prop id=\"%s\" value=\"%s\"/>\n", base[i].name, i == changed ? value : base[i].value);
  fprintf(out,
          "    <host id=\"a\" speed=\"1Gf\"/>\n    <host id=\"b\" speed=\"1Gf\"/>\n"
          "    <link id=\"l\" bandwidth=\"100MBps\" latency=\"%s\"/>\n"
          "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n  </zone>\n</platform>\n",
          latency);
  fclose(out);
}

/* 100 CPU operations, 50 flops, 20 internal and 10 external accesses per item, with a working set that fits the base
 * cache (1000 B) and one that does not (8192 B), so that both external costs are in use. */
static const met_ops_t in_cache = {
    .n = {[MET_CLASS_CPU] = 100, [MET_CLASS_FLOP] = 50, [MET_CLASS_INTMEM] = 20, [MET_CLASS_EXTMEM] = 10},
    .working_set = 1000};
static const met_ops_t off_cache = {
    .n = {[MET_CLASS_CPU] = 100, [MET_CLASS_FLOP] = 50, [MET_CLASS_INTMEM] = 20, [MET_CLASS_EXTMEM] = 10},
    .working_set = 8192};

/* Rank 0 initialises the links, reads input, works, sends a small message (100 B: eager, small regime) and a large
 * one (5000 B: synchronous, large regime), writes output; rank 1 works longer first, so that eager sends show. */
static void props_program(sim_rank_t *rank, const void *arg)
{
  (void)arg;
  if (sim_rank_id(rank) == 0) {
    sim_init_links(rank);
    sim_io(rank, SIM_INPUT, 1000);
    sim_work(rank, &in_cache, 10, SIM_WORK);
    sim_work(rank, &off_cache, 10, SIM_WORK);
    sim_send(rank, 1, 100);
    sim_send(rank, 1, 5000);
    sim_io(rank, SIM_OUTPUT, 100);
    return;
  }
  sim_work(rank, &off_cache, 100, SIM_WORK);
  sim_recv(rank, 0, 100);
  sim_recv(rank, 0, 5000);
}

/* The run's figures: its end and each rank's time in each category, in one vector. */
enum { NCATS = 8, NFIG = 1 + 2 * NCATS };
static int run(const char *path, double fig[NFIG])
{
  sim_job_t job = {.platform = path, .nranks = 2, .program = props_program};
  met_trace_t *trace = NULL;
  char err[1024];
  int rc = sim_run_isolated(&job, &trace, err, sizeof err);
  if (rc != 0) {
    fprintf(stderr, "simulation failed: %s\n", err);
    return rc;
  }
  fig[0] = met_trace_end(trace);
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < NCATS; c++)
      fig[1 + r * NCATS + c] = c < MET_CAT_COUNT ? met_trace_category_time(trace, r, (met_category_t)c) : 0;
  met_trace_free(trace);
  return 0;
}

static int same(const double a[NFIG], const double b[NFIG])
{
  for (int i = 0; i < NFIG; i++)
    if (fabs(a[i] - b[i]) > 1e-12)
      return 0;
  return 1;
}

/* The unusual but legal values (NULL: the property left out): each one changes what the program above costs. */
static const prop_t unusual[] = {
    {"simrun:comm-packet-bytes", "64"},     /* the 100 B message moves to the large regime */
    {"simrun:comm-small-us", "0 0.5 0 0"},  /* no start-up, a slow byte */
    {"simrun:comm-large-us", "1000 0 0 0"}, /* a large message costs its start-up only */
    {"simrun:link-init-us", "1e4"},         /* eq. 3: a slow link set-up */
    {"simrun:io-input-us", "0 1"},          /* eq. 5: no start-up, 1 us a byte */
    {"simrun:io-output-us", "1e4 0"},       /* eq. 6: start-up only */
    {"simrun:eager-bytes", "0"},            /* every send synchronous */
    {"simrun:clock-hz", "3.5e6"},           /* a slow clock */
    {"simrun:cycles-cpu", "0"},             /* free integer work */
    {"simrun:cycles-flop", "1000"},         /* a software floating point */
    {"simrun:cycles-intmem", "0.5"},        /* a dual-ported workspace */
    {"simrun:cycles-extmem", "0"},          /* free misses */
    {"simrun:cache-bytes", "1e6"},          /* both working sets in cache */
    {"simrun:cycles-cache", "100"},         /* a cache hit slower than a miss */
    {"simrun:comm-model", NULL},            /* the only other choice: removed, SimGrid's own link model */
};

static int index_of(const char *name)
{
  for (int i = 0; i < NPROPS; i++)
    if (strcmp(base[i].name, name) == 0)
      return i;
  return -1;
}

/* Makes the temporary platform file `path` (a mkstemp template) the base platform and runs it into ref. */
static void run_base(char *path, double ref[NFIG])
{
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  write_platform(path, -1, NULL, "10us");
  CU_ASSERT_EQUAL_FATAL(run(path, ref), 0);
}

/* Every property of the base platform has an unusual value in the table above, and each one changes the figures. */
static void test_sim_properties_every_property_changes_the_result(void)
{
  char path[] = "props-XXXXXX";
  double ref[NFIG];
  double fig[NFIG];
  run_base(path, ref);
  for (size_t i = 0; i < sizeof unusual / sizeof unusual[0]; i++) {
    int at = index_of(unusual[i].name);
    CU_ASSERT_FATAL(at >= 0);
    write_platform(path, at, unusual[i].value, "10us");
    CU_ASSERT_EQUAL_FATAL(run(path, fig), 0);
    if (same(fig, ref))
      fprintf(stderr, "%s = %s did not change the result\n", unusual[i].name, unusual[i].value);
    CU_ASSERT_FALSE(same(fig, ref));
  }
  /* every base property is in the table */
  for (int i = 0; i < NPROPS; i++) {
    int listed = 0;
    for (size_t j = 0; j < sizeof unusual / sizeof unusual[0]; j++)
      listed |= strcmp(unusual[j].name, base[i].name) == 0;
    CU_ASSERT_TRUE(listed);
  }
  unlink(path);
}

/* Under the piecewise model the link's latency does not matter, 0 included (SimGrid scales a route's latency to the
 * model's time, and a link without latency is given a nominal one to scale): 10 us, 1 ns and 0 give the same run.
 * And the lone 5000-byte message takes eq. 4's large regime over 1 hop: 20 + 0.02 x 5000 + 2 + 0.002 x 5000 = 132 us
 * of rank 1's communication, plus the 100-byte one's small regime 10 + 1 + 1 + 0.1 = 12.1 us. */
static void test_sim_properties_zero_latency_keeps_the_message_model(void)
{
  char path[] = "props-XXXXXX";
  double ref[NFIG];
  double fig[NFIG];
  run_base(path, ref);
  TU_ASSERT_CLOSE(ref[1 + NCATS + MET_CAT_COMM], 132e-6 + 12.1e-6, 1e-12);
  write_platform(path, -1, NULL, "1ns");
  CU_ASSERT_EQUAL_FATAL(run(path, fig), 0);
  CU_ASSERT_TRUE(same(fig, ref));
  write_platform(path, -1, NULL, "0");
  CU_ASSERT_EQUAL_FATAL(run(path, fig), 0);
  CU_ASSERT_TRUE(same(fig, ref));
  unlink(path);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"every_property_changes_the_result", test_sim_properties_every_property_changes_the_result},
      {"zero_latency_keeps_the_message_model", test_sim_properties_zero_latency_keeps_the_message_model},
      {NULL, NULL},
  };
  return tu_run("sim_properties", cases);
}
