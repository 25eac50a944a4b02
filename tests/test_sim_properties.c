/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* No platform property is ignored (issue 27 item 3): every row of the table of properties (sim_prop.h) is set in turn
 * to its example, an unusual but legal value, on a small platform of its reader (a rig: the machine model's pair of
 * hosts, the SuperCluster's crossing links, the mapper's meshes and orders, the NCP2's DSM, a native grid), and the
 * run's figures must change; a row whose reader has no rig fails. The link's latency is the one thing that must not
 * matter under the piecewise message model (it times every message itself), 0 included: a message then takes eq. 4's
 * time exactly, by hand (CM02 without cross-traffic, so that SimGrid adds nothing of its own). */
#include "met_trace.h"
#include "sim_dsm.h"
#include "sim_error.h"
#include "sim_prop.h"
#include "sim_replay.h"
#include "sim_run.h"
#include "tu.h"
#include "tu_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The perturbation of the platform being written: property `id` set to `value` (NULL: left out); SIM_PROP_COUNT for
 * the base platform. `used` says whether the rig wrote it. */
static struct {
  sim_prop_id_t id;
  const char *value;
  int used;
} change = {SIM_PROP_COUNT, NULL, 0};

/* Writes property `id` with the rig's base value, or the perturbed one where `here` (the element the rig perturbs). */
static void emit_at(FILE *out, const char *indent, sim_prop_id_t id, const char *base, int here)
{
  const char *value = base;
  if (id == change.id && here) {
    value = change.value;
    change.used = 1;
  }
  if (value)
    fprintf(out, "%s<prop id=\"%s\" value=\"%s\"/>\n", indent, sim_prop_name(id), value);
}

static void emit(FILE *out, const char *indent, sim_prop_id_t id, const char *base)
{
  emit_at(out, indent, id, base, 1);
}

/* A property the rig's base does not have, written in the root zone when it is the perturbation (after the rig's
 * own): a root-zone property, or with `hosts` (a rig whose root zone holds its hosts' properties) a host's too, so that
 * a new row of the table needs nothing here. */
static void emit_added_at(FILE *out, int hosts)
{
  sim_prop_scope_t scope = change.id != SIM_PROP_COUNT ? sim_prop_row(change.id)->scope : SIM_SCOPE_ROOT;
  if (change.id != SIM_PROP_COUNT && !change.used && (scope == SIM_SCOPE_ROOT || (hosts && scope == SIM_SCOPE_HOST)))
    emit(out, "    ", change.id, NULL);
}

static void emit_added(FILE *out)
{
  emit_added_at(out, 0);
}

static void platform_head(FILE *out, const char *routing)
{
  fprintf(out,
          "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\">\n  <config>\n    <prop id=\"network/model\" value=\"CM02\"/>\n"
          "    <prop id=\"network/crosstraffic\" value=\"0\"/>\n  </config>\n  <zone id=\"top\" routing=\"%s\">\n",
          routing);
}

/* The machine model's rig: two hosts, the root zone carrying every property of sim_machine's (inherited by both
 * hosts), round figures, every one in use by props_program. */
typedef struct prop {
  sim_prop_id_t id;
  const char *value;
} prop_t;

static const prop_t base[] = {
    {SIM_PROP_COMM_MODEL, "piecewise"},
    {SIM_PROP_COMM_PACKET_BYTES, "1024"},
    {SIM_PROP_COMM_SMALL_US, "10 0.01 1 0.001"},
    {SIM_PROP_COMM_LARGE_US, "20 0.02 2 0.002"},
    {SIM_PROP_LINK_INIT_US, "5"},
    {SIM_PROP_IO_INPUT_US, "3 0.001"},
    {SIM_PROP_IO_OUTPUT_US, "4 0.002"},
    {SIM_PROP_EAGER_BYTES, "1000"},
    {SIM_PROP_CLOCK_HZ, "1e9"},
    {SIM_PROP_CYCLES_CPU, "1"},
    {SIM_PROP_CYCLES_FLOP, "2"},
    {SIM_PROP_CYCLES_INTMEM, "3"},
    {SIM_PROP_CYCLES_EXTMEM, "10"},
    {SIM_PROP_CACHE_BYTES, "4096"},
    {SIM_PROP_CYCLES_CACHE, "1"},
    {SIM_PROP_MEMORY_BYTES, "1e9"},
    {SIM_PROP_INTERNODE_PACKET_BYTES, "2048"},
    {SIM_PROP_INTERNODE_SMALL_US, "30 0.03 3 0.003"},
    {SIM_PROP_INTERNODE_LARGE_US, "40 0.04 4 0.004"},
};
enum { NPROPS = sizeof base / sizeof base[0] };

static const char *pair_latency = "10us";

/* The pair: on one node (simrun:node 0 each, the perturbation on b's), so that its messages take the comm-* model, or
 * `apart` (no simrun:node: each host a node of its own), so that they take the internode-* one. */
static void write_two(FILE *out, int apart)
{
  platform_head(out, "Full");
  for (int i = 0; i < NPROPS; i++)
    emit(out, "    ", base[i].id, base[i].value);
  emit_added_at(out, 1);
  for (int h = 0; h < 2; h++) {
    fprintf(out, "    <host id=\"%c\" speed=\"1Gf\">\n", 'a' + h);
    if (!apart)
      emit_at(out, "      ", SIM_PROP_NODE, "0", h == 1);
    fprintf(out, "    </host>\n");
  }
  fprintf(out,
          "    <link id=\"l\" bandwidth=\"100MBps\" latency=\"%s\"/>\n"
          "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n  </zone>\n</platform>\n",
          pair_latency);
}

static void write_pair(FILE *out)
{
  write_two(out, 0);
}

static void write_pair_apart(FILE *out)
{
  write_two(out, 1);
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
 * one (5000 B: synchronous, large regime), writes output; rank 1 works longer first, so that eager sends show, and
 * takes 3 page faults in its large receive and pays the set-up of a first collective (both free in the base, which has
 * no simrun:page-fault-us nor simrun:first-call-us). */
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
  sim_page_faults(rank, 3);
  sim_first_call(rank);
}

/* The machine model's figures beyond the run's: what the models and the memory check read (sim_run_describe). */
static int describe(const char *path, double *fig)
{
  met_platform_t m;
  char err[1024];
  int rc = sim_run_describe(path, 2, &m, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "description failed: %s\n", err);
  *fig = rc == 0 ? m.charac.memory_bytes : 0;
  return rc;
}

/* The piecewise model of the pair, for the SuperCluster's rig. */
static void emit_piecewise(FILE *out)
{
  for (int i = 0; i < 4; i++)
    emit(out, "    ", base[i].id, base[i].value);
}

/* Three hosts in a line, a - b - c, the link b - c crossing clusters: the SuperCluster's extra C004 stages. */
static void write_cluster(FILE *out)
{
  platform_head(out, "Full");
  emit_piecewise(out);
  emit(out, "    ", SIM_PROP_C004_DELAY_BITS, "1.75");
  emit(out, "    ", SIM_PROP_LINK_BIT_RATE, "20e6");
  emit(out, "    ", SIM_PROP_FORWARD_BUFFERS, "1");
  emit(out, "    ", SIM_PROP_ACK_US, "0 0");
  emit(out, "    ", SIM_PROP_RELAY_CPU_US, "0");
  emit_added(out);
  fprintf(out,
          "    <host id=\"a\" speed=\"1Gf\"/>\n    <host id=\"b\" speed=\"1Gf\"/>\n    <host id=\"c\" speed=\"1Gf\"/>\n"
          "    <link id=\"l1\" bandwidth=\"100MBps\" latency=\"10us\"/>\n"
          "    <link id=\"l2\" bandwidth=\"100MBps\" latency=\"10us\">\n");
  emit(out, "      ", SIM_PROP_EXTRA_C004_STAGES, "2");
  fprintf(
      out,
      "    </link>\n    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n"
      "    <route src=\"b\" dst=\"c\"><link_ctn id=\"l2\"/></route>\n"
      "    <route src=\"a\" dst=\"c\"><link_ctn id=\"l1\"/><link_ctn id=\"l2\"/></route>\n  </zone>\n</platform>\n");
}

/* The mapper's rigs: four hosts, each pair joined by its own link of a different latency, so that which host a rank
 * takes shows in the time. MESH: a (0,0), b (0,1), c (0,2), d (1,1), the perturbation on c's column and d's row (each
 * then takes b's place of rank 1, the later host in name order winning the cell); ORDER: every host has an order, the
 * perturbation on b's; NAMES: name order, the perturbation added to the root zone. */
enum map_kind { MESH, ORDER, NAMES };

static void write_four(FILE *out, enum map_kind kind)
{
  static const char *const coords[4][2] = {{"0", "0"}, {"0", "1"}, {"0", "2"}, {"1", "1"}};
  static const char *const orders[4] = {"0", "1", "2", "3"};
  platform_head(out, "Full");
  emit_added(out);
  for (int h = 0; h < 4; h++) {
    fprintf(out, "    <host id=\"%c\" speed=\"1Gf\">\n", 'a' + h);
    if (kind == MESH) {
      emit_at(out, "      ", SIM_PROP_ROW, coords[h][0], h == 3);
      emit_at(out, "      ", SIM_PROP_COL, coords[h][1], h == 2);
    }
    if (kind == ORDER)
      emit_at(out, "      ", SIM_PROP_ORDER, orders[h], h == 1);
    fprintf(out, "    </host>\n");
  }
  for (int a = 0, l = 1; a < 4; a++)
    for (int b = a + 1; b < 4; b++, l++)
      fprintf(out, "    <link id=\"l%c%c\" bandwidth=\"100MBps\" latency=\"%dus\"/>\n", 'a' + a, 'a' + b, 10 * l);
  for (int a = 0; a < 4; a++)
    for (int b = a + 1; b < 4; b++)
      fprintf(out, "    <route src=\"%c\" dst=\"%c\"><link_ctn id=\"l%c%c\"/></route>\n", 'a' + a, 'a' + b, 'a' + a,
              'a' + b);
  fprintf(out, "  </zone>\n</platform>\n");
}

static void write_mesh(FILE *out)
{
  write_four(out, MESH);
}

static void write_ordered(FILE *out)
{
  write_four(out, ORDER);
}

static void write_names(FILE *out)
{
  write_four(out, NAMES);
}

/* A native grid of 1 x 3 hosts (sim_grid). */
static void write_grid(FILE *out)
{
  platform_head(out, "None");
  emit_added(out);
  fprintf(out, "    <zone id=\"g\" routing=\"None\">\n");
  emit(out, "      ", SIM_PROP_GRID, "mesh 1x3");
  emit(out, "      ", SIM_PROP_GRID_SPEED, "1Gf");
  emit(out, "      ", SIM_PROP_GRID_BANDWIDTH, "100MBps");
  emit(out, "      ", SIM_PROP_GRID_LATENCY, "10us");
  fprintf(out, "    </zone>\n  </zone>\n</platform>\n");
}

/* The shipped NCP2 platform with the perturbation in place of its first value of the property. */
static void write_ncp2(FILE *out)
{
  FILE *in = fopen(SIMRUN_SOURCE_DIR "/platforms/ncp2-myrinet-8.xml", "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(in);
  static char text[1 << 16];
  size_t n = fread(text, 1, sizeof text - 1, in);
  fclose(in);
  text[n] = '\0';
  char key[128];
  snprintf(key, sizeof key, "id=\"%s\" value=\"", change.id == SIM_PROP_COUNT ? "-" : sim_prop_name(change.id));
  char *at = strstr(text, key);
  if (!at || !change.value) {
    fputs(text, out);
    return;
  }
  change.used = 1;
  at += strlen(key);
  fprintf(out, "%.*s%s%s", (int)(at - text), text, change.value, strchr(at, '"'));
}

/* 100 operations of each class and 5000 bytes from rank 0 to every other rank (above the piecewise model's packet, so
 * that the SuperCluster's pipeline paces it). */
static const met_ops_t some_work = {
    .n = {[MET_CLASS_CPU] = 100, [MET_CLASS_FLOP] = 100, [MET_CLASS_INTMEM] = 100, [MET_CLASS_EXTMEM] = 100}};

static void send_all(sim_rank_t *rank, const void *arg)
{
  (void)arg;
  int me = sim_rank_id(rank);
  if (me != 0) {
    sim_recv(rank, 0, 5000);
    return;
  }
  sim_work(rank, &some_work, 1000, SIM_WORK);
  for (int r = 1; r < sim_rank_count(rank); r++)
    sim_send(rank, r, 5000);
}

/* Rank 0 sends to rank 2 through rank 1's host while rank 1 computes (the PARIX router's stolen cycles), then to 1. */
static void relay_busy(sim_rank_t *rank, const void *arg)
{
  (void)arg;
  int me = sim_rank_id(rank);
  if (me != 0) {
    if (me == 1)
      sim_work(rank, &some_work, 100000, SIM_WORK);
    sim_recv(rank, 0, 5000);
    return;
  }
  sim_work(rank, &some_work, 1000, SIM_WORK);
  sim_send(rank, 2, 5000);
  sim_send(rank, 1, 5000);
}

/* DSM: node 1 writes part of a page homed at node 0, node 0 reads it back after a barrier (a fault, a diff of words
 * and write notices), then the other way round. */
static void dsm_body(sim_dsm_node_t *node, const void *arg)
{
  (void)arg;
  int me = sim_dsm_node_id(node);
  sim_dsm_work(node, &some_work, 10);
  if (me == 1)
    sim_dsm_write(node, 0, 100);
  sim_dsm_barrier(node);
  if (me == 0) {
    sim_dsm_read(node, 0, 100);
    sim_dsm_write(node, 8192, 3000);
  }
  sim_dsm_barrier(node);
  if (me == 1)
    sim_dsm_read(node, 8192, 3000);
  sim_dsm_barrier(node);
}

static sim_dsm_program_t dsm_program; /* the run's, inherited by its child process */

static void dsm_run(sim_rank_t *rank, const void *arg)
{
  (void)arg;
  sim_dsm_run(rank, &dsm_program);
}

/* A rig: a platform of a reader's properties (written with the perturbation in `change`), the program it runs and on
 * how many ranks; a DSM rig runs with the NCP2's controllers and without (TreadMarks in software). */
typedef struct rig {
  const char *reader; /* as the table's rows name it */
  void (*write)(FILE *out);
  int nranks;
  sim_program_fn program;
  int dsm;
} rig_t;

static const rig_t rigs[] = {
    {"sim_machine", write_pair, 2, props_program, 0}, {"sim_machine", write_pair_apart, 2, props_program, 0},
    {"sim_cluster", write_cluster, 3, relay_busy, 0}, {"sim_map", write_mesh, 2, send_all, 0},
    {"sim_map", write_ordered, 2, send_all, 0},       {"sim_map", write_names, 3, send_all, 0},
    {"sim_grid", write_grid, 3, send_all, 0},         {"sim_dsm", write_ncp2, 2, dsm_run, 1},
};

/* The run's end and each rank's time in each category (at most 4 ranks, runs with and without controllers), and the
 * machine's description, in one vector. */
enum { NCATS = MET_CAT_COUNT, NFIG = 2 * (1 + 4 * NCATS) + 1 };

static int analytic_network; /* sim_job_t's analytic for the runs below (0: SimGrid's network) */

static int run_once(const rig_t *rig, const char *path, int controller, double *fig)
{
  dsm_program = (sim_dsm_program_t){.shared_bytes = 1 << 16, .controller = controller, .body = dsm_body};
  sim_job_t job = {.platform = path, .nranks = rig->nranks, .program = rig->program, .analytic = analytic_network};
  met_trace_t *trace = NULL;
  char err[1024];
  int rc = tu_sim_run(&job, &trace, err, sizeof err);
  if (rc != 0) {
    fprintf(stderr, "simulation failed: %s\n", err);
    return rc;
  }
  fig[0] = met_trace_end(trace);
  for (int r = 0; r < rig->nranks; r++)
    for (int c = 0; c < NCATS; c++)
      fig[1 + r * NCATS + c] = met_trace_category_time(trace, r, (met_category_t)c);
  met_trace_free(trace);
  return 0;
}

/* Writes rig's platform to path (with the perturbation in `change`) and runs it into fig. */
static int run(const rig_t *rig, const char *path, double fig[NFIG])
{
  memset(fig, 0, NFIG * sizeof *fig);
  FILE *out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  change.used = 0;
  rig->write(out);
  fclose(out);
  int rc = run_once(rig, path, 1, fig);
  if (rc == 0 && rig->dsm)
    rc = run_once(rig, path, 0, fig + 1 + 4 * NCATS);
  return rc == 0 && rig->write == write_pair ? describe(path, &fig[NFIG - 1]) : rc;
}

static int same(const double a[NFIG], const double b[NFIG])
{
  for (int i = 0; i < NFIG; i++)
    if (fabs(a[i] - b[i]) > 1e-12)
      return 0;
  return 1;
}

/* Whether property `id` set to its example changes a run of some rig of its reader (each rig's base run in ref). */
static int changes_a_run(sim_prop_id_t id, const char *path, double ref[][NFIG])
{
  double fig[NFIG];
  for (size_t r = 0; r < sizeof rigs / sizeof rigs[0]; r++) {
    if (!strstr(sim_prop_row(id)->reader, rigs[r].reader))
      continue;
    change.id = id;
    change.value = sim_prop_row(id)->example;
    int rc = run(&rigs[r], path, fig);
    int used = change.used;
    change.id = SIM_PROP_COUNT;
    CU_ASSERT_EQUAL(rc, 0);
    if (used && rc == 0 && !same(fig, ref[r]))
      return 1;
  }
  return 0;
}

/* Every row of the table, set to its example, changes the figures of a run of its reader. */
static void test_sim_properties_every_property_changes_the_result(void)
{
  char path[] = "props-XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  double ref[sizeof rigs / sizeof rigs[0]][NFIG];
  for (size_t r = 0; r < sizeof rigs / sizeof rigs[0]; r++)
    CU_ASSERT_EQUAL_FATAL(run(&rigs[r], path, ref[r]), 0);
  for (int i = 0; i < SIM_PROP_COUNT; i++) {
    int changed = changes_a_run((sim_prop_id_t)i, path, ref);
    if (!changed)
      fprintf(stderr, "%s = %s changed no run of a rig of %s: add a rig or make one use it\n",
              sim_prop_name((sim_prop_id_t)i), sim_prop_row((sim_prop_id_t)i)->example,
              sim_prop_row((sim_prop_id_t)i)->reader);
    CU_ASSERT_TRUE(changed);
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
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  double ref[NFIG];
  double fig[NFIG];
  CU_ASSERT_EQUAL_FATAL(run(&rigs[0], path, ref), 0);
  TU_ASSERT_CLOSE(ref[1 + NCATS + MET_CAT_COMM], 132e-6 + 12.1e-6, 1e-12);
  pair_latency = "1ns";
  CU_ASSERT_EQUAL_FATAL(run(&rigs[0], path, fig), 0);
  CU_ASSERT_TRUE(same(fig, ref));
  pair_latency = "0";
  CU_ASSERT_EQUAL_FATAL(run(&rigs[0], path, fig), 0);
  CU_ASSERT_TRUE(same(fig, ref));
  pair_latency = "10us";
  unlink(path);
}

/* Each message model on its route, by hand, on SimGrid's network and on the analytic one: the pair on one node
 * (simrun:node 0 each) takes comm-*, 132 + 12.1 us of rank 1's communication as above; the pair apart (no
 * simrun:node) takes internode-*: the 5000-byte message above its p_s of 2048 bytes, 40 + 0.04 x 5000 + 4 + 0.004 x
 * 5000 = 264 us, the 100-byte one 30 + 3 + 3 + 0.3 = 36.3 us. */
static void test_sim_properties_node_models_on_their_routes(void)
{
  char path[] = "props-XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  double fig[NFIG];
  CU_ASSERT_FATAL(rigs[1].write == write_pair_apart);
  for (analytic_network = 0; analytic_network <= SIM_ANALYTIC; analytic_network += SIM_ANALYTIC) {
    CU_ASSERT_EQUAL_FATAL(run(&rigs[0], path, fig), 0);
    TU_ASSERT_CLOSE(fig[1 + NCATS + MET_CAT_COMM], 132e-6 + 12.1e-6, 1e-12);
    CU_ASSERT_EQUAL_FATAL(run(&rigs[1], path, fig), 0);
    TU_ASSERT_CLOSE(fig[1 + NCATS + MET_CAT_COMM], 264e-6 + 36.3e-6, 1e-12);
  }
  analytic_network = 0;
  unlink(path);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"every_property_changes_the_result", test_sim_properties_every_property_changes_the_result},
      {"zero_latency_keeps_the_message_model", test_sim_properties_zero_latency_keeps_the_message_model},
      {"node_models_on_their_routes", test_sim_properties_node_models_on_their_routes},
      {NULL, NULL},
  };
  return tu_run("sim_properties", cases);
}
