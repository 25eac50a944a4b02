/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Calibration of the T800 platform against seed 001 and the SuperCluster's hardware (docs/t800.md): ping-pong messages
 * on a quiet network inside a cluster take Table 2's time T(l, d) (eq. 4) to SimGrid's precision, messages between
 * clusters take T(l, d) plus the C004 stages' cost computed here by hand, hops are mesh distances, and messages sharing
 * a link slow down. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include "app_gj.h"
#include "app_pingpong.h"
#include "met_trace.h"
#include "sim_error.h"
#include "sim_map.h"
#include "sim_run.h"
#include "tu.h"
#include "tu_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PLATFORM  SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"
#define MESH_ROWS 16
#define MESH_COLS 8
#define NRANKS    128
#define NSIZES    14 /* 8, 16, ..., 65536 bytes */
#define MAX_HOPS  22 /* from the corner (0, 0) to (15, 7) */
#define TOLERANCE 0.05
/* Message times are SimGrid's latency x factor + l / bandwidth in doubles, then event dates: the largest relative error
 * seen over the 3556 ping-pong messages is 2.3e-13; 1e-9 is SimGrid's own time precision (surf/precision). */
#define EXACT            1e-9
#define LARGE_BYTES      65536.0
#define LINK_US_PER_BYTE 1.33  /* Table 2's beta for l > 120: a link's streaming rate */
#define CLUSTER_SIDE     4     /* clusters are the 4x4 blocks of the mesh */
#define PACKET_BYTES     120.0 /* p_s of eq. 4 */
/* What a link between clusters adds per byte, by hand: 2 more C004 stages, each delaying the data byte forward and its
 * acknowledge back by 1.75 bit periods of 0.05 us (20 Mbit/s): 2 x 2 x 1.75 x 0.05 = 0.35 us. */
#define CROSSING_US_PER_BYTE (2 * 2 * 1.75 / 20.0)

/* Table 2 of seed 001 (eq. 4), in microseconds, written from the paper rather than read from the platform. */
static double table2_us(double l, int d)
{
  if (l <= 120)
    return 51.1 + 0.27 * l + 8.86 * d + 0.68 * l * d;
  return -81.5 + 1.33 * l + 93.04 * d + 0.05 * l * d;
}

/* A message of l bytes whose route crosses `crossings` cluster boundaries, no transputer on it forwarding between two
 * crossing links (docs/t800.md, derivation step 5): the first packet, min(l, 120) bytes, is stored and forwarded, so it
 * pays the C004 stages at every crossing hop; the platform's forwarding transputers have one packet buffer, so the
 * transputer that sends on a crossing link (the sender, or a forwarder whose cycle holds that send) paces every later
 * packet of the stream at the crossing's rate, wherever the crossing is. */
static double supercluster_us(double l, int d, int crossings)
{
  double packet = fmin(l, PACKET_BYTES);
  return table2_us(l, d) + CROSSING_US_PER_BYTE * (packet * crossings + (crossings > 0 ? l - packet : 0));
}

static double relative_error(double actual, double expected)
{
  return fabs(actual - expected) / expected;
}

/* Runs `program` on p ranks of the T800 mesh. Returns the trace (the caller frees it), or NULL with the reason on
 * stderr. */
static met_trace_t *simulate(int p, sim_program_fn program, const void *arg)
{
  sim_job_t job = {.platform = PLATFORM, .nranks = p, .bcast = SIM_BCAST_ONE_TO_ALL, .program = program, .arg = arg};
  met_trace_t *trace = NULL;
  char err[1024];
  if (tu_sim_run(&job, &trace, err, sizeof err) != 0)
    fprintf(stderr, "simulation failed: %s\n", err);
  return trace;
}

/* Prepares the ping-pong skeleton with these sizes; returns its status and the argument in *arg. */
static int prepare_pingpong(const char *min, const char *max, int p, void **arg, char *err, size_t errlen,
                            const char **bad_param)
{
  const char *names[] = {"min-bytes", "max-bytes"};
  const char *values[] = {min, max};
  app_point_t point = {.count = 2, .names = names, .values = values};
  return app_pingpong_skeleton.prepare(&point, p, arg, err, errlen, bad_param);
}

/* The ping-pong trace for sizes min..max on p ranks, or NULL. */
static met_trace_t *run_pingpong(const char *min, const char *max, int p)
{
  void *arg = NULL;
  char err[256];
  const char *bad_param = NULL;
  if (prepare_pingpong(min, max, p, &arg, err, sizeof err, &bad_param) != 0)
    return NULL;
  met_trace_t *trace = simulate(p, app_pingpong_skeleton.program, arg);
  app_pingpong_skeleton.release(arg);
  return trace;
}

/* Rank 0 receives in the "pong" phase, every other rank in the "ping" phase. */
static int is_receive(const met_trace_t *trace, int rank, const met_interval_t *iv)
{
  return iv->category == MET_CAT_COMM &&
         strcmp(met_trace_phase_name(trace, iv->phase), rank == 0 ? "pong" : "ping") == 0;
}

/* Links between rank `rank` and rank 0 on a rows x cols snake-ordered partition, by Manhattan distance. */
static int mesh_distance(int rank, int cols)
{
  int row0;
  int col0;
  int row;
  int col;
  sim_map_snake(0, cols, &row0, &col0);
  sim_map_snake(rank, cols, &row, &col);
  return abs(row - row0) + abs(col - col0);
}

/* Cluster boundaries between (row, col) and the corner (0, 0): every shortest route crosses them all. */
static int crossings_from_corner(int row, int col)
{
  return row / CLUSTER_SIDE + col / CLUSTER_SIDE;
}

/* The expected seconds of receive `iv` of rank `rank`, whose partner sits at (row, col); negative to leave it out. */
typedef double (*expect_fn)(const met_interval_t *iv, int rank, int row, int col);

/* Compares every receive of a ping-pong trace with expect(): returns the largest relative error, and counts the pongs
 * (receives of rank 0) and the pings compared in counts[0] and counts[1]. */
static double worst_receive(const met_trace_t *trace, expect_fn expect, size_t counts[2])
{
  double worst = 0;
  counts[0] = counts[1] = 0;
  for (int r = 0; r < NRANKS; r++) {
    const met_interval_t *ivs = met_trace_intervals(trace, r);
    for (size_t i = 0; i < met_trace_count(trace, r); i++) {
      int row;
      int col;
      sim_map_snake(r == 0 ? ivs[i].peer : r, MESH_COLS, &row, &col);
      double model = is_receive(trace, r, &ivs[i]) ? expect(&ivs[i], r, row, col) : -1;
      if (model < 0)
        continue;
      worst = fmax(worst, relative_error(ivs[i].end - ivs[i].start, model));
      counts[r != 0]++;
    }
  }
  return worst;
}

/* Table 2 for routes inside cluster 0, both directions. */
static double expect_inside(const met_interval_t *iv, int rank, int row, int col)
{
  (void)rank;
  return crossings_from_corner(row, col) > 0 ? -1 : 1e-6 * table2_us(iv->bytes, iv->hops);
}

/* Receives inside cluster 0 (ranks at rows and columns 0-3, both directions): Table 2 exactly. */
static void test_sim_calibration_inside_cluster_matches_table2(void)
{
  met_trace_t *trace = run_pingpong("8", "65536", NRANKS);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  size_t counts[2];
  CU_ASSERT(worst_receive(trace, expect_inside, counts) <= EXACT);
  CU_ASSERT_EQUAL(counts[0], NSIZES * (CLUSTER_SIDE * CLUSTER_SIDE - 1));
  CU_ASSERT_EQUAL(counts[1], NSIZES * (CLUSTER_SIDE * CLUSTER_SIDE - 1));
  met_trace_free(trace);
}

/* The SuperCluster's time for routes between clusters along row 0 and column 0, both directions: the straight line is
 * the one shortest route, and its crossings, 4 hops apart, never meet at one forwarding transputer. */
static double expect_crossing(const met_interval_t *iv, int rank, int row, int col)
{
  (void)rank;
  int crossings = crossings_from_corner(row, col);
  if (crossings == 0 || (row > 0 && col > 0))
    return -1;
  return 1e-6 * supercluster_us(iv->bytes, iv->hops, crossings);
}

/* Receives between clusters, by hand (expect_crossing). A 2056-byte row (N = 256) from the corner to (0, 4) crosses on
 * its 4th hop and pays 0.35 us on all its bytes, as it would on its first: 719.6 us. */
static void test_sim_calibration_crossing_routes_pay_c004_stages(void)
{
  CU_ASSERT(fabs(supercluster_us(2056, 4, 1) - table2_us(2056, 4) - 719.6) < 1e-9);
  CU_ASSERT(fabs(supercluster_us(2056, 12, 2) - table2_us(2056, 12) - 761.6) < 1e-9);
  CU_ASSERT(fabs(supercluster_us(100, 5, 2) - table2_us(100, 5) - 70.0) < 1e-9);
  met_trace_t *trace = run_pingpong("8", "65536", NRANKS);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  size_t counts[2];
  CU_ASSERT(worst_receive(trace, expect_crossing, counts) <= EXACT);
  CU_ASSERT_EQUAL(counts[0], NSIZES * (MESH_ROWS - CLUSTER_SIDE + MESH_COLS - CLUSTER_SIDE));
  CU_ASSERT_EQUAL(counts[1], NSIZES * (MESH_ROWS - CLUSTER_SIDE + MESH_COLS - CLUSTER_SIDE));
  met_trace_free(trace);
}

/* The size ladder index of `bytes` (8 -> 0, ..., 65536 -> 13), or -1 when it is not on the ladder. */
static int size_index(double bytes)
{
  for (int i = 0; i < NSIZES; i++)
    if (bytes == 8.0 * (1 << i))
      return i;
  return -1;
}

static void test_sim_calibration_covers_every_distance_and_size(void)
{
  met_trace_t *trace = run_pingpong("8", "65536", NRANKS);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  int seen_hops[MAX_HOPS + 1] = {0};
  int seen_sizes[NSIZES] = {0};
  for (int r = 0; r < NRANKS; r++) {
    const met_interval_t *ivs = met_trace_intervals(trace, r);
    for (size_t i = 0; i < met_trace_count(trace, r); i++) {
      if (!is_receive(trace, r, &ivs[i]))
        continue;
      int size = size_index(ivs[i].bytes);
      CU_ASSERT_FATAL(ivs[i].hops >= 1 && ivs[i].hops <= MAX_HOPS && size >= 0);
      seen_hops[ivs[i].hops]++;
      seen_sizes[size]++;
    }
  }
  for (int d = 1; d <= MAX_HOPS; d++)
    CU_ASSERT(seen_hops[d] > 0);
  for (int i = 0; i < NSIZES; i++)
    CU_ASSERT_EQUAL(seen_sizes[i], 2 * (NRANKS - 1));
  met_trace_free(trace);
}

/* Every receive of `rank` crosses `hops` links; at least one exists. */
static void assert_receive_hops(const met_trace_t *trace, int rank, int hops)
{
  const met_interval_t *ivs = met_trace_intervals(trace, rank);
  int receives = 0;
  for (size_t i = 0; i < met_trace_count(trace, rank); i++)
    if (is_receive(trace, rank, &ivs[i])) {
      CU_ASSERT_EQUAL(ivs[i].hops, hops);
      receives++;
    }
  CU_ASSERT(receives > 0);
}

static void test_sim_calibration_hops_are_mesh_distances(void)
{
  int rows = 0;
  int cols = 0;
  CU_ASSERT_EQUAL_FATAL(sim_map_rectangle(NRANKS, MESH_ROWS, MESH_COLS, &rows, &cols), 0);
  CU_ASSERT_EQUAL(rows, MESH_ROWS);
  CU_ASSERT_EQUAL_FATAL(cols, MESH_COLS);
  /* Snake order by hand: rank 8 is at (1, 7), 15 at (1, 0), 100 at (12, 4), 120 at (15, 7), 127 at (15, 0). */
  static const int hand[][2] = {{1, 1}, {7, 7}, {8, 8}, {15, 1}, {16, 2}, {100, 16}, {120, 22}, {127, 15}};
  for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++)
    CU_ASSERT_EQUAL(mesh_distance(hand[i][0], cols), hand[i][1]);
  met_trace_t *trace = run_pingpong("8", "8", NRANKS);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  for (int r = 1; r < NRANKS; r++)
    assert_receive_hops(trace, r, mesh_distance(r, cols));
  met_trace_free(trace);
}

/* A size not on the doubling ladder is still run, and last. */
static void test_sim_calibration_ladder_ends_at_max_bytes(void)
{
  static const double expected[] = {3, 6, 12, 20};
  met_trace_t *trace = run_pingpong("3", "20", 2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  const met_interval_t *ivs = met_trace_intervals(trace, 1);
  size_t k = 0;
  for (size_t i = 0; i < met_trace_count(trace, 1); i++)
    if (is_receive(trace, 1, &ivs[i])) {
      CU_ASSERT_FATAL(k < sizeof expected / sizeof expected[0]);
      CU_ASSERT_EQUAL(ivs[i].bytes, expected[k]);
      k++;
    }
  CU_ASSERT_EQUAL(k, sizeof expected / sizeof expected[0]);
  met_trace_free(trace);
}

static void test_sim_calibration_rejects_max_below_min(void)
{
  void *arg = NULL;
  char err[256] = "";
  const char *bad_param = NULL;
  CU_ASSERT_EQUAL(prepare_pingpong("64", "8", NRANKS, &arg, err, sizeof err, &bad_param), SIM_EPARAM);
  CU_ASSERT_PTR_NULL(arg);
  CU_ASSERT_STRING_EQUAL(bad_param, "max-bytes");
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "use max-bytes >= min-bytes"));
}

/* Two messages of LARGE_BYTES sent at the same time, from[k] to to[k]. */
typedef struct pair_arg {
  int from[2];
  int to[2];
} pair_arg_t;

static void pair_program(sim_rank_t *rank, const void *arg)
{
  const pair_arg_t *pairs = arg;
  int me = sim_rank_id(rank);
  sim_phase(rank, "pair");
  for (int k = 0; k < 2; k++) {
    if (me == pairs->from[k])
      sim_send(rank, pairs->to[k], LARGE_BYTES);
    if (me == pairs->to[k])
      sim_recv(rank, pairs->from[k], LARGE_BYTES);
  }
}

/* Runs `pairs` on the 2 x 2 partition and checks that each message, received over 2 hops, takes expected_us. */
static void assert_pair_times(const pair_arg_t *pairs, double expected_us)
{
  int rows = 0;
  int cols = 0;
  CU_ASSERT_EQUAL_FATAL(sim_map_rectangle(4, MESH_ROWS, MESH_COLS, &rows, &cols), 0);
  CU_ASSERT_FATAL(rows == 2 && cols == 2);
  met_trace_t *trace = simulate(4, pair_program, pairs);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  for (int k = 0; k < 2; k++) {
    int to = pairs->to[k];
    CU_ASSERT_EQUAL_FATAL(met_trace_count(trace, to), 1); /* both transfers start at once: no idle wait */
    const met_interval_t *iv = met_trace_intervals(trace, to);
    CU_ASSERT_EQUAL(iv->category, MET_CAT_COMM);
    CU_ASSERT_EQUAL(iv->hops, 2);
    CU_ASSERT(relative_error(1e6 * (iv->end - iv->start), expected_us) <= TOLERANCE);
  }
  met_trace_free(trace);
}

/* Ranks 0 (0,0), 1 (0,1), 2 (1,1), 3 (1,0). The platform's Floyd routing takes 0 -> 2 through (0,1) and 3 -> 1
 * through (0,0): both cross link (0,0) -> (0,1) in the same direction. Sharing it halves each one's streaming rate,
 * so by hand each takes T(l, 2) + l x 1.33 us instead of T(l, 2). */
static void test_sim_calibration_shared_link_slows_messages(void)
{
  const pair_arg_t pairs = {.from = {0, 3}, .to = {2, 1}};
  double quiet = table2_us(LARGE_BYTES, 2);
  double shared = quiet + LARGE_BYTES * LINK_US_PER_BYTE;
  CU_ASSERT(shared > quiet * (1 + 2 * TOLERANCE)); /* the check below cannot pass on a quiet network */
  assert_pair_times(&pairs, shared);
}

/* 1 -> 3 goes through (0,0) and crosses link (0,0)-(0,1) against 0 -> 2: a link has one wire per direction
 * (SPLITDUPLEX), so both keep the quiet-network time. */
static void test_sim_calibration_opposite_directions_do_not_contend(void)
{
  const pair_arg_t pairs = {.from = {0, 1}, .to = {2, 3}};
  assert_pair_times(&pairs, table2_us(LARGE_BYTES, 2));
}

/* The shipped platform with `extra` after its simrun:link-init-us property, written to a temporary file named in path.
 */
static int write_platform_with(const char *extra, char *path, size_t len)
{
  FILE *in = fopen(PLATFORM, "r");
  const char *tmp = getenv("TMPDIR");
  snprintf(path, len, "%s/simrun-calibration-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = in ? mkstemp(path) : -1;
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!out) {
    if (in)
      fclose(in);
    return -1;
  }
  char line[4096];
  while (fgets(line, sizeof line, in)) {
    fputs(line, out);
    if (strstr(line, "\"simrun:link-init-us\""))
      fprintf(out, "%s\n", extra);
  }
  fclose(in);
  return fclose(out) == 0 ? 0 : -1;
}

/* Rank 0's link initialisation in a Gauss-Jordan run (n = 8) on p ranks of `platform`, in seconds; negative when the
 * run fails (its message in err). */
static double link_init_seconds(const char *platform, int p, char *err, size_t errlen)
{
  const char *names[] = {"n"};
  const char *values[] = {"8"};
  app_point_t point = {.count = 1, .names = names, .values = values};
  void *arg = NULL;
  const char *bad = NULL;
  met_trace_t *trace = NULL;
  int rc = app_gj_skeleton.prepare(&point, p, &arg, err, errlen, &bad);
  sim_job_t job = {.platform = platform, .nranks = p, .program = app_gj_skeleton.program, .arg = arg};
  rc = rc ? rc : tu_sim_run(&job, &trace, err, errlen);
  app_gj_skeleton.release(arg);
  double seconds = rc == 0 ? 0 : -1;
  const met_interval_t *ivs = rc == 0 ? met_trace_intervals(trace, 0) : NULL;
  for (size_t i = 0; rc == 0 && i < met_trace_count(trace, 0); i++)
    if (strcmp(met_trace_phase_name(trace, ivs[i].phase), "link-init") == 0)
      seconds += ivs[i].end - ivs[i].start;
  met_trace_free(trace);
  return seconds;
}

/* Link initialisation (eq. 3): 1270 us per physical link of the partition (2x2: 4 links, 5.08 ms); with the option
 * simrun:link-init-by-p, the paper's model value of Table 5 for that p (0.004 s at p = 4); a p the option does not
 * list is refused with a message. */
static void test_sim_calibration_link_init_per_link_or_table5(void)
{
  char err[1024] = "";
  CU_ASSERT(fabs(link_init_seconds(PLATFORM, 4, err, sizeof err) - 4 * 1270e-6) < 1e-12);
  char path[512];
  CU_ASSERT_EQUAL_FATAL(write_platform_with("<prop id=\"simrun:link-init-by-p\" value=\"1 0 2 0.001 4 0.004 8 "
                                            "0.01 16 0.03 32 0.07 64 0.17 128 0.49\"/>",
                                            path, sizeof path),
                        0);
  CU_ASSERT(fabs(link_init_seconds(path, 4, err, sizeof err) - 0.004) < 1e-12);
  CU_ASSERT(fabs(link_init_seconds(path, 8, err, sizeof err) - 0.01) < 1e-12);
  unlink(path);
  CU_ASSERT_EQUAL_FATAL(
      write_platform_with("<prop id=\"simrun:link-init-by-p\" value=\"2 0.001 4 0.004\"/>", path, sizeof path), 0);
  CU_ASSERT(link_init_seconds(path, 8, err, sizeof err) < 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "simrun:link-init-by-p gives no link initialisation time for p = 8"));
  unlink(path);
  CU_ASSERT_EQUAL_FATAL(
      write_platform_with("<prop id=\"simrun:link-init-by-p\" value=\"2 0.001 2 0.004\"/>", path, sizeof path), 0);
  CU_ASSERT(link_init_seconds(path, 2, err, sizeof err) < 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected pairs \"p seconds\""));
  unlink(path);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_calibration_inside_cluster_matches_table2", test_sim_calibration_inside_cluster_matches_table2},
      {"test_sim_calibration_crossing_routes_pay_c004_stages", test_sim_calibration_crossing_routes_pay_c004_stages},
      {"test_sim_calibration_link_init_per_link_or_table5", test_sim_calibration_link_init_per_link_or_table5},
      {"test_sim_calibration_covers_every_distance_and_size", test_sim_calibration_covers_every_distance_and_size},
      {"test_sim_calibration_hops_are_mesh_distances", test_sim_calibration_hops_are_mesh_distances},
      {"test_sim_calibration_ladder_ends_at_max_bytes", test_sim_calibration_ladder_ends_at_max_bytes},
      {"test_sim_calibration_rejects_max_below_min", test_sim_calibration_rejects_max_below_min},
      {"test_sim_calibration_shared_link_slows_messages", test_sim_calibration_shared_link_slows_messages},
      {"test_sim_calibration_opposite_directions_do_not_contend",
       test_sim_calibration_opposite_directions_do_not_contend},
      {NULL, NULL},
  };
  return tu_run("sim_calibration", cases);
}
