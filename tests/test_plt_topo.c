/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Topology generators: every generated platform loads in SimGrid and routes every pair of hosts over the hop count of
 * its graph, worked out here by hand (Manhattan, wrap-around, Hamming, tree distances); the T800 mesh generated from
 * the t800 preset gives the same message times as platforms/t800-mesh-128.xml; a native zone is described for the
 * models as its explicit twin is; bad sizes and values are refused. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include "app_gj.h"
#include "app_pingpong.h"
#include "sim_error.h"
#include "sim_run.h"
#include "plt_topo.h"
#include "tu.h"
#include "tu_routes.h"
#include "tu_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T800 SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"

/* Writes `topo` to a new temporary file whose path goes to `path`; 0 or -1. */
static int generate(plt_topo_t *topo, char *path, size_t len)
{
  const char *tmp = getenv("TMPDIR");
  snprintf(path, len, "%s/simrun-topo-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(path);
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  char err[256];
  int rc = out && plt_topo_resolve(topo, err, sizeof err) == 0 && plt_topo_write(topo, out, err, sizeof err) == 0;
  if (out)
    fclose(out);
  return rc ? 0 : -1;
}

/* Distance between a and b on a line of n, or a ring when `wraps`. */
static int line_distance(int a, int b, int n, int wraps)
{
  int d = abs(a - b);
  return wraps && n - d < d ? n - d : d;
}

/* Links between hosts a and b of a dragonfly G:C:R:N, by hand from SimGrid's routing (DragonflyZone.cpp,
 * get_local_route): up to its router; to another group through blade g_b of its chassis (green), chassis 0 of its group
 * (black) and group g_b's only link (blue), landing on blade g_a of chassis 0 there; then to the target's blade (green)
 * and chassis (black); down to the host. SimGrid takes the router a green hop reaches within the target's group for
 * the one of chassis 0 (`currentRouter = &routers_[group * C * R + blade]`), so a black hop follows whenever the
 * target is not in chassis 0, and none when it is: docs/topologies.md. */
static int dragonfly_hops(const plt_topo_t *topo, int a, int b)
{
  int n = topo->size[3], r = topo->size[2], c = topo->size[1];
  int ga = a / (n * r * c), ca = a / (n * r) % c, ba = a / n % r;
  int gb = b / (n * r * c), cb = b / (n * r) % c, bb = b / n % r;
  int hops = 2;
  if (ga != gb) {
    hops += (ba != gb) + (ca != 0) + 1;
    ca = 0;
    ba = ga;
  }
  if (ba != bb) {
    hops++;
    ca = 0;
  }
  return hops + (ca != cb);
}

/* The links between hosts a and b of `topo`, by hand from its definition. */
static int expected_hops(const plt_topo_t *topo, int a, int b)
{
  int cols = topo->size[1];
  int hops = 0;
  int wraps = topo->kind == PLT_TOPO_TORUS;
  switch (topo->kind) {
  case PLT_TOPO_MESH:
  case PLT_TOPO_TORUS:
    return line_distance(a / cols, b / cols, topo->size[0], wraps) + line_distance(a % cols, b % cols, cols, wraps);
  case PLT_TOPO_HYPERCUBE:
    for (int x = a ^ b; x; x >>= 1)
      hops += x & 1;
    return hops;
  case PLT_TOPO_SWITCH:
    return a == b ? 0 : 2;
  case PLT_TOPO_DRAGONFLY:
    return a == b ? 0 : dragonfly_hops(topo, a, b);
  default: /* up to the lowest common switch and down again */
    for (; a != b; a /= topo->size[0], b /= topo->size[0])
      hops += 2;
    return hops;
  }
}

/* Generates `topo`, loads it in SimGrid and compares every route with expected_hops. */
static void check_routes(plt_topo_t topo, size_t hosts)
{
  char path[512];
  CU_ASSERT_FATAL(generate(&topo, path, sizeof path) == 0);
  int *hops = NULL;
  size_t count = 0;
  char err[1024];
  int rc = tu_routes(path, &hops, &count, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "%s %dx%d: %s\n", plt_topo_names[topo.kind], topo.size[0], topo.size[1], err);
  CU_ASSERT_FATAL(rc == 0);
  CU_ASSERT_EQUAL(count, hosts);
  int wrong = 0;
  for (size_t a = 0; a < count; a++)
    for (size_t b = 0; b < count; b++)
      wrong += hops[a * count + b] != expected_hops(&topo, (int)a, (int)b);
  if (wrong)
    fprintf(stderr, "%s %dx%d: %d routes of the wrong length\n", plt_topo_names[topo.kind], topo.size[0], topo.size[1],
            wrong);
  CU_ASSERT_EQUAL(wrong, 0);
  free(hops);
  unlink(path);
}

/* Each topology, with each preset, including degenerate shapes (a line, a 2-wide torus without wrap links). */
static void test_plt_topo_routes_have_expected_hops(void)
{
  const plt_topo_preset_t *t800 = plt_topo_preset("t800");
  const plt_topo_preset_t *icluster = plt_topo_preset("icluster");
  const plt_topo_preset_t *ncp2 = plt_topo_preset("ncp2");
  CU_ASSERT_FATAL(t800 && icluster && ncp2);
  check_routes((plt_topo_t){.kind = PLT_TOPO_MESH, .size = {3, 5}, .preset = t800}, 15);
  check_routes((plt_topo_t){.kind = PLT_TOPO_MESH, .size = {1, 6}, .preset = t800}, 6);
  check_routes((plt_topo_t){.kind = PLT_TOPO_TORUS, .size = {4, 5}, .preset = t800}, 20);
  check_routes((plt_topo_t){.kind = PLT_TOPO_TORUS, .size = {2, 3}, .preset = t800}, 6);
  check_routes((plt_topo_t){.kind = PLT_TOPO_HYPERCUBE, .size = {4, 1}, .preset = ncp2}, 16);
  check_routes((plt_topo_t){.kind = PLT_TOPO_SWITCH, .size = {7, 1}, .preset = icluster}, 7);
  check_routes((plt_topo_t){.kind = PLT_TOPO_FATTREE, .size = {2, 3}, .preset = t800}, 8);
  check_routes((plt_topo_t){.kind = PLT_TOPO_FATTREE, .size = {3, 2}, .preset = icluster}, 9);
  check_routes((plt_topo_t){.kind = PLT_TOPO_DRAGONFLY, .size = {2, 2, 2, 2}, .preset = icluster}, 16);
  check_routes((plt_topo_t){.kind = PLT_TOPO_DRAGONFLY, .size = {3, 2, 3, 1}, .preset = ncp2}, 18);
  check_routes((plt_topo_t){.kind = PLT_TOPO_DRAGONFLY, .size = {1, 3, 2, 2}, .preset = ncp2}, 12);
}

/* The native grids (sim_grid.h) route every pair over the same hop count, wrap-arounds and degenerate shapes too. */
static void test_plt_topo_native_routes_have_expected_hops(void)
{
  const plt_topo_preset_t *t800 = plt_topo_preset("t800-flat");
  const plt_topo_preset_t *ncp2 = plt_topo_preset("ncp2");
  check_routes((plt_topo_t){.kind = PLT_TOPO_MESH, .size = {3, 5}, .preset = t800, .native = 1}, 15);
  check_routes((plt_topo_t){.kind = PLT_TOPO_MESH, .size = {1, 6}, .preset = t800, .native = 1}, 6);
  check_routes((plt_topo_t){.kind = PLT_TOPO_MESH, .size = {7, 1}, .preset = ncp2, .native = 1}, 7);
  check_routes((plt_topo_t){.kind = PLT_TOPO_TORUS, .size = {4, 5}, .preset = t800, .native = 1}, 20);
  check_routes((plt_topo_t){.kind = PLT_TOPO_TORUS, .size = {6, 3}, .preset = ncp2, .native = 1}, 18);
  check_routes((plt_topo_t){.kind = PLT_TOPO_TORUS, .size = {2, 3}, .preset = t800, .native = 1}, 6);
  check_routes((plt_topo_t){.kind = PLT_TOPO_FATTREE, .size = {2, 3}, .preset = t800, .native = 1}, 8);
  check_routes((plt_topo_t){.kind = PLT_TOPO_FATTREE, .size = {3, 2}, .preset = ncp2, .native = 1}, 9);
  check_routes((plt_topo_t){.kind = PLT_TOPO_FATTREE, .size = {5, 1}, .preset = ncp2, .native = 1}, 5);
}

/* Parameters given instead of a preset: on a switch, one 1e6-byte message crosses two 50 us links at 125 MB/s:
 * 2 x 50 us + 1e6 / 125e6 s = 8.1 ms (CM02: latency plus size over bandwidth). */
static void one_message(sim_rank_t *rank, const void *arg)
{
  if (sim_rank_id(rank) == 0)
    sim_send(rank, 1, 1e6);
  else
    sim_recv(rank, 0, 1e6);
}

static void test_plt_topo_given_parameters(void)
{
  plt_topo_t topo = {
      .kind = PLT_TOPO_SWITCH, .size = {4, 1}, .speed = "1Gf", .bandwidth = "125MBps", .latency = "50us"};
  char path[512];
  CU_ASSERT_FATAL(generate(&topo, path, sizeof path) == 0);
  sim_job_t job = {.platform = path, .nranks = 2, .program = one_message};
  met_trace_t *trace = NULL;
  char err[1024];
  CU_ASSERT_FATAL(tu_sim_run(&job, &trace, err, sizeof err) == 0);
  TU_ASSERT_CLOSE(met_trace_end(trace), 100e-6 + 1e6 / 125e6, 1e-9);
  met_trace_free(trace);
  unlink(path);
}

/* Runs a skeleton on a platform; the trace, or NULL. */
static met_trace_t *run_skeleton(const app_skeleton_t *skeleton, const char *platform, int p, const char **names,
                                 const char **values, size_t count, sim_bcast_alg_t bcast)
{
  app_point_t at = {.count = count, .names = names, .values = values};
  void *arg = NULL;
  char err[1024];
  const char *blame = NULL;
  if (skeleton->prepare(&at, p, &arg, err, sizeof err, &blame) != 0)
    return NULL;
  sim_job_t job = {.platform = platform, .nranks = p, .bcast = bcast, .program = skeleton->program, .arg = arg};
  met_trace_t *trace = NULL;
  if (tu_sim_run(&job, &trace, err, sizeof err) != 0)
    fprintf(stderr, "simulation on %s failed: %s\n", platform, err);
  skeleton->release(arg);
  return trace;
}

/* Whether two traces hold the same intervals, their times within `tol` seconds. */
static int same_traces(const met_trace_t *a, const met_trace_t *b, double tol)
{
  if (!a || !b || met_trace_nranks(a) != met_trace_nranks(b))
    return 0;
  for (int rank = 0; rank < met_trace_nranks(a); rank++) {
    size_t n = met_trace_count(a, rank);
    if (n != met_trace_count(b, rank))
      return 0;
    for (size_t i = 0; i < n; i++) {
      const met_interval_t *x = &met_trace_intervals(a, rank)[i];
      const met_interval_t *y = &met_trace_intervals(b, rank)[i];
      if (fabs(x->start - y->start) > tol || fabs(x->end - y->end) > tol || x->category != y->category ||
          x->hops != y->hops)
        return 0;
    }
  }
  return 1;
}

/* mesh 16x8 with the t800 preset against the hand-written platform: the ping-pong of every size from 8 bytes to 8 KiB
 * between rank 0 and all 127 others, and Gauss-Jordan N = 64 on 32 ranks with one-to-all (contention included),
 * give the very same times. */
static void test_plt_topo_t800_mesh_matches_platform_file(void)
{
  plt_topo_t topo = {.kind = PLT_TOPO_MESH, .size = {16, 8}, .preset = plt_topo_preset("t800")};
  char path[512];
  CU_ASSERT_FATAL(generate(&topo, path, sizeof path) == 0);
  const char *pp_names[] = {"min-bytes", "max-bytes"};
  const char *pp_values[] = {"8", "8192"};
  met_trace_t *a = run_skeleton(&app_pingpong_skeleton, T800, 128, pp_names, pp_values, 2, SIM_BCAST_ONE_TO_ALL);
  met_trace_t *b = run_skeleton(&app_pingpong_skeleton, path, 128, pp_names, pp_values, 2, SIM_BCAST_ONE_TO_ALL);
  CU_ASSERT(a && met_trace_count(a, 0) > 1000 && same_traces(a, b, 0));
  met_trace_free(a);
  met_trace_free(b);
  const char *gj_names[] = {"n", "broadcast"};
  const char *gj_values[] = {"64", "one-to-all"};
  a = run_skeleton(&app_gj_skeleton, T800, 32, gj_names, gj_values, 2, SIM_BCAST_ONE_TO_ALL);
  b = run_skeleton(&app_gj_skeleton, path, 32, gj_names, gj_values, 2, SIM_BCAST_ONE_TO_ALL);
  CU_ASSERT(a && same_traces(a, b, 0));
  met_trace_free(a);
  met_trace_free(b);
  unlink(path);
}

/* Gauss-Jordan N = 256 (the gj256 scenario's size) with both broadcasts on `topo` written native and explicit, at
 * each of the `count` rank counts: the very same traces, contention included, when every route has the same links.
 * Under a sanitizer, where actors are threads and 128 ranks take 20 s, only the first (smallest) count: the same
 * native routing code, which the normal build checks at every count. */
static void check_native_matches_explicit(plt_topo_t topo, const int *ranks, size_t count)
{
  if (SANITIZED)
    count = 1;
  char explicit_path[512];
  char native_path[512];
  topo.native = 0;
  CU_ASSERT_FATAL(generate(&topo, explicit_path, sizeof explicit_path) == 0);
  topo.native = 1;
  CU_ASSERT_FATAL(generate(&topo, native_path, sizeof native_path) == 0);
  static const char *const broadcasts[] = {"one-to-all", "neighbour"};
  for (int b = 0; b < 2; b++)
    for (size_t r = 0; r < count; r++) {
      const char *names[] = {"n", "broadcast"};
      const char *values[] = {"256", broadcasts[b]};
      sim_bcast_alg_t alg = b ? SIM_BCAST_NEIGHBOUR : SIM_BCAST_ONE_TO_ALL;
      met_trace_t *a = run_skeleton(&app_gj_skeleton, explicit_path, ranks[r], names, values, 2, alg);
      met_trace_t *n = run_skeleton(&app_gj_skeleton, native_path, ranks[r], names, values, 2, alg);
      CU_ASSERT(a && met_trace_end(a) > 0.1 && same_traces(a, n, 0) && met_trace_end(a) == met_trace_end(n));
      met_trace_free(a);
      met_trace_free(n);
    }
  unlink(explicit_path);
  unlink(native_path);
}

/* The native mesh 16x8 against the explicit one, on 16 and 128 ranks. The flat T800 preset: the clustered one's
 * crossbar stages are explicit links' properties, refused natively. */
static void test_plt_topo_native_mesh_matches_explicit(void)
{
  char err[512] = "";
  plt_topo_t clustered = {.kind = PLT_TOPO_MESH, .size = {16, 8}, .preset = plt_topo_preset("t800"), .native = 1};
  CU_ASSERT_EQUAL(plt_topo_resolve(&clustered, err, sizeof err), SIM_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "use --preset t800-flat or explicit routing"));
  static const int ranks[] = {16, 128};
  check_native_matches_explicit(
      (plt_topo_t){.kind = PLT_TOPO_MESH, .size = {16, 8}, .preset = plt_topo_preset("t800-flat")}, ranks, 2);
}

/* Every rank of 64 exchanges 1e6 bytes with the rank 32 away, both messages at once (non-blocking). */
static void exchange_across(sim_rank_t *rank, const void *arg)
{
  sim_post_at_own_clock(rank, 0, 0);
  int partner = (sim_rank_id(rank) + 32) % 64;
  sim_request_t *send = sim_isend(rank, partner, 1e6);
  sim_request_t *recv = sim_irecv(rank, partner, 1e6);
  sim_wait(rank, send);
  sim_wait(rank, recv);
}

/* Whether two descriptions agree on what the models read of them (the structs' padding aside). */
/* Field by field: the struct's padding after `derived` holds whatever a copy left there (clang's struct copies do not
 * copy it, and the sanitised build fills locals with a pattern). */
static int same_charac(const met_charac_t *a, const met_charac_t *b)
{
  return a->clock_hz == b->clock_hz && memcmp(a->cycles, b->cycles, sizeof a->cycles) == 0 &&
         a->memory_bytes == b->memory_bytes && a->cache_bytes == b->cache_bytes && a->cache_cycles == b->cache_cycles &&
         a->derived == b->derived;
}

static int same_description(const met_platform_t *a, const met_platform_t *b)
{
  const met_bcast_routes_t *ra[] = {&a->one_to_all, &a->neighbour, &a->from_rank0};
  const met_bcast_routes_t *rb[] = {&b->one_to_all, &b->neighbour, &b->from_rank0};
  int same = a->p == b->p && a->uniform == b->uniform && a->nkinds == b->nkinds && a->latency == b->latency &&
             a->bandwidth == b->bandwidth && a->port_links == b->port_links && same_charac(&a->charac, &b->charac) &&
             memcmp(a->hops, b->hops, sizeof a->hops) == 0 &&
             memcmp(a->pair_hops, b->pair_hops, sizeof a->pair_hops) == 0 &&
             memcmp(a->pair_latency, b->pair_latency, sizeof a->pair_latency) == 0 &&
             memcmp(a->pair_bandwidth, b->pair_bandwidth, sizeof a->pair_bandwidth) == 0 &&
             memcmp(a->grid_shared, b->grid_shared, sizeof a->grid_shared) == 0 &&
             memcmp(a->grid_rounds, b->grid_rounds, sizeof a->grid_rounds) == 0 &&
             memcmp(a->pair_route, b->pair_route, sizeof a->pair_route) == 0;
  for (int k = 0; k < 3; k++)
    same = same && memcmp(ra[k], rb[k], sizeof *ra[k]) == 0;
  return same;
}

/* The platform probe of a native 5 x 4 mesh describes it for the models (sim_run_probe_describe) as a process of its
 * own describes the explicit mesh (sim_run_describe: SimGrid's shortest paths over the explicit file's links, which
 * are the native routes: test_plt_topo_native_mesh_matches_explicit), at p = 1, 6 and 20; at p = 21, more ranks than
 * hosts, it makes none; and the probe of the explicit mesh makes none (its routes are SimGrid's to find, which the
 * probe's checks have not all looked up). A torus is no such twin: on a tie SimGrid may go the other way round. */
/* What the probe hands over, kept by k (at most 4 descriptions). */
typedef struct kept {
  met_platform_t machines[4]; /* about 230 KB each */
  int made[4];
} kept_t;

static int keep_description(void *state, size_t k, const met_platform_t *machine)
{
  kept_t *kept = state;
  CU_ASSERT_FATAL(k < 4 && !kept->made[k]);
  kept->machines[k] = *machine;
  kept->made[k] = 1;
  return 0;
}

static void test_plt_topo_native_probe_describes_as_explicit(void)
{
  static const int ranks[] = {1, 6, 20, 21};
  enum { COUNT = sizeof ranks / sizeof ranks[0] };
  static kept_t probed;
  static met_platform_t alone;
  plt_topo_t topo = {.kind = PLT_TOPO_MESH, .size = {5, 4}, .preset = plt_topo_preset("t800-flat"), .native = 0};
  char explicit_path[512];
  char native_path[512];
  char err[1024] = "";
  CU_ASSERT_FATAL(generate(&topo, explicit_path, sizeof explicit_path) == 0);
  topo.native = 1;
  CU_ASSERT_FATAL(generate(&topo, native_path, sizeof native_path) == 0);
  size_t hosts = 0;
  CU_ASSERT_FATAL(
      sim_run_probe_describe(native_path, ranks, COUNT, &hosts, keep_description, &probed, err, sizeof err) == 0);
  CU_ASSERT_EQUAL(hosts, 20);
  for (int k = 0; k < COUNT; k++) {
    CU_ASSERT_EQUAL(probed.made[k], ranks[k] <= 20);
    if (probed.made[k])
      CU_ASSERT(sim_run_describe(explicit_path, ranks[k], &alone, err, sizeof err) == 0 &&
                same_description(&probed.machines[k], &alone));
  }
  memset(&probed, 0, sizeof probed);
  CU_ASSERT_FATAL(
      sim_run_probe_describe(explicit_path, ranks, COUNT, &hosts, keep_description, &probed, err, sizeof err) == 0);
  for (int k = 0; k < COUNT; k++)
    CU_ASSERT_EQUAL(probed.made[k], 0);
  unlink(explicit_path);
  unlink(native_path);
}

/* The native fat tree 4:3 (64 hosts, links of 1, 4 and 16 times the base bandwidth) against the explicit one, on 16
 * and 64 ranks: a tree has one shortest path between two hosts, so the native routes must list the same links.
 * Directions: when every host sends and receives at once across the root, each link carries as many flows each way as
 * it has base bandwidths, so no flow is slowed if a route goes up a link's UP and down its DOWN direction; one that
 * came down an UP would share it. Each message then takes its 6 links' latency (62.02 us each, icluster preset) plus
 * 1e6 bytes at the host link's 11866059.8 B/s (CM02: latency plus size over the bottleneck's bandwidth). */
static void test_plt_topo_native_fattree_matches_explicit(void)
{
  plt_topo_t topo = {.kind = PLT_TOPO_FATTREE, .size = {4, 3}, .preset = plt_topo_preset("icluster")};
  static const int ranks[] = {16, 64};
  check_native_matches_explicit(topo, ranks, 2);
  char path[512];
  topo.native = 1;
  CU_ASSERT_FATAL(generate(&topo, path, sizeof path) == 0);
  sim_job_t job = {.platform = path, .nranks = 64, .program = exchange_across};
  met_trace_t *trace = NULL;
  char err[1024];
  CU_ASSERT_FATAL(tu_sim_run(&job, &trace, err, sizeof err) == 0);
  TU_ASSERT_CLOSE(met_trace_end(trace), 6 * 62.02e-6 + 1e6 / 11866059.8, 1e-9);
  met_trace_free(trace);
  unlink(path);
}

/* A zone whose simrun:grid is malformed or lacks a value is refused with a message naming the property. */
static void test_plt_topo_native_rejects_bad_grid(void)
{
  static const char *const zones[] = {
      "<prop id=\"simrun:grid\" value=\"ring 4\"/>",
      "<prop id=\"simrun:grid\" value=\"mesh 2x2\"/><prop id=\"simrun:grid-speed\" value=\"1Gf\"/>"};
  static const char *const blamed[] = {"simrun:grid 'ring 4'", "simrun:grid-bandwidth"};
  for (size_t i = 0; i < 2; i++) {
    char path[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/simrun-grid-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    CU_ASSERT_FATAL(out != NULL);
    fprintf(out,
            "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<platform version=\"4.1\"><zone id=\"z\" routing=\"None\"><zone id=\"g\" routing=\"None\">%s"
            "</zone></zone></platform>\n",
            zones[i]);
    fclose(out);
    int *hops = NULL;
    size_t count = 0;
    char err[1024] = "";
    CU_ASSERT(tu_routes(path, &hops, &count, err, sizeof err) == SIM_EPLATFORM);
    CU_ASSERT(strstr(err, blamed[i]) != NULL);
    free(hops);
    unlink(path);
  }
}

/* switch 32 with the icluster preset against platforms/icluster-fe-32.xml: the ping-pong from 1 KiB to 1 MiB gives the
 * same times (up to rounding: 2 x 62.02 us of latency against 0.5 + 123.54 us). */
static void test_plt_topo_icluster_switch_matches_platform_file(void)
{
  plt_topo_t topo = {.kind = PLT_TOPO_SWITCH, .size = {32, 1}, .preset = plt_topo_preset("icluster")};
  char path[512];
  CU_ASSERT_FATAL(topo.preset && generate(&topo, path, sizeof path) == 0);
  const char *names[] = {"min-bytes", "max-bytes"};
  const char *values[] = {"1024", "1048576"};
  met_trace_t *a = run_skeleton(&app_pingpong_skeleton, SIMRUN_SOURCE_DIR "/platforms/icluster-fe-32.xml", 32, names,
                                values, 2, SIM_BCAST_ONE_TO_ALL);
  met_trace_t *b = run_skeleton(&app_pingpong_skeleton, path, 32, names, values, 2, SIM_BCAST_ONE_TO_ALL);
  CU_ASSERT(a && met_trace_count(a, 0) > 500 && same_traces(a, b, 1e-12));
  met_trace_free(a);
  met_trace_free(b);
  unlink(path);
}

/* The whole content of `path` (the caller frees it), or NULL. */
static char *slurp(const char *path, size_t *len)
{
  FILE *in = fopen(path, "rb");
  char *text = NULL;
  *len = 0;
  if (in && fseek(in, 0, SEEK_END) == 0) {
    long size = ftell(in);
    text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    rewind(in);
    *len = text ? fread(text, 1, (size_t)size, in) : 0;
  }
  if (in)
    fclose(in);
  return text;
}

/* The platforms of scenarios/topology-gj.xml and the machines of today (docs/topologies.md, docs/machines.md) are
 * what the generator writes today. */
static void test_plt_topo_committed_platforms_are_current(void)
{
  static const struct {
    const char *file;
    const char *preset;
    plt_topo_t topo;
  } committed[] = {{"t800-mesh-16x8.xml", "t800-flat", {.kind = PLT_TOPO_MESH, .size = {16, 8}}},
                   {"t800-torus-16x8.xml", "t800-flat", {.kind = PLT_TOPO_TORUS, .size = {16, 8}}},
                   {"t800-hypercube-7.xml", "t800-flat", {.kind = PLT_TOPO_HYPERCUBE, .size = {7, 1}}},
                   {"t800-switch-128.xml", "t800-flat", {.kind = PLT_TOPO_SWITCH, .size = {128, 1}}},
                   {"epyc-hdr-switch-32.xml", "epyc-hdr", {.kind = PLT_TOPO_SWITCH, .size = {32, 1}}},
                   {"epyc-25gbe-switch-32.xml", "epyc-25gbe", {.kind = PLT_TOPO_SWITCH, .size = {32, 1}}}};
  for (size_t i = 0; i < sizeof committed / sizeof committed[0]; i++) {
    plt_topo_t topo = committed[i].topo;
    topo.preset = plt_topo_preset(committed[i].preset);
    char path[512];
    char file[512];
    CU_ASSERT_FATAL(generate(&topo, path, sizeof path) == 0);
    snprintf(file, sizeof file, SIMRUN_SOURCE_DIR "/platforms/generated/%s", committed[i].file);
    size_t la = 0;
    size_t lb = 0;
    char *a = slurp(path, &la);
    char *b = slurp(file, &lb);
    CU_ASSERT(a && b && la > 1000 && la == lb && memcmp(a, b, la) == 0);
    free(a);
    free(b);
    unlink(path);
  }
}

/* The machines of today (docs/machines.md), on the committed switch of 32 nodes: a ping-pong of 8 bytes to 1 MiB
 * between ranks 0 and 5, each message by hand from the constants of src/platform/plt_topo_preset.c (CM02: the two
 * links' latency plus size over the link bandwidth, the TCP window far from binding): epyc-hdr 2 x 0.3 us + l /
 * (25e9 x 4096 / 4122) B/s, 0.6 + 42.2 us for 1 MiB; epyc-25gbe 2 x 2.91108 us + l / (3.125e9 x 1460 / 1538) B/s,
 * 5.82 us + 353.5 us for 1 MiB. Then Gauss-Jordan N = 256 runs on 8 nodes of each with both broadcasts. */
static void test_plt_topo_machines_of_today_message_times(void)
{
  static const struct {
    const char *file;
    double route_latency, bandwidth;
  } machines[] = {{"epyc-hdr-switch-32.xml", 2 * 0.3e-6, 25e9 * 4096 / 4122},
                  {"epyc-25gbe-switch-32.xml", 4.53e-6 + 0.8e-6 + 1538 * 8 / 25e9, 3.125e9 * 1460 / 1538}};
  for (size_t m = 0; m < 2; m++) {
    char path[512];
    snprintf(path, sizeof path, SIMRUN_SOURCE_DIR "/platforms/generated/%s", machines[m].file);
    const char *names[] = {"min-bytes", "max-bytes"};
    const char *values[] = {"8", "1048576"};
    met_trace_t *trace = run_skeleton(&app_pingpong_skeleton, path, 6, names, values, 2, SIM_BCAST_ONE_TO_ALL);
    CU_ASSERT_FATAL(trace != NULL);
    int checked = 0;
    for (size_t i = 0; i < met_trace_count(trace, 5); i++) {
      const met_interval_t *iv = &met_trace_intervals(trace, 5)[i];
      if (iv->category != MET_CAT_COMM || iv->dir != MET_DIR_RECV)
        continue;
      TU_ASSERT_CLOSE(iv->end - iv->start, machines[m].route_latency + iv->bytes / machines[m].bandwidth, 1e-12);
      checked++;
    }
    CU_ASSERT_EQUAL(checked, 18); /* 8, 16, ..., 2^20 bytes */
    met_trace_free(trace);
    static const char *const broadcasts[] = {"one-to-all", "neighbour"};
    for (int b = 0; b < 2; b++) {
      const char *gj_names[] = {"n", "broadcast"};
      const char *gj_values[] = {"256", broadcasts[b]};
      trace = run_skeleton(&app_gj_skeleton, path, 8, gj_names, gj_values, 2,
                           b ? SIM_BCAST_NEIGHBOUR : SIM_BCAST_ONE_TO_ALL);
      CU_ASSERT(trace && met_trace_end(trace) > 0);
      met_trace_free(trace);
    }
  }
}

/* Occurrences of `needle` in the platform generated for `topo`, or -1. */
static int count_in_platform(plt_topo_t topo, const char *needle)
{
  char path[512];
  if (generate(&topo, path, sizeof path) != 0)
    return -1;
  size_t len = 0;
  char *text = slurp(path, &len);
  unlink(path);
  int count = text ? 0 : -1;
  for (const char *at = text; at && (at = strstr(at, needle)) != NULL; at++)
    count++;
  free(text);
  return count;
}

/* The t800 preset marks the links between 4x4 clusters, counted by hand: mesh 16x8, the 16 links from column 3 to 4
 * and 3 x 8 from row 3 to 4, 7 to 8, 11 to 12 (40, as platforms/t800-mesh-128.xml); torus 16x8, those and its 16 + 8
 * wrap-around links (64); hypercube 7, the 64 links along each of bits 4, 5, 6 (192); none through a switch, none
 * with t800-flat, and the C004 properties of the root zone only where there are clusters. */
static void test_plt_topo_t800_clusters_mark_crossing_links(void)
{
  const plt_topo_preset_t *t800 = plt_topo_preset("t800");
  const plt_topo_preset_t *flat = plt_topo_preset("t800-flat");
  CU_ASSERT_FATAL(t800 && flat);
  const char *mark = "\"simrun:extra-c004-stages\" value=\"2\"";
  CU_ASSERT_EQUAL(count_in_platform((plt_topo_t){.kind = PLT_TOPO_MESH, .size = {16, 8}, .preset = t800}, mark), 40);
  CU_ASSERT_EQUAL(count_in_platform((plt_topo_t){.kind = PLT_TOPO_TORUS, .size = {16, 8}, .preset = t800}, mark), 64);
  CU_ASSERT_EQUAL(count_in_platform((plt_topo_t){.kind = PLT_TOPO_HYPERCUBE, .size = {7, 1}, .preset = t800}, mark),
                  192);
  CU_ASSERT_EQUAL(count_in_platform((plt_topo_t){.kind = PLT_TOPO_SWITCH, .size = {128, 1}, .preset = t800}, mark), 0);
  CU_ASSERT_EQUAL(count_in_platform((plt_topo_t){.kind = PLT_TOPO_MESH, .size = {16, 8}, .preset = flat}, mark), 0);
  const char *delay = "simrun:c004-delay-bits";
  CU_ASSERT_EQUAL(count_in_platform((plt_topo_t){.kind = PLT_TOPO_MESH, .size = {4, 4}, .preset = t800}, delay), 1);
  CU_ASSERT_EQUAL(count_in_platform((plt_topo_t){.kind = PLT_TOPO_SWITCH, .size = {16, 1}, .preset = t800}, delay), 0);
  CU_ASSERT_EQUAL(count_in_platform((plt_topo_t){.kind = PLT_TOPO_MESH, .size = {4, 4}, .preset = flat}, delay), 0);
}

/* Bad kinds, sizes and values are refused with a message that says what is expected. */
static void test_plt_topo_rejects_bad_input(void)
{
  char err[512];
  plt_topo_kind_t kind;
  int size[4];
  CU_ASSERT(plt_topo_parse_kind("ring", &kind, err, sizeof err) == SIM_EINVAL && strstr(err, "mesh, torus"));
  CU_ASSERT(plt_topo_parse_kind("fattree", &kind, err, sizeof err) == 0 && kind == PLT_TOPO_FATTREE);
  static const struct {
    plt_topo_kind_t kind;
    const char *text;
  } bad[] = {{PLT_TOPO_MESH, "8by16"},
             {PLT_TOPO_MESH, "0x4"},
             {PLT_TOPO_MESH, "1025x1024"}, /* beyond even native routing's 2^20 hosts */
             {PLT_TOPO_MESH, "8x"},
             {PLT_TOPO_TORUS, "-2x4"},
             {PLT_TOPO_TORUS, "1x1"}, /* one host: its links would wrap onto itself */
             {PLT_TOPO_HYPERCUBE, "13"},
             {PLT_TOPO_HYPERCUBE, "0"},
             {PLT_TOPO_SWITCH, "4097"},
             {PLT_TOPO_SWITCH, "3x3"},
             {PLT_TOPO_FATTREE, "1:3"},
             {PLT_TOPO_FATTREE, "4"},
             {PLT_TOPO_FATTREE, "4:11"},
             /* more groups than routers per chassis (SimGrid's limit), a missing level, 4608 hosts, a zero */
             {PLT_TOPO_DRAGONFLY, "3:2:2:2"},
             {PLT_TOPO_DRAGONFLY, "2:2:2"},
             {PLT_TOPO_DRAGONFLY, "8:8:8:9"},
             {PLT_TOPO_DRAGONFLY, "2:0:2:2"},
             {PLT_TOPO_DRAGONFLY, "2:2:2:2:2"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CU_ASSERT(plt_topo_parse_size(bad[i].kind, bad[i].text, size, err, sizeof err) == SIM_EINVAL);
    CU_ASSERT(strstr(err, "expected") && strstr(err, bad[i].text));
  }
  CU_ASSERT(plt_topo_parse_size(PLT_TOPO_MESH, "16x8", size, err, sizeof err) == 0 && size[0] == 16 && size[1] == 8);
  CU_ASSERT(plt_topo_parse_size(PLT_TOPO_FATTREE, "4:3", size, err, sizeof err) == 0 && size[0] == 4);
  CU_ASSERT(plt_topo_parse_size(PLT_TOPO_DRAGONFLY, "8:8:8:8", size, err, sizeof err) == 0 && size[0] == 8 &&
            size[3] == 8);
  /* 4160 hosts: explicit routing refuses them, naming native routing, which takes a 1024 x 1024 mesh */
  plt_topo_t wide = {.kind = PLT_TOPO_MESH, .preset = plt_topo_preset("t800-flat")};
  CU_ASSERT(plt_topo_parse_size(PLT_TOPO_MESH, "65x64", wide.size, err, sizeof err) == 0);
  CU_ASSERT(plt_topo_resolve(&wide, err, sizeof err) == SIM_EINVAL && strstr(err, "4160 hosts with explicit routing") &&
            strstr(err, "--routing native"));
  wide.native = 1;
  CU_ASSERT(plt_topo_resolve(&wide, err, sizeof err) == 0);
  CU_ASSERT(plt_topo_parse_size(PLT_TOPO_MESH, "1024x1024", wide.size, err, sizeof err) == 0);
  CU_ASSERT(plt_topo_resolve(&wide, err, sizeof err) == 0 && plt_topo_hosts(&wide) == 1048576);
  plt_topo_t t800_dragonfly = {.kind = PLT_TOPO_DRAGONFLY, .size = {2, 2, 2, 2}, .preset = plt_topo_preset("t800")};
  CU_ASSERT(plt_topo_resolve(&t800_dragonfly, err, sizeof err) == SIM_EINVAL && strstr(err, "t800-flat"));
  static const struct {
    const char *speed, *bandwidth, *latency, *blamed;
  } values[] = {{"25Mf", "10XBps", "1us", "--bandwidth"}, {"fast", "1Bps", "1us", "--speed"},
                {"25Mf", "1Bps", "-5us", "--latency"},    {"0f", "1Bps", "1us", "--speed"},
                {"25Mf", "nanBps", "1us", "--bandwidth"}, {"25Mf", "1Bps", NULL, "--latency"}};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    plt_topo_t topo = {.kind = PLT_TOPO_SWITCH,
                       .size = {2, 1},
                       .speed = values[i].speed,
                       .bandwidth = values[i].bandwidth,
                       .latency = values[i].latency};
    CU_ASSERT(plt_topo_resolve(&topo, err, sizeof err) == SIM_EINVAL);
    CU_ASSERT(strstr(err, values[i].blamed) != NULL);
  }
  plt_topo_t native_switch = {.kind = PLT_TOPO_SWITCH, .size = {2, 1}, .preset = plt_topo_preset("t800"), .native = 1};
  CU_ASSERT(plt_topo_resolve(&native_switch, err, sizeof err) == SIM_EINVAL && strstr(err, "mesh, torus and fattree"));
  plt_topo_t zero = {.kind = PLT_TOPO_SWITCH, .size = {2, 1}, .speed = "1f", .bandwidth = "1Bps", .latency = "0s"};
  CU_ASSERT(plt_topo_resolve(&zero, err, sizeof err) == 0);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_plt_topo_routes_have_expected_hops", test_plt_topo_routes_have_expected_hops},
      {"test_plt_topo_native_routes_have_expected_hops", test_plt_topo_native_routes_have_expected_hops},
      {"test_plt_topo_native_mesh_matches_explicit", test_plt_topo_native_mesh_matches_explicit},
      {"test_plt_topo_native_fattree_matches_explicit", test_plt_topo_native_fattree_matches_explicit},
      {"test_plt_topo_native_probe_describes_as_explicit", test_plt_topo_native_probe_describes_as_explicit},
      {"test_plt_topo_native_rejects_bad_grid", test_plt_topo_native_rejects_bad_grid},
      {"test_plt_topo_given_parameters", test_plt_topo_given_parameters},
      {"test_plt_topo_t800_mesh_matches_platform_file", test_plt_topo_t800_mesh_matches_platform_file},
      {"test_plt_topo_icluster_switch_matches_platform_file", test_plt_topo_icluster_switch_matches_platform_file},
      {"test_plt_topo_committed_platforms_are_current", test_plt_topo_committed_platforms_are_current},
      {"test_plt_topo_machines_of_today_message_times", test_plt_topo_machines_of_today_message_times},
      {"test_plt_topo_t800_clusters_mark_crossing_links", test_plt_topo_t800_clusters_mark_crossing_links},
      {"test_plt_topo_rejects_bad_input", test_plt_topo_rejects_bad_input},
      {NULL, NULL}};
  return tu_run("plt_topo", cases);
}
