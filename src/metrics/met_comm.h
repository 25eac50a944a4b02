/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Communication views of a trace: how many messages, and their durations grouped by size and distance, the view that
 * checks a platform against its quiet-network message model (seed 001 eq. 4, Table 2). */
#ifndef MET_COMM_H
#define MET_COMM_H

#include "met_trace.h"

#include <stddef.h>

typedef struct met_msg_stat {
  double bytes;
  int hops;
  size_t count; /* messages of this size over this distance */
  double mean;  /* seconds: each message's transfer, from its send's start to its receive's end */
  double min;
  double max;
  double wait_mean; /* seconds: the receiver's wait in the call that completed it (its counting end's interval) */
  double wait_min;
  double wait_max;
} met_msg_stat_t;

/* Messages in the trace, each counted once at the end met_message_ends names (its receiver's, when recorded). */
size_t met_comm_messages(const met_trace_t *trace);

/* Message durations grouped by (bytes, hops), sorted by bytes then hops, each message counted once with its transfer
 * (met_trace_msg_settled) and its receiver's wait. Returns the number
 * of groups and a new array in *stats (the caller frees it; NULL when there are none), or BAS_ENOMEM when out of
 * memory. */
long met_comm_stats(const met_trace_t *trace, met_msg_stat_t **stats);

#endif
