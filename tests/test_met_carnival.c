/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cause-effect analysis (seed 002 §4.1, Table 1) on hand-made traces: the interval-to-category map, requests whose
 * categories add up to their wait, profiles that conserve time, the wait map, the annex's binary round trip, and an
 * aggregate trace's sums against the whole trace's spans. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, fmemopen */

#include "met_carnival.h"
#include "tu.h"
#include "bas_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static met_trace_t *new_trace(int nodes)
{
  met_trace_t *trace = met_trace_new(nodes);
  CU_ASSERT_FATAL(trace != NULL);
  CU_ASSERT_FATAL(met_trace_phase_id(trace, "main") == 0);
  return trace;
}

static void span(met_trace_t *trace, int node, int unit, double start, double end, int state, int scope, int op)
{
  met_span_t s = {.start = start, .end = end, .state = state, .scope = scope, .op = op};
  CU_ASSERT_EQUAL(met_trace_span_add(trace, node, unit, &s), 0);
}

/* A PP request of `op` by `node` whose 13 intervals last len[0..12], starting at `start`. */
static met_request_t request(int node, int op, int scope, double start, const double len[MET_CE_INTERVALS])
{
  met_request_t r = {.node = node, .unit = MET_UNIT_PP, .op = op, .scope = scope, .peer = -1, .item = 0};
  r.mark[0] = start;
  for (int k = 1; k < MET_REQ_MARKS; k++)
    r.mark[k] = r.mark[k - 1] + len[k - 1];
  return r;
}

/* Seed 002 Table 1, column "Intervalos", read off the paper. */
static void test_met_carnival_table1_intervals(void)
{
  const met_wait_cat_t expected[MET_CE_INTERVALS] = {
      MET_W_CPLWAIT, MET_W_CPLCOMP, MET_W_CPCCOMM, MET_W_CPRWAIT, MET_W_CPRCOMP, MET_W_PPRWAIT, MET_W_PPRCOMP,
      MET_W_CPRWAIT, MET_W_CPRCOMP, MET_W_CPCCOMM, MET_W_CPLWAIT, MET_W_CPLCOMP, MET_W_PPLWAIT};
  for (int k = 1; k <= MET_CE_INTERVALS; k++)
    CU_ASSERT_EQUAL(met_ce_interval(k), expected[k - 1]);
  CU_ASSERT_EQUAL(met_ce_interval(0), MET_W_COUNT);
  CU_ASSERT_EQUAL(met_ce_interval(14), MET_W_COUNT);
}

/* Intervals of 1, 2, ..., 13 s. By hand: CPLWait 1 + 11 = 12, CPLComp 2 + 12 = 14, CPCComm 3 + 10 = 13, CPRWait
 * 4 + 8 = 12, CPRComp 5 + 9 = 14, PPRWait 6, PPRComp 7, PPLWait 13; the wait is 1 + ... + 13 = 91. */
static void test_met_ce_split_by_hand(void)
{
  double len[MET_CE_INTERVALS];
  for (int k = 0; k < MET_CE_INTERVALS; k++)
    len[k] = k + 1;
  met_request_t r = request(0, MET_OP_PAGE, 0, 5, len);
  double cats[MET_W_COUNT];
  CU_ASSERT_EQUAL(met_ce_split(&r, cats), 91);
  const double expected[MET_W_COUNT] = {12, 14, 13, 12, 14, 6, 7, 13};
  for (int c = 0; c < MET_W_COUNT; c++)
    CU_ASSERT_EQUAL(cats[c], expected[c]);
}

/* Any non-decreasing marks: the categories add up to mark[13] - mark[0] (up to rounding of a 13-term sum). */
static void test_met_ce_split_adds_up(void)
{
  unsigned seed = 12345;
  for (int trial = 0; trial < 1000; trial++) {
    double len[MET_CE_INTERVALS];
    for (int k = 0; k < MET_CE_INTERVALS; k++) {
      seed = seed * 1103515245u + 12345u;
      len[k] = (seed >> 8 & 0xffff) * 1e-9 * (k % 3 == 0 ? 0 : 1);
    }
    met_request_t r = request(trial % 4, MET_OP_DIFF, 0, trial * 0.37, len);
    double cats[MET_W_COUNT];
    double wait = met_ce_split(&r, cats);
    double sum = 0;
    for (int c = 0; c < MET_W_COUNT; c++)
      sum += cats[c];
    TU_ASSERT_CLOSE(sum, wait, 1e-15 * (1 + r.mark[13]));
  }
}

/* Node 0: PP Comp [0, 2), Extra [2, 3), Prste [4, 5) (a gap [3, 4) and a tail [5, 10) count as Wait); CP CPComp
 * [1, 2), CPWait [2, 2.5) (before it [0, 1) and after it [2.5, 10) are CPIdle). Node 1: PP Comp [0, 10). By hand,
 * node 0: Comp 2, Extra 1, Wait 1 + 5 = 6, Prste 1 (sum 10); CPComp 1, CPWait 0.5, CPIdle 1 + 7.5 = 8.5 (sum 10);
 * node 1: Comp 10, and CPIdle 10 since the run has CPs. */
static met_trace_t *profile_trace(void)
{
  met_trace_t *trace = new_trace(2);
  CU_ASSERT_EQUAL(met_trace_phase_id(trace, "loop"), 1);
  span(trace, 0, MET_UNIT_PP, 0, 2, MET_CE_COMP, 1, MET_OP_NONE);
  span(trace, 0, MET_UNIT_PP, 2, 3, MET_CE_EXTRA, 1, MET_OP_PAGE);
  span(trace, 0, MET_UNIT_PP, 4, 5, MET_CE_PRSTE, 1, MET_OP_DIFF);
  span(trace, 0, MET_UNIT_CP, 1, 2, MET_CE_CPCOMP, 1, MET_OP_PAGE);
  span(trace, 0, MET_UNIT_CP, 2, 2.5, MET_CE_CPWAIT, 1, MET_OP_PAGE);
  span(trace, 1, MET_UNIT_PP, 0, 10, MET_CE_COMP, 0, MET_OP_NONE);
  return trace;
}

static void test_met_carnival_profile_conserves_time(void)
{
  met_trace_t *trace = profile_trace();
  met_carnival_t *c = met_carnival_new(trace);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c);
  CU_ASSERT_EQUAL(met_carnival_end(c), 10);
  CU_ASSERT(met_carnival_has_cp(c));
  const double node0[MET_CE_COUNT] = {2, 1, 6, 1, 1, 0.5, 8.5};
  const double node1[MET_CE_COUNT] = {10, 0, 0, 0, 0, 0, 10};
  for (int cat = 0; cat < MET_CE_COUNT; cat++) {
    TU_ASSERT_CLOSE(met_carnival_time(c, 0, -1, cat, -1), node0[cat], 1e-12);
    TU_ASSERT_CLOSE(met_carnival_time(c, 1, -1, cat, -1), node1[cat], 1e-12);
  }
  TU_ASSERT_CLOSE(met_carnival_time(c, -1, 1, MET_CE_EXTRA, MET_OP_PAGE), 1, 1e-12);
  TU_ASSERT_CLOSE(met_carnival_time(c, -1, -1, MET_CE_PRSTE, MET_OP_DIFF), 1, 1e-12);
  TU_ASSERT_CLOSE(met_carnival_time(c, -1, -1, MET_CE_COMP, -1), 12, 1e-12);
  CU_ASSERT_STRING_EQUAL(met_carnival_scope_name(c, 1), "loop");
  CU_ASSERT_PTR_NULL(met_carnival_scope_name(c, 2));
  met_carnival_free(c);
  met_trace_free(trace);
}

/* Without CP spans (the original TreadMarks) the CP categories stay zero, and the PP still adds up to the end. */
static void test_met_carnival_without_cp(void)
{
  met_trace_t *trace = new_trace(1);
  span(trace, 0, MET_UNIT_PP, 1, 3, MET_CE_EXTRA, 0, MET_OP_BARRIER);
  met_carnival_t *c = met_carnival_new(trace);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c);
  CU_ASSERT_FALSE(met_carnival_has_cp(c));
  TU_ASSERT_CLOSE(met_carnival_time(c, 0, -1, MET_CE_WAIT, -1), 1, 1e-12);
  TU_ASSERT_CLOSE(met_carnival_time(c, 0, -1, MET_CE_EXTRA, MET_OP_BARRIER), 2, 1e-12);
  for (int cat = MET_CE_CPCOMP; cat < MET_CE_COUNT; cat++)
    CU_ASSERT_EQUAL(met_carnival_time(c, -1, -1, cat, -1), 0);
  met_carnival_free(c);
  met_trace_free(trace);
}

/* A PP span may not carry a CP state, nor a CP span a PP state. */
static void test_met_carnival_rejects_foreign_states(void)
{
  met_trace_t *trace = new_trace(1);
  span(trace, 0, MET_UNIT_PP, 0, 1, MET_CE_CPCOMP, 0, MET_OP_NONE);
  CU_ASSERT_PTR_NULL(met_carnival_new(trace));
  met_trace_free(trace);
  trace = new_trace(1);
  span(trace, 0, MET_UNIT_CP, 0, 1, MET_CE_PRSTE, 0, MET_OP_NONE);
  CU_ASSERT_PTR_NULL(met_carnival_new(trace));
  met_trace_free(trace);
}

/* Three page requests in scope "loop" (waits 13, 13 and 26 s: intervals of 1 s, or of 2 s), one barrier in "main" of
 * 39 s (3 s each) and a CP wait. By hand: map rows (loop, Wait, page) 52 s in 3 requests, then (main, Wait, barrier)
 * 39 s, then (loop, CPWait, page) 2 s; the first page request is the earliest (start 1 s, node 1 before node 2). */
static void test_met_carnival_wait_map(void)
{
  met_trace_t *trace = new_trace(3);
  CU_ASSERT_EQUAL(met_trace_phase_id(trace, "loop"), 1);
  double ones[MET_CE_INTERVALS], twos[MET_CE_INTERVALS], threes[MET_CE_INTERVALS];
  for (int k = 0; k < MET_CE_INTERVALS; k++) {
    ones[k] = 1;
    twos[k] = 2;
    threes[k] = 3;
  }
  met_request_t reqs[] = {request(2, MET_OP_PAGE, 1, 1, ones), request(1, MET_OP_PAGE, 1, 1, twos),
                          request(0, MET_OP_PAGE, 1, 4, ones), request(0, MET_OP_BARRIER, 0, 0, threes)};
  for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++)
    CU_ASSERT_EQUAL(met_trace_request_add(trace, &reqs[i]), 0);
  met_request_t cpwait = request(0, MET_OP_PAGE, 1, 0, (double[MET_CE_INTERVALS]){[5] = 1, [6] = 1});
  cpwait.unit = MET_UNIT_CP;
  CU_ASSERT_EQUAL(met_trace_request_add(trace, &cpwait), 0);
  met_carnival_t *c = met_carnival_new(trace);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c);
  size_t rows = 0;
  const met_ce_row_t *map = met_carnival_map(c, &rows);
  CU_ASSERT_EQUAL_FATAL(rows, 3);
  CU_ASSERT(map[0].scope == 1 && map[0].unit == MET_UNIT_PP && map[0].op == MET_OP_PAGE && map[0].wait.count == 3);
  TU_ASSERT_CLOSE(map[0].wait.time, 52, 1e-12);
  TU_ASSERT_CLOSE(map[0].wait.cat[MET_W_CPLCOMP], 2 + 2 + 4, 1e-12); /* intervals 2 and 12 of each */
  CU_ASSERT(map[1].scope == 0 && map[1].op == MET_OP_BARRIER);
  TU_ASSERT_CLOSE(map[1].wait.time, 39, 1e-12);
  CU_ASSERT(map[2].unit == MET_UNIT_CP && map[2].wait.count == 1);
  TU_ASSERT_CLOSE(map[2].wait.cat[MET_W_PPRWAIT] + map[2].wait.cat[MET_W_PPRCOMP], 2, 1e-12);
  met_ce_wait_t pages = met_carnival_wait(c, MET_UNIT_PP, MET_OP_PAGE, -1);
  CU_ASSERT_EQUAL(pages.count, 3);
  CU_ASSERT_EQUAL(met_carnival_wait(c, MET_UNIT_PP, -1, -1).count, 4);
  const met_request_t *first = met_carnival_first(c, MET_OP_PAGE);
  CU_ASSERT(first && first->node == 1 && first->mark[0] == 1);
  CU_ASSERT_PTR_NULL(met_carnival_first(c, MET_OP_DIFF));
  met_carnival_free(c);
  met_trace_free(trace);
}

/* The bytes met_trace_write produces, in a new buffer (the caller frees it); their number in *len. */
static char *trace_bytes(const met_trace_t *trace, size_t *len)
{
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(met_trace_write(trace, f), 0);
  fclose(f);
  return buf;
}

/* met_trace_read of the first n (> 0) bytes of buf. */
static met_trace_t *read_prefix(char *buf, size_t n)
{
  FILE *f = fmemopen(buf, n, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  met_trace_t *trace = met_trace_read(f);
  fclose(f);
  return trace;
}

/* The annex survives write and read; a trace without it writes exactly its old bytes, a prefix of the annexed
 * stream; a stream cut inside the annex is malformed. */
static void test_met_carnival_annex_round_trip(void)
{
  met_trace_t *trace = new_trace(2);
  met_interval_t iv = {.start = 0, .end = 1, .category = MET_CAT_COMPUTE, .peer = -1};
  CU_ASSERT_EQUAL(met_trace_add(trace, 0, &iv), 0);
  size_t n_plain = 0;
  char *plain = trace_bytes(trace, &n_plain);
  span(trace, 1, MET_UNIT_CP, 0.5, 2, MET_CE_CPCOMP, 0, MET_OP_DIFF);
  double len[MET_CE_INTERVALS] = {0.25};
  met_request_t r = request(1, MET_OP_DIFF, 0, 0.5, len);
  r.peer = 0;
  r.item = 7;
  CU_ASSERT_EQUAL(met_trace_request_add(trace, &r), 0);
  size_t n = 0;
  char *annexed = trace_bytes(trace, &n);
  CU_ASSERT(n > n_plain && memcmp(plain, annexed, n_plain) == 0);
  met_trace_t *copy = read_prefix(annexed, n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
  size_t count = 0;
  const met_span_t *spans = met_trace_spans(copy, 1, MET_UNIT_CP, &count);
  CU_ASSERT(count == 1 && spans[0].start == 0.5 && spans[0].end == 2 && spans[0].op == MET_OP_DIFF);
  CU_ASSERT_EQUAL(met_trace_end(copy), 2);
  const met_request_t *reqs = met_trace_requests(copy, &count);
  CU_ASSERT(count == 1 && memcmp(&reqs[0], &r, sizeof r) == 0);
  met_trace_free(copy);
  for (size_t len_cut = n_plain + 1; len_cut < n; len_cut++) {
    met_trace_t *cut = read_prefix(annexed, len_cut);
    CU_ASSERT_PTR_NULL(cut);
    met_trace_free(cut);
  }
  free(plain);
  free(annexed);
  met_trace_free(trace);
}

/* Requests must have known nodes and scopes and non-decreasing marks; spans keep time order per unit. */
static void test_met_carnival_annex_validation(void)
{
  met_trace_t *trace = new_trace(1);
  double len[MET_CE_INTERVALS] = {1};
  met_request_t r = request(0, MET_OP_PAGE, 0, 0, len);
  r.mark[5] = r.mark[4] - 0.5;
  CU_ASSERT_EQUAL(met_trace_request_add(trace, &r), BAS_EINVAL);
  r = request(1, MET_OP_PAGE, 0, 0, len);
  CU_ASSERT_EQUAL(met_trace_request_add(trace, &r), BAS_EINVAL);
  r = request(0, MET_OP_PAGE, 3, 0, len);
  CU_ASSERT_EQUAL(met_trace_request_add(trace, &r), BAS_EINVAL);
  span(trace, 0, MET_UNIT_PP, 1, 2, MET_CE_COMP, 0, MET_OP_NONE);
  met_span_t early = {.start = 1.5, .end = 3, .state = MET_CE_WAIT};
  CU_ASSERT_EQUAL(met_trace_span_add(trace, 0, MET_UNIT_PP, &early), BAS_EINVAL);
  CU_ASSERT_EQUAL(met_trace_span_add(trace, 0, MET_UNIT_COUNT, &early), BAS_EINVAL);
  size_t count = 0;
  CU_ASSERT_PTR_NULL(met_trace_requests(trace, &count));
  CU_ASSERT_EQUAL(count, 0);
  met_trace_free(trace);
}

/* The analysis's bytes (met_carnival_write) in a new buffer (the caller frees it), their number in *len. */
static char *carnival_bytes(const met_carnival_t *c, size_t *len)
{
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(met_carnival_write(c, f), 0);
  fclose(f);
  return buf;
}

/* An aggregate trace sums the spans and requests as they come and keeps none: fed profile_trace's spans, a zero-length
 * one (dropped) and two requests, it gives the whole trace's analysis byte for byte (met_carnival_write), so the
 * figures checked by hand above; the analysis survives its own write and read, and a stream cut anywhere is refused. */
static void test_met_carnival_aggregate_as_whole(void)
{
  met_trace_t *whole = profile_trace(), *sums = met_trace_new_aggregate(2);
  CU_ASSERT_FATAL(sums != NULL && met_trace_phase_id(sums, "main") == 0 && met_trace_phase_id(sums, "loop") == 1);
  for (int u = 0; u < 2 * MET_UNIT_COUNT; u++) {
    size_t count = 0;
    const met_span_t *spans = met_trace_spans(whole, u / MET_UNIT_COUNT, u % MET_UNIT_COUNT, &count);
    for (size_t i = 0; i < count; i++)
      CU_ASSERT_EQUAL(met_trace_span_add(sums, u / MET_UNIT_COUNT, u % MET_UNIT_COUNT, &spans[i]), 0);
  }
  span(whole, 1, MET_UNIT_CP, 3, 3, MET_CE_CPCOMP, 1, MET_OP_PAGE);
  span(sums, 1, MET_UNIT_CP, 3, 3, MET_CE_CPCOMP, 1, MET_OP_PAGE);
  double ones[MET_CE_INTERVALS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, half[MET_CE_INTERVALS] = {[6] = 0.5};
  met_request_t reqs[] = {request(0, MET_OP_PAGE, 1, 1, ones), request(1, MET_OP_BARRIER, 0, 2, half)};
  for (size_t i = 0; i < 2; i++)
    CU_ASSERT(met_trace_request_add(whole, &reqs[i]) == 0 && met_trace_request_add(sums, &reqs[i]) == 0);
  size_t count = 1;
  CU_ASSERT(met_trace_spans(sums, 0, MET_UNIT_PP, &count) == NULL && count == 0);
  CU_ASSERT(met_trace_requests(sums, &count) == NULL && count == 0);
  CU_ASSERT_EQUAL(met_trace_end(sums), met_trace_end(whole));
  met_carnival_t *a = met_carnival_new(whole), *b = met_carnival_new(sums);
  CU_ASSERT_FATAL(a != NULL && b != NULL);
  TU_ASSERT_CLOSE(met_carnival_time(b, 0, -1, MET_CE_WAIT, -1), 6, 1e-12);
  TU_ASSERT_CLOSE(met_carnival_time(b, 0, -1, MET_CE_CPIDLE, -1), 8.5, 1e-12);
  CU_ASSERT_EQUAL(met_carnival_wait(b, MET_UNIT_PP, MET_OP_PAGE, 1).count, 1);
  TU_ASSERT_CLOSE(met_carnival_wait(b, MET_UNIT_PP, MET_OP_BARRIER, -1).cat[MET_W_PPRCOMP], 0.5, 1e-12);
  size_t na = 0, nb = 0;
  char *bytes_a = carnival_bytes(a, &na), *bytes_b = carnival_bytes(b, &nb);
  CU_ASSERT(na == nb && memcmp(bytes_a, bytes_b, na) == 0);
  FILE *in = fmemopen(bytes_b, nb, "r");
  met_carnival_t *back = met_carnival_read(in);
  fclose(in);
  CU_ASSERT_PTR_NOT_NULL_FATAL(back);
  size_t nback = 0;
  char *bytes_back = carnival_bytes(back, &nback);
  CU_ASSERT(nback == nb && memcmp(bytes_back, bytes_b, nb) == 0);
  size_t rows = 0;
  CU_ASSERT(met_carnival_map(back, &rows) != NULL && rows == 2);
  CU_ASSERT_STRING_EQUAL(met_carnival_scope_name(back, 1), "loop");
  for (size_t cut = 1; cut < nb; cut++) {
    in = fmemopen(bytes_b, cut, "r");
    met_carnival_t *short_read = met_carnival_read(in);
    CU_ASSERT_PTR_NULL(short_read);
    met_carnival_free(short_read);
    fclose(in);
  }
  free(bytes_a);
  free(bytes_b);
  free(bytes_back);
  met_carnival_free(a);
  met_carnival_free(b);
  met_carnival_free(back);
  met_trace_free(whole);
  met_trace_free(sums);
}

static void test_met_carnival_names(void)
{
  CU_ASSERT_STRING_EQUAL(met_ce_cat_name(MET_CE_PRSTE), "Prste");
  CU_ASSERT_STRING_EQUAL(met_ce_cat_name(MET_CE_CPIDLE), "CPIdle");
  CU_ASSERT_STRING_EQUAL(met_ce_op_name(MET_OP_DIFF), "diff");
  CU_ASSERT_STRING_EQUAL(met_wait_cat_name(MET_W_CPCCOMM), "CPCComm");
  CU_ASSERT_STRING_EQUAL(met_wait_cat_title(MET_W_PPLWAIT), "local PP notification");
  CU_ASSERT_PTR_NOT_NULL(met_carnival_step(MET_OP_BARRIER, 13));
  CU_ASSERT_PTR_NULL(met_carnival_step(MET_OP_NONE, 1));
  CU_ASSERT_PTR_NULL(met_carnival_step(MET_OP_PAGE, 14));
  CU_ASSERT_PTR_NULL(met_ce_cat_name(MET_CE_COUNT));
  CU_ASSERT_PTR_NULL(met_wait_cat_name(MET_W_COUNT));
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_met_carnival_table1_intervals", test_met_carnival_table1_intervals},
      {"test_met_ce_split_by_hand", test_met_ce_split_by_hand},
      {"test_met_ce_split_adds_up", test_met_ce_split_adds_up},
      {"test_met_carnival_profile_conserves_time", test_met_carnival_profile_conserves_time},
      {"test_met_carnival_without_cp", test_met_carnival_without_cp},
      {"test_met_carnival_rejects_foreign_states", test_met_carnival_rejects_foreign_states},
      {"test_met_carnival_wait_map", test_met_carnival_wait_map},
      {"test_met_carnival_annex_round_trip", test_met_carnival_annex_round_trip},
      {"test_met_carnival_annex_validation", test_met_carnival_annex_validation},
      {"test_met_carnival_aggregate_as_whole", test_met_carnival_aggregate_as_whole},
      {"test_met_carnival_names", test_met_carnival_names},
      {NULL, NULL}};
  return tu_run("met_carnival", cases);
}
