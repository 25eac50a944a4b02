/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Message statistics from hand-made traces: counts and per-(size, distance) durations, each message counted once. */
#include "met_comm.h"
#include "tu.h"

#include <stdio.h>
#include <stdlib.h>

/* Records one message of `bytes` over `hops` between ranks a and b, lasting [start, end) at both ends. */
static void message(met_trace_t *trace, int a, int b, double start, double end, double bytes, int hops)
{
  met_interval_t iv = {
      .start = start, .end = end, .category = MET_CAT_COMM, .phase = 0, .peer = b, .bytes = bytes, .hops = hops};
  CU_ASSERT_EQUAL(met_trace_add(trace, a, &iv), 0);
  iv.peer = a;
  CU_ASSERT_EQUAL(met_trace_add(trace, b, &iv), 0);
}

/* Three messages: 100 B over 1 hop lasting 1 s then 3 s, and 50 B over 2 hops lasting 2 s; plus computation that
 * must not count. By hand: groups (50 B, 2 hops): 1 message, mean = min = max = 2 s; (100 B, 1 hop): 2 messages,
 * mean (1 + 3) / 2 = 2 s, min 1 s, max 3 s; sorted by size first. The same from a full and an aggregate trace. */
static void check_groups(met_trace_t *(*new_trace)(int))
{
  met_trace_t *trace = new_trace(3);
  CU_ASSERT_FATAL(trace != NULL && met_trace_phase_id(trace, "main") == 0);
  message(trace, 0, 1, 0, 1, 100, 1);
  message(trace, 0, 1, 1, 4, 100, 1);
  message(trace, 1, 2, 4, 6, 50, 2);
  met_interval_t work = {.start = 6, .end = 9, .category = MET_CAT_COMPUTE, .peer = -1};
  CU_ASSERT_EQUAL(met_trace_add(trace, 2, &work), 0);
  CU_ASSERT_EQUAL(met_comm_messages(trace), 3);
  met_msg_stat_t *stats = NULL;
  CU_ASSERT_EQUAL_FATAL(met_comm_stats(trace, &stats), 2);
  CU_ASSERT(stats[0].bytes == 50 && stats[0].hops == 2 && stats[0].count == 1);
  TU_ASSERT_CLOSE(stats[0].mean, 2, 1e-12);
  CU_ASSERT(stats[1].bytes == 100 && stats[1].hops == 1 && stats[1].count == 2);
  TU_ASSERT_CLOSE(stats[1].mean, 2, 1e-12);
  TU_ASSERT_CLOSE(stats[1].min, 1, 1e-12);
  TU_ASSERT_CLOSE(stats[1].max, 3, 1e-12);
  free(stats);
  met_trace_free(trace);
}

static void test_met_comm_groups_by_size_and_distance(void)
{
  check_groups(met_trace_new);
}

static void test_met_comm_groups_of_an_aggregate_trace(void)
{
  check_groups(met_trace_new_aggregate);
}

/* A trace without messages has no groups and no array. */
static void test_met_comm_empty(void)
{
  met_trace_t *trace = met_trace_new(2);
  met_msg_stat_t *stats = (met_msg_stat_t *)&stats;
  CU_ASSERT_EQUAL(met_comm_messages(trace), 0);
  CU_ASSERT_EQUAL(met_comm_stats(trace, &stats), 0);
  CU_ASSERT_PTR_NULL(stats);
  met_trace_free(trace);
}

/* One end of a message with a recorded direction. */
static void end(met_trace_t *trace, int rank, int peer, met_dir_t dir, double start, double stop, double bytes)
{
  met_interval_t iv = {
      .start = start, .end = stop, .category = MET_CAT_COMM, .peer = peer, .dir = dir, .bytes = bytes, .hops = 1};
  CU_ASSERT_EQUAL(met_trace_add(trace, rank, &iv), 0);
}

/* SMPI-like ends, by hand: (a) an eager send 0 -> 1 of 10 B, over at once for the sender (empty SEND end), 2 s at the
 * receiver; (b) a rendezvous send 1 -> 0 of 10 B that the receiver's computation hid entirely (4 s at the sender, an
 * empty RECV end); (c) a message of 20 B from rank 2 to itself, 1 s at both ends. Three messages, each counted once:
 * (10 B, 1 hop) count 2, the receivers' waits (2 + 0) / 2 = 1 s, min 0, max 2, their transfers from their sends' starts
 * (a) 2 - 0 = 2 s and (b) 6 - 2 = 4 s, mean 3, min 2, max 4; (20 B, 1 hop) count 1, wait 1 s, transfer 2 - 0 = 2 s.
 * The old halving of every COMM interval gave 1 message and counts 0 and 1; before the ends were paired, the table's
 * only times were the waits. */
static void check_directed(met_trace_t *(*new_trace)(int))
{
  met_trace_t *trace = new_trace(3);
  CU_ASSERT_FATAL(trace != NULL && met_trace_phase_id(trace, "main") == 0);
  end(trace, 0, 1, MET_DIR_SEND, 0, 0, 10);
  end(trace, 1, 0, MET_DIR_RECV, 0, 2, 10);
  end(trace, 1, 0, MET_DIR_SEND, 2, 6, 10);
  end(trace, 0, 1, MET_DIR_RECV, 6, 6, 10);
  end(trace, 2, 2, MET_DIR_SEND, 0, 1, 20);
  end(trace, 2, 2, MET_DIR_RECV, 1, 2, 20);
  CU_ASSERT_EQUAL(met_comm_messages(trace), 3);
  if (!met_trace_is_aggregate(trace)) { /* the empty receiving end is kept, so a written trace keeps the message */
    FILE *file = tmpfile();
    CU_ASSERT_FATAL(file && met_trace_write(trace, file) == 0);
    rewind(file);
    met_trace_t *back = met_trace_read(file);
    fclose(file);
    CU_ASSERT_FATAL(back != NULL);
    CU_ASSERT_EQUAL(met_comm_messages(back), 3);
    met_trace_free(back);
  }
  met_msg_stat_t *stats = NULL;
  CU_ASSERT_EQUAL_FATAL(met_comm_stats(trace, &stats), 2);
  CU_ASSERT(stats[0].bytes == 10 && stats[0].count == 2);
  TU_ASSERT_CLOSE(stats[0].wait_mean, 1, 1e-12);
  TU_ASSERT_CLOSE(stats[0].wait_min, 0, 1e-12);
  TU_ASSERT_CLOSE(stats[0].wait_max, 2, 1e-12);
  TU_ASSERT_CLOSE(stats[0].mean, 3, 1e-12);
  TU_ASSERT_CLOSE(stats[0].min, 2, 1e-12);
  TU_ASSERT_CLOSE(stats[0].max, 4, 1e-12);
  CU_ASSERT(stats[1].bytes == 20 && stats[1].count == 1);
  TU_ASSERT_CLOSE(stats[1].wait_mean, 1, 1e-12);
  TU_ASSERT_CLOSE(stats[1].mean, 2, 1e-12);
  free(stats);
  met_trace_free(trace);
}

static void test_met_comm_counts_each_directed_message_once(void)
{
  check_directed(met_trace_new);
  check_directed(met_trace_new_aggregate);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_met_comm_groups_by_size_and_distance", test_met_comm_groups_by_size_and_distance},
      {"test_met_comm_groups_of_an_aggregate_trace", test_met_comm_groups_of_an_aggregate_trace},
      {"test_met_comm_empty", test_met_comm_empty},
      {"test_met_comm_counts_each_directed_message_once", test_met_comm_counts_each_directed_message_once},
      {NULL, NULL}};
  return tu_run("met_comm", cases);
}
