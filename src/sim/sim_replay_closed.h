/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A skeleton's program evaluated in closed form across ranks instead of executed rank by rank (docs/scale.md): where
 * the run is the analytic network's (every message priced alone, no contention), recorded as sums (an aggregate trace,
 * no TI trace), a skeleton whose program is regular enough computes every rank's clock, category and phase sums and
 * messages itself from what this header gives: what a computation, a message and host I/O cost, as the replay layer
 * would charge them. The trace it fills is the run's, as the executed program's would be to rounding. */
#ifndef SIM_REPLAY_CLOSED_H
#define SIM_REPLAY_CLOSED_H

#include "sim_replay.h"

/* How a send of some size behaves on the run's platform (simrun:eager-bytes, simrun:eager-start): synchronous (over
 * for both ends when the receiver has it all), eager (over for the sender at once; the transfer starts when both ends
 * are there), or eager starting when sent (the transfer starts at the send, whenever the receive comes). */
typedef enum sim_send_kind { SIM_SEND_SYNC = 0, SIM_SEND_EAGER, SIM_SEND_EAGER_AT_SEND } sim_send_kind_t;

/* The number of ranks of the run. */
int sim_closed_nranks(const sim_closed_t *run);
/* What each operation class costs on rank `rank`'s host (sim_work's characterisation). */
const met_charac_t *sim_closed_charac(const sim_closed_t *run, int rank);
/* Seconds the analytic network takes for a message of `bytes` from rank src to rank dst, alone on the network. */
double sim_closed_message_time(sim_closed_t *run, int src, int dst, double bytes);
sim_send_kind_t sim_closed_send_kind(const sim_closed_t *run, double bytes);
/* Rank 0's link initialisation (sim_init_links) and host I/O of `bytes` (sim_io), in seconds. */
double sim_closed_link_init_time(const sim_closed_t *run);
double sim_closed_io_time(const sim_closed_t *run, sim_io_dir_t dir, double bytes);
/* Whether the run's message groups are by hop count (sim_job_t.message_hops), and if so the links on the route from
 * rank `rank`'s host to rank `other`'s (the receiving end's count of a message from `other`, as the recorder takes it);
 * without message_hops a message group's hops are 0. */
int sim_closed_message_hops(const sim_closed_t *run);
int sim_closed_hops(sim_closed_t *run, int rank, int other);
/* The run's trace (aggregate: met_trace_add_total, met_trace_add_messages, met_trace_add_end), borrowed. */
met_trace_t *sim_closed_trace(sim_closed_t *run);

#endif
