/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The analytic network (sim_replay_world.h) against two independent references: SimGrid's network running the same
 * program (every interval of every rank to 1e-9 relative where no two messages share a link), and hand calculations
 * of one message alone (seed 001's Table 2 for the T800, latency + size / bandwidth for Fast Ethernet). Where messages
 * do share a link, SimGrid shares its bandwidth and the analytic network does not: both are checked by hand. */
#include "app_catalogue.h"
#include "met_comm.h"
#include "sim_error.h"
#include "sim_run.h"
#include "tu_cli.h"
#include "tu_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PENTIUM2 SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml"
#define ICLUSTER SIMRUN_SOURCE_DIR "/platforms/icluster-fe-32.xml"
#define TI_DATA  SIMRUN_SOURCE_DIR "/tests/data/ti"
/* pentium2-fe-8.xml: every route is up-src (0.5 us) then down-dst (123.54 us), 11866059.8 B/s, CM02 (no factors) */
#define FE_LATENCY   124.04e-6
#define FE_BANDWIDTH 11866059.8
#define REL          1e-9

/* Platforms written once by `simrun platform` into one temporary folder: a 4 x 4 mesh of the t800-flat preset, and
 * 130 icluster hosts behind one switch (more ranks than a rank's SIM_PEER_SLOTS = 128 peer slots). */
static char folder[256];
static char flat[512];
static char switch130[512];

/* Seed 001's Table 2, eq. 4: a message of l bytes over d links of a quiet T800 network, in seconds. */
static double table2(double l, int d)
{
  if (l <= 120)
    return 1e-6 * (51.1 + 0.27 * l + (8.86 + 0.68 * l) * d);
  return 1e-6 * (-81.5 + 1.33 * l + (93.04 + 0.05 * l) * d);
}

static double fast_ethernet(double bytes)
{
  return FE_LATENCY + bytes / FE_BANDWIDTH;
}

/* `simrun platform KIND SIZE --preset PRESET -o FILE` in the folder, once: FILE's path in `path`. */
static const char *generated(char *path, size_t pathlen, const char *kind, const char *size, const char *preset,
                             const char *file)
{
  if (path[0])
    return path;
  if (!folder[0]) {
    snprintf(folder, sizeof folder, "/tmp/simrun-analytic-XXXXXX");
    CU_ASSERT_FATAL(mkdtemp(folder) != NULL);
  }
  const char *args[] = {"platform", kind, size, "--preset", preset, "-o", file, NULL};
  cli_run_t run;
  CU_ASSERT_FATAL(run_simrun(folder, args, &run) == 0 && run.status == 0);
  run_free(&run);
  snprintf(path, pathlen, "%s/%s", folder, file);
  return path;
}

static const char *flat_mesh(void)
{
  return generated(flat, sizeof flat, "mesh", "4x4", "t800-flat", "flat.xml");
}

/* The program's run on `platform` with the analytic network or SimGrid's; NULL (with the error in err) on failure. */
static met_trace_t *simulate(const char *platform, int nranks, sim_program_fn program, int analytic, int *rc, char *err,
                             size_t errlen)
{
  sim_job_t job = {
      .platform = platform, .nranks = nranks, .bcast = SIM_BCAST_ONE_TO_ALL, .program = program, .analytic = analytic};
  met_trace_t *trace = NULL;
  *rc = tu_sim_run(&job, &trace, err, errlen);
  return trace;
}

static met_trace_t *run(const char *platform, int nranks, sim_program_fn program, int analytic)
{
  char err[1024];
  int rc;
  met_trace_t *trace = simulate(platform, nranks, program, analytic, &rc, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "simulation failed: %s\n", err);
  CU_ASSERT_FATAL(rc == 0 && trace != NULL);
  return trace;
}

static int close_within(double a, double b, double rel)
{
  return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-15;
}

static int close_to(double a, double b)
{
  return close_within(a, b, REL);
}

/* Every interval of every rank the same in both traces: category, peer, bytes, hops, and times to `rel`. */
static void assert_same_trace_within(const met_trace_t *a, const met_trace_t *b, double rel)
{
  CU_ASSERT_FATAL(met_trace_nranks(a) == met_trace_nranks(b));
  for (int r = 0; r < met_trace_nranks(a); r++) {
    CU_ASSERT_FATAL(met_trace_count(a, r) == met_trace_count(b, r));
    const met_interval_t *x = met_trace_intervals(a, r);
    const met_interval_t *y = met_trace_intervals(b, r);
    for (size_t i = 0; i < met_trace_count(a, r); i++) {
      int same = x[i].category == y[i].category && x[i].peer == y[i].peer && x[i].bytes == y[i].bytes &&
                 x[i].hops == y[i].hops && close_within(x[i].start, y[i].start, rel) &&
                 close_within(x[i].end, y[i].end, rel);
      if (!same)
        fprintf(stderr, "rank %d interval %zu: [%.12g, %.12g] cat %d peer %d against [%.12g, %.12g] cat %d peer %d\n",
                r, i, x[i].start, x[i].end, (int)x[i].category, x[i].peer, y[i].start, y[i].end, (int)y[i].category,
                y[i].peer);
      CU_ASSERT_FATAL(same);
    }
  }
}

/* Every interval of every rank the same in both traces, times to 1e-9. */
static void assert_same_trace(const met_trace_t *a, const met_trace_t *b)
{
  assert_same_trace_within(a, b, REL);
}

/* Both networks on the program: the same trace. Returns the analytic one (the caller frees it). */
static met_trace_t *both_networks(const char *platform, int nranks, sim_program_fn program)
{
  met_trace_t *simgrid = run(platform, nranks, program, 0);
  met_trace_t *analytic = run(platform, nranks, program, 1);
  assert_same_trace(simgrid, analytic);
  met_trace_free(simgrid);
  return analytic;
}

static const double pingpong_sizes[] = {8, 120, 121, 1000, 65536};
enum { PINGPONG_SIZES = sizeof pingpong_sizes / sizeof pingpong_sizes[0] };

/* Rank 0 exchanges every size with every other rank in turn, one message at a time. */
static void pingpong(sim_rank_t *rank, const void *arg)
{
  int me = sim_rank_id(rank);
  for (int r = 1; r < sim_rank_count(rank); r++)
    for (int s = 0; s < PINGPONG_SIZES; s++)
      if (me == 0) {
        sim_send(rank, r, pingpong_sizes[s]);
        sim_recv(rank, r, pingpong_sizes[s]);
      } else if (me == r) {
        sim_recv(rank, 0, pingpong_sizes[s]);
        sim_send(rank, 0, pingpong_sizes[s]);
      }
}

/* On the flat T800 mesh every message of the ping-pong takes Table 2's T(l, d), d its hop count (1 to 6 on 4 x 4),
 * under both networks. */
static void test_sim_replay_analytic_pingpong_is_table2(void)
{
  met_trace_t *trace = both_networks(flat_mesh(), 16, pingpong);
  size_t checked = 0;
  int farthest = 0;
  const met_interval_t *iv = met_trace_intervals(trace, 0);
  for (size_t i = 0; i < met_trace_count(trace, 0); i++)
    if (iv[i].category == MET_CAT_COMM) {
      double expected = table2(iv[i].bytes, iv[i].hops);
      if (!close_to(iv[i].end - iv[i].start, expected))
        fprintf(stderr, "%g B over %d hops: %.12g s, Table 2 %.12g s\n", iv[i].bytes, iv[i].hops,
                iv[i].end - iv[i].start, expected);
      CU_ASSERT(close_to(iv[i].end - iv[i].start, expected));
      farthest = iv[i].hops > farthest ? iv[i].hops : farthest;
      checked++;
    }
  CU_ASSERT_EQUAL(checked, 2 * 15 * PINGPONG_SIZES);
  CU_ASSERT_EQUAL(farthest, 6);
  met_trace_free(trace);
}

static void busy(sim_rank_t *rank, double seconds)
{
  sim_sleep(rank, seconds);
}

/* On Fast Ethernet with eager sends below 64 KiB: rank 0 sends 1000 B (eager) and 100000 B (synchronous) to rank 1,
 * which computes 0.01 s before each receive. */
static void eager_then_synchronous(sim_rank_t *rank, const void *arg)
{
  if (sim_rank_id(rank) == 0) {
    sim_send(rank, 1, 1000);
    sim_send(rank, 1, 100000);
    return;
  }
  for (int k = 0; k < 2; k++) {
    busy(rank, 0.01);
    sim_recv(rank, 0, k == 0 ? 1000 : 100000);
  }
}

/* By hand: the eager send is over for rank 0 at 0 and, on this platform (simrun:eager-start = send), moves at once:
 * it has arrived (T(1000)) before rank 1 receives it at 0.01, which costs rank 1 nothing. The synchronous one waits
 * for rank 1's second receive, at 0.01 + 0.01, and both end T(100000) later. */
static void test_sim_replay_analytic_eager_and_synchronous_sends(void)
{
  met_trace_t *trace = both_networks(PENTIUM2, 2, eager_then_synchronous);
  double second = 0.01 + 0.01;
  CU_ASSERT(close_to(met_trace_end(trace), second + fast_ethernet(100000)));
  CU_ASSERT(close_to(met_trace_category_time(trace, 0, MET_CAT_IDLE), second));
  CU_ASSERT(close_to(met_trace_category_time(trace, 1, MET_CAT_COMM), fast_ethernet(100000)));
  CU_ASSERT_EQUAL(met_comm_messages(trace), 2);
  met_trace_free(trace);
}

/* Rank 0 sends 60000 B eagerly to rank 1, computes 1 ms, then 1000 B eagerly to rank 129, whose peer slot is rank 1's
 * at 130 ranks (129 mod 128); both receive from the start. */
static void two_peers_one_slot(sim_rank_t *rank, const void *arg)
{
  int me = sim_rank_id(rank);
  if (me == 0) {
    sim_send(rank, 1, 60000);
    busy(rank, 1e-3);
    sim_send(rank, 129, 1000);
  } else if (me == 1 || me == 129)
    sim_recv(rank, 0, me == 1 ? 60000 : 1000);
}

/* icluster's Fast Ethernet (eager below 64 KiB, moving when sent, simrun:eager-start = send): both messages leave
 * rank 0 by its port's up link. By hand, the 1000 B one is sent at 1 ms and, after the route's 2 x 62.02 us of
 * latency, shares that link with the 60000 B one (still moving until about 5.2 ms) under SimGrid's network: 1000 B at
 * half the bandwidth; the analytic network leaves the sharing out: 1000 B at the whole of it. Before, the second
 * send took the slot of rank 1's message and waited for it to arrive first, which no connection of its own makes
 * it do: rank 129 then received at about 5.4 ms under SimGrid's network. */
static void test_sim_replay_analytic_eager_beyond_the_peer_slots(void)
{
  const char *platform = generated(switch130, sizeof switch130, "switch", "130", "icluster", "switch130.xml");
  const double latency = 2 * 62.02e-6;
  double shared = 1e-3 + latency + 1000 / (FE_BANDWIDTH / 2);
  double alone = 1e-3 + latency + 1000 / FE_BANDWIDTH;
  for (int analytic = 0; analytic <= 1; analytic++) {
    met_trace_t *trace = run(platform, 130, two_peers_one_slot, analytic);
    double received = -1; /* the end of rank 129's last interval on its message from rank 0 */
    const met_interval_t *iv = met_trace_intervals(trace, 129);
    for (size_t i = 0; i < met_trace_count(trace, 129); i++)
      if (iv[i].peer == 0 && iv[i].dir == MET_DIR_RECV)
        received = iv[i].end;
    CU_ASSERT(close_within(received, analytic ? alone : shared, 1e-6));
    if (!close_within(received, analytic ? alone : shared, 1e-6))
      fprintf(stderr, "%s network: rank 129 received at %.9g s, by hand %.9g s\n", analytic ? "analytic" : "SimGrid's",
              received, analytic ? alone : shared);
    met_trace_free(trace);
  }
}

/* Non-blocking messages posted at the ranks' clocks (as a TI trace's): rank 0 isends 5000 B at 0 and computes 0.01 s,
 * tests (not over: rank 1 posts at 0.02), then waits; rank 1 computes 0.02 s, irecvs and waits. */
static void nonblocking(sim_rank_t *rank, const void *arg)
{
  sim_post_at_own_clock(rank, 0, 0);
  if (sim_rank_id(rank) == 0) {
    sim_request_t *req = sim_isend(rank, 1, 5000);
    busy(rank, 0.01);
    CU_ASSERT_FALSE(sim_test(rank, req));
    sim_wait(rank, req);
  } else {
    busy(rank, 0.02);
    sim_request_t *req = sim_irecv(rank, 0, 5000);
    sim_wait(rank, req);
  }
}

static void test_sim_replay_analytic_nonblocking_messages(void)
{
  met_trace_t *trace = both_networks(PENTIUM2, 2, nonblocking);
  CU_ASSERT(close_to(met_trace_end(trace), 0.02 + fast_ethernet(5000)));
  CU_ASSERT(close_to(met_trace_category_time(trace, 0, MET_CAT_IDLE), 0.01));
  met_trace_free(trace);
}

/* Rank 0 posts a receive from rank 1 and cancels it, then receives 200 B from rank 1, which sends at 0.01 s. */
static void cancelled_receive(sim_rank_t *rank, const void *arg)
{
  sim_post_at_own_clock(rank, 0, 0);
  if (sim_rank_id(rank) == 0) {
    sim_cancel(rank, sim_irecv(rank, 1, 100));
    sim_recv(rank, 1, 200);
  } else {
    busy(rank, 0.01);
    sim_send(rank, 0, 200);
  }
}

/* A cancelled receive matches nothing: the send meets the receive after it, ending at 0.01 + T(200). */
static void test_sim_replay_analytic_cancelled_receive(void)
{
  met_trace_t *trace = both_networks(PENTIUM2, 2, cancelled_receive);
  CU_ASSERT(close_to(met_trace_end(trace), 0.01 + fast_ethernet(200)));
  CU_ASSERT_EQUAL(met_comm_messages(trace), 1);
  met_trace_free(trace);
}

/* Ranks 1 and 2 each send 1 MB to rank 0 at once; rank 0 has posted both receives: the two flows share rank 0's down
 * link. */
static void two_into_one(sim_rank_t *rank, const void *arg)
{
  sim_post_at_own_clock(rank, 0, 0);
  if (sim_rank_id(rank) == 0) {
    sim_request_t *a = sim_irecv(rank, 1, 1e6);
    sim_request_t *b = sim_irecv(rank, 2, 1e6);
    sim_wait(rank, a);
    sim_wait(rank, b);
  } else {
    sim_send(rank, 0, 1e6);
  }
}

/* Contention: SimGrid halves the down link's bandwidth for each flow, so both end at the latency + 2 MB / bandwidth;
 * the analytic network prices each alone, latency + 1 MB / bandwidth. */
static void test_sim_replay_analytic_leaves_contention_out(void)
{
  met_trace_t *simgrid = run(PENTIUM2, 3, two_into_one, 0);
  met_trace_t *analytic = run(PENTIUM2, 3, two_into_one, 1);
  CU_ASSERT(close_to(met_trace_end(simgrid), FE_LATENCY + 2e6 / FE_BANDWIDTH));
  CU_ASSERT(close_to(met_trace_end(analytic), fast_ethernet(1e6)));
  met_trace_free(simgrid);
  met_trace_free(analytic);
}

/* Both ranks receive first: neither send ever comes. */
static void crossed_receives(sim_rank_t *rank, const void *arg)
{
  sim_recv(rank, 1 - sim_rank_id(rank), 100);
  sim_send(rank, 1 - sim_rank_id(rank), 100);
}

/* A deadlock is named as under SimGrid's network. */
static void test_sim_replay_analytic_names_a_deadlock(void)
{
  char err[1024];
  int rc;
  met_trace_t *trace = simulate(flat_mesh(), 2, crossed_receives, 1, &rc, err, sizeof err);
  CU_ASSERT_PTR_NULL(trace);
  CU_ASSERT_EQUAL(rc, SIM_EDEADLOCK);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "rank 0 never finished: it waits to receive from rank 1"));
}

/* Rank 0 sends eagerly; rank 1 never receives. */
static void unreceived(sim_rank_t *rank, const void *arg)
{
  if (sim_rank_id(rank) == 0)
    sim_send(rank, 1, 100);
}

static void test_sim_replay_analytic_names_a_lost_eager_message(void)
{
  char err[1024];
  int rc;
  met_trace_t *trace = simulate(PENTIUM2, 2, unreceived, 1, &rc, err, sizeof err);
  CU_ASSERT_PTR_NULL(trace);
  CU_ASSERT_EQUAL(rc, SIM_EPARAM);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "rank 0's send of 100 bytes to rank 1 is never received"));
}

/* Runs simrun with `args` in `dir`, which must succeed, and returns the out.csv it wrote (the caller frees it). */
static char *simrun_csv(const char *dir, const char *const *args)
{
  cli_run_t run;
  CU_ASSERT_FATAL(run_simrun(dir, args, &run) == 0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  char *csv = read_output(dir, "out.csv");
  CU_ASSERT_FATAL(csv != NULL);
  return csv;
}

/* The CSV of `network`'s run of the T800 ping-pong scenario, with the network's name replaced by X; NULL on failure. */
static char *pingpong_csv(const char *dir, const char *network)
{
  char set[64];
  snprintf(set, sizeof set, "network=%s", network);
  const char *args[] = {"-q", "--no-cache", "--set", set, "--csv", "out.csv", "t800-pingpong", NULL};
  char *csv = simrun_csv(dir, args);
  char *at = strstr(csv, network);
  CU_ASSERT_FATAL(at != NULL && at[-1] == ',' && at[strlen(network)] == ',');
  memmove(at + 1, at + strlen(network), strlen(at + strlen(network)) + 1);
  *at = 'X';
  return csv;
}

/* `--set network=analytic` runs a shipped scenario with the analytic network, named in the CSV's network column:
 * the T800 ping-pong (one message at a time) gives SimGrid's figures; an unknown network is refused. */
static void test_sim_replay_analytic_scenario_parameter(void)
{
  char dir[] = "/tmp/simrun-analytic-XXXXXX";
  CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
  char *simgrid = pingpong_csv(dir, "simgrid");
  char *analytic = pingpong_csv(dir, "analytic");
  CU_ASSERT_STRING_EQUAL(simgrid, analytic);
  free(simgrid);
  free(analytic);
  const char *args[] = {"--set", "network=bogus", "t800-pingpong", NULL};
  cli_run_t run;
  CU_ASSERT_FATAL(run_simrun(dir, args, &run) == 0);
  CU_ASSERT_EQUAL(run.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "unknown network 'bogus'; choose one of: simgrid, analytic"));
  run_free(&run);
  /* the DSM protocol's messages are SimGrid communications of their own: refused rather than mixed */
  const char *dsm[] = {"-q", "--no-cache", "--set", "network=analytic", "dsm-false-sharing", NULL};
  CU_ASSERT_FATAL(run_simrun(dir, dsm, &run) == 0);
  CU_ASSERT_EQUAL(run.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "network = analytic prices the replay layer's messages, not the DSM"));
  run_free(&run);
  remove_folder(dir);
}

/* Runs `program` (a scenario's <program> element) at p = `p` on the flat 4 x 4 mesh under both networks and requires
 * T_par = `expected` from each, to the CSV's 9 significant digits. */
static void assert_mesh_t_par(const char *program, int p, double expected)
{
  char dir[] = "/tmp/simrun-analytic-XXXXXX";
  CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
  char path[2048];
  snprintf(path, sizeof path, "%s/mesh.xml", dir);
  FILE *xml = fopen(path, "w");
  CU_ASSERT_FATAL(xml != NULL);
  fprintf(xml,
          "<?xml version=\"1.0\"?>\n<scenario name=\"mesh\">\n  <platform file=\"%s\"/>\n  %s\n"
          "  <sweep><param name=\"network\" values=\"simgrid analytic\"/><param name=\"p\" values=\"%d\"/></sweep>\n"
          "</scenario>\n",
          flat_mesh(), program, p);
  fclose(xml);
  const char *args[] = {"-q", "--no-cache", "--csv", "out.csv", "mesh.xml", NULL};
  char *csv = simrun_csv(dir, args);
  CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",simgrid,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",analytic,"));
  static const char *const t_par[] = {"t_par_s", NULL};
  for (int row = 1; row <= 2; row++)
    CU_ASSERT_DOUBLE_EQUAL(csv_number(csv, row, t_par), expected, 1e-8 * expected);
  free(csv);
  remove_folder(dir);
}

/* The ping-ring skeleton: a 1000-byte token round 16 ranks in snake order is 15 messages of one hop and one of 3
 * (rank 15, at row 3 column 0, back to rank 0): by Table 2, 15 T(1000, 1) + T(1000, 3). */
static void test_sim_replay_analytic_ping_ring(void)
{
  assert_mesh_t_par("<program skeleton=\"ping-ring\"><param name=\"bytes\" value=\"1000\"/></program>", 16,
                    15 * table2(1000, 1) + table2(1000, 3));
}

/* The broadcast skeleton's binomial tree: 4 ranks take the 2 x 2 square in snake order (rank 2 diagonal to rank 0, 2
 * hops), and MPICH's tree has the root send to rank 2, then to rank 1, while rank 2 passes the block to rank 3 (1 hop
 * each, on other links): T(1000, 2) + T(1000, 1) by Table 2. */
static void test_sim_replay_analytic_binomial_broadcast(void)
{
  assert_mesh_t_par("<program skeleton=\"broadcast\"><param name=\"bytes\" value=\"1000\"/>"
                    "<param name=\"broadcast\" value=\"binomial\"/></program>",
                    4, table2(1000, 2) + table2(1000, 1));
}

/* A skeleton's point as a scenario gives it: names and values. */
typedef struct skeleton_case {
  const char *skeleton;
  const char *platform; /* NULL: the flat 4 x 4 T800 mesh */
  int nranks;
  const char *names[6];
  const char *values[6];
} skeleton_case_t;

/* The skeleton's run of `c` under the analytic network, its ranks as light contexts or as SimGrid actors
 * (`analytic`); ranks on hosts of their own (share_hosts 0), so that ti-replay's computations take their time alone
 * under both. */
static met_trace_t *run_skeleton(const skeleton_case_t *c, int analytic)
{
  const app_skeleton_t *skeleton = app_find(c->skeleton);
  CU_ASSERT_FATAL(skeleton != NULL);
  size_t count = 0;
  while (count < 6 && c->names[count])
    count++;
  app_point_t point = {.count = count, .names = c->names, .values = c->values};
  void *arg = NULL;
  char err[1024];
  const char *blame = NULL;
  int rc = skeleton->prepare(&point, c->nranks, &arg, err, sizeof err, &blame);
  if (rc != 0)
    fprintf(stderr, "%s: %s\n", c->skeleton, err);
  CU_ASSERT_FATAL(rc == 0);
  const char *bcast = app_point_value(&point, "broadcast");
  sim_job_t job = {.platform = c->platform ? c->platform : flat_mesh(),
                   .nranks = c->nranks,
                   .bcast = bcast ? (sim_bcast_alg_t)sim_bcast_parse(bcast) : SIM_BCAST_ONE_TO_ALL,
                   .program = skeleton->program,
                   .arg = arg,
                   .analytic = analytic,
                   .engine_cfg = skeleton->engine_cfg ? skeleton->engine_cfg(arg) : NULL,
                   .drop_unreceived = skeleton->drops_unreceived};
  met_trace_t *trace = NULL;
  rc = tu_sim_run(&job, &trace, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "%s: %s\n", c->skeleton, err);
  CU_ASSERT_FATAL(rc == 0 && trace != NULL);
  skeleton->release(arg);
  return trace;
}

/* Every skeleton the analytic network runs (the DSM ones refuse it) at a small p, every broadcast algorithm of
 * Gauss-Jordan: simrun's light contexts give the trace the SimGrid actors give, interval by interval on every rank,
 * to 1e-12 relative (the same arithmetic in an order that may differ only between events at one time). */
static void test_sim_replay_analytic_light_contexts_as_actors(void)
{
  static const skeleton_case_t cases[] = {
      {"gauss-jordan", NULL, 16, {"n", "broadcast"}, {"32", "one-to-all"}},
      {"gauss-jordan", NULL, 16, {"n", "broadcast"}, {"32", "neighbour"}},
      {"gauss-jordan", NULL, 16, {"n", "broadcast"}, {"32", "binomial"}},
      {"gauss-jordan", NULL, 16, {"n", "broadcast"}, {"32", "pipelined-chain"}},
      {"gauss-jordan", NULL, 16, {"n", "broadcast"}, {"32", "mesh"}},
      {"gauss-jordan", NULL, 16, {"n", "broadcast"}, {"32", "scatter-allgather"}},
      {"ring-matmul", PENTIUM2, 8, {"n"}, {"64"}},
      {"pdgemm", ICLUSTER, 16, {"m", "n", "k", "block", "broadcast"}, {"256", "256", "256", "32", "binomial"}},
      {"pdtrsm", ICLUSTER, 16, {"m", "n", "block", "broadcast"}, {"256", "128", "32", "binomial"}},
      {"ping-pong", NULL, 2, {"min-bytes", "max-bytes"}, {"8", "65536"}},
      {"ping-ring", NULL, 16, {"bytes", "laps"}, {"1000", "3"}},
      {"broadcast", NULL, 16, {"bytes", "broadcast", "laps"}, {"1000", "binomial", "2"}},
      {"ti-replay",
       TI_DATA "/five-hosts.xml",
       3,
       {"trace", "hostfile", "network"},
       {TI_DATA "/kinds/allreduce.txt", TI_DATA "/five-hosts", "analytic"}},
      {"ti-replay",
       TI_DATA "/five-hosts.xml",
       3,
       {"trace", "hostfile", "network"},
       {TI_DATA "/kinds/isend.txt", TI_DATA "/five-hosts", "analytic"}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    met_trace_t *light = run_skeleton(&cases[i], SIM_ANALYTIC);
    met_trace_t *actors = run_skeleton(&cases[i], SIM_ANALYTIC_ACTORS);
    assert_same_trace_within(light, actors, 1e-12);
    met_trace_free(light);
    met_trace_free(actors);
  }
}

/* The last end of any interval of rank `r`. */
static double rank_end(const met_trace_t *trace, int r)
{
  double end = 0;
  for (size_t i = 0; i < met_trace_count(trace, r); i++)
    end = fmax(end, met_trace_intervals(trace, r)[i].end);
  return end;
}

/* ti-replay under the analytic network against times computed by hand (tests/data/ti/hand/README.md): rank 0
 * computes 0.1 s, its 100,000 bytes take latency + bytes / bandwidth, rank 1 computes 0.05 s from their arrival,
 * its 50,000 bytes back likewise; rank 0 ends when they arrive. */
static void test_sim_replay_analytic_ti_by_hand(void)
{
  const skeleton_case_t pair = {"ti-replay",
                                PENTIUM2,
                                2,
                                {"trace", "hostfile", "network"},
                                {TI_DATA "/hand/pair.txt", TI_DATA "/hand/hosts", "analytic"}};
  met_trace_t *trace = run_skeleton(&pair, SIM_ANALYTIC);
  double arrival = 7.2e6 / 72e6 + fast_ethernet(100000);
  double answered = arrival + 3.6e6 / 72e6 + fast_ethernet(50000);
  const met_interval_t *compute = NULL;
  for (size_t i = 0; i < met_trace_count(trace, 1); i++)
    if (met_trace_intervals(trace, 1)[i].category == MET_CAT_COMPUTE)
      compute = &met_trace_intervals(trace, 1)[i];
  CU_ASSERT_FATAL(compute != NULL);
  if (!close_to(compute->start, arrival) || !close_to(rank_end(trace, 0), answered))
    fprintf(stderr, "\nrank 1 computes from %.12g (by hand %.12g); rank 0 ends at %.12g (by hand %.12g)\n",
            compute->start, arrival, rank_end(trace, 0), answered);
  CU_ASSERT(close_to(compute->start, arrival));
  CU_ASSERT(close_to(compute->end, arrival + 0.05));
  CU_ASSERT(close_to(rank_end(trace, 0), answered));
  CU_ASSERT(rank_end(trace, 1) <= answered + 1e-12); /* its eager answer is over once posted */
  met_trace_free(trace);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_replay_analytic_pingpong_is_table2", test_sim_replay_analytic_pingpong_is_table2},
      {"test_sim_replay_analytic_ti_by_hand", test_sim_replay_analytic_ti_by_hand},
      {"test_sim_replay_analytic_eager_and_synchronous_sends", test_sim_replay_analytic_eager_and_synchronous_sends},
      {"test_sim_replay_analytic_eager_beyond_the_peer_slots", test_sim_replay_analytic_eager_beyond_the_peer_slots},
      {"test_sim_replay_analytic_nonblocking_messages", test_sim_replay_analytic_nonblocking_messages},
      {"test_sim_replay_analytic_cancelled_receive", test_sim_replay_analytic_cancelled_receive},
      {"test_sim_replay_analytic_leaves_contention_out", test_sim_replay_analytic_leaves_contention_out},
      {"test_sim_replay_analytic_names_a_deadlock", test_sim_replay_analytic_names_a_deadlock},
      {"test_sim_replay_analytic_names_a_lost_eager_message", test_sim_replay_analytic_names_a_lost_eager_message},
      {"test_sim_replay_analytic_scenario_parameter", test_sim_replay_analytic_scenario_parameter},
      {"test_sim_replay_analytic_ping_ring", test_sim_replay_analytic_ping_ring},
      {"test_sim_replay_analytic_binomial_broadcast", test_sim_replay_analytic_binomial_broadcast},
      {"test_sim_replay_analytic_light_contexts_as_actors", test_sim_replay_analytic_light_contexts_as_actors},
      {NULL, NULL}};
  int status = tu_run("sim_replay_analytic", cases);
  if (flat[0])
    unlink(flat);
  if (switch130[0])
    unlink(switch130);
  if (folder[0])
    rmdir(folder);
  return status;
}
