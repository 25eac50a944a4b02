/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: collectives on their communicator (trc_comm.c), simrun's "comm_def" and "in" TI
 * actions for a sub-communicator; the timeline's keys of communicators, and a probe's message on its communicator. */
#ifndef TRC_COMM_H
#define TRC_COMM_H

#include "trc_record.h"

#include <mpi.h>

/* A collective's TI format on `comm`, or NULL when the trace cannot hold it (the call then counted as
 * `name`). */
const char *trc_coll(MPI_Comm comm, const char *format, const char *name);

/* The trace's name of intracommunicator `comm`: 0 for MPI_COMM_WORLD or one congruent with it, else a
 * number > 0 whose members a "comm_def" action gave the first time; -1 when out of memory, or when
 * SIMRUN_TRACE_FORMAT=smpi refuses the extension (counted as one collective left out); -2 when its members include
 * processes outside the run (MPI_Comm_spawn's, merged: counted by trc_coll); -3 when it has one member and
 * SIMRUN_TRACE_FORMAT=smpi (its collectives need no action, and get none). */
int trc_comm_id(MPI_Comm comm);

/* The number by which the measured timeline names `comm` beside a message's tag, with no TI action written (so
 * that simrun analyse pairs messages by communicator too), the same on every member: the one trc_comm_made gave it;
 * for a communicator made otherwise, 0 for MPI_COMM_WORLD and communicators with its ranks in its order, else a hash
 * of the members' world ranks in their order, in 1 .. INT_MAX. */
int trc_comm_key(MPI_Comm comm);

/* An intracommunicator `comm` made now by a collective call of its members (split, dup, create, a topology...): its
 * key, a hash of its members' world ranks and of a number its members agree on (one PMPI_Allreduce on `comm`, done
 * whether or not this rank records, as every member calls it): above every number any member gave before, so that
 * a duplicate's messages never pair with its parent's. Nothing for MPI_COMM_NULL, an intercommunicator or one with
 * processes outside the run, or when this process was spawned (neither side makes a collective of its own there: a
 * child without the preload would never join it): its key stays the members' hash. Returns whether it was agreed
 * so, that is whether the library may make collectives of its own on `comm`. */
int trc_comm_made(MPI_Comm comm);

/* Rank `rank` of `comm` as a rank of MPI_COMM_WORLD; MPI_PROC_NULL as TRC_PEER_NULL, MPI_ANY_SOURCE (and any other
 * special value) as TRC_PEER_NONE: the timeline's numbers, whatever the library's; so too a rank that is not one of
 * comm's and a process outside the run (spawned, connected). On an intercommunicator, a rank of its remote group. The
 * members' table is kept by handle until MPI_Comm_free (four PMPI group calls per message before, a sixth of the
 * recorder's cost on ScaLAPACK's row and column communicators). */
int trc_to_world(MPI_Comm comm, int rank);

/* trc_to_world for a message's partner, which names a process outside the run (TRC_PEER_NONE for a rank given) among
 * the calls not in the TI trace, once per message: a send to a rank its communicator lacks failed, and its wrapper
 * names it so before (trc_mpi.c, failed_send). */
int trc_partner(MPI_Comm comm, int rank);

/* MPI_Comm_free of `comm`: its handle may name another communicator next. */
void trc_comm_forget(MPI_Comm comm);

/* Frees the communicator table at MPI_Finalize. */
void trc_comm_reset(void);

/* A probe entered at `t` that returns now: timed as `name` in `category`; when it matched a message (`status` not NULL,
 * naming a sender), with that message's sender, tag and communicator, so that simrun analyse pairs it with the send it
 * found (its wait is a late sender's, docs/tracer.md); no TI action, and no bytes (the receive moves the message). */
void trc_probed(double t, const char *name, trc_category_t category, MPI_Comm comm, const MPI_Status *status);

#endif
