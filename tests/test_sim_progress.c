/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Progress from inside a running simulation (sim_progress.h): the reports' reading, robust to damaged and cut lines;
 * a count written through a pipe arrives whole; and a simulation process's reports reach its parent through
 * sim_run_wait_any, the last one the operations counted by hand, and for Gauss-Jordan the skeleton's own count
 * (app_skeleton_t.work) for every broadcast. Nothing is timed. */
#include "app_gj.h"
#include "app_pdtrsm.h"
#include "app_skeleton.h"
#include "sim_coll.h"
#include "sim_progress.h"
#include "sim_run.h"
#include "tu.h"

#include <string.h>
#include <unistd.h>

#define T800     SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"
#define ICLUSTER SIMRUN_SOURCE_DIR "/platforms/icluster-fe-32.xml"

/* Feeds `text` and returns what the reader holds: the last count, and how many it read. */
static sim_progress_reader_t fed(const char *text)
{
  sim_progress_reader_t r = {0};
  sim_progress_feed(&r, text, strlen(text));
  return r;
}

/* Whole lines are read; a line cut across pieces too; only a new count says so; the end's count is marked, and
 * nothing after it is read. */
static void test_progress_reads_reports(void)
{
  sim_progress_reader_t e = fed("ops 12\nend 20\nops 30\n");
  CU_ASSERT_DOUBLE_EQUAL(e.ops, 20, 0);
  CU_ASSERT_EQUAL(e.ended, 1);
  sim_progress_reader_t r = fed("ops 12\nops 345\n");
  CU_ASSERT_DOUBLE_EQUAL(r.ops, 345, 0);
  CU_ASSERT_EQUAL(r.reports, 2);
  r = (sim_progress_reader_t){0};
  CU_ASSERT_EQUAL(sim_progress_feed(&r, "op", 2), 0);
  CU_ASSERT_EQUAL(sim_progress_feed(&r, "s 1e", 4), 0);
  CU_ASSERT_EQUAL(sim_progress_feed(&r, "3\nops 20", 8), 1);
  CU_ASSERT_DOUBLE_EQUAL(r.ops, 1000, 0);
  CU_ASSERT_EQUAL(sim_progress_feed(&r, "00\n", 3), 1);
  CU_ASSERT_DOUBLE_EQUAL(r.ops, 2000, 0);
}

/* Damaged lines are skipped, whatever their damage, and the reading goes on with the next whole line: a wrong word,
 * a count that is not a number or is followed by more, negative, not finite, smaller than the last, a NUL inside, a
 * line too long for the reader, an empty one. */
static void test_progress_skips_damaged_reports(void)
{
  static const char *const damaged[] = {"opx 5\n",  "ops\n",     "ops \n",    "ops five\n", "ops 5x\n",
                                        "ops -1\n", "ops nan\n", "ops inf\n", "ops  5\n",   "\n",
                                        "ops 3\n",  "ops 9 9\n", "xops 100\n"};
  for (size_t i = 0; i < sizeof damaged / sizeof damaged[0]; i++) {
    sim_progress_reader_t r = {.ops = 4, .reports = 1};
    CU_ASSERT_EQUAL(sim_progress_feed(&r, damaged[i], strlen(damaged[i])), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.ops, 4, 0);
    CU_ASSERT_EQUAL(sim_progress_feed(&r, "ops 7\n", 6), 1);
    CU_ASSERT_DOUBLE_EQUAL(r.ops, 7, 0);
  }
  sim_progress_reader_t r = {0};
  CU_ASSERT_EQUAL(sim_progress_feed(&r,
                                    "ops 1\0"
                                    "5\n",
                                    8),
                  0);
  char longer[200];
  memset(longer, '9', sizeof longer);
  memcpy(longer, "ops ", 4);
  longer[sizeof longer - 1] = '\n';
  CU_ASSERT_EQUAL(sim_progress_feed(&r, longer, sizeof longer), 0);
  CU_ASSERT_EQUAL(sim_progress_feed(&r, "ops 8\n", 6), 1);
  CU_ASSERT_DOUBLE_EQUAL(r.ops, 8, 0);
  CU_ASSERT_EQUAL(r.reports, 1);
}

/* In this process, through a pipe: 1,000 operations counted, then the end's report, arrive as 1,000, the end's; the
 * first report comes at the first check of the clock (after 256 counts), whatever the time. */
static void test_progress_through_a_pipe(void)
{
  int fds[2];
  CU_ASSERT_FATAL(pipe(fds) == 0);
  sim_progress_attach(fds[1]);
  for (int i = 0; i < 1000; i++)
    sim_progress_count(1);
  sim_progress_flush();
  sim_progress_attach(-1);
  close(fds[1]);
  char buf[4096];
  ssize_t n = read(fds[0], buf, sizeof buf);
  close(fds[0]);
  CU_ASSERT_FATAL(n > 0);
  sim_progress_reader_t r = {0};
  sim_progress_feed(&r, buf, (size_t)n);
  CU_ASSERT(strncmp(buf, "ops 256\n", 8) == 0);
  CU_ASSERT_DOUBLE_EQUAL(r.ops, 1000, 0);
  CU_ASSERT_EQUAL(r.ended, 1);
  CU_ASSERT(r.reports >= 2);
}

enum { RING = 4, ROUNDS = 300 };

/* Every rank, ROUNDS times: a computation, then a message round the ring (even ranks send first). */
static void ring_program(sim_rank_t *rank, const void *arg)
{
  int me = sim_rank_id(rank), n = sim_rank_count(rank);
  for (int k = 0; k < ROUNDS; k++) {
    sim_compute(rank, &(sim_cycles_t){.cpu = 1000}, SIM_WORK);
    if (me % 2 == 0)
      sim_send(rank, (me + 1) % n, 8);
    sim_recv(rank, (me + n - 1) % n, 8);
    if (me % 2 == 1)
      sim_send(rank, (me + 1) % n, 8);
  }
}

static int write_nothing(const met_trace_t *trace, const void *ctx, FILE *out)
{
  return 0;
}

/* A simulation process's count reaches the parent: its last report, read as it ends, is every rank's operations by
 * hand, 4 ranks x 300 rounds x (a computation and a message's two ends, one sent, one received) = 3,600; each report
 * on the way said more than the one before. */
static void test_progress_from_a_simulation(void)
{
  sim_job_t job = {.platform = T800, .nranks = RING, .program = ring_program};
  sim_run_child_t child;
  char err[1024] = "";
  CU_ASSERT_FATAL(sim_run_start(&job, write_nothing, NULL, &child, err, sizeof err) == 0);
  size_t which = 9;
  int rc;
  double last = -1;
  while ((rc = sim_run_wait_any(&child, 1, &which, NULL, err, sizeof err)) == SIM_RUN_PROGRESS) {
    CU_ASSERT_EQUAL(which, 0);
    CU_ASSERT(child.progress.ops > last);
    last = child.progress.ops;
  }
  if (rc != 0)
    fprintf(stderr, "simulation failed: %s\n", err);
  CU_ASSERT_EQUAL(rc, 0);
  CU_ASSERT_DOUBLE_EQUAL(child.progress.ops, RING * ROUNDS * 3, 0);
  CU_ASSERT_EQUAL(child.progress.ended, 1);
  if (child.channel)
    fclose(child.channel);
}

/* The count a simulation process reported at its end (its trace is not kept), or -1 when it failed. */
static double count_of(const sim_job_t *job)
{
  sim_run_child_t child;
  char err[1024] = "";
  size_t which;
  int rc = sim_run_start(job, write_nothing, NULL, &child, err, sizeof err);
  while (rc == 0 && (rc = sim_run_wait_any(&child, 1, &which, NULL, err, sizeof err)) == SIM_RUN_PROGRESS)
    rc = 0;
  if (rc != 0)
    fprintf(stderr, "simulation failed (%d): %s\n", rc, err);
  if (child.channel)
    fclose(child.channel);
  return rc == 0 && child.progress.ended ? child.progress.ops : -1;
}

/* Gauss-Jordan at N = 24 on 4 ranks of the T800 mesh: what the simulation counts is what the skeleton predicts from
 * the collectives' plans (app_gj.c's gj_work, app_bcast_ops), for every broadcast: two counts made apart, one from the
 * plan before the run, one from the recorder during it. */
static void test_progress_counts_what_gauss_jordan_predicts(void)
{
  for (int alg = 0; alg < SIM_BCAST_COUNT; alg++) {
    const char *names[] = {"n", "broadcast"}, *values[] = {"24", sim_bcast_names[alg]};
    app_point_t point = {.count = 2, .names = names, .values = values};
    void *arg = NULL;
    char err[256];
    const char *bad = NULL;
    CU_ASSERT_FATAL(app_gj_skeleton.prepare(&point, 4, &arg, err, sizeof err, &bad) == 0);
    sim_job_t job = {
        .platform = T800, .nranks = 4, .bcast = (sim_bcast_alg_t)alg, .program = app_gj_skeleton.program, .arg = arg};
    CU_ASSERT_DOUBLE_EQUAL(count_of(&job), app_gj_skeleton.work(&point, 4), 0);
    app_gj_skeleton.release(arg);
  }
}

/* pdtrsm on icluster: what the simulation counts is what the skeleton predicts (app_pdtrsm.c's pdtrsm_work), on a
 * single-row grid and on general grids (sends down and sums), with m and n no multiples of the block (a short last
 * block row and a narrow last block: broadcasts of other sizes, pipelined-chain's segments), more process columns than
 * blocks left (columns with nothing to update), for every broadcast. */
static void test_progress_counts_what_pdtrsm_predicts(void)
{
  static const struct {
    const char *m, *n, *block, *rows;
    int p;
  } grids[] = {{"200", "150", "32", "1", 4},
               {"200", "150", "32", "2", 4},
               {"130", "260", "32", "3", 6},
               {"64", "100", "16", "2", 8},
               {"96", "40", "16", "1", 5}};
  for (int alg = 0; alg < SIM_BCAST_COUNT; alg++)
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
      const char *names[] = {"m", "n", "block", "grid-rows", "broadcast"};
      const char *values[] = {grids[g].m, grids[g].n, grids[g].block, grids[g].rows, sim_bcast_names[alg]};
      app_point_t point = {.count = 5, .names = names, .values = values};
      void *arg = NULL;
      char err[256];
      const char *bad = NULL;
      CU_ASSERT_FATAL(app_pdtrsm_skeleton.prepare(&point, grids[g].p, &arg, err, sizeof err, &bad) == 0);
      sim_job_t job = {.platform = ICLUSTER,
                       .nranks = grids[g].p,
                       .bcast = (sim_bcast_alg_t)alg,
                       .program = app_pdtrsm_skeleton.program,
                       .arg = arg};
      double counted = count_of(&job), predicted = app_pdtrsm_skeleton.work(&point, grids[g].p);
      if (counted != predicted)
        fprintf(stderr, "pdtrsm %s, grid %zu: counted %.0f, predicted %.0f\n", values[4], g, counted, predicted);
      CU_ASSERT_DOUBLE_EQUAL(counted, predicted, 0);
      app_pdtrsm_skeleton.release(arg);
    }
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_progress_reads_reports", test_progress_reads_reports},
      {"test_progress_skips_damaged_reports", test_progress_skips_damaged_reports},
      {"test_progress_through_a_pipe", test_progress_through_a_pipe},
      {"test_progress_from_a_simulation", test_progress_from_a_simulation},
      {"test_progress_counts_what_gauss_jordan_predicts", test_progress_counts_what_gauss_jordan_predicts},
      {"test_progress_counts_what_pdtrsm_predicts", test_progress_counts_what_pdtrsm_predicts},
      {NULL, NULL}};
  return tu_run("sim_progress", cases);
}
