/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* TreadMarks on NCP2 (sim_dsm, seed 002 Figs. 1-3) against hand calculations from the costs documented in
 * platforms/ncp2-myrinet-8.xml: page and diff requests interval by interval, preemption, barriers in every arrival
 * order, conservation in whole runs, determinism, and bad platforms and scenarios end to end. */
#define _POSIX_C_SOURCE 200809L /* popen */

#include "app_catalogue.h"
#include "met_carnival.h"
#include "sim_dsm.h"
#include "sim_error.h"
#include "sim_run.h"
#include "tu.h"
#include "tu_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define NCP2 SIMRUN_SOURCE_DIR "/platforms/ncp2-myrinet-8.xml"
#define DATA SIMRUN_SOURCE_DIR "/tests/data/dsm/"
#define US   1e-6

/* The costs of the platform file, by hand (PP 100 MHz, CP 50 MHz; us). */
#define PP_US(cycles)   ((cycles) / 100.0)
#define CP_US(cycles)   ((cycles) / 50.0)
#define FAULT           PP_US(3000 + 200)       /* access fault: trap and handler, plus one page of bookkeeping */
#define CMD             CP_US(250)              /* one CP command, or one message it sends */
#define IRQ             10.0                    /* PP interrupt latency */
#define HANDLER         PP_US(1500 + 200)       /* the owner's PP handler for a page or diff request */
#define BARRIER_HANDLER PP_US(1500)             /* the manager's handler for an arrival with no write notices */
#define NET(bytes)      (0.5 + (bytes) / 160.0) /* CP to CP: two Myrinet links of 0.25 us and 160 MB/s */
#define DMA(bytes)      (0.5 + (bytes) / 100.0) /* PP-CP bus: 0.5 us and 100 MB/s */
#define SW_MSG          PP_US(6000)             /* without CP: one message sent or received by the PP */
#define SW_COPY(bytes)  PP_US(1.25 * (bytes))
#define SW_NET(bytes)   (1.5 + (bytes) / 100.0) /* PP to PP: both buses too, 100 MB/s at most */

static sim_dsm_program_t program; /* the program of the run being set up; the child process inherits it */

static void run_program(sim_rank_t *rank, const void *arg)
{
  sim_dsm_run(rank, &program);
}

/* Runs `body` on `nodes` nodes of `platform`; returns the trace, or NULL with the error in err (code in *rc). */
static met_trace_t *run_on(const char *platform, int nodes, int controller,
                           void (*body)(sim_dsm_node_t *, const void *), const void *arg, int *rc, char *err,
                           size_t errlen)
{
  program = (sim_dsm_program_t){.shared_bytes = 1 << 16, .controller = controller, .body = body, .arg = arg};
  sim_job_t job = {.platform = platform, .nranks = nodes, .program = run_program};
  met_trace_t *trace = NULL;
  *rc = tu_sim_run(&job, &trace, err, errlen);
  return trace;
}

static met_trace_t *run(int nodes, int controller, void (*body)(sim_dsm_node_t *, const void *), const void *arg)
{
  char err[1024] = "";
  int rc = 0;
  met_trace_t *trace = run_on(NCP2, nodes, controller, body, arg, &rc, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "simulation failed: %s\n", err);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  return trace;
}

/* The PP request of `op` by `node` on `item`, or NULL. */
static const met_request_t *find_request(const met_trace_t *trace, int node, int op, int item)
{
  size_t count = 0;
  const met_request_t *reqs = met_trace_requests(trace, &count);
  for (size_t i = 0; i < count; i++)
    if (reqs[i].node == node && reqs[i].unit == MET_UNIT_PP && reqs[i].op == op && reqs[i].item == item)
      return &reqs[i];
  return NULL;
}

/* Checks the 13 interval lengths (us) of `r` and that its categories add up to its wait. */
static void assert_intervals(const met_request_t *r, const double expected[MET_CE_INTERVALS])
{
  CU_ASSERT_PTR_NOT_NULL_FATAL(r);
  for (int k = 1; k <= MET_CE_INTERVALS; k++) {
    double got = (r->mark[k] - r->mark[k - 1]) / US;
    if (got < expected[k - 1] - 1e-6 || got > expected[k - 1] + 1e-6)
      fprintf(stderr, "interval %d: %.6f us, expected %.6f us\n", k, got, expected[k - 1]);
    TU_ASSERT_CLOSE(got, expected[k - 1], 1e-6);
  }
  double cats[MET_W_COUNT];
  double wait = met_ce_split(r, cats);
  double sum = 0;
  for (int c = 0; c < MET_W_COUNT; c++)
    sum += cats[c];
  TU_ASSERT_CLOSE(sum, wait, 1e-15);
}

/* Node 1 reads one word of page 0, homed at node 0; nothing else happens. */
static void one_read(sim_dsm_node_t *node, const void *arg)
{
  if (sim_dsm_node_id(node) == 1)
    sim_dsm_read(node, 0, 8);
}

/* Fig. 1 on an idle system with CPs, by hand: the fault takes 32 us; then 1 queue 0, 2 the local CP's command and
 * send (10 us), 3 a 64-byte request on Myrinet (0.9 us), 4 queue 0, 5 the owner's CP (5 us), 6 the interrupt (10 us),
 * 7 the owner's handler (17 us), 8 queue 0, 9 command, send and the page's DMA (10 + 41.46 us), 10 the page on the
 * network (26.5 us), 11 queue 0, 12 command and DMA into memory (5 + 41.46 us), 13 the PP's interrupt (10 us).
 * Categories: CPLComp 56.46, CPCComm 27.4, CPRComp 56.46, PPRWait 10, PPRComp 17, PPLWait 10; wait 177.32 us. */
static void test_sim_dsm_page_request_by_hand(void)
{
  met_trace_t *trace = run(2, 1, one_read, NULL);
  const met_request_t *r = find_request(trace, 1, MET_OP_PAGE, 0);
  const double expected[MET_CE_INTERVALS] = {
      0, 2 * CMD, NET(64), 0, CMD, IRQ, HANDLER, 0, 2 * CMD + DMA(4096), NET(64 + 4096), 0, CMD + DMA(4096), IRQ};
  assert_intervals(r, expected);
  TU_ASSERT_CLOSE(r->mark[0], FAULT * US, 1e-12);
  CU_ASSERT_EQUAL(r->peer, 0);
  double cats[MET_W_COUNT];
  TU_ASSERT_CLOSE(met_ce_split(r, cats), 177.32 * US, 1e-12);
  const double by_cat[MET_W_COUNT] = {0, 56.46, 27.4, 0, 56.46, 10, 17, 10};
  for (int c = 0; c < MET_W_COUNT; c++)
    TU_ASSERT_CLOSE(cats[c] / US, by_cat[c], 1e-6);
  met_trace_free(trace);
}

/* The same without CP (original TreadMarks), by hand: 2 the PP sends (60 us), 3 64 bytes over both buses and Myrinet
 * (2.14 us), 4 the owner's interrupt (10 us), 5 the owner's PP receives (60 us), 6 nothing (it is already there),
 * 7 its bookkeeping (2 us), 8 queue 0, 9 a send with the page copied (60 + 51.2 us), 10 the page (43.1 us), 11 the
 * requester's interrupt (10 us), 12 receive, copy and protect (60 + 51.2 + 2 us), 13 nothing. Wait 411.64 us. */
static void test_sim_dsm_page_request_without_cp_by_hand(void)
{
  met_trace_t *trace = run(2, 0, one_read, NULL);
  const met_request_t *r = find_request(trace, 1, MET_OP_PAGE, 0);
  const double expected[MET_CE_INTERVALS] = {0,
                                             SW_MSG,
                                             SW_NET(64),
                                             IRQ,
                                             SW_MSG,
                                             0,
                                             PP_US(200),
                                             0,
                                             SW_MSG + SW_COPY(4096),
                                             SW_NET(64 + 4096),
                                             IRQ,
                                             SW_MSG + SW_COPY(4096) + PP_US(200),
                                             0};
  assert_intervals(r, expected);
  TU_ASSERT_CLOSE(r->mark[13] - r->mark[0], 411.64 * US, 1e-12);
  size_t count = 0;
  met_trace_spans(trace, 0, MET_UNIT_CP, &count);
  CU_ASSERT_EQUAL(count, 0);
  met_trace_free(trace);
}

/* `cycles` of the PP's work: as many items of 2 CPU operations, 0.5 cycle each on NCP2's PowerPC 604
 * (simrun:cycles-cpu of platforms/ncp2-myrinet-8.xml). */
static void compute_cycles(sim_dsm_node_t *node, double cycles)
{
  static const met_ops_t one_cycle = {.n = {[MET_CLASS_CPU] = 2}};
  sim_dsm_work(node, &one_cycle, cycles);
}

/* Node 0 computes 1 ms while node 1's page request interrupts it. */
static void compute_while_asked(sim_dsm_node_t *node, const void *arg)
{
  if (sim_dsm_node_id(node) == 0)
    compute_cycles(node, 1e5);
  else
    sim_dsm_read(node, 0, 8);
}

/* By hand: the page request's handler starts at 32 + 10 + 0.9 + 5 + 10 = 57.9 us and takes 17 us of node 0's PP
 * (Prste); node 1 then reaches the exit barrier at 209.32 us, whose arrival handler takes node 0's PP from
 * 209.32 + 10 + 0.9 + 5 + 10 = 235.22 us for 15 us. So node 0's 1 ms of Comp ends at 1000 + 17 + 15 = 1032 us, and
 * the request's intervals are those of the idle system. */
static void test_sim_dsm_interrupt_preempts_computation(void)
{
  met_trace_t *trace = run(2, 1, compute_while_asked, NULL);
  met_carnival_t *c = met_carnival_new(trace);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c);
  TU_ASSERT_CLOSE(met_carnival_time(c, 0, -1, MET_CE_COMP, -1), 1e-3, 1e-12);
  TU_ASSERT_CLOSE(met_carnival_time(c, 0, -1, MET_CE_PRSTE, MET_OP_PAGE), HANDLER * US, 1e-12);
  size_t count = 0;
  const met_span_t *spans = met_trace_spans(trace, 0, MET_UNIT_PP, &count);
  CU_ASSERT_FATAL(count >= 5);
  const int states[5] = {MET_CE_COMP, MET_CE_PRSTE, MET_CE_COMP, MET_CE_PRSTE, MET_CE_COMP};
  const double ends[5] = {57.9, 74.9, 235.22, 250.22, 1032};
  for (int i = 0; i < 5; i++) {
    CU_ASSERT_EQUAL(spans[i].state, states[i]);
    TU_ASSERT_CLOSE(spans[i].end, ends[i] * US, 1e-12);
  }
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_COMPUTE), 1e-3, 1e-12);
  const met_request_t *r = find_request(trace, 1, MET_OP_PAGE, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(r);
  TU_ASSERT_CLOSE(r->mark[13] - r->mark[0], 177.32 * US, 1e-12);
  met_carnival_free(c);
  met_trace_free(trace);
}

/* Node 0 initialises page 0; nodes 1 and 2 then write words 0-9 and 100-109 of it (false sharing); after a pause,
 * node 0 reads it back and needs both diffs. */
static void two_writers(sim_dsm_node_t *node, const void *arg)
{
  int me = sim_dsm_node_id(node);
  if (me == 0)
    sim_dsm_write(node, 0, 4096);
  sim_dsm_barrier(node);
  if (me > 0)
    sim_dsm_write(node, me == 1 ? 0 : 400, 40);
  sim_dsm_barrier(node);
  if (me == 0) {
    compute_cycles(node, 1e5);
    sim_dsm_read(node, 0, 8);
  }
}

/* Fig. 2 by hand, for the critical (last) reply, from writer 2: 2 the local CP decodes and sends to writer 1 then to
 * writer 2 (3 x 5 us), 3 0.9 us, 5 the writer's CP scans the page's 1024 dirty bits (5 + 20.48 us), 6-7 interrupt
 * and handler (10 + 17 us), 9 command, send and DMA of a 48-byte diff (10 words + one 8-byte run header: 10 + 0.98
 * us), 10 112 bytes on Myrinet (1.2 us), 11 queued behind writer 1's diff, which arrived 5 us earlier and takes
 * 6.18 us to apply (1.18 us), 12 applying (5 + 0.2 + 0.98 us), 13 the interrupt (10 us). */
static void test_sim_dsm_diff_request_by_hand(void)
{
  met_trace_t *trace = run(3, 1, two_writers, NULL);
  const met_request_t *r = find_request(trace, 0, MET_OP_DIFF, 0);
  const double expected[MET_CE_INTERVALS] = {
      0, 3 * CMD,           NET(64),      0,        CMD + CP_US(1024),         IRQ, HANDLER,
      0, 2 * CMD + DMA(48), NET(64 + 48), 6.18 - 5, CMD + CP_US(10) + DMA(48), IRQ};
  assert_intervals(r, expected);
  CU_ASSERT_EQUAL(r->peer, 2);
  size_t count = 0;
  const met_request_t *reqs = met_trace_requests(trace, &count);
  int diffs = 0;
  for (size_t i = 0; i < count; i++)
    diffs += reqs[i].unit == MET_UNIT_PP && reqs[i].op == MET_OP_DIFF;
  CU_ASSERT_EQUAL(diffs, 1);
  met_trace_free(trace);
}

/* Node i computes delay[i] ms, then all meet at a barrier. */
static void staggered(sim_dsm_node_t *node, const void *arg)
{
  const int *delay = arg;
  compute_cycles(node, 1e5 * delay[sim_dsm_node_id(node)]);
  sim_dsm_barrier(node);
}

/* The non-manager nodes' barrier intervals 8-13 by hand: releases leave the manager's CP in node order, 10 us each. */
static void expect_release(double expected[MET_CE_INTERVALS], int node)
{
  const double tail[6] = {(node - 1) * 2 * CMD, 2 * CMD, NET(64), 0, CMD, IRQ};
  memcpy(expected + 7, tail, sizeof tail);
}

/* When a non-manager node's arrival has been executed at the manager's CP (the end of interval 5): it arrives after
 * delay[node] ms of computation (1e5 cycles a millisecond at 100 MHz) with no write notices; its CP decodes and sends
 * (2 commands), the 64-byte message crosses Myrinet, and the manager's CP executes it (one command). */
static double arrival_executed(const int delay[3], int node)
{
  return delay[node] * 1e-3 + (2 * CMD + NET(64) + CMD) * US;
}

/* One arrival order: `order[k]` is the k-th node to arrive (1 ms apart). */
static void check_barrier_order(const int order[3])
{
  int delay[3];
  for (int k = 0; k < 3; k++)
    delay[order[k]] = k;
  int last = order[2];
  met_trace_t *trace = run(3, 1, staggered, delay);
  const met_request_t *last_req = find_request(trace, last, MET_OP_BARRIER, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(last_req);
  /* the manager, delayed by the two arrival handlers (15 us each) it ran while computing, releases at 2.03 ms; else
   * the last arrival's handler starts one interrupt after its command was executed at the manager's CP */
  double release_start = last == 0 ? 2030 * US : arrival_executed(delay, last) + IRQ * US;
  for (int node = 0; node < 3; node++) {
    const met_request_t *r = find_request(trace, node, MET_OP_BARRIER, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT(r->mark[13] >= last_req->mark[0]);
    TU_ASSERT_CLOSE(r->mark[6], node == 0 && last == 0 ? r->mark[0] : release_start, 1e-12);
    if (node == 0)
      continue;
    TU_ASSERT_CLOSE(r->mark[0], delay[node] * 1e-3, 1e-12);
    /* interval 6: from its command's execution at the manager until the releasing handler starts */
    double waited = (release_start - arrival_executed(delay, node)) / US;
    double expected[MET_CE_INTERVALS] = {0, 2 * CMD, NET(64), 0, CMD, waited, last == 0 ? 0 : BARRIER_HANDLER};
    expect_release(expected, node);
    assert_intervals(r, expected);
  }
  const met_request_t *manager = find_request(trace, 0, MET_OP_BARRIER, 0);
  double manager_wait = last == 0 ? 0 : BARRIER_HANDLER * US; /* released by its own handler: no interrupt */
  TU_ASSERT_CLOSE(manager->mark[13] - manager->mark[6], manager_wait, 1e-12);
  met_trace_free(trace);
}

/* Fig. 3 with every arrival order of three nodes (node 0 manages). */
static void test_sim_dsm_barrier_all_orders(void)
{
  const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int i = 0; i < 6; i++)
    check_barrier_order(orders[i]);
}

/* A unit's spans start at 0 and follow each other without gaps. */
static void assert_tiled(const met_trace_t *trace, int node, int unit)
{
  size_t count = 0;
  const met_span_t *spans = met_trace_spans(trace, node, unit, &count);
  CU_ASSERT_FATAL(count > 0);
  CU_ASSERT_EQUAL(spans[0].start, 0);
  for (size_t i = 1; i < count; i++)
    CU_ASSERT_EQUAL(spans[i].start, spans[i - 1].end);
}

/* Conservation in a whole run: every unit's timeline tiles the run, the PP's and CP's categories add up to T_par per
 * node, the rank timelines too, and every request's categories add up to its wait. */
static void assert_conserved(const met_trace_t *trace, int controller)
{
  met_carnival_t *c = met_carnival_new(trace);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c);
  double end = met_trace_end(trace);
  CU_ASSERT_EQUAL(met_carnival_has_cp(c), controller);
  for (int node = 0; node < met_trace_nranks(trace); node++) {
    assert_tiled(trace, node, MET_UNIT_PP);
    if (controller)
      assert_tiled(trace, node, MET_UNIT_CP);
    double pp = 0, cp = 0, rank = 0;
    for (int cat = MET_CE_COMP; cat <= MET_CE_PRSTE; cat++)
      pp += met_carnival_time(c, node, -1, cat, -1);
    for (int cat = MET_CE_CPCOMP; cat < MET_CE_COUNT; cat++)
      cp += met_carnival_time(c, node, -1, cat, -1);
    for (int cat = 0; cat < MET_CAT_COUNT; cat++)
      rank += met_trace_category_time(trace, node, cat);
    TU_ASSERT_CLOSE(pp, end, 1e-12);
    TU_ASSERT_CLOSE(cp, controller ? end : 0, 1e-12);
    TU_ASSERT_CLOSE(rank, end, 1e-12);
    TU_ASSERT_CLOSE(met_trace_category_time(trace, node, MET_CAT_COMPUTE), met_carnival_time(c, node, -1, 0, -1),
                    1e-12);
  }
  size_t count = 0;
  const met_request_t *reqs = met_trace_requests(trace, &count);
  for (size_t i = 0; i < count; i++) {
    double cats[MET_W_COUNT];
    double wait = met_ce_split(&reqs[i], cats);
    double sum = 0;
    for (int k = 0; k < MET_W_COUNT; k++)
      sum += cats[k];
    TU_ASSERT_CLOSE(sum, wait, 1e-15);
  }
  met_carnival_free(c);
}

/* Runs skeleton `name` from the catalogue with the parameter values given, on `p` nodes. */
static met_trace_t *run_skeleton(const char *name, int p, const char *const *names, const char *const *values,
                                 size_t count)
{
  const app_skeleton_t *skeleton = app_find(name);
  CU_ASSERT_PTR_NOT_NULL_FATAL(skeleton);
  app_point_t point = {.count = count, .names = names, .values = values};
  void *arg = NULL;
  char err[1024] = "";
  const char *blame = NULL;
  CU_ASSERT_EQUAL_FATAL(skeleton->prepare(&point, p, &arg, err, sizeof err, &blame), 0);
  sim_job_t job = {.platform = NCP2, .nranks = p, .program = skeleton->program, .arg = arg};
  met_trace_t *trace = NULL;
  int rc = tu_sim_run(&job, &trace, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "%s failed: %s\n", name, err);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  skeleton->release(arg);
  return trace;
}

/* The child's payload: the cause-effect analysis of the run, as the study's view hands it back. */
static int write_carnival(const met_trace_t *trace, const void *ctx, FILE *out)
{
  (void)ctx;
  met_carnival_t *c = met_carnival_new(trace);
  int rc = c ? met_carnival_write(c, out) : -1;
  met_carnival_free(c);
  return rc;
}

/* Runs skeleton `name` as run_skeleton does, but recording into an aggregate trace (sums only, as a study's points
 * do), and returns the analysis the child drew from it. */
static met_carnival_t *run_aggregate(const char *name, int p, const char *const *names, const char *const *values,
                                     size_t count)
{
  const app_skeleton_t *skeleton = app_find(name);
  app_point_t point = {.count = count, .names = names, .values = values};
  void *arg = NULL;
  char err[1024] = "";
  const char *blame = NULL;
  CU_ASSERT_EQUAL_FATAL(skeleton->prepare(&point, p, &arg, err, sizeof err, &blame), 0);
  sim_job_t job = {.platform = NCP2, .nranks = p, .program = skeleton->program, .arg = arg, .aggregate = 1};
  sim_run_child_t child;
  CU_ASSERT_FATAL(sim_run_start(&job, write_carnival, NULL, &child, err, sizeof err) == 0);
  skeleton->release(arg);
  size_t which;
  int rc;
  do
    rc = sim_run_wait_any(&child, 1, &which, NULL, err, sizeof err);
  while (rc == SIM_RUN_PROGRESS);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  met_carnival_t *c = met_carnival_read(child.channel);
  fclose(child.channel);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c);
  return c;
}

enum { MAX_SCOPES = 16 };

/* Whether any node's CP has a span (a run with controllers). */
static int has_cp_spans(const met_trace_t *trace)
{
  size_t count = 0;
  for (int node = 0; node < met_trace_nranks(trace); node++)
    if (met_trace_spans(trace, node, MET_UNIT_CP, &count) && count > 0)
      return 1;
  return 0;
}

/* The analysis as it was drawn from the spans before the sums (issue 31): node's time per (scope, cat, op) from its
 * units' spans, the time before, between and after them in the unit's idle category and the scope of the span before.
 */
static void profile_from_spans(const met_trace_t *trace, int node, double cells[MAX_SCOPES][MET_CE_COUNT][MET_OP_COUNT])
{
  memset(cells, 0, sizeof(double[MAX_SCOPES][MET_CE_COUNT][MET_OP_COUNT]));
  for (int unit = 0; unit < MET_UNIT_COUNT; unit++) {
    size_t count = 0;
    const met_span_t *spans = met_trace_spans(trace, node, unit, &count);
    int idle = unit == MET_UNIT_PP ? MET_CE_WAIT : MET_CE_CPIDLE, scope = 0;
    double cursor = 0;
    for (size_t i = 0; i < count; i++) {
      CU_ASSERT_FATAL(spans[i].scope < MAX_SCOPES);
      cells[scope][idle][MET_OP_NONE] += spans[i].start - cursor;
      cells[spans[i].scope][spans[i].state][spans[i].op] += spans[i].end - spans[i].start;
      cursor = spans[i].end;
      scope = spans[i].scope;
    }
    if (unit == MET_UNIT_PP || has_cp_spans(trace))
      cells[scope][idle][MET_OP_NONE] += met_trace_end(trace) - cursor;
  }
}

/* The requests' waits of (scope, unit, op) from the trace's list, one request at a time. */
static met_ce_wait_t waits_from_requests(const met_trace_t *trace, int scope, int unit, int op)
{
  met_ce_wait_t sum = {0};
  size_t count = 0;
  const met_request_t *reqs = met_trace_requests(trace, &count);
  for (size_t i = 0; i < count; i++)
    if (reqs[i].scope == scope && reqs[i].unit == unit && reqs[i].op == op) {
      met_ce_wait_t one = {.count = 1};
      one.time = met_ce_split(&reqs[i], one.cat);
      met_ce_wait_add(&sum, &one);
    }
  return sum;
}

/* a equals b to `relative` of b (exactly, for 0). */
static void assert_relative(double a, double b, double relative)
{
  CU_ASSERT(fabs(a - b) <= relative * fabs(b));
}

static void assert_same_wait(met_ce_wait_t a, met_ce_wait_t b, double relative)
{
  CU_ASSERT_EQUAL(a.count, b.count);
  assert_relative(a.time, b.time, relative);
  for (int k = 0; k < MET_W_COUNT; k++)
    assert_relative(a.cat[k], b.cat[k], relative);
}

/* The analysis of a whole trace (`full`, from its spans and requests as they were summed) against the one a child drew
 * from an aggregate trace of the same run (`summed`): every figure equal to the bit; and both against the profile
 * and waits worked out here from the whole trace's spans and requests, the way the analysis did before it read sums,
 * to 1e-12 relative. */
static void assert_summed_as_spans(const met_trace_t *trace, const met_carnival_t *full, const met_carnival_t *summed)
{
  CU_ASSERT_EQUAL(met_carnival_nodes(summed), met_carnival_nodes(full));
  CU_ASSERT_EQUAL(met_carnival_has_cp(summed), met_carnival_has_cp(full));
  CU_ASSERT_EQUAL(met_carnival_end(summed), met_carnival_end(full));
  int nscopes = met_carnival_scope_count(full);
  CU_ASSERT_EQUAL_FATAL(met_carnival_scope_count(summed), nscopes);
  for (int node = 0; node < met_carnival_nodes(full); node++) {
    double cells[MAX_SCOPES][MET_CE_COUNT][MET_OP_COUNT];
    profile_from_spans(trace, node, cells);
    for (int s = 0; s < nscopes; s++)
      for (int cat = 0; cat < MET_CE_COUNT; cat++)
        for (int op = 0; op < MET_OP_COUNT; op++) {
          double t = met_carnival_time(full, node, s, cat, op);
          CU_ASSERT_EQUAL(met_carnival_time(summed, node, s, cat, op), t);
          assert_relative(t, cells[s][cat][op], 1e-12);
        }
  }
  for (int s = 0; s < nscopes; s++) {
    CU_ASSERT_STRING_EQUAL(met_carnival_scope_name(summed, s), met_carnival_scope_name(full, s));
    for (int unit = 0; unit < MET_UNIT_COUNT; unit++)
      for (int op = 0; op < MET_OP_COUNT; op++) {
        met_ce_wait_t w = met_carnival_wait(full, unit, op, s);
        assert_same_wait(met_carnival_wait(summed, unit, op, s), w, 0);
        assert_same_wait(w, waits_from_requests(trace, s, unit, op), 1e-12);
      }
  }
  size_t rows = 0, rows_summed = 0;
  const met_ce_row_t *map = met_carnival_map(full, &rows), *map_summed = met_carnival_map(summed, &rows_summed);
  CU_ASSERT_FATAL(rows > 0 && rows_summed == rows);
  for (size_t r = 0; r < rows; r++) { /* field by field: clang's copies leave the padding after `op` alone */
    CU_ASSERT(map[r].scope == map_summed[r].scope && map[r].unit == map_summed[r].unit &&
              map[r].op == map_summed[r].op);
    assert_same_wait(map[r].wait, map_summed[r].wait, 0);
  }
  for (int op = MET_OP_PAGE; op < MET_OP_COUNT; op++) {
    const met_request_t *a = met_carnival_first(full, op), *b = met_carnival_first(summed, op);
    CU_ASSERT((a == NULL) == (b == NULL));
    CU_ASSERT(!a || !b || memcmp(a, b, sizeof *a) == 0);
  }
}

/* The cause-effect analysis a study's child draws from an aggregate trace (no span, no request kept) is the whole
 * trace's to the bit, and the spans' and requests' own figures to 1e-12: Gauss-Jordan N = 12 with and without the
 * controllers and false sharing (interleaved: diff requests) on 4 nodes. */
static void test_sim_dsm_summed_as_spans(void)
{
  const char *gj_names[] = {"n", "controller"}, *fs_names[] = {"elements", "iterations", "layout", "controller"};
  const char *gj[2][2] = {{"12", "no"}, {"12", "yes"}};
  const char *fs[] = {"2048", "3", "interleaved", "yes"};
  for (int run = 0; run < 3; run++) {
    const char *name = run < 2 ? "dsm-gauss-jordan" : "dsm-false-sharing";
    const char *const *names = run < 2 ? gj_names : fs_names;
    const char *const *values = run < 2 ? gj[run] : fs;
    size_t count = run < 2 ? 2 : 4;
    met_trace_t *trace = run_skeleton(name, 4, names, values, count);
    met_carnival_t *full = met_carnival_new(trace), *summed = run_aggregate(name, 4, names, values, count);
    CU_ASSERT_PTR_NOT_NULL_FATAL(full);
    assert_summed_as_spans(trace, full, summed);
    met_carnival_free(full);
    met_carnival_free(summed);
    met_trace_free(trace);
  }
}

/* Gauss-Jordan N = 12 on 4 nodes, both variants: one barrier per node for the initialisation, each step, the end of
 * the steps and the exit, so 4 x (12 + 3) = 60 barrier waits; conservation holds. */
static void test_sim_dsm_gauss_jordan_conserves_time(void)
{
  const char *names[] = {"n", "controller"};
  for (int controller = 0; controller <= 1; controller++) {
    const char *values[] = {"12", controller ? "yes" : "no"};
    met_trace_t *trace = run_skeleton("dsm-gauss-jordan", 4, names, values, 2);
    assert_conserved(trace, controller);
    met_carnival_t *c = met_carnival_new(trace);
    CU_ASSERT_EQUAL(met_carnival_wait(c, MET_UNIT_PP, MET_OP_BARRIER, -1).count, 60);
    met_carnival_free(c);
    met_trace_free(trace);
  }
}

/* False sharing, interleaved, 3 sweeps on 4 nodes of 2048 doubles (4 pages): after the first sweep every node's copy
 * of every page lacks the 3 other nodes' words, so each later sweep makes 4 x 4 diff requests of 3 replies. Blocked,
 * node r owns page r: only node 0's copies (which it never reads again) are invalidated, and no diff is fetched. */
static void test_sim_dsm_false_sharing_makes_diffs(void)
{
  const char *names[] = {"elements", "iterations", "layout", "controller"};
  const char *interleaved[] = {"2048", "3", "interleaved", "yes"};
  const char *blocked[] = {"2048", "3", "blocked", "no"};
  met_trace_t *trace = run_skeleton("dsm-false-sharing", 4, names, interleaved, 4);
  assert_conserved(trace, 1);
  met_carnival_t *c = met_carnival_new(trace);
  CU_ASSERT_EQUAL(met_carnival_wait(c, MET_UNIT_PP, MET_OP_DIFF, -1).count, 2 * 4 * 4);
  met_carnival_free(c);
  met_trace_free(trace);
  trace = run_skeleton("dsm-false-sharing", 4, names, blocked, 4);
  assert_conserved(trace, 0);
  c = met_carnival_new(trace);
  CU_ASSERT_EQUAL(met_carnival_wait(c, MET_UNIT_PP, MET_OP_DIFF, -1).count, 0);
  met_carnival_free(c);
  met_trace_free(trace);
}

/* The trace's bytes. */
static size_t trace_bytes(const met_trace_t *trace, char **buf)
{
  size_t len = 0;
  FILE *f = open_memstream(buf, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(met_trace_write(trace, f), 0);
  fclose(f);
  return len;
}

/* Two runs of the same matrix multiply give byte-identical traces (ties in time go by the deterministic order of the
 * FIFOs and actors). */
static void test_sim_dsm_deterministic(void)
{
  const char *names[] = {"n", "controller"};
  const char *values[] = {"48", "yes"};
  char *bytes[2] = {NULL, NULL};
  size_t len[2];
  for (int i = 0; i < 2; i++) {
    met_trace_t *trace = run_skeleton("dsm-matmul", 4, names, values, 2);
    len[i] = trace_bytes(trace, &bytes[i]);
    met_trace_free(trace);
  }
  CU_ASSERT(len[0] == len[1] && memcmp(bytes[0], bytes[1], len[0]) == 0);
  free(bytes[0]);
  free(bytes[1]);
}

/* A DSM run on a platform without the properties fails with a message naming the first one. */
static void test_sim_dsm_needs_its_properties(void)
{
  char err[1024] = "";
  int rc = 0;
  met_trace_t *trace =
      run_on(SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml", 2, 1, one_read, NULL, &rc, err, sizeof err);
  CU_ASSERT_PTR_NULL(trace);
  CU_ASSERT_EQUAL(rc, SIM_EPLATFORM);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "no property simrun:dsm-page-bytes"));
  trace = run_on(NCP2, 9, 1, one_read, NULL, &rc, err, sizeof err);
  CU_ASSERT_PTR_NULL(trace);
  CU_ASSERT_EQUAL(rc, SIM_EHOSTS);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "p = 9 exceeds the 8 NCP2 nodes"));
}

/* Runs simrun on `scenario` (in tests/data/dsm/); returns its exit status and what it printed (the caller frees). */
static int simrun(const char *scenario, char **output)
{
  char command[2048];
  snprintf(command, sizeof command, "'%s' -q --width 1000 '%s%s' 2>&1", SIMRUN_BINARY, DATA, scenario);
  FILE *pipe = popen(command, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(pipe);
  size_t len = 0;
  FILE *text = open_memstream(output, &len);
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;)
    fwrite(buf, 1, n, text);
  fclose(text);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Bad input, end to end: exit status 2 and one message at the file and line to blame. */
static void test_sim_dsm_bad_scenarios(void)
{
  const struct {
    const char *file;
    const char *message;
  } cases[] = {
      {"bad-page.xml",
       "bad-page.xml:4: platform '" DATA "bad-page-platform.xml' could not be loaded: " DATA
       "bad-page-platform.xml:9: property simrun:dsm-page-bytes = \"4000\" (on zone 'ncp2'): expected a "
       "power of two in [256, 1048576], written in decimal digits; fix the value\n"},
      {"bad-interrupt.xml",
       "bad-interrupt.xml:4: platform '" DATA "bad-interrupt-platform.xml' could not be loaded: " DATA
       "bad-interrupt-platform.xml:13: property simrun:dsm-interrupt-us = \"fast\" (on zone 'ncp2'): "
       "expected a number in [0, 1e12], written in decimal digits; fix the value\n"},
      {"bad-controller.xml", "bad-controller.xml:7: unknown controller 'maybe'; choose one of: yes, no\n"},
      {"bad-layout.xml", "bad-layout.xml:8: unknown layout 'striped'; choose one of: interleaved, blocked\n"},
      {"big-n.xml", "big-n.xml:6: n = 5000 is too large: simrun runs this skeleton up to 32 MB of shared data (n = "
                    "2000; NCP2's node memory, seed 002), whatever the platform's memory, which the run checks against "
                    "every node's simrun:memory-bytes; use n <= 2000\n"},
      {"too-many-nodes.xml", "too-many-nodes.xml:8: p = 9 exceeds the 8 NCP2 nodes of the platform"},
      {"t800.xml", "t800.xml:4: platform '" DATA "../../../platforms/t800-mesh-128.xml' could not be loaded: the "
                   "platform has no property simrun:dsm-page-bytes"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *output = NULL;
    CU_ASSERT_EQUAL(simrun(cases[i].file, &output), 2);
    char expected[1024];
    snprintf(expected, sizeof expected, "simrun: error: %s%s", DATA, cases[i].message);
    if (strncmp(output, expected, strlen(expected)) != 0)
      fprintf(stderr, "got: %s\nexpected: %s\n", output, expected);
    CU_ASSERT_EQUAL(strncmp(output, expected, strlen(expected)), 0);
    CU_ASSERT_PTR_NULL(strchr(output, '\n') ? strchr(strchr(output, '\n') + 1, '\n') : NULL);
    free(output);
  }
}

/* A small study end to end: both variants, the first page request's 13 intervals and the comparison. */
static void test_sim_dsm_report(void)
{
  char *output = NULL;
  CU_ASSERT_EQUAL(simrun("gj-small.xml", &output), 0);
  const char *phrases[] = {"controller = yes, p = 4: T_par",
                           "(no protocol controllers: original TreadMarks;",
                           "Wait map (CARNIVAL's CPWait map, Fig. 5)",
                           "What dominates the waiting",
                           "The first page request, interval by interval (Fig. 1)",
                           "  13 PPLWait",
                           "they add up to the wait",
                           "n = 16, p = 4: T_par"};
  for (size_t i = 0; i < sizeof phrases / sizeof phrases[0]; i++)
    CU_ASSERT_PTR_NOT_NULL(strstr(output, phrases[i]));
  CU_ASSERT_PTR_NOT_NULL(strstr(output, "the controller saves"));
  free(output);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_dsm_page_request_by_hand", test_sim_dsm_page_request_by_hand},
      {"test_sim_dsm_page_request_without_cp_by_hand", test_sim_dsm_page_request_without_cp_by_hand},
      {"test_sim_dsm_interrupt_preempts_computation", test_sim_dsm_interrupt_preempts_computation},
      {"test_sim_dsm_diff_request_by_hand", test_sim_dsm_diff_request_by_hand},
      {"test_sim_dsm_barrier_all_orders", test_sim_dsm_barrier_all_orders},
      {"test_sim_dsm_summed_as_spans", test_sim_dsm_summed_as_spans},
      {"test_sim_dsm_gauss_jordan_conserves_time", test_sim_dsm_gauss_jordan_conserves_time},
      {"test_sim_dsm_false_sharing_makes_diffs", test_sim_dsm_false_sharing_makes_diffs},
      {"test_sim_dsm_deterministic", test_sim_dsm_deterministic},
      {"test_sim_dsm_needs_its_properties", test_sim_dsm_needs_its_properties},
      {"test_sim_dsm_bad_scenarios", test_sim_dsm_bad_scenarios},
      {"test_sim_dsm_report", test_sim_dsm_report},
      {NULL, NULL}};
  return tu_run("sim_dsm", cases);
}
