/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracer's folding of repeated call sequences (src/tracer/trc_fold.c, compiled into this test: it needs no MPI),
 * on hand-made records: a repeated call becomes one loop with the sums of its times; an iteration that is an outlier
 * (one long wait) is written as it came, out of the loops' means, whether it comes once a loop runs or among the
 * iterations that would start one, or in most of them; a loop whose iterations drift from where its mean period
 * unfolds them ends. */
#include "trc_fold.h"
#include "trc_record.h"
#include "tu.h"

#include <math.h>
#include <string.h>

enum { MAX_OUT = 256 };

/* What the folder wrote, in order: 'p' for a record written as it came, 'l' for a loop. */
static struct {
  char kind[MAX_OUT];
  long count[MAX_OUT];        /* a loop's iterations */
  double duration[MAX_OUT];   /* a loop's mean call duration per iteration (its one slot), a record's duration */
  double compute[MAX_OUT];    /* the same for the computation before the call */
  const char *first[MAX_OUT]; /* a loop's first slot's call, a record's call */
  int continues[MAX_OUT];     /* whether that record continues the call before it (trc_call_more) */
  int n;
} out;

static void took_plain(const trc_rec_t *r)
{
  if (out.n < MAX_OUT) {
    out.kind[out.n] = 'p';
    out.count[out.n] = 1;
    out.duration[out.n] = r->end - r->start;
    out.first[out.n] = r->name;
    out.continues[out.n] = r->continues;
    out.compute[out.n++] = r->c_end - r->c_start;
  }
}

static void took_loop(const trc_loop_t *l)
{
  if (out.n < MAX_OUT) {
    out.kind[out.n] = 'l';
    out.count[out.n] = l->count;
    out.duration[out.n] = l->slots[0].duration / (double)l->count;
    out.first[out.n] = l->slots[0].rec.name;
    out.continues[out.n] = l->slots[0].rec.continues;
    out.compute[out.n++] = l->slots[0].compute / (double)l->count;
  }
}

/* A rank's loop of `iterations` receives from rank 1, each after 10 us of computation, iteration i (from 1) taking
 * wait(i) seconds; pushed through a folder and drained. */
static void fold_waits(int iterations, double (*wait)(int i))
{
  memset(&out, 0, sizeof out);
  trc_fold_t *f = trc_fold_new((trc_fold_out_t){.plain = took_plain, .loop = took_loop});
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  double t = 0;
  for (int i = 1; i <= iterations; i++) {
    trc_rec_t r = {.c_start = t,
                   .c_end = t + 10e-6,
                   .has_call = 1,
                   .start = t + 10e-6,
                   .end = t + 10e-6 + wait(i),
                   .category = "idle",
                   .name = "MPI_Recv",
                   .count = 1,
                   .peer = 1,
                   .bytes = 8,
                   .req = -1};
    t = r.end;
    trc_fold_push(f, &r);
  }
  trc_fold_drain(f);
  trc_fold_free(f);
}

static int slow;         /* fold_receives' slow iteration */
static double slow_wait; /* and its wait */

static double one_slow(int i)
{
  return i == slow ? slow_wait : 5e-6;
}

/* fold_waits of receives of 5 us, but for iteration `which` (from 1; 0: none), whose receive waits `seconds`. */
static void fold_receives(int iterations, int which, double seconds)
{
  slow = which;
  slow_wait = seconds;
  fold_waits(iterations, one_slow);
}

/* 40 steady iterations: one loop of 40, its mean the iterations' own 10 us and 5 us. */
static void test_trc_fold_steady_loop(void)
{
  fold_receives(40, 0, 0);
  CU_ASSERT_EQUAL_FATAL(out.n, 1);
  CU_ASSERT_EQUAL(out.kind[0], 'l');
  CU_ASSERT_EQUAL(out.count[0], 40);
  CU_ASSERT_DOUBLE_EQUAL(out.duration[0], 5e-6, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(out.compute[0], 10e-6, 1e-12);
}

/* Iteration 20 of 40 waits 5 ms, once the loop runs (it starts at 16): folded into the mean, every iteration would
 * wait (39 x 5 us + 5 ms) / 40 = 129.875 us. The loop ends before it: a loop of 19, the outlier as it came (5 ms),
 * then the 20 after it, which repeat 16 times and more, a loop again; both loops' means are 5 us. */
static void test_trc_fold_outlier_in_a_running_loop_written_apart(void)
{
  fold_receives(40, 20, 5e-3);
  CU_ASSERT_EQUAL_FATAL(out.n, 3);
  CU_ASSERT(out.kind[0] == 'l' && out.count[0] == 19);
  CU_ASSERT(out.kind[1] == 'p' && fabs(out.duration[1] - 5e-3) < 1e-12);
  CU_ASSERT(out.kind[2] == 'l' && out.count[2] == 20);
  CU_ASSERT_DOUBLE_EQUAL(out.duration[0], 5e-6, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(out.duration[2], 5e-6, 1e-12);
}

/* Iteration 5 of 40 waits 5 ms, among the 16 that would start the loop: the loop starts once 16 steady iterations
 * follow it (6 to 21) and runs to the end (35 iterations); the first five are written as they came, the outlier
 * among them. */
static void test_trc_fold_outlier_before_the_loop_kept_out(void)
{
  fold_receives(40, 5, 5e-3);
  CU_ASSERT_EQUAL_FATAL(out.n, 6);
  for (int i = 0; i < 5; i++)
    CU_ASSERT_EQUAL(out.kind[i], 'p');
  CU_ASSERT_DOUBLE_EQUAL(out.duration[4], 5e-3, 1e-12);
  CU_ASSERT(out.kind[5] == 'l' && out.count[5] == 35);
  CU_ASSERT_DOUBLE_EQUAL(out.duration[5], 5e-6, 1e-12);
}

enum { IRREGULAR = 200 };

/* Whether iteration i (from 1) of the irregular ones is long: one in three, drawn by C's example rand(). */
static int long_one(int i)
{
  unsigned draw = 12345;
  for (int k = 0; k < i; k++)
    draw = draw * 1103515245u + 12345u;
  return i <= IRREGULAR && (draw >> 16) % 3 == 0;
}

static double irregular_then_steady(int i)
{
  return long_one(i) ? 300e-6 : 5e-6;
}

/* IRREGULAR iterations, one in three waiting 300 us (an outlier beside 15 us: over 160), then 40 of 5 us: every window
 * of 16 holds an outlier until the last one is older than it, and every period ripens but none is steady, tried again
 * at every record (trc_fold.c, push_free: each record compared once, the outliers counted, not sorted). Every outlier
 * is written as it came; the loop starts with the 16 iterations after the last one, and holds every iteration after
 * it to the end; every iteration written once. */
static void test_trc_fold_irregular_iterations_written_then_a_loop(void)
{
  fold_waits(IRREGULAR + 40, irregular_then_steady);
  CU_ASSERT_FATAL(out.n > 1 && out.n < MAX_OUT);
  int last_long = 0;
  int longs = 0;
  for (int i = 1; i <= IRREGULAR; i++)
    if (long_one(i)) {
      last_long = i;
      longs++;
    }
  long written = 0;
  int outliers = 0;
  for (int k = 0; k < out.n; k++) {
    written += out.count[k];
    outliers += out.kind[k] == 'p' && out.duration[k] > 100e-6;
  }
  CU_ASSERT_EQUAL(written, IRREGULAR + 40);
  CU_ASSERT_EQUAL(outliers, longs);
  CU_ASSERT(out.kind[out.n - 1] == 'l' && out.count[out.n - 1] == IRREGULAR + 40 - last_long);
  CU_ASSERT_DOUBLE_EQUAL(out.duration[out.n - 1], 5e-6, 1e-12);
}

/* A wait within the bound (4 times the mean period of 15 us, plus 100 us: 160 us) is the loop's own spread: 40 in one
 * loop, the mean (39 x 5 us + 100 us) / 40 = 7.375 us. */
static void test_trc_fold_spread_within_bound_folded(void)
{
  fold_receives(40, 20, 100e-6);
  CU_ASSERT_EQUAL_FATAL(out.n, 1);
  CU_ASSERT_EQUAL(out.count[0], 40);
  CU_ASSERT_DOUBLE_EQUAL(out.duration[0], 7.375e-6, 1e-12);
}

static double slower_after_30(int i)
{
  return i <= 30 ? 5e-6 : 55e-6;
}

/* 30 iterations of 15 us, then 30 of 65 us (none an outlier: under 4 times the mean plus 100 us). One loop of 60 would
 * unfold into iterations of (30 x 15 + 30 x 65) / 60 = 40 us, the 30th ending at 1200 us where it ended at 450 us. The
 * loop grows while every iteration it holds ends within 100 us of where its mean period puts it: with k iterations, the
 * 30th's end, 450 us, within 100 us of 30 (450 + 65 (k - 30)) / k holds up to k = 32 (by hand: 46.67 k <= 1500); the
 * 33rd starts again: the 28 left, of 65 us, one loop. */
static void test_trc_fold_drifting_loop_split(void)
{
  fold_waits(60, slower_after_30);
  CU_ASSERT_EQUAL_FATAL(out.n, 2);
  CU_ASSERT(out.kind[0] == 'l' && out.count[0] == 32);
  CU_ASSERT(out.kind[1] == 'l' && out.count[1] == 28);
  CU_ASSERT_DOUBLE_EQUAL(out.duration[1], 55e-6, 1e-12);
}

/* A record of `name` at time *t lasting `duration` (advancing *t), to rank 1: `how` (TRC_STARTED_*, or -1) what an
 * MPI_Startall's line started, its later lines continuing the call. */
static trc_rec_t call_at(double *t, const char *name, double duration, int how)
{
  trc_rec_t r = {.c_start = *t,
                 .c_end = *t,
                 .has_call = 1,
                 .start = *t,
                 .end = *t + duration,
                 .category = how >= 0 ? "comm" : "idle",
                 .name = name,
                 .count = 1,
                 .peer = how >= 0 ? 1 : -1,
                 .bytes = how >= 0 ? 8 : 0,
                 .env = how >= 0,
                 .req = how,
                 .continues = how >= 0 && (how & TRC_STARTED_LATER)};
  *t = r.end + 1e-6;
  return r;
}

/* An MPI_Barrier, then the second line of an MPI_Startall (its send: the first line, its receive, came before the
 * barrier, say) and an MPI_Waitall, then 40 rounds of the whole MPI_Startall (two lines) and MPI_Waitall. The repeats
 * of 3 lines start at the lone second line: a loop from there would start inside a call, whose lines no reader could
 * then tell apart from one of their own. The loop starts one line later, at the MPI_Waitall: the barrier and the lone
 * line as they came, 40 rounds of MPI_Waitall, MPI_Startall, its second line, then the last MPI_Waitall. */
static void test_trc_fold_loop_starts_at_a_call(void)
{
  memset(&out, 0, sizeof out);
  trc_fold_t *f = trc_fold_new((trc_fold_out_t){.plain = took_plain, .loop = took_loop});
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  double t = 0;
  trc_rec_t r = call_at(&t, "MPI_Barrier", 5e-6, -1);
  trc_fold_push(f, &r);
  r = call_at(&t, "MPI_Startall", 0, TRC_STARTED_SEND | TRC_STARTED_LATER);
  trc_fold_push(f, &r);
  r = call_at(&t, "MPI_Waitall", 5e-6, -1);
  trc_fold_push(f, &r);
  for (int i = 0; i < 40; i++) {
    r = call_at(&t, "MPI_Startall", 2e-6, TRC_STARTED_RECV);
    trc_fold_push(f, &r);
    r = call_at(&t, "MPI_Startall", 0, TRC_STARTED_SEND | TRC_STARTED_LATER);
    trc_fold_push(f, &r);
    r = call_at(&t, "MPI_Waitall", 5e-6, -1);
    trc_fold_push(f, &r);
  }
  trc_fold_drain(f);
  trc_fold_free(f);
  CU_ASSERT_EQUAL_FATAL(out.n, 4);
  CU_ASSERT(out.kind[0] == 'p' && strcmp(out.first[0], "MPI_Barrier") == 0);
  CU_ASSERT(out.kind[1] == 'p' && out.continues[1]);
  CU_ASSERT(out.kind[2] == 'l' && out.count[2] == 40 && strcmp(out.first[2], "MPI_Waitall") == 0);
  CU_ASSERT(!out.continues[2]);
  CU_ASSERT(out.kind[3] == 'p' && strcmp(out.first[3], "MPI_Waitall") == 0);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_trc_fold_steady_loop", test_trc_fold_steady_loop},
      {"test_trc_fold_loop_starts_at_a_call", test_trc_fold_loop_starts_at_a_call},
      {"test_trc_fold_outlier_in_a_running_loop_written_apart", test_trc_fold_outlier_in_a_running_loop_written_apart},
      {"test_trc_fold_outlier_before_the_loop_kept_out", test_trc_fold_outlier_before_the_loop_kept_out},
      {"test_trc_fold_spread_within_bound_folded", test_trc_fold_spread_within_bound_folded},
      {"test_trc_fold_drifting_loop_split", test_trc_fold_drifting_loop_split},
      {"test_trc_fold_irregular_iterations_written_then_a_loop",
       test_trc_fold_irregular_iterations_written_then_a_loop},
      {NULL, NULL}};
  return tu_run("trc_fold", cases);
}
