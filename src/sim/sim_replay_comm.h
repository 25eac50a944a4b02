/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay layer's window onto a SimGrid communication's start time, which only the C++ interface gives: the
 * moment both ends were there and the transfer began, to split a rank's blocked time into idling and transfer. */
#ifndef SIM_REPLAY_COMM_H
#define SIM_REPLAY_COMM_H

#include <simgrid/forward.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Finishes `comm` (from sg_mailbox_put_async or sg_mailbox_get_async): with `block`, waits for it; without, only
 * tests it. Returns 1 when it is over, with the time its transfer started in *start, and releases it (out of SimGrid's
 * list of the actor's activities too); 0 when a test finds it still running (it stays owned by the caller). */
int sim_comm_finish(sg_comm_t comm, int block, double *start);

/* Cancels `comm`, not yet matched (an MPI_Cancel the trace recorded as successful), and releases it. */
void sim_comm_cancel(sg_comm_t comm);

/* A blocking message of `bytes` on `mailbox` in one SimGrid call for each end: the sender's post and wait
 * (sg_mailbox_put's two calls, each a switch to SimGrid's maestro and back) are one, and so are the receiver's. The
 * same single SimGrid communication, matched and timed as by sg_mailbox_put and sg_mailbox_get. The sender's payload
 * (NULL for none) is the pointer the receiver gets, as sg_mailbox_put's. */
void sim_comm_send(sg_mailbox_t mailbox, double bytes, void *payload);
void *sim_comm_recv(sg_mailbox_t mailbox);

/* A message of `bytes` from host `from` to host `to`, started now by the calling actor with no mailbox and no sending
 * actor (SimGrid's host-to-host Comm::sendto_async), to be finished as the others (sim_comm_finish). */
sg_comm_t sim_comm_sendto(sg_host_t from, sg_host_t to, double bytes);

/* Makes `receiver` the permanent receiver of `mailbox`: a message put there starts moving at once, before its receive
 * is posted (SimGrid's model of TCP, SMPI's smpi/async-small-thresh). Setting it again
 * changes nothing. */
void sim_comm_set_receiver(sg_mailbox_t mailbox, sg_actor_t receiver);

#ifdef __cplusplus
}
#endif

#endif
