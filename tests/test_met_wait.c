/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the wait states (met_wait.h): each of Scalasca's patterns on a hand-made trace whose losses are worked out
 * by hand in the comments, the collective spans' rules, and their round trip through the binary format. */
#include "met_wait.h"
#include "tu.h"
#include "bas_error.h"

#include <stdio.h>

static met_trace_t *new_trace(int nranks)
{
  met_trace_t *trace = met_trace_new(nranks);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL_FATAL(met_trace_phase_id(trace, "main"), 0);
  return trace;
}

static void add(met_trace_t *trace, int rank, met_category_t category, double start, double end, int peer,
                met_dir_t dir)
{
  met_interval_t iv = {.start = start, .end = end, .category = category, .peer = peer, .dir = dir};
  CU_ASSERT_EQUAL(met_trace_add(trace, rank, &iv), 0);
}

static void coll(met_trace_t *trace, int rank, met_coll_kind_t kind, int root, unsigned group, double start, double end)
{
  met_coll_t c = {.start = start, .end = end, .kind = kind, .root = root, .group = group};
  CU_ASSERT_EQUAL(met_trace_coll_add(trace, rank, &c), 0);
}

static met_waits_t compute(const met_trace_t *trace)
{
  met_waits_t w;
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(trace, &w), 0);
  return w;
}

/* Only `pattern` has losses, and rank r lost expect[r] in it. */
static void expect_only(const met_waits_t *w, met_wait_pattern_t pattern, const double *expect)
{
  for (int r = 0; r < w->nranks; r++)
    for (int k = 0; k < MET_WAIT_PATTERNS; k++)
      TU_ASSERT_CLOSE(met_wait_time(w, r, (met_wait_pattern_t)k), k == (int)pattern ? expect[r] : 0.0, 1e-12);
}

/* Rank 0 computes until 3 s and then sends; rank 1 posted its receive at 1 s: it idles 2 s for a late sender. */
static void test_met_wait_late_sender(void)
{
  met_trace_t *trace = new_trace(2);
  add(trace, 0, MET_CAT_COMPUTE, 0, 3, -1, MET_DIR_NONE);
  add(trace, 0, MET_CAT_COMM, 3, 4, 1, MET_DIR_SEND);
  add(trace, 1, MET_CAT_COMPUTE, 0, 1, -1, MET_DIR_NONE);
  add(trace, 1, MET_CAT_IDLE, 1, 3, 0, MET_DIR_RECV);
  add(trace, 1, MET_CAT_COMM, 3, 4, 0, MET_DIR_RECV);
  met_waits_t w = compute(trace);
  expect_only(&w, MET_WAIT_LATE_SENDER, (double[]){0, 2});
  TU_ASSERT_CLOSE(met_wait_total(&w, MET_WAIT_PATTERNS), 2, 1e-12);
  met_wait_free(&w);
  met_trace_free(trace);
}

/* A synchronous send posted at 0.5 s whose receive comes at 2 s: the sender idles 1.5 s for a late receiver. */
static void test_met_wait_late_receiver(void)
{
  met_trace_t *trace = new_trace(2);
  add(trace, 0, MET_CAT_COMPUTE, 0, 0.5, -1, MET_DIR_NONE);
  add(trace, 0, MET_CAT_IDLE, 0.5, 2, 1, MET_DIR_SEND);
  add(trace, 0, MET_CAT_COMM, 2, 2.25, 1, MET_DIR_SEND);
  add(trace, 1, MET_CAT_COMPUTE, 0, 2, -1, MET_DIR_NONE);
  add(trace, 1, MET_CAT_COMM, 2, 2.25, 0, MET_DIR_RECV);
  met_waits_t w = compute(trace);
  expect_only(&w, MET_WAIT_LATE_RECEIVER, (double[]){1.5, 0});
  met_wait_free(&w);
  met_trace_free(trace);
}

/* Idling with no partner or no direction (the end of a run, a DSM wait) is no wait state of Scalasca's. */
static void test_met_wait_ignores_undirected_idle(void)
{
  met_trace_t *trace = new_trace(2);
  add(trace, 0, MET_CAT_IDLE, 0, 1, -1, MET_DIR_NONE);
  add(trace, 0, MET_CAT_IDLE, 1, 2, 1, MET_DIR_NONE);
  add(trace, 1, MET_CAT_COMPUTE, 0, 3, -1, MET_DIR_NONE);
  met_waits_t w = compute(trace);
  CU_ASSERT_EQUAL(met_wait_total(&w, MET_WAIT_PATTERNS), 0.0);
  met_wait_free(&w);
  met_trace_free(trace);
}

/* A barrier entered at 1, 2 and 4 s, left at 5 s: ranks lose 4 - 1 = 3, 4 - 2 = 2 and 0 s. The receives inside it
 * idle too, but that idling is the barrier's, not late senders'. */
static void test_met_wait_barrier(void)
{
  met_trace_t *trace = new_trace(3);
  double entry[3] = {1, 2, 4};
  for (int r = 0; r < 3; r++) {
    add(trace, r, MET_CAT_COMPUTE, 0, entry[r], -1, MET_DIR_NONE);
    coll(trace, r, MET_COLL_BARRIER, -1, 0, entry[r], 5);
  }
  add(trace, 0, MET_CAT_IDLE, 1, 4.5, 2, MET_DIR_RECV);
  add(trace, 1, MET_CAT_IDLE, 2, 4.5, 2, MET_DIR_RECV);
  met_waits_t w = compute(trace);
  expect_only(&w, MET_WAIT_BARRIER, (double[]){3, 2, 0});
  met_wait_free(&w);
  met_trace_free(trace);
}

/* An allreduce entered at 0.5 and 1.5 s, left at 2 s: rank 0 waits 1 s at N x N. */
static void test_met_wait_nxn(void)
{
  met_trace_t *trace = new_trace(2);
  coll(trace, 0, MET_COLL_NXN, -1, 0, 0.5, 2);
  coll(trace, 1, MET_COLL_NXN, -1, 0, 1.5, 2);
  met_waits_t w = compute(trace);
  expect_only(&w, MET_WAIT_NXN, (double[]){1, 0});
  met_wait_free(&w);
  met_trace_free(trace);
}

/* A broadcast from rank 1, which enters at 3 s; rank 0 entered at 1 s (late broadcast: 2 s), rank 2 at 4 s (none).
 * The root's own time in the call is no loss. */
static void test_met_wait_late_broadcast(void)
{
  met_trace_t *trace = new_trace(3);
  coll(trace, 0, MET_COLL_ONE_TO_N, 1, 0, 1, 5);
  coll(trace, 1, MET_COLL_ONE_TO_N, 1, 0, 3, 5);
  coll(trace, 2, MET_COLL_ONE_TO_N, 1, 0, 4, 5);
  met_waits_t w = compute(trace);
  expect_only(&w, MET_WAIT_LATE_BCAST, (double[]){2, 0, 0});
  met_wait_free(&w);
  met_trace_free(trace);
}

/* A reduce to rank 0, which enters at 1 s; its senders enter at 2.5 and 4 s. Scalasca counts the root's time before
 * any data could have been sent, until the first sender entered: 1.5 s. Senders lose nothing in this pattern. */
static void test_met_wait_early_reduce(void)
{
  met_trace_t *trace = new_trace(3);
  coll(trace, 0, MET_COLL_N_TO_ONE, 0, 0, 1, 6);
  coll(trace, 1, MET_COLL_N_TO_ONE, 0, 0, 2.5, 3);
  coll(trace, 2, MET_COLL_N_TO_ONE, 0, 0, 4, 5);
  met_waits_t w = compute(trace);
  expect_only(&w, MET_WAIT_EARLY_REDUCE, (double[]){1.5, 0, 0});
  met_wait_free(&w);
  met_trace_free(trace);
}

/* A scan of 3 ranks entered at 5, 2 and 3 s (Scalasca's Early Scan: each member waits for the last entry of the
 * members before it): rank 0 waits for no one, rank 1 from 2 to rank 0's 5 s (3 s), rank 2 until 5 s too but its
 * span ends at 4 s (1 s: capped by its time in the call); then a scan of group 4 of ranks 1 and 2 entered at 10 and
 * 7 s: rank 2 waits 3 s. Members are taken in rank order whatever the order their spans were added in. */
static void test_met_wait_early_scan(void)
{
  met_trace_t *trace = new_trace(3);
  coll(trace, 2, MET_COLL_PREFIX, -1, 0, 3, 4);
  coll(trace, 0, MET_COLL_PREFIX, -1, 0, 5, 6);
  coll(trace, 1, MET_COLL_PREFIX, -1, 0, 2, 6);
  coll(trace, 2, MET_COLL_PREFIX, -1, 4, 7, 11);
  coll(trace, 1, MET_COLL_PREFIX, -1, 4, 10, 11);
  met_waits_t w = compute(trace);
  expect_only(&w, MET_WAIT_EARLY_SCAN, (double[]){0, 3, 1 + 3});
  met_wait_free(&w);
  met_trace_free(trace);
}

/* The scan of test_met_wait_early_scan (entries 5, 2 and 3 s) on a group whose order is the ranks' reversed (a
 * replay's communicator of ranks 2, 1, 0: met_coll_t.place): rank 2 comes first and waits for no one, rank 1 from 2 s
 * to rank 2's entry at 3 s (1 s), rank 0, entered at 5 s after both, none. In the ranks' order it was 0, 3 and 1 s. */
static void test_met_wait_early_scan_in_group_order(void)
{
  met_trace_t *trace = new_trace(3);
  const double entry[3] = {5, 2, 3}, leave[3] = {6, 6, 4};
  for (int r = 0; r < 3; r++) {
    met_coll_t c = {
        .start = entry[r], .end = leave[r], .kind = MET_COLL_PREFIX, .root = -1, .group = 5, .place = 3 - r};
    CU_ASSERT_EQUAL(met_trace_coll_add(trace, r, &c), 0);
  }
  met_waits_t w = compute(trace);
  expect_only(&w, MET_WAIT_EARLY_SCAN, (double[]){0, 1, 0});
  met_wait_free(&w);
  met_trace_free(trace);
}

/* Calls are matched by group and order on each member: rank 1 first joins group 9 (with rank 2, entries 1 and 3 s:
 * rank 1 loses 2 s), then group 7 (with rank 0, entries 6 and 4 s: rank 0 loses 2 s). A span that ends before the
 * last member entered loses at most its own length: rank 2's second barrier of group 9 alone is no wait. A scan
 * (MET_COLL_PREFIX) whose members enter in their ranks' order loses nothing. */
static void test_met_wait_matches_calls_by_group(void)
{
  met_trace_t *trace = new_trace(3);
  coll(trace, 1, MET_COLL_BARRIER, -1, 9, 1, 3);
  coll(trace, 2, MET_COLL_BARRIER, -1, 9, 3, 3);
  coll(trace, 0, MET_COLL_NXN, -1, 7, 4, 6.5);
  coll(trace, 1, MET_COLL_NXN, -1, 7, 6, 6.5);
  coll(trace, 2, MET_COLL_BARRIER, -1, 9, 7, 8);
  coll(trace, 0, MET_COLL_PREFIX, -1, 0, 8, 9);
  coll(trace, 1, MET_COLL_PREFIX, -1, 0, 8.5, 9);
  met_waits_t w = compute(trace);
  TU_ASSERT_CLOSE(met_wait_time(&w, 1, MET_WAIT_BARRIER), 2, 1e-12);
  TU_ASSERT_CLOSE(met_wait_time(&w, 0, MET_WAIT_NXN), 2, 1e-12);
  TU_ASSERT_CLOSE(met_wait_total(&w, MET_WAIT_PATTERNS), 4, 1e-12);
  met_wait_free(&w);
  met_trace_free(trace);
}

/* Entries of one barrier at 0 and 10 s where rank 0's span ends at 1 s (a trace no MPI would make): capped at 1 s. */
static void test_met_wait_capped_by_time_in_call(void)
{
  met_trace_t *trace = new_trace(2);
  coll(trace, 0, MET_COLL_BARRIER, -1, 0, 0, 1);
  coll(trace, 1, MET_COLL_BARRIER, -1, 0, 10, 11);
  met_waits_t w = compute(trace);
  expect_only(&w, MET_WAIT_BARRIER, (double[]){1, 0});
  met_wait_free(&w);
  met_trace_free(trace);
}

static void test_met_wait_coll_add_rules(void)
{
  met_trace_t *trace = new_trace(2);
  met_coll_t ok = {.start = 1, .end = 2, .kind = MET_COLL_BARRIER, .root = -1};
  CU_ASSERT_EQUAL(met_trace_coll_add(trace, 0, &ok), 0);
  met_coll_t early = {.start = 1.5, .end = 3, .kind = MET_COLL_BARRIER, .root = -1};
  CU_ASSERT_EQUAL(met_trace_coll_add(trace, 0, &early), BAS_EINVAL); /* overlaps the previous span */
  met_coll_t bad_root = {.start = 3, .end = 3, .kind = MET_COLL_ONE_TO_N, .root = 2};
  CU_ASSERT_EQUAL(met_trace_coll_add(trace, 0, &bad_root), BAS_EINVAL);
  met_coll_t bad_kind = {.start = 3, .end = 3, .kind = MET_COLL_KINDS, .root = -1};
  CU_ASSERT_EQUAL(met_trace_coll_add(trace, 0, &bad_kind), BAS_EINVAL);
  CU_ASSERT_EQUAL(met_trace_coll_add(trace, 2, &ok), BAS_EINVAL);
  met_coll_t empty = {.start = 3, .end = 3, .kind = MET_COLL_ONE_TO_N, .root = 1};
  CU_ASSERT_EQUAL(met_trace_coll_add(trace, 0, &empty), 0); /* zero-length: kept, its entry matters */
  size_t count;
  CU_ASSERT_PTR_NOT_NULL(met_trace_colls(trace, 0, &count));
  CU_ASSERT_EQUAL(count, 2);
  CU_ASSERT_EQUAL(met_trace_end(trace), 0.0); /* spans do not move the end of the run */
  met_trace_free(trace);
}

/* `trace` written by met_trace_write and read back (a new trace). */
static met_trace_t *round_trip(const met_trace_t *trace)
{
  FILE *f = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(met_trace_write(trace, f), 0);
  rewind(f);
  met_trace_t *back = met_trace_read(f);
  fclose(f);
  CU_ASSERT_PTR_NOT_NULL_FATAL(back);
  return back;
}

/* Collective spans survive met_trace_write / met_trace_read, with and without a cause-effect annex before them; an
 * aggregate trace checks and drops them (it has no intervals, so no wait states). */
static void test_met_wait_spans_round_trip(void)
{
  for (int annex = 0; annex < 2; annex++) {
    met_trace_t *trace = new_trace(2);
    coll(trace, 0, MET_COLL_ONE_TO_N, 1, 42, 1, 5);
    coll(trace, 1, MET_COLL_ONE_TO_N, 1, 42, 3, 5);
    met_span_t span = {.start = 0, .end = 1};
    if (annex)
      CU_ASSERT_EQUAL(met_trace_span_add(trace, 0, MET_UNIT_CP, &span), 0);
    met_trace_t *back = round_trip(trace);
    size_t count;
    const met_coll_t *c = met_trace_colls(back, 1, &count);
    CU_ASSERT_EQUAL_FATAL(count, 1);
    CU_ASSERT_EQUAL(c[0].start, 3.0);
    CU_ASSERT_EQUAL(c[0].kind, MET_COLL_ONE_TO_N);
    CU_ASSERT_EQUAL(c[0].root, 1);
    CU_ASSERT_EQUAL(c[0].group, 42u);
    met_trace_spans(back, 0, MET_UNIT_CP, &count);
    CU_ASSERT_EQUAL(count, (size_t)annex);
    met_waits_t w = compute(back);
    TU_ASSERT_CLOSE(met_wait_time(&w, 0, MET_WAIT_LATE_BCAST), 2, 1e-12);
    met_wait_free(&w);
    met_trace_free(back);
    met_trace_free(trace);
  }
  met_trace_t *agg = met_trace_new_aggregate(2);
  met_coll_t c = {.start = 0, .end = 1, .kind = MET_COLL_BARRIER, .root = -1};
  CU_ASSERT_EQUAL(met_trace_coll_add(agg, 1, &c), 0);
  met_coll_t bad = {.start = 0, .end = 1, .kind = MET_COLL_ONE_TO_N, .root = 5};
  CU_ASSERT_EQUAL(met_trace_coll_add(agg, 1, &bad), BAS_EINVAL); /* checked all the same */
  size_t count;
  CU_ASSERT_PTR_NULL(met_trace_colls(agg, 1, &count));
  CU_ASSERT_EQUAL(count, 0);
  met_waits_t w;
  CU_ASSERT_EQUAL(met_wait_compute(agg, &w), BAS_EINVAL);
  met_trace_free(agg);
}

/* The bytes written by met_trace_write for `trace`. */
static long written_size(const met_trace_t *trace)
{
  FILE *f = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(met_trace_write(trace, f), 0);
  long size = ftell(f);
  fclose(f);
  return size;
}

/* A trace of 3 ranks: all at a barrier [0, 1] on group 0, then ranks 0 and 2 at an MPI_Gather to rank 0 [1, 2] on
 * group 3, each with `bytes` (rank 1 at one of 999 bytes on group 5 meanwhile). */
static met_trace_t *gather_trace(double bytes)
{
  met_trace_t *trace = new_trace(3);
  for (int r = 0; r < 3; r++) {
    coll(trace, r, MET_COLL_BARRIER, -1, 0, 0, 1);
    met_coll_t c = {.start = 1, .end = 2, .kind = MET_COLL_N_TO_ONE, .call = MET_CALL_GATHER, .root = 0};
    c.group = r == 1 ? 5 : 3;
    c.bytes = r == 1 ? 999 * (bytes > 0) : bytes;
    CU_ASSERT_EQUAL(met_trace_coll_add(trace, r, &c), 0);
  }
  return trace;
}

/* A span's bytes (a measured call's) survive the binary format, which keeps its old layout when no span has any (8
 * bytes more per span with them); met_coll_moved counts the members of the same call only (gather_trace with 100
 * bytes: rank 0 receives rank 2's 100, not rank 1's 999 on another group; rank 2 sends its 100; the barrier moves
 * nothing), and nothing for spans without bytes. */
static void test_met_wait_span_bytes(void)
{
  met_trace_t *trace = gather_trace(100);
  met_trace_t *plain = gather_trace(0);
  CU_ASSERT_EQUAL(written_size(trace) - written_size(plain), 6 * 8);
  met_trace_t *back = round_trip(trace);
  size_t count;
  const met_coll_t *c = met_trace_colls(back, 1, &count);
  CU_ASSERT_EQUAL_FATAL(count, 2);
  CU_ASSERT_EQUAL(c[1].bytes, 999.0);
  CU_ASSERT_EQUAL(c[0].bytes, 0.0);
  double sent, received;
  met_coll_moved(back, 0, 1, &sent, &received);
  CU_ASSERT(sent == 0 && received == 100);
  met_coll_moved(back, 2, 1, &sent, &received);
  CU_ASSERT(sent == 100 && received == 0);
  met_coll_moved(back, 1, 0, &sent, &received);
  CU_ASSERT(sent == 0 && received == 0);
  met_coll_moved(plain, 0, 1, &sent, &received);
  CU_ASSERT(sent == 0 && received == 0);
  met_coll_t bad = {.start = 3, .end = 3, .kind = MET_COLL_BARRIER, .root = -1, .bytes = -1};
  CU_ASSERT_EQUAL(met_trace_coll_add(back, 0, &bad), BAS_EINVAL);
  met_trace_free(back);
  met_trace_free(plain);
  met_trace_free(trace);
}

static void test_met_wait_names(void)
{
  CU_ASSERT_STRING_EQUAL(met_wait_name(MET_WAIT_LATE_BCAST), "late_broadcast");
  CU_ASSERT_STRING_EQUAL(met_wait_title(MET_WAIT_NXN), "Wait at N x N");
  CU_ASSERT_STRING_EQUAL(met_wait_name(MET_WAIT_EARLY_SCAN), "early_scan");
  CU_ASSERT_STRING_EQUAL(met_wait_title(MET_WAIT_EARLY_SCAN), "Early Scan");
  CU_ASSERT_PTR_NULL(met_wait_name(MET_WAIT_PATTERNS));
}

/* Each collective kind's pattern, as docs/wait-states.md's table gives it; none out of range. */
static void test_met_wait_coll_pattern(void)
{
  CU_ASSERT_EQUAL(met_wait_coll_pattern(MET_COLL_BARRIER), MET_WAIT_BARRIER);
  CU_ASSERT_EQUAL(met_wait_coll_pattern(MET_COLL_NXN), MET_WAIT_NXN);
  CU_ASSERT_EQUAL(met_wait_coll_pattern(MET_COLL_ONE_TO_N), MET_WAIT_LATE_BCAST);
  CU_ASSERT_EQUAL(met_wait_coll_pattern(MET_COLL_N_TO_ONE), MET_WAIT_EARLY_REDUCE);
  CU_ASSERT_EQUAL(met_wait_coll_pattern(MET_COLL_PREFIX), MET_WAIT_EARLY_SCAN);
  CU_ASSERT_EQUAL(met_wait_coll_pattern(MET_COLL_KINDS), MET_WAIT_PATTERNS);
  CU_ASSERT_EQUAL(met_wait_coll_pattern((met_coll_kind_t)-1), MET_WAIT_PATTERNS);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"test_met_wait_coll_pattern", test_met_wait_coll_pattern},
      {"test_met_wait_late_sender", test_met_wait_late_sender},
      {"test_met_wait_late_receiver", test_met_wait_late_receiver},
      {"test_met_wait_ignores_undirected_idle", test_met_wait_ignores_undirected_idle},
      {"test_met_wait_barrier", test_met_wait_barrier},
      {"test_met_wait_nxn", test_met_wait_nxn},
      {"test_met_wait_late_broadcast", test_met_wait_late_broadcast},
      {"test_met_wait_early_reduce", test_met_wait_early_reduce},
      {"test_met_wait_early_scan", test_met_wait_early_scan},
      {"test_met_wait_early_scan_in_group_order", test_met_wait_early_scan_in_group_order},
      {"test_met_wait_matches_calls_by_group", test_met_wait_matches_calls_by_group},
      {"test_met_wait_capped_by_time_in_call", test_met_wait_capped_by_time_in_call},
      {"test_met_wait_coll_add_rules", test_met_wait_coll_add_rules},
      {"test_met_wait_spans_round_trip", test_met_wait_spans_round_trip},
      {"test_met_wait_span_bytes", test_met_wait_span_bytes},
      {"test_met_wait_names", test_met_wait_names},
      {NULL, NULL},
  };
  return tu_run("met_wait", cases);
}
