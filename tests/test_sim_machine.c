/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the machine characterisation (sim_machine, met_machine; docs/machines.md) against hand calculations on small
 * platforms of tests/data/machine: per-host costs inherited from the zone and overridden by a host (two hosts of
 * different speeds), the default from SimGrid's speed, the description the models take, and one error line naming
 * the file, the line, the property and the host for every bad value. */
#include "app_dsm_common.h"
#include "app_gj.h"
#include "met_comm.h"
#include "met_eppa.h"
#include "met_machine.h"
#include "sim_error.h"
#include "sim_replay.h"
#include "sim_run.h"
#include "stu_lost_cycles.h"
#include "stu_model.h"
#include "stu_sweep.h"
#include "tu.h"
#include "tu_run.h"

#include <math.h>
#include <string.h>

#define DATA SIMRUN_SOURCE_DIR "/tests/data/machine/"

/* 1000 CPU operations, 500 flops, 200 internal and 100 external memory accesses. */
static const met_ops_t work = {
    .n = {[MET_CLASS_CPU] = 1000, [MET_CLASS_FLOP] = 500, [MET_CLASS_INTMEM] = 200, [MET_CLASS_EXTMEM] = 100}};

static void work_program(sim_rank_t *rank, const void *arg)
{
  sim_work(rank, arg, 1, SIM_WORK);
}

static met_trace_t *run_work(const char *platform)
{
  sim_job_t job = {.platform = platform, .nranks = 2, .program = work_program, .arg = &work};
  met_trace_t *trace = NULL;
  char err[1024];
  if (tu_sim_run(&job, &trace, err, sizeof err) != 0)
    fprintf(stderr, "simulation failed: %s\n", err);
  return trace;
}

/* The one compute interval of `rank`. */
static const met_interval_t *compute_of(const met_trace_t *trace, int rank)
{
  CU_ASSERT_FATAL(met_trace_count(trace, rank) == 1);
  const met_interval_t *iv = met_trace_intervals(trace, rank);
  CU_ASSERT_FATAL(iv->category == MET_CAT_COMPUTE);
  return iv;
}

/* Rank 0 on a-slow, the zone's figures: 1000 x 1 + 500 x 2 + 200 x 3 + 100 x 10 = 3600 cycles at 1e9 Hz = 3.6 us,
 * of which external memory 1000 cycles = 1 us. Rank 1 on b-fast, its own clock and extmem: 1000 + 1000 + 600 + 100 x 4
 * = 3000 cycles at 2e9 Hz = 1.5 us, external memory 400 cycles = 0.2 us. */
static void test_sim_machine_heterogeneous_hosts_by_hand(void)
{
  met_trace_t *trace = run_work(DATA "two-hosts.xml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  const met_interval_t *slow = compute_of(trace, 0);
  const met_interval_t *fast = compute_of(trace, 1);
  TU_ASSERT_CLOSE(slow->end - slow->start, 3.6e-6, 1e-18);
  TU_ASSERT_CLOSE(slow->parts[MET_PART_EXTMEM], 1e-6, 1e-18);
  TU_ASSERT_CLOSE(slow->parts[MET_PART_FPU], 1e-6, 1e-18);
  TU_ASSERT_CLOSE(fast->end - fast->start, 1.5e-6, 1e-18);
  TU_ASSERT_CLOSE(fast->parts[MET_PART_EXTMEM], 0.2e-6, 1e-18);
  TU_ASSERT_CLOSE(fast->parts[MET_PART_INTMEM], 0.3e-6, 1e-18);
  met_trace_free(trace);
}

/* The host speed, the anomaly and the imbalance of a heterogeneous run, by hand (seed 000 §1.1: the anomaly is work
 * done in parallel beyond the sequential run's cost of the same operations; the sequential run is on rank 0's host).
 * Gauss-Jordan N = 16 on two-hosts-fast-first.xml: an Rsub-equivalent element (3 cpu, 2 flop, 2 intmem, 3 extmem)
 * costs (3 + 4 + 6 + 12) / 2e9 = 12.5 ns on a-fast (rank 0, and the sequential run) and (3 + 4 + 6 + 30) / 1e9 =
 * 43 ns on b-slow (rank 1). So rank 1's host speed is (43 - 12.5) / 43 of its work (its host is slower: positive),
 * its true anomaly 0 (no cache level), and its imbalance its elements at 12.5 ns less T_seq / 2; rank 0's host speed
 * and anomaly are 0, and the two imbalances add up to 0. Before, rank 1's slower host was reported as true anomaly,
 * and before that as imbalance. The machine line names both hosts' characterisations and T_seq's host. */
static void test_sim_machine_heterogeneous_anomaly_not_imbalance(void)
{
  scn_scenario_t *scenario = NULL;
  scn_error_t err;
  stu_study_t *study = NULL;
  CU_ASSERT_FATAL(scn_load(DATA "hetero-gj.xml", &scenario, &err) == 0);
  CU_ASSERT_FATAL(tu_study_run(scenario, &app_gj_skeleton, 2, NULL, NULL, &study, &err) == 0);
  double t_seq = study->points[0].t_par;
  const stu_point_t *par = &study->points[1];
  CU_ASSERT_FATAL(par->p == 2 && stu_procs(par));
  TU_ASSERT_CLOSE(t_seq, app_gj_element_ops(16) * 12.5e-9, 1e-15);
  const met_eppa_proc_t *fast = &stu_procs(par)[0];
  const met_eppa_proc_t *slow = &stu_procs(par)[1];
  TU_ASSERT_CLOSE(fast->anomaly, 0, 1e-18);
  TU_ASSERT_CLOSE(fast->host_speed, 0, 1e-18);
  TU_ASSERT_CLOSE(slow->host_speed, slow->work * 30.5 / 43, 1e-15);
  TU_ASSERT_CLOSE(slow->anomaly, 0, 1e-18);
  TU_ASSERT_CLOSE(slow->imbalance, slow->work / 43e-9 * 12.5e-9 - t_seq / 2, 1e-15);
  TU_ASSERT_CLOSE(slow->host_speed + slow->anomaly + slow->imbalance, slow->ovh_time[MET_OVH_ANOMALY], 1e-15);
  TU_ASSERT_CLOSE(fast->imbalance + slow->imbalance, 0, 1e-15);
  CU_ASSERT(slow->host_speed > 0.5 * slow->work);
  const char *machine = stu_model_machine(par);
  CU_ASSERT(strstr(machine, "2 characterisations: [a-fast, 1 rank: 2e+09 Hz; cycles per cpu 1, flop 2, intmem 3, "
                            "extmem 4; memory 1 MiB] [b-slow, 1 rank: 1e+09 Hz; cycles per cpu 1, flop 2, intmem 3, "
                            "extmem 10; memory 0.0625 MiB]") != NULL);
  CU_ASSERT(strstr(machine, "T_seq is the run at p = 1 on rank 0's host a-fast") != NULL);
  /* eq. 11 takes the slow host's computation (the critical path), not rank 0's fast one: -0.9% here */
  CU_ASSERT(fabs(stu_model_time(par) - par->t_par) <= 0.10 * par->t_par);
  stu_free(study);
  scn_free(scenario);
}

/* No characterisation: a CPU operation or a flop takes 1 / 5e8 s and memory is free: 1500 / 5e8 = 3 us. */
static void test_sim_machine_default_from_speed(void)
{
  met_trace_t *trace = run_work(DATA "plain.xml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  for (int r = 0; r < 2; r++) {
    const met_interval_t *iv = compute_of(trace, r);
    TU_ASSERT_CLOSE(iv->end - iv->start, 3e-6, 1e-18);
    CU_ASSERT_EQUAL(iv->parts[MET_PART_EXTMEM], 0);
  }
  met_trace_free(trace);
  static met_platform_t m;
  char err[1024];
  CU_ASSERT_FATAL(sim_run_describe(DATA "plain.xml", 2, &m, err, sizeof err) == 0);
  CU_ASSERT(m.charac.derived && m.uniform && m.charac.memory_bytes == 0);
  CU_ASSERT(strstr(m.origin, "default") && strstr(m.origin, "h0") && strstr(m.origin, "plain.xml"));
}

/* What the models see of two-hosts.xml: rank 0's host's figures from the zone, not uniform, the route's latency and
 * the bandwidth a message alone gets (its one shared link of 100 MB/s also carries the reverse flow of SimGrid's
 * default network/crosstraffic, 5%: 100e6 / 1.05 B/s), one hop; the origin names the zone and the file. */
static void test_sim_machine_describe_two_hosts(void)
{
  static met_platform_t m;
  char err[1024];
  CU_ASSERT_FATAL(sim_run_describe(DATA "two-hosts.xml", 2, &m, err, sizeof err) == 0);
  CU_ASSERT(!m.charac.derived && !m.uniform && !m.piecewise);
  CU_ASSERT_EQUAL(m.charac.clock_hz, 1e9);
  CU_ASSERT_EQUAL(m.charac.cycles[MET_CLASS_EXTMEM], 10);
  CU_ASSERT_EQUAL(m.charac.memory_bytes, 1048576);
  CU_ASSERT_EQUAL(m.hops[1], 1);
  TU_ASSERT_CLOSE(m.latency, 10e-6, 1e-18);
  TU_ASSERT_CLOSE(m.bandwidth, 100e6 / 1.05, 1e-6);
  CU_ASSERT(strstr(m.origin, "pair") && strstr(m.origin, "two-hosts.xml"));
  TU_ASSERT_CLOSE(met_charac_seconds(&m.charac, &work, 1), 3.6e-6, 1e-18);
}

/* Concurrent broadcasts sharing a link (sim_routes_grid_shared), by hand on line-4.xml, h0 - h1 - h2 - h3, every
 * link 100 MB/s: on the 2 x 2 grid the column broadcasts 0 -> 2 and 1 -> 3 both cross link b, each at half its
 * route's 100 MB/s (its one round counted as 2); the row broadcasts cross a and c apart (1 round). A single row
 * (1 x 4) has one tree, sent as sim_coll_binomial_tree does, the largest span first: from root 0, 0 -> 2, then
 * 0 -> 1 and 2 -> 3 (a; c: apart); root 1 (relative order 1 2 3 0), 1 -> 3, then 1 -> 2 and 3 -> 0, both over b
 * (2); root 2, 2 -> 0, then 2 -> 3 and 0 -> 1 (apart); root 3, 3 -> 1, then 3 -> 0 and 1 -> 2, both over b (2).
 * Mean over the roots: (2 + 3 + 2 + 3) / 4 = 2.5 rounds; likewise a single column (4 x 1). */
static void test_sim_machine_grid_broadcasts_share_a_link(void)
{
  static met_platform_t m;
  char err[1024];
  CU_ASSERT_FATAL(sim_run_describe(DATA "line-4.xml", 4, &m, err, sizeof err) == 0);
  CU_ASSERT_EQUAL(m.grid_shared[2], 1);
  CU_ASSERT_EQUAL(m.grid_shared[1], 1);
  CU_ASSERT_EQUAL(m.grid_shared[4], 1);
  TU_ASSERT_CLOSE(m.grid_rounds[2][0], 1, 1e-12);
  TU_ASSERT_CLOSE(m.grid_rounds[2][1], 2, 1e-12);
  TU_ASSERT_CLOSE(m.grid_rounds[1][0], 2.5, 1e-12);
  TU_ASSERT_CLOSE(m.grid_rounds[4][1], 2.5, 1e-12);
  CU_ASSERT_FATAL(sim_run_describe(SIMRUN_SOURCE_DIR "/platforms/icluster-fe-32.xml", 4, &m, err, sizeof err) == 0);
  CU_ASSERT_EQUAL(m.grid_shared[2], 0); /* every host its own links to the switch */
}

/* The DSM skeletons' multiply-add element (3 cpu, 2 flop, 3 extmem) on NCP2's PowerPC 604, by hand from the platform
 * file: 3 x 0.5 + 2 x 1 + 3 x 1.5 = 8 cycles at 100 MHz = 80 ns, the 8 cycles the skeletons charged before the cost
 * moved to the platform. */
static void test_sim_machine_dsm_element_on_ncp2(void)
{
  static met_platform_t m;
  char err[1024];
  CU_ASSERT_FATAL(sim_run_describe(SIMRUN_SOURCE_DIR "/platforms/ncp2-myrinet-8.xml", 2, &m, err, sizeof err) == 0);
  TU_ASSERT_CLOSE(met_charac_seconds(&m.charac, &app_dsm_element, 1), 80e-9, 1e-21);
}

/* Every bad value stops the platform check with one line: file:line, the property, the value, the host. */
static void test_sim_machine_bad_values_name_file_and_line(void)
{
  static const struct {
    const char *file;
    const char *where;
  } bad[] = {{"bad-negative.xml", "bad-negative.xml:13: property simrun:cycles-flop = \"-2\" (on zone 'pair')"},
             {"bad-nan.xml", "bad-nan.xml:12: property simrun:cycles-cpu = \"nan\" (on zone 'pair')"},
             {"bad-text.xml", "bad-text.xml:14: property simrun:cycles-intmem = \"fast\" (on zone 'pair')"},
             {"bad-clock.xml", "bad-clock.xml:11: property simrun:clock-hz = \"0\" (on zone 'pair')"},
             {"bad-partial.xml", "host a-slow has some simrun:cycles-* properties but not simrun:cycles-intmem"},
             {"bad-cache.xml", "host a has simrun:cache-bytes but not simrun:cycles-cache"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char path[512];
    char err[1024] = "";
    size_t hosts = 0;
    snprintf(path, sizeof path, DATA "%s", bad[i].file);
    CU_ASSERT_EQUAL(sim_run_probe(path, &hosts, err, sizeof err), SIM_EPLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].where));
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
  }
}

/* Rank 0 sends 1000 bytes, waits 1 ms, sends 2000 bytes; rank 1 waits 10 ms, then receives both. */
static void eager_program(sim_rank_t *rank, const void *arg)
{
  if (sim_rank_id(rank) == 0) {
    sim_send(rank, 1, 1000);
    sim_sleep(rank, 1e-3);
    sim_send(rank, 1, 2000);
  } else {
    sim_sleep(rank, 10e-3);
    sim_recv(rank, 0, 1000);
    sim_recv(rank, 0, 2000);
  }
}

static met_trace_t *run_eager_program(const char *platform)
{
  sim_job_t job = {.platform = platform, .nranks = 2, .program = eager_program};
  met_trace_t *trace = NULL;
  char err[1024];
  if (tu_sim_run(&job, &trace, err, sizeof err) != 0)
    fprintf(stderr, "simulation failed: %s\n", err);
  return trace;
}

/* By hand. eager-pair.xml (simrun:eager-bytes 1000; 10 us + l / 1e8 s per message): the 1000-byte send is eager, so
 * rank 0 is in its 1 ms wait at once, [0, 1 ms) (the send leaves a zero-length end, which counts as a message); the
 * 2000-byte send is synchronous: rank 1 takes the first message [10, 10.02) ms, then the second [10.02, 10.05) ms, so
 * rank 0 idles [1, 10.02) ms and sends [10.02, 10.05) ms. The T800 (no eager limit; Table 2, d = 1: 1391.54 us for 1000
 * B, 2771.54 us for 2000 B): rank 0 waits in its first send until rank 1 comes at 10 ms, sends until 11.39154 ms, then
 * waits its 1 ms; rank 1 waits for the second send until 12.39154 ms, which ends at 15.16308 ms. */
static void test_sim_machine_eager_below_the_limit_synchronous_on_the_t800(void)
{
  met_trace_t *trace = run_eager_program(DATA "eager-pair.xml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  const met_interval_t *first = met_trace_intervals(trace, 0);
  CU_ASSERT_FATAL(met_trace_count(trace, 0) == 4);
  CU_ASSERT(first[0].category == MET_CAT_COMM && first[0].dir == MET_DIR_SEND && first[0].bytes == 1000);
  CU_ASSERT(first[0].start == 0 && first[0].end == 0); /* the eager send's end: a message, no time */
  CU_ASSERT(first[1].category == MET_CAT_CTRL && first[1].start == 0);
  TU_ASSERT_CLOSE(first[1].end, 1e-3, 1e-12);
  CU_ASSERT(first[2].category == MET_CAT_IDLE && first[3].category == MET_CAT_COMM && first[3].bytes == 2000);
  TU_ASSERT_CLOSE(first[2].end, 10.02e-3, 1e-9);
  TU_ASSERT_CLOSE(first[3].end, 10.05e-3, 1e-9);
  CU_ASSERT_EQUAL(met_comm_messages(trace), 2);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMM), 50e-6, 1e-9);
  TU_ASSERT_CLOSE(met_trace_end(trace), 10.05e-3, 1e-9);
  met_trace_free(trace);

  trace = run_eager_program(SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  first = met_trace_intervals(trace, 0);
  CU_ASSERT_FATAL(met_trace_count(trace, 0) >= 3);
  CU_ASSERT(first[0].category == MET_CAT_IDLE && first[0].start == 0);
  TU_ASSERT_CLOSE(first[0].end, 10e-3, 1e-12);
  CU_ASSERT(first[1].category == MET_CAT_COMM && first[1].bytes == 1000);
  TU_ASSERT_CLOSE(first[1].end, 11.39154e-3, 1e-9);
  CU_ASSERT(first[2].category == MET_CAT_CTRL);
  TU_ASSERT_CLOSE(first[2].end, 12.39154e-3, 1e-9);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_IDLE), 1e-3, 1e-9);
  TU_ASSERT_CLOSE(met_trace_end(trace), 15.16308e-3, 1e-9);
  met_trace_free(trace);
}

/* A negative eager limit stops the platform check with one line naming the property and its value. */
static void test_sim_machine_bad_eager_limit(void)
{
  char err[1024] = "";
  size_t hosts = 0;
  CU_ASSERT_EQUAL(sim_run_probe(DATA "bad-eager.xml", &hosts, err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "simrun:eager-bytes = \"-1\""));
  CU_ASSERT_PTR_NULL(strchr(err, '\n'));
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_machine_heterogeneous_hosts_by_hand", test_sim_machine_heterogeneous_hosts_by_hand},
      {"test_sim_machine_heterogeneous_anomaly_not_imbalance", test_sim_machine_heterogeneous_anomaly_not_imbalance},
      {"test_sim_machine_default_from_speed", test_sim_machine_default_from_speed},
      {"test_sim_machine_describe_two_hosts", test_sim_machine_describe_two_hosts},
      {"test_sim_machine_grid_broadcasts_share_a_link", test_sim_machine_grid_broadcasts_share_a_link},
      {"test_sim_machine_bad_values_name_file_and_line", test_sim_machine_bad_values_name_file_and_line},
      {"test_sim_machine_eager_below_the_limit_synchronous_on_the_t800",
       test_sim_machine_eager_below_the_limit_synchronous_on_the_t800},
      {"test_sim_machine_bad_eager_limit", test_sim_machine_bad_eager_limit},
      {"test_sim_machine_dsm_element_on_ncp2", test_sim_machine_dsm_element_on_ncp2},
      {NULL, NULL}};
  return tu_run("sim_machine", cases);
}
