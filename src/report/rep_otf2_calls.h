/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the OTF2 archives (rep_otf2.h) name MPI calls and communicators after: the MPI call each collective span or
 * message end of a trace stands for, and the communicators the trace's collective spans ran on, with their members. */
#ifndef REP_OTF2_CALLS_H
#define REP_OTF2_CALLS_H

#include "met_trace.h"

#include <otf2/otf2.h>

#include <stddef.h>

/* The MPI calls the archives name regions after, in region order. */
typedef enum rep_otf2_call {
  REP_CALL_SEND = 0,
  REP_CALL_RECV,
  REP_CALL_BARRIER,
  REP_CALL_ALLREDUCE,
  REP_CALL_ALLGATHER,
  REP_CALL_ALLTOALL,
  REP_CALL_BCAST,
  REP_CALL_SCATTER,
  REP_CALL_REDUCE,
  REP_CALL_GATHER,
  REP_CALL_SCAN,
  REP_CALL_GATHERV,
  REP_CALL_ALLGATHERV,
  REP_CALL_SCATTERV,
  REP_CALL_ALLTOALLV,
  REP_CALL_REDUCE_SCATTER,
  REP_CALL_EXSCAN,
  REP_CALL_COUNT
} rep_otf2_call_t;

/* The call's name ("MPI_Send"), its OTF2 region role and collective operation (OTF2_UNDEFINED_TYPE for a
 * point-to-point call). */
const char *rep_otf2_call_name(rep_otf2_call_t call);
OTF2_RegionRole rep_otf2_call_role(rep_otf2_call_t call);
OTF2_CollectiveOp rep_otf2_call_op(rep_otf2_call_t call);

/* The archives' call named `name` ("MPI_Send", "MPI_Bcast"), or REP_CALL_COUNT for a name none of them has. */
rep_otf2_call_t rep_otf2_call_named(const char *name);
/* The OTF2 region role of MPI call `name` ("MPI_Isend", "MPI_Testany"): a collective's as the archives' call of that
 * operation, a call that sends, receives or starts messages point-to-point, any other (waits, tests, probes,
 * requests, communicators) a function. */
OTF2_RegionRole rep_otf2_name_role(const char *name);

/* The call a measured timeline's call name stands for, its name's length without a run of polls' count
 * ("MPI_Testany*12": 11), and in *polls that count (0 for a call that is no run of polls). */
size_t rep_otf2_name_call(const char *name, unsigned long long *polls);

/* The call a collective span stands for: its operation when the span names it (met_coll_call_t: the simulator's
 * collectives, a measured call), otherwise from Scalasca's class of the call (met_coll_kind_t): within a class, the
 * span's phase label decides ("scatter" or "distribution" makes a one-to-N span a scatter, "gather" or "collection"
 * an N-to-one span a gather, "allgather" or "alltoall" an N x N span one of those); without a hint, the class's most
 * common call (broadcast, reduce, allreduce). */
rep_otf2_call_t rep_otf2_coll_call(const met_coll_t *span, const char *phase_label);

/* The communicators of a trace: 0 is MPI_COMM_WORLD (every rank), then one per other group number its collective
 * spans and non-blocking collectives carry, in order of first appearance by rank, with its members in increasing rank
 * order. */
typedef struct rep_otf2_comms rep_otf2_comms_t;

/* NULL when out of memory. Free with rep_otf2_comms_free (accepts NULL). */
rep_otf2_comms_t *rep_otf2_comms_new(const met_trace_t *trace);
void rep_otf2_comms_free(rep_otf2_comms_t *comms);

/* How many communicators: MPI_COMM_WORLD and each other group, at least 1. */
size_t rep_otf2_comms_count(const rep_otf2_comms_t *comms);
/* The communicator of group number `group`; 0 (the world) for an unknown one. */
uint32_t rep_otf2_comms_find(const rep_otf2_comms_t *comms, unsigned group);
/* Communicator `comm`'s members (ranks, owned by comms) and their number in *count. */
const uint64_t *rep_otf2_comms_members(const rep_otf2_comms_t *comms, uint32_t comm, uint32_t *count);
/* The index of `rank` among communicator `comm`'s members (OTF2's root is a rank within the communicator);
 * OTF2_UNDEFINED_UINT32 for rank -1 or a non-member. */
uint32_t rep_otf2_comms_rank(const rep_otf2_comms_t *comms, uint32_t comm, int rank);

#endif
