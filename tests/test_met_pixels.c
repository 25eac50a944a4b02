/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of met_pixels: a run's timeline reduced to the pixels its pictures draw (columns of dominant category worked
 * out by hand, message paths, the page's segments whole and decimated), built rank by rank or interleaved alike,
 * bounded by ranks and columns whatever the messages, and written and read back. */
#define _GNU_SOURCE /* open_memstream */

#include "met_pixels.h"
#include "met_wait.h"
#include "tu.h"
#include "tu_trace.h"

#include <stdlib.h>
#include <string.h>

/* tu_trace_message(0), T_par = 3 s, over 1100 columns: 366.67 columns a second. Rank 0 computes [0, 1): columns 0 to
 * 365 and most of 366; sends [1, 2): 367 to 732; idle from 2 s: 733 (two thirds idle) to 1099. Rank 1 idles then
 * receives over the same columns, then writes [2, 3): 733 (two thirds output) to 1099. The message is counted at the
 * receiver, from column floor(366.67) to floor(733.33). */
static void test_met_pixels_columns_by_hand(void)
{
  met_trace_t *trace = tu_trace_message(0);
  met_pixels_t *px = met_pixels_new(trace);
  CU_ASSERT_PTR_NOT_NULL_FATAL(px);
  const unsigned char *r0 = met_pixels_row(px, 0), *r1 = met_pixels_row(px, 1);
  CU_ASSERT(r0[0] == MET_CAT_COMPUTE && r0[366] == MET_CAT_COMPUTE && r0[367] == MET_CAT_COMM &&
            r0[732] == MET_CAT_COMM && r0[733] == MET_CAT_IDLE && r0[1099] == MET_CAT_IDLE);
  CU_ASSERT(r1[0] == MET_CAT_IDLE && r1[366] == MET_CAT_IDLE && r1[367] == MET_CAT_COMM && r1[733] == MET_CAT_IO &&
            r1[1099] == MET_CAT_IO);
  CU_ASSERT_PTR_NULL(met_pixels_row(px, 2));
  size_t n;
  const uint64_t *paths = met_pixels_paths(px, &n);
  CU_ASSERT(met_pixels_messages(px) == 1 && n == 1);
  CU_ASSERT(paths && paths[0] == ((uint64_t)366 << 48 | (uint64_t)733 << 32 | 0u << 16 | 1u));
  const met_segment_t *seg = met_pixels_segments(px, 1, &n); /* 5 intervals: the page shows them whole */
  CU_ASSERT(met_pixels_intervals(px) == 5 && met_pixels_page_column(px) == 0 && n == 3);
  CU_ASSERT(seg && seg[1].start == 1 && seg[1].end == 2 && seg[1].category == MET_CAT_COMM && seg[1].peer == 0 &&
            seg[1].dir == MET_DIR_RECV);
  met_pixels_free(px);
  met_trace_free(trace);
}

/* One rank of n intervals of 1 s, compute and communication by turns, with a message to rank 1 on each
 * communication (received by rank 1 over the same second), into `trace` (2 ranks). */
static met_trace_t *fill_pair(met_trace_t *trace, size_t n)
{
  CU_ASSERT_FATAL(trace && met_trace_phase_id(trace, "main") == 0);
  for (size_t i = 0; i < n; i++) {
    met_interval_t iv = {.start = (double)i,
                         .end = (double)i + 1,
                         .category = i % 2 ? MET_CAT_COMM : MET_CAT_COMPUTE,
                         .peer = i % 2 ? 1 : -1,
                         .dir = i % 2 ? MET_DIR_SEND : MET_DIR_NONE};
    CU_ASSERT_EQUAL_FATAL(met_trace_add(trace, 0, &iv), 0);
    if (i % 2) {
      iv.dir = MET_DIR_RECV;
      iv.peer = 0;
      CU_ASSERT_EQUAL_FATAL(met_trace_add(trace, 1, &iv), 0);
    }
  }
  return trace;
}

static met_trace_t *busy_pair(size_t n)
{
  return fill_pair(met_trace_new(2), n);
}

static int add_both(void *ctx, int rank, const met_interval_t *iv)
{
  void **both = ctx;
  met_wait_walk_add(both[1], rank, iv);
  return met_pixels_add(both[0], rank, iv);
}

/* The same run recorded whole and spilled (its intervals in a file, met_trace_new_spilled), with rank 1 idle 0.5 s
 * before each receive (a late sender: 0.5 s x 5,000): the walk over the file draws the same columns, paths and page,
 * and finds the same wait states, as the whole trace. */
static void test_met_pixels_spilled_trace_draws_the_same(void)
{
  met_trace_t *whole = fill_pair(met_trace_new(2), 20000), *spilled = fill_pair(met_trace_new_spilled(2), 20000);
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < 5000; i++) {
      met_interval_t idle = {.start = 20000 + 2.0 * (double)i,
                             .end = 20000.5 + 2.0 * (double)i,
                             .category = MET_CAT_IDLE,
                             .peer = 0,
                             .dir = MET_DIR_RECV};
      CU_ASSERT_EQUAL_FATAL(met_trace_add(k ? spilled : whole, 1, &idle), 0);
    }
  CU_ASSERT_FATAL(met_trace_is_aggregate(spilled) && met_trace_count(spilled, 0) == 0);
  CU_ASSERT_EQUAL(met_trace_spilled(spilled), 35000);
  met_pixels_t *a = met_pixels_new(whole);
  void *both[2] = {met_pixels_begin(spilled, met_trace_spilled(spilled)), met_wait_walk_new(spilled)};
  CU_ASSERT_FATAL(a && both[0] && both[1] && met_trace_spill_walk(spilled, add_both, both) == 0 &&
                  met_pixels_finish(both[0]) == 0);
  met_pixels_t *b = both[0];
  met_waits_t wa, wb;
  CU_ASSERT_FATAL(met_wait_compute(whole, &wa) == 0 && met_wait_walk_end(both[1], &wb) == 0);
  CU_ASSERT_DOUBLE_EQUAL(met_wait_time(&wb, 1, MET_WAIT_LATE_SENDER), 2500, 1e-9);
  CU_ASSERT(memcmp(wa.time, wb.time, 2 * MET_WAIT_PATTERNS * sizeof *wa.time) == 0);
  size_t n, m;
  const uint64_t *pa = met_pixels_paths(a, &n), *pb = met_pixels_paths(b, &m);
  CU_ASSERT(n == m && (n == 0 || memcmp(pa, pb, n * sizeof *pa) == 0));
  for (int r = 0; r < 2; r++) {
    const met_segment_t *sa = met_pixels_segments(a, r, &n), *sb = met_pixels_segments(b, r, &m);
    CU_ASSERT(memcmp(met_pixels_row(a, r), met_pixels_row(b, r), MET_PIXELS_COLS) == 0);
    CU_ASSERT(n == m && n > 0 && memcmp(sa, sb, n * sizeof *sa) == 0);
  }
  met_wait_free(&wa);
  met_wait_free(&wb);
  met_pixels_free(a);
  met_pixels_free(b);
  met_trace_free(whole);
  met_trace_free(spilled);
}

/* 1,200 messages between two ranks over 1,100 columns, most of them 0.92 column from the next: more distinct paths
 * than two ranks' lines can show (331 a rank), so none is kept, every message counted; 600 over 1,200 s, 1.8 columns
 * apart: each its own path, all kept, in order. */
static void test_met_pixels_paths_bounded_by_ranks(void)
{
  met_trace_t *many = busy_pair(2400), *fewer = busy_pair(1200);
  met_pixels_t *px = met_pixels_new(many), *kept = met_pixels_new(fewer);
  CU_ASSERT_FATAL(px && kept);
  size_t n;
  CU_ASSERT(met_pixels_paths(px, &n) == NULL && n == 0 && met_pixels_messages(px) == 1200);
  const uint64_t *paths = met_pixels_paths(kept, &n);
  CU_ASSERT(paths && n == 600 && met_pixels_messages(kept) == 600);
  for (size_t i = 1; paths && i < n; i++)
    CU_ASSERT(paths[i - 1] < paths[i]);
  met_pixels_free(px);
  met_pixels_free(kept);
  met_trace_free(many);
  met_trace_free(fewer);
}

/* 100,000 intervals of 1 s on rank 0 (50,000 on rank 1): more than MET_PAGE_WHOLE, decimated to 15,000 columns of
 * 100000 / 15000 s a rank. Each segment is a whole interval a column long or more or
 * the short ones merged from one column, so a rank has at most 3 x 15,000 + 2 of them; they follow each other without
 * overlap, ending where the rank's last interval ends. */
static void test_met_pixels_page_decimated(void)
{
  met_trace_t *trace = busy_pair(100000);
  met_pixels_t *px = met_pixels_new(trace);
  CU_ASSERT_PTR_NOT_NULL_FATAL(px);
  CU_ASSERT_DOUBLE_EQUAL(met_pixels_page_column(px), 100000.0 / 15000, 1e-9);
  for (int r = 0; r < 2; r++) {
    size_t n;
    const met_segment_t *seg = met_pixels_segments(px, r, &n);
    CU_ASSERT(seg && n > 0 && n <= 3 * 15000 + 2);
    for (size_t i = 1; seg && i < n; i++)
      CU_ASSERT(seg[i].start >= seg[i - 1].end);
    CU_ASSERT(seg && seg[n - 1].end == 100000);
  }
  met_pixels_free(px);
  met_trace_free(trace);
}

/* The stream: what is read back draws the same; a stream cut short is refused. */
static void test_met_pixels_write_read(void)
{
  met_trace_t *trace = busy_pair(30000);
  met_pixels_t *px = met_pixels_new(trace);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_FATAL(px && out && met_pixels_write(px, out) == 0 && fclose(out) == 0);
  FILE *in = fmemopen(text, len, "rb");
  met_pixels_t *back = in ? met_pixels_read(in) : NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL(back);
  fclose(in);
  CU_ASSERT(memcmp(met_pixels_row(px, 1), met_pixels_row(back, 1), MET_PIXELS_COLS) == 0);
  size_t n, m;
  const met_segment_t *a = met_pixels_segments(px, 0, &n), *b = met_pixels_segments(back, 0, &m);
  CU_ASSERT(n == m && n > 0 && memcmp(a, b, n * sizeof *a) == 0);
  CU_ASSERT(met_pixels_end(back) == 30000 && met_pixels_intervals(back) == 45000 &&
            strcmp(met_pixels_phase_name(back, 0), "main") == 0);
  in = fmemopen(text, len - 1, "rb");
  CU_ASSERT_PTR_NULL(met_pixels_read(in));
  fclose(in);
  free(text);
  met_pixels_free(back);
  met_pixels_free(px);
  met_trace_free(trace);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_met_pixels_columns_by_hand", test_met_pixels_columns_by_hand},
      {"test_met_pixels_paths_bounded_by_ranks", test_met_pixels_paths_bounded_by_ranks},
      {"test_met_pixels_page_decimated", test_met_pixels_page_decimated},
      {"test_met_pixels_write_read", test_met_pixels_write_read},
      {"test_met_pixels_spilled_trace_draws_the_same", test_met_pixels_spilled_trace_draws_the_same},
      {NULL, NULL}};
  return tu_run("met_pixels", cases);
}
