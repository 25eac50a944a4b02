/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay layer's actions on the T800 platform, against hand calculations: the idle/comm split of synchronous
 * messages (late receiver, late sender, both late, a relay), the barrier, compute cycles and the recorded
 * characterisation. */
#include "met_comm.h"
#include "sim_coll_run.h"
#include "sim_run.h"
#include "tu.h"
#include "tu_run.h"

#include <stdio.h>
#include <stdlib.h>

#define T800  SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"
#define CYCLE 40e-9 /* the platform's 25 MHz */

/* Table 2, l > 120 bytes, d = 1: -81.5 + 1.33 l + 93.04 + 0.05 l us; for l = 1000: 1391.54 us. */
#define T_1000_1HOP 1391.54e-6

static met_trace_t *run(int nranks, sim_program_fn program)
{
  sim_job_t job = {.platform = T800, .nranks = nranks, .bcast = SIM_BCAST_ONE_TO_ALL, .program = program};
  char err[1024];
  met_trace_t *trace = NULL;
  int rc = tu_sim_run(&job, &trace, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "simulation failed: %s\n", err);
  CU_ASSERT_EQUAL(rc, 0);
  return trace;
}

static const met_interval_t *interval(const met_trace_t *trace, int rank, size_t i)
{
  CU_ASSERT_FATAL(i < met_trace_count(trace, rank));
  return &met_trace_intervals(trace, rank)[i];
}

static void busy(sim_rank_t *rank, double cycles)
{
  sim_cycles_t c = {.cpu = cycles / 2, .fpu = cycles / 4, .intmem = cycles / 8, .extmem = cycles / 8};
  sim_compute(rank, &c, SIM_WORK);
}

/* Rank 0 computes 1e6 cycles (0.04 s) then sends 1000 B; rank 1 waits in its receive from time 0. */
static void late_sender(sim_rank_t *rank, const void *arg)
{
  if (sim_rank_id(rank) == 0) {
    busy(rank, 1e6);
    sim_send(rank, 1, 1000);
  } else {
    sim_recv(rank, 0, 1000);
  }
}

/* By hand: the receiver idles [0, 0.04), both ends transfer [0.04, 0.04 + 1391.54 us). The compute interval keeps
 * the 1/2, 1/4, 1/8, 1/8 split of its 0.04 s. */
static void test_sim_replay_late_sender(void)
{
  met_trace_t *trace = run(2, late_sender);
  CU_ASSERT_FATAL(trace != NULL);
  const met_interval_t *work = interval(trace, 0, 0);
  CU_ASSERT_EQUAL(work->category, MET_CAT_COMPUTE);
  TU_ASSERT_CLOSE(work->end, 1e6 * CYCLE, 1e-12);
  TU_ASSERT_CLOSE(work->parts[MET_PART_CPU], 0.02, 1e-12);
  TU_ASSERT_CLOSE(work->parts[MET_PART_FPU], 0.01, 1e-12);
  TU_ASSERT_CLOSE(work->parts[MET_PART_EXTMEM], 0.005, 1e-12);
  const met_interval_t *send = interval(trace, 0, 1);
  CU_ASSERT(send->category == MET_CAT_COMM && send->peer == 1 && send->bytes == 1000 && send->hops == 1);
  TU_ASSERT_CLOSE(send->end - send->start, T_1000_1HOP, 1e-12);
  const met_interval_t *wait = interval(trace, 1, 0);
  CU_ASSERT(wait->category == MET_CAT_IDLE && wait->peer == 0);
  TU_ASSERT_CLOSE(wait->end, 0.04, 1e-12);
  TU_ASSERT_CLOSE(interval(trace, 1, 1)->end, 0.04 + T_1000_1HOP, 1e-12);
  TU_ASSERT_CLOSE(met_trace_end(trace), 0.04 + T_1000_1HOP, 1e-12);
  met_trace_free(trace);
}

/* The mirror: rank 1 computes 0.04 s before receiving; rank 0 sends at once and is blocked until then. */
static void late_receiver(sim_rank_t *rank, const void *arg)
{
  if (sim_rank_id(rank) == 0) {
    sim_send(rank, 1, 1000);
  } else {
    busy(rank, 1e6);
    sim_recv(rank, 0, 1000);
  }
}

static void test_sim_replay_late_receiver(void)
{
  met_trace_t *trace = run(2, late_receiver);
  CU_ASSERT_FATAL(trace != NULL);
  CU_ASSERT_EQUAL(interval(trace, 0, 0)->category, MET_CAT_IDLE);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_IDLE), 0.04, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_COMM), T_1000_1HOP, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_IDLE), 0, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMM), T_1000_1HOP, 1e-12);
  met_trace_free(trace);
}

/* Both ends compute before they meet, twice in a row in the same direction: rank 0 computes 0.04 s and sends, twice;
 * rank 1 computes 0.08 s, receives, computes 0.04 s, receives. */
static void both_late(sim_rank_t *rank, const void *arg)
{
  for (int k = 0; k < 2; k++)
    if (sim_rank_id(rank) == 0) {
      busy(rank, 1e6);
      sim_send(rank, 1, 1000);
    } else {
      busy(rank, k == 0 ? 2e6 : 1e6);
      sim_recv(rank, 0, 1000);
    }
}

/* By hand: the first message starts when the later end gets there (0.08 s), the second at 0.08 + T + 0.04 s, when
 * rank 1 has done its second computation (rank 0 got there at 0.08 + T + 0.04 too: a tie, no idling). Rank 0 idles
 * [0.04, 0.08) only. */
static void test_sim_replay_both_ends_late(void)
{
  met_trace_t *trace = run(2, both_late);
  CU_ASSERT_FATAL(trace != NULL);
  double t = T_1000_1HOP;
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_IDLE), 0.04, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_IDLE), 0, 1e-12);
  for (int rank = 0; rank < 2; rank++)
    TU_ASSERT_CLOSE(met_trace_category_time(trace, rank, MET_CAT_COMM), 2 * t, 1e-12);
  const met_interval_t *second = interval(trace, 1, met_trace_count(trace, 1) - 1);
  CU_ASSERT_EQUAL(second->category, MET_CAT_COMM);
  TU_ASSERT_CLOSE(second->start, 0.12 + t, 1e-12);
  TU_ASSERT_CLOSE(met_trace_end(trace), 0.12 + 2 * t, 1e-12);
  met_trace_free(trace);
}

/* A relay: rank 0 sends to 1, which passes it on to 2 at once, then rank 0 sends again after 0.04 s of work. Rank 2
 * computes 0.1 s first, so the relay waits for it and rank 0's second message waits for rank 1. */
static void relay_program(sim_rank_t *rank, const void *arg)
{
  switch (sim_rank_id(rank)) {
  case 0:
    sim_send(rank, 1, 1000);
    busy(rank, 1e6);
    sim_send(rank, 1, 1000);
    break;
  case 1:
    sim_recv(rank, 0, 1000);
    sim_send(rank, 2, 1000);
    sim_recv(rank, 0, 1000);
    break;
  default:
    busy(rank, 2.5e6);
    sim_recv(rank, 1, 1000);
  }
}

/* By hand (one hop each, ranks 0-1-2 along the mesh): 0 -> 1 over [0, T); 1 -> 2 over [0.1, 0.1 + T), rank 1 idle
 * [T, 0.1); rank 0 back at T + 0.04 and idle until 0.1 + T; 0 -> 1 over [0.1 + T, 0.1 + 2T). */
static void test_sim_replay_relay_waits(void)
{
  met_trace_t *trace = run(3, relay_program);
  CU_ASSERT_FATAL(trace != NULL);
  double t = T_1000_1HOP;
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_IDLE), 0.1 - t, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_IDLE), 0.1 + t - (t + 0.04), 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 2, MET_CAT_COMM), t, 1e-12);
  TU_ASSERT_CLOSE(met_trace_end(trace), 0.1 + 2 * t, 1e-12);
  met_trace_free(trace);
}

/* Rank r computes (r + 1) x 1e6 cycles, then all meet at a barrier (SMPI's default, whose messages are posted, as
 * ti-replay's barrier action runs it), then each computes 1e6 cycles more. */
static void staggered_barrier(sim_rank_t *rank, const void *arg)
{
  static const sim_coll_call_t barrier = {.kind = SIM_COLL_BARRIER};
  sim_post_at_own_clock(rank, 0, 0);
  busy(rank, (sim_rank_id(rank) + 1) * 1e6);
  CU_ASSERT_EQUAL(sim_coll_run(rank, sim_rank_world(rank), &barrier), 0);
  busy(rank, 1e6);
}

/* Nobody leaves the barrier before the last arrival (rank 3 at 0.16 s); the last compute starts no earlier. */
static void test_sim_replay_barrier_waits_for_the_last(void)
{
  met_trace_t *trace = run(4, staggered_barrier);
  CU_ASSERT_FATAL(trace != NULL);
  for (int rank = 0; rank < 4; rank++) {
    size_t n = met_trace_count(trace, rank);
    const met_interval_t *last = interval(trace, rank, n - 1);
    CU_ASSERT_EQUAL(last->category, MET_CAT_COMPUTE);
    CU_ASSERT(last->start >= 0.16 - 1e-12);
    TU_ASSERT_CLOSE(met_trace_category_time(trace, rank, MET_CAT_COMPUTE), (rank + 2) * 0.04, 1e-12);
  }
  met_trace_free(trace);
}

/* Every rank's categories add up to T_par (seed 000 eq. 1.7) after a one-to-all broadcast. */
static void bcast_program(sim_rank_t *rank, const void *arg)
{
  busy(rank, 1e5 * sim_rank_id(rank));
  sim_bcast(rank, 2, 2056);
}

static void test_sim_replay_categories_add_up(void)
{
  met_trace_t *trace = run(8, bcast_program);
  CU_ASSERT_FATAL(trace != NULL);
  for (int rank = 0; rank < 8; rank++) {
    double sum = 0;
    for (int c = 0; c < MET_CAT_COUNT; c++)
      sum += met_trace_category_time(trace, rank, c);
    TU_ASSERT_CLOSE(sum, met_trace_end(trace), 1e-12);
    if (rank != 2)
      CU_ASSERT_EQUAL(interval(trace, rank, met_trace_count(trace, rank) - 1)->peer, 2);
  }
  met_trace_free(trace);
}

/* Non-blocking messages (sim_post_at_own_clock): rank 0 posts 1000 B to its neighbour at time 0 and computes 0.04 s
 * before waiting; the transfer ([0, 1391.54 us]) ends while it computes, so its wait costs nothing. Rank 1 receives
 * at once: COMM for the whole transfer. */
static void isend_overlaps(sim_rank_t *rank, const void *arg)
{
  sim_post_at_own_clock(rank, 0, 0);
  if (sim_rank_id(rank) == 0) {
    sim_request_t *req = sim_isend(rank, 1, 1000);
    busy(rank, 1e6);
    sim_wait(rank, req);
  } else {
    sim_recv(rank, 0, 1000);
  }
}

static void test_sim_replay_isend_overlaps_computation(void)
{
  met_trace_t *trace = run(2, isend_overlaps);
  CU_ASSERT_FATAL(trace != NULL);
  TU_ASSERT_CLOSE(met_trace_end(trace), 0.04, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_COMPUTE), 0.04, 1e-12);
  CU_ASSERT_EQUAL(met_trace_category_time(trace, 0, MET_CAT_COMM), 0);
  CU_ASSERT_EQUAL(met_trace_category_time(trace, 0, MET_CAT_IDLE), 0);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMM), T_1000_1HOP, 1e-12);
  met_trace_free(trace);
}

/* Rank 1 posts its receive and computes 0.01 s; its test at 0.01 s finds nothing yet (rank 0 sends only at 0.04 s)
 * and does not block. A test that finds the message running is followed by 0.008 s of work, one that finds it over by
 * 0.004 s, so the trace shows what it found. Rank 1 then waits: IDLE [0.018, 0.04], COMM [0.04, 0.04 + 1391.54 us].
 * Rank 2 receives rank 0's second message (over by 0.05 s at most) while it computes 0.1 s: its test finds it over
 * and its wait costs nothing. A rank that ends before T_par idles until it. */
static void wait_blocks_test_does_not(sim_rank_t *rank, const void *arg)
{
  sim_post_at_own_clock(rank, 0, 0);
  int me = sim_rank_id(rank);
  if (me == 0) {
    busy(rank, 1e6);
    sim_send(rank, 1, 1000);
    sim_send(rank, 2, 1000);
    return;
  }
  sim_request_t *req = sim_irecv(rank, 0, 1000);
  busy(rank, me == 1 ? 2.5e5 : 2.5e6);
  busy(rank, sim_test(rank, req) ? 1e5 : 2e5);
  sim_wait(rank, req);
}

static void test_sim_replay_wait_blocks_test_does_not(void)
{
  met_trace_t *trace = run(3, wait_blocks_test_does_not);
  CU_ASSERT_FATAL(trace != NULL);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMPUTE), 0.018, 1e-12);
  /* rank 1 idles in its wait, and after its end until T_par (rank 2's 0.104 s) */
  TU_ASSERT_CLOSE(met_trace_end(trace), 0.104, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_IDLE), 0.022 + 0.104 - (0.04 + T_1000_1HOP), 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMM), T_1000_1HOP, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 2, MET_CAT_COMPUTE), 0.104, 1e-12);
  CU_ASSERT_EQUAL(met_trace_category_time(trace, 2, MET_CAT_IDLE), 0);
  CU_ASSERT_EQUAL(met_trace_category_time(trace, 2, MET_CAT_COMM), 0);
  met_trace_free(trace);
}

/* A job that asks for an aggregate trace runs isolated too (the child used to fail with exit status 3: an aggregate
 * trace cannot be written) and gives the hand-computed figures of test_sim_replay_late_sender: T_par = 0.04 s +
 * 1391.54 us, rank 1 idle 0.04 s and communicating 1391.54 us, one message. */
static void test_sim_replay_aggregate_job_runs_isolated(void)
{
  sim_job_t job = {
      .platform = T800, .nranks = 2, .bcast = SIM_BCAST_ONE_TO_ALL, .program = late_sender, .aggregate = 1};
  char err[1024] = "";
  met_trace_t *trace = NULL;
  int rc = tu_sim_run(&job, &trace, err, sizeof err);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  TU_ASSERT_CLOSE(met_trace_end(trace), 1e6 * CYCLE + T_1000_1HOP, 1e-6);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_IDLE), 1e6 * CYCLE, 1e-9);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMM), T_1000_1HOP, 1e-6);
  CU_ASSERT_EQUAL(met_comm_messages(trace), 1);
  met_trace_free(trace);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_replay_late_sender", test_sim_replay_late_sender},
      {"test_sim_replay_late_receiver", test_sim_replay_late_receiver},
      {"test_sim_replay_both_ends_late", test_sim_replay_both_ends_late},
      {"test_sim_replay_relay_waits", test_sim_replay_relay_waits},
      {"test_sim_replay_barrier_waits_for_the_last", test_sim_replay_barrier_waits_for_the_last},
      {"test_sim_replay_categories_add_up", test_sim_replay_categories_add_up},
      {"test_sim_replay_isend_overlaps_computation", test_sim_replay_isend_overlaps_computation},
      {"test_sim_replay_wait_blocks_test_does_not", test_sim_replay_wait_blocks_test_does_not},
      {"test_sim_replay_aggregate_job_runs_isolated", test_sim_replay_aggregate_job_runs_isolated},
      {NULL, NULL}};
  return tu_run("sim_replay", cases);
}
