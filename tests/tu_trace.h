/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A hand-made trace shared by the tests of the views of a trace (timeline, Paje). */
#ifndef TU_TRACE_H
#define TU_TRACE_H

#include "met_trace.h"
#include "tu.h"

/* Two ranks, one message: rank 0 computes [0, 1), sends [1, 2), then waits for the end (T_par = 3); rank 1 waits
 * [0, 1), receives [1, 2), writes output [2, 3); with `sender` 0 or 1, the message's direction is recorded as going
 * from that rank to the other, with -1 it is not. The caller frees it. */
static inline met_trace_t *tu_trace_message(int sender)
{
  static const struct {
    int rank;
    met_category_t category;
    double start, end;
    int peer;
  } pieces[] = {{0, MET_CAT_COMPUTE, 0, 1, -1},
                {0, MET_CAT_COMM, 1, 2, 1},
                {1, MET_CAT_IDLE, 0, 1, 0},
                {1, MET_CAT_COMM, 1, 2, 0},
                {1, MET_CAT_IO, 2, 3, -1}};
  met_trace_t *trace = met_trace_new(2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL(met_trace_phase_id(trace, "main"), 0);
  for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
    met_interval_t iv = {
        .start = pieces[i].start, .end = pieces[i].end, .category = pieces[i].category, .peer = pieces[i].peer};
    if (sender >= 0 && iv.peer >= 0)
      iv.dir = pieces[i].rank == sender ? MET_DIR_SEND : MET_DIR_RECV;
    CU_ASSERT_EQUAL(met_trace_add(trace, pieces[i].rank, &iv), 0);
  }
  return trace;
}

/* The same, with no direction recorded. */
static inline met_trace_t *tu_trace_two_ranks(void)
{
  return tu_trace_message(-1);
}

#endif
