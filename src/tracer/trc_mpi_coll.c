/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The PMPI wrappers of the collectives (on any intracommunicator: trc_coll), the communicator calls and
 * send-receives, and the non-blocking collectives: their timeline lines pair them, their TI actions are their blocking
 * forms' where their waits completed them. */
#define _GNU_SOURCE /* vasprintf */
#include "trc_comm.h"
#include "trc_mpi_util.h"
#include "trc_request.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- collectives ---- */

/* A rooted collective's partner on its timeline line: its root as a world rank (on a communicator congruent with
 * MPI_COMM_WORLD, where trc_coll gave back the plain `format`, the same number; on a sub-communicator, which the line
 * names, translated, with SIMRUN_TRACE_FORMAT=smpi too, whose TI trace cannot hold the call), so that simrun analyse
 * can tell who waited for the root (late broadcast) and the root for the others (early reduce); -1 on an
 * intercommunicator, whose root is MPI_ROOT or MPI_PROC_NULL on one side. */
static int root_peer(MPI_Comm comm, const char *ti, const char *format, int root)
{
  int inter = 0;
  if (ti && ti == format)
    return root;
  return PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter ? trc_to_world(comm, root) : -1;
}

EXPORT int MPI_Barrier(MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Barrier(comm));
  const char *ti = trc_coll(comm, "barrier", "MPI_Barrier (intercommunicator)"); /* NULL: no TI action */
  trc_call(t, "MPI_Barrier", TRC_IDLE, -1, 0, ti ? "%s" : NULL, ti);
  return rc;
}

EXPORT int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Bcast(buf, count, type, root, comm));
  double bytes = trc_nbytes(count, type);
  static const char format[] = "bcast %.0f %d";
  const char *ti = trc_coll(comm, format, "MPI_Bcast (intercommunicator)");
  trc_call(t, "MPI_Bcast", TRC_COMM, root_peer(comm, ti, format, root), bytes, ti, bytes, root);
  return rc;
}

/* The reduction's own computation is in the measured call, not in a compute amount: written as 0 flops. */
EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                      MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm));
  double bytes = trc_nbytes(count, type);
  static const char format[] = "reduce %.0f 0 %d";
  const char *ti = trc_coll(comm, format, "MPI_Reduce (intercommunicator)");
  trc_call(t, "MPI_Reduce", TRC_COMM, root_peer(comm, ti, format, root), bytes, ti, bytes, root);
  return rc;
}

EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm));
  double bytes = trc_nbytes(count, type);
  trc_call(t, "MPI_Allreduce", TRC_COMM, -1, bytes,
           trc_coll(comm, "allreduce %.0f 0", "MPI_Allreduce (intercommunicator)"), bytes);
  return rc;
}

EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
  double recv = trc_nbytes(recvcount, recvtype);
  double send = sendbuf == MPI_IN_PLACE ? recv : trc_nbytes(sendcount, sendtype);
  trc_call(t, "MPI_Alltoall", TRC_COMM, -1, send * trc_comm_size(comm),
           trc_coll(comm, "alltoall %.0f %.0f", "MPI_Alltoall (intercommunicator)"), send, recv);
  return rc;
}

/* The bytes of `counts` elements of `type` to or from every member of a communicator of `size` but `me`: what an
 * MPI_Alltoallv rank sends to the others or receives from them. */
static double others_bytes(const int counts[], MPI_Datatype type, int size, int me)
{
  double elements = 0;
  for (int i = 0; i < size; i++)
    elements += i == me ? 0 : counts[i];
  return elements * trc_nbytes(1, type);
}

/* An alltoallv's sizes on `comm`: its TI counts, sent (in place: those received) and received, each with its sum first
 * (NULL when out of memory: new strings), and the bytes sent to the other members and received from them. */
typedef struct alltoallv {
  char *send;
  char *recv;
  double sent;
  double received;
} alltoallv_t;

static alltoallv_t alltoallv_sizes(const void *sendbuf, const int sendcounts[], MPI_Datatype sendtype,
                                   const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm)
{
  int size = trc_comm_size(comm), me = trc_comm_rank(comm);
  const int *scounts = sendbuf == MPI_IN_PLACE ? recvcounts : sendcounts;
  MPI_Datatype stype = sendbuf == MPI_IN_PLACE ? recvtype : sendtype;
  return (alltoallv_t){.send = trc_counts_text(scounts, size, stype, 1),
                       .recv = trc_counts_text(recvcounts, size, recvtype, 1),
                       .sent = others_bytes(scounts, stype, size, me),
                       .received = others_bytes(recvcounts, recvtype, size, me)};
}

/* Its line gives the bytes it sent to the other members and, after its tag (none) and communicator, what it received
 * from them (docs/tracer.md), so that the exports give each rank its own (met_coll_moved). */
EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(
      PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
  static const char plain[] = "alltoallv %s %s";
  const char *format = trc_coll(comm, plain, "MPI_Alltoallv (intercommunicator)");
  alltoallv_t v =
      format ? alltoallv_sizes(sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm) : (alltoallv_t){0};
  if (format == plain) /* on another communicator trc_coll named it */
    trc_envelope(-1, 0);
  if (format)
    trc_envelope_request(llround(v.received));
  trc_call(t, "MPI_Alltoallv", TRC_COMM, -1, v.sent, v.send && v.recv ? format : NULL, v.send, v.recv);
  free(v.send);
  free(v.recv);
  return rc;
}

/* Gather and scatter: the buffer that only the root uses is sized as the other one on the other ranks (MPI ignores
 * its type there, which may then be invalid), and MPI_IN_PLACE's ignored side as its counterpart: the bytes sent and
 * received as their TI actions give them. */
static void gather_sizes(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                         MPI_Datatype recvtype, int at_root, double *send, double *recv)
{
  double root_recv = at_root ? trc_nbytes(recvcount, recvtype) : 0;
  *send = at_root && sendbuf == MPI_IN_PLACE ? root_recv : trc_nbytes(sendcount, sendtype);
  *recv = at_root ? root_recv : *send;
}

static void scatter_sizes(int sendcount, MPI_Datatype sendtype, const void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int at_root, double *send, double *recv)
{
  double root_send = at_root ? trc_nbytes(sendcount, sendtype) : 0;
  *recv = at_root && recvbuf == MPI_IN_PLACE ? root_send : trc_nbytes(recvcount, recvtype);
  *send = at_root ? root_send : *recv;
}

EXPORT int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
  static const char plain[] = "gather %.0f %.0f %d";
  const char *format = trc_coll(comm, plain, "MPI_Gather (intercommunicator)");
  int at_root = format && trc_comm_rank(comm) == root;
  double send, recv;
  gather_sizes(sendbuf, sendcount, sendtype, recvcount, recvtype, at_root, &send, &recv);
  trc_call(t, "MPI_Gather", TRC_COMM, root_peer(comm, format, plain, root), send, format, send, recv, root);
  return rc;
}

/* A gatherv's or scatterv's sizes on `comm` (`recorded`: while recording, on an intracommunicator): the rank's own
 * block into *own, `own_count` elements of `own_type`, or in place at the root its entry of `counts`; and the TI text
 * of the root's `counts` of `type` (zeros elsewhere, where MPI ignores them), NULL when not `recorded` or out of
 * memory. */
static char *rooted_v_sizes(const int counts[], MPI_Datatype type, int in_place, int own_count, MPI_Datatype own_type,
                            int root, int recorded, MPI_Comm comm, double *own)
{
  int at_root = recorded && trc_comm_rank(comm) == root;
  *own = at_root && in_place ? trc_nbytes(counts[root], type) : trc_nbytes(own_count, own_type);
  return recorded ? trc_counts_text(at_root ? counts : NULL, trc_comm_size(comm), type, 0) : NULL;
}

EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm));
  static const char plain[] = "gatherv %.0f %s %d";
  const char *format = trc_coll(comm, plain, "MPI_Gatherv (intercommunicator)");
  double send;
  char *recv = rooted_v_sizes(recvcounts, recvtype, sendbuf == MPI_IN_PLACE, sendcount, sendtype, root, format != NULL,
                              comm, &send);
  trc_call(t, "MPI_Gatherv", TRC_COMM, root_peer(comm, format, plain, root), send, recv ? format : NULL, send, recv,
           root);
  free(recv);
  return rc;
}

EXPORT int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
  static const char plain[] = "scatter %.0f %.0f %d";
  const char *format = trc_coll(comm, plain, "MPI_Scatter (intercommunicator)");
  int at_root = format && trc_comm_rank(comm) == root;
  double send, recv;
  scatter_sizes(sendcount, sendtype, recvbuf, recvcount, recvtype, at_root, &send, &recv);
  trc_call(t, "MPI_Scatter", TRC_COMM, root_peer(comm, format, plain, root), recv, format, send, recv, root);
  return rc;
}

EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm));
  static const char plain[] = "scatterv %s %.0f %d";
  const char *format = trc_coll(comm, plain, "MPI_Scatterv (intercommunicator)");
  double recv;
  char *send = rooted_v_sizes(sendcounts, sendtype, recvbuf == MPI_IN_PLACE, recvcount, recvtype, root, format != NULL,
                              comm, &recv);
  trc_call(t, "MPI_Scatterv", TRC_COMM, root_peer(comm, format, plain, root), recv, send ? format : NULL, send, recv,
           root);
  free(send);
  return rc;
}

EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
  double recv = trc_nbytes(recvcount, recvtype);
  double send = sendbuf == MPI_IN_PLACE ? recv : trc_nbytes(sendcount, sendtype);
  trc_call(t, "MPI_Allgather", TRC_COMM, -1, send,
           trc_coll(comm, "allgather %.0f %.0f", "MPI_Allgather (intercommunicator)"), send, recv);
  return rc;
}

EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
  const char *format = trc_coll(comm, "allgatherv %.0f %s", "MPI_Allgatherv (intercommunicator)");
  double send = sendbuf == MPI_IN_PLACE && format ? trc_nbytes(recvcounts[trc_comm_rank(comm)], recvtype)
                                                  : trc_nbytes(sendcount, sendtype);
  char *recv = format ? trc_counts_text(recvcounts, trc_comm_size(comm), recvtype, 0) : NULL;
  trc_call(t, "MPI_Allgatherv", TRC_COMM, -1, send, recv ? format : NULL, send, recv);
  free(recv);
  return rc;
}

EXPORT int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm));
  const char *format = trc_coll(comm, "reducescatter %s 0", "MPI_Reduce_scatter (intercommunicator)");
  char *counts = format ? trc_counts_text(recvcounts, trc_comm_size(comm), type, 0) : NULL;
  /* the timeline's bytes: the rank's own block, as MPI_Reduce_scatter_block's (met_coll_moved derives the rest) */
  double own = format ? trc_nbytes(recvcounts[trc_comm_rank(comm)], type) : 0;
  trc_call(t, "MPI_Reduce_scatter", TRC_COMM, -1, own, counts ? format : NULL, counts);
  free(counts);
  return rc;
}

/* The TI counts of `size` equal blocks of `count` elements of `type` (a reduce-scatter of blocks), or NULL when out of
 * memory. */
static char *equal_counts_text(int count, int size, MPI_Datatype type)
{
  int *counts = malloc(sizeof *counts * (size_t)(size > 0 ? size : 1));
  for (int i = 0; counts && i < size; i++)
    counts[i] = count;
  char *text = counts ? trc_counts_text(counts, size, type, 0) : NULL;
  free(counts);
  return text;
}

/* Equal blocks: the TI reducescatter with every count `recvcount`. */
EXPORT int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                                    MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm));
  const char *format = trc_coll(comm, "reducescatter %s 0", "MPI_Reduce_scatter_block (intercommunicator)");
  char *text = format ? equal_counts_text(recvcount, trc_comm_size(comm), type) : NULL;
  trc_call(t, "MPI_Reduce_scatter_block", TRC_COMM, -1, trc_nbytes(recvcount, type), text ? format : NULL, text);
  free(text);
  return rc;
}

/* Scans: SMPI's "scan BYTES FLOPS" and "exscan BYTES FLOPS", the reduction's computation in the call. */
EXPORT int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Scan(sendbuf, recvbuf, count, type, op, comm));
  double bytes = trc_nbytes(count, type);
  trc_call(t, "MPI_Scan", TRC_COMM, -1, bytes, trc_coll(comm, "scan %.0f 0", "MPI_Scan (intercommunicator)"), bytes);
  return rc;
}

EXPORT int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm));
  double bytes = trc_nbytes(count, type);
  trc_call(t, "MPI_Exscan", TRC_COMM, -1, bytes, trc_coll(comm, "exscan %.0f 0", "MPI_Exscan (intercommunicator)"),
           bytes);
  return rc;
}

/* ---- communicators ---- */

EXPORT int MPI_Comm_size(MPI_Comm comm, int *size)
{
  if (!trc_active()) /* a local query from another thread (StarPU's workers): no call a replay misses, not counted */
    return PMPI_Comm_size(comm, size);
  double t = trc_enter();
  int rc = trc_returned(PMPI_Comm_size(comm, size));
  trc_call(t, "MPI_Comm_size", TRC_CTRL, -1, 0, NULL); /* a local query: TI's comm_size action means something else */
  return rc;
}

/* The least of the CPU seconds `cpu` each member of `comm`, just made, spent making it (trc_setup_done): what it
 * cost the member that came last, which waited for no other; each member's computation (trc_setup_call). A member
 * that waited has its wait in its own CPU time (Open MPI spins), which the replay, where set-up calls do not
 * synchronise, would spend again wherever the partner's lateness was not replayed (a preemption, another platform).
 * A reduction of the library's own after the call's end (its time is the tracer's), on the new communicator, which
 * only the members returning from the call know; its own CPU time where there is none to share it with
 * (MPI_COMM_NULL: none made, or one trc_comm_made agreed nothing on; one member). Made whether this rank records or
 * not (a full disk stops one rank's recording), so that every member takes part. */
static double setup_cost(MPI_Comm comm, double cpu)
{
  double least = cpu;
  if (comm != MPI_COMM_NULL && trc_comm_size(comm) > 1)
    PMPI_Allreduce(&cpu, &least, 1, MPI_DOUBLE, MPI_MIN, comm);
  return least;
}

/* A set-up call that made *newcomm (when rc is MPI_SUCCESS): its key (trc_comm_made), its record and its cost (on
 * an intracommunicator of the run's processes alone, which trc_comm_made agrees on). */
static int made_comm_as(double t, const char *name, const char *ti, int rc, const MPI_Comm *newcomm)
{
  double cpu = trc_setup_done(t);
  int agreed = rc == MPI_SUCCESS && trc_comm_made(*newcomm); /* else no collective of the library's on it */
  trc_setup_call(t, name, ti, setup_cost(agreed ? *newcomm : MPI_COMM_NULL, cpu));
  return rc;
}

EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm_as(t, "MPI_Comm_split", "comm_split", PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm_as(t, "MPI_Comm_dup", "comm_dup", PMPI_Comm_dup(comm, newcomm), newcomm);
}

/* Probes: a TI trace needs no action for them (the receive that follows waits for the message in a replay, and names
 * its sender); a probe is timed as waiting, an unsuccessful iprobe as a poll (trc_poll); one that matched a message
 * names it (trc_probed). */
EXPORT int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter();
  int rc = trc_returned(PMPI_Probe(source, tag, comm, status));
  trc_probed(t, "MPI_Probe", TRC_IDLE, comm, rc == MPI_SUCCESS ? status : NULL);
  return rc;
}

EXPORT int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter_poll();
  int rc = PMPI_Iprobe(source, tag, comm, flag, status);
  if (rc == MPI_SUCCESS && !*flag)
    trc_poll(t, "MPI_Iprobe");
  else
    trc_probed(t, "MPI_Iprobe", TRC_CTRL, comm, rc == MPI_SUCCESS ? status : NULL);
  return rc;
}

/* Communicators made otherwise, and topologies: timed, their processor time the rank's computation (trc_setup_call);
 * a TI trace has no action for them (as SMPI does nothing for comm_split), since a collective on one names its members
 * itself (trc_coll). */
static int made(double t, const char *name, int rc)
{
  trc_setup_call(t, name, NULL, trc_setup_done(t));
  return rc;
}

/* The same for a call that made communicator *newcomm (made_comm_as). */
static int made_comm(double t, const char *name, int rc, const MPI_Comm *newcomm)
{
  return made_comm_as(t, name, NULL, rc, newcomm);
}

EXPORT int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm(t, "MPI_Comm_create", PMPI_Comm_create(comm, group, newcomm), newcomm);
}

EXPORT int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm(t, "MPI_Comm_dup_with_info", PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm);
}

EXPORT int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm(t, "MPI_Comm_create_group", PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm);
}

EXPORT int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm(t, "MPI_Comm_split_type", PMPI_Comm_split_type(comm, type, key, info, newcomm), newcomm);
}

EXPORT int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                           MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm(t, "MPI_Cart_create", PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm), newcomm);
}

EXPORT int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm(t, "MPI_Cart_sub", PMPI_Cart_sub(comm, remain_dims, newcomm), newcomm);
}

EXPORT int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                            MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm(t, "MPI_Graph_create", PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm), newcomm);
}

EXPORT int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                                 const int destinations[], const int weights[], MPI_Info info, int reorder,
                                 MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm(t, "MPI_Dist_graph_create",
                   PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm),
                   newcomm);
}

EXPORT int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[], const int sourceweights[],
                                          int outdegree, const int destinations[], const int destweights[],
                                          MPI_Info info, int reorder, MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm(t, "MPI_Dist_graph_create_adjacent",
                   PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                                   destweights, info, reorder, newcomm),
                   newcomm);
}

EXPORT int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader, int tag,
                                MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made(t, "MPI_Intercomm_create", PMPI_Intercomm_create(local, local_leader, peer, remote_leader, tag, newcomm));
}

EXPORT int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm)
{
  double t = trc_enter_setup();
  return made_comm(t, "MPI_Intercomm_merge", PMPI_Intercomm_merge(intercomm, high, newcomm), newcomm);
}

/* A freed handle may name another communicator next: the trace forgets which it was. */
EXPORT int MPI_Comm_free(MPI_Comm *comm)
{
  MPI_Comm before = *comm;
  double t = trc_enter_setup();
  int rc = PMPI_Comm_free(comm);
  trc_comm_forget(before);
  return made(t, "MPI_Comm_free", rc);
}

/* A send-receive as MPI defines it, an isend, a receive and the wait for the send (MPI 3.1 §3.10), in TI actions that
 * SMPI replays: the receive's source, tag and size from its status. A side with MPI_PROC_NULL moves nothing and is
 * left out. Its timeline line gives both halves: the send's partner, bytes, tag and communicator, then the receive's
 * source, tag and bytes as received (MPI_PROC_NULL's -2, then -1 and 0, for none). */
static void sendrecv_done(double t, const char *name, int rc, double sent, int dest, int sendtag, MPI_Comm comm,
                          MPI_Status *status)
{
  int to = trc_partner(comm, dest);
  int from = rc == MPI_SUCCESS ? trc_partner(comm, status->MPI_SOURCE) : -1;
  int got = 0;
  if (from >= 0)
    PMPI_Get_count(status, MPI_BYTE, &got);
  trc_envelope(sendtag, trc_comm_key(comm));
  trc_envelope_recv(from, from >= 0 ? status->MPI_TAG : -1, got);
  if (to >= 0 && from >= 0) {
    int me = trc_active() ? trc_world_rank() : 0;
    trc_after_follows();
    trc_call(t, name, TRC_COMM, to, sent, "isend %d %d %.0f", to, sendtag, sent);
    trc_action("recv %d %d %d", from, status->MPI_TAG, got);
    trc_action("wait %d %d %d", me, to, sendtag);
    trc_after_call();
  } else if (to >= 0)
    trc_call(t, name, TRC_COMM, to, sent, "send %d %d %.0f", to, sendtag, sent);
  else
    trc_call(t, name, TRC_COMM, to, 0, from >= 0 ? "recv %d %d %d" : NULL, from, from >= 0 ? status->MPI_TAG : 0, got);
}

EXPORT int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                        MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter();
  int rc = trc_returned(PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                                      recvtag, comm, status));
  sendrecv_done(t, "MPI_Sendrecv", rc, trc_nbytes(sendcount, sendtype), dest, sendtag, comm, status);
  return rc;
}

EXPORT int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                                MPI_Comm comm, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter();
  int rc = trc_returned(PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status));
  sendrecv_done(t, "MPI_Sendrecv_replace", rc, trc_nbytes(count, type), dest, sendtag, comm, status);
  return rc;
}

/* ---- non-blocking collectives (icoll_call) ---- */

/* Whether a non-blocking collective on `comm` that returned `rc` is recorded with its arguments: while recording, on
 * an intracommunicator (an intercommunicator's counts are the remote group's, and only its root's significant). */
static int recorded_intra(int rc, MPI_Comm comm)
{
  int inter = 1;
  return trc_active() && rc == MPI_SUCCESS && PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter;
}

/* A non-blocking collective's initiation on `comm` that entered at `t` and returned `rc`: on an intracommunicator, its
 * timeline line gives `root`'s world rank (-1: none), `bytes` and its communicator (tag -1) and is counted among the
 * postings, its `request` remembered, so that the wait or test that completes it names it and simrun analyse pairs
 * it with the other members' (docs/tracer.md); its TI action, `format` printf-like as its blocking form's (trc_coll),
 * is written where that wait or test completes it (trc_req_completed). Counted (listed at MPI_Finalize) without one:
 * on an intercommunicator as `why`, when the trace cannot hold it as trc_coll says, out of memory (`format` NULL: its
 * counts could not be written) as such. */
static void icoll_call(double t, const char *name, trc_category_t category, int rc, MPI_Comm comm, int root,
                       double bytes, const MPI_Request *request, const char *why, const char *format, ...)
{
  int posted = recorded_intra(rc, comm);
  int peer = -1;
  char *action = NULL; /* as long as its counts: a v-form's at p = 100 passes 256 bytes */
  if (posted) {
    trc_envelope(-1, 0); /* MPI_COMM_WORLD's: trc_coll names another, its members on a "# comm" line */
    const char *in = trc_coll(comm, format ? format : "", why);
    va_list ap;
    va_start(ap, format);
    if (in && (!format || vasprintf(&action, in, ap) < 0)) {
      action = NULL;
      trc_untraced("non-blocking collective (out of memory)");
    }
    va_end(ap);
    peer = root >= 0 ? trc_to_world(comm, root) : -1;
    trc_req_collective(*request, comm, trc_req_line(), action);
  }
  free(action);
  trc_call(t, name, category, peer, posted ? bytes : 0, NULL);
  if (trc_active() && rc == MPI_SUCCESS && !posted) /* an intercommunicator's: not paired, no action */
    trc_untraced(why);
}

EXPORT int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ibcast(buf, count, type, root, comm, request));
  double bytes = trc_nbytes(count, type);
  icoll_call(t, "MPI_Ibcast", TRC_COMM, rc, comm, root, bytes, request, "MPI_Ibcast (intercommunicator)",
             "bcast %.0f %d", bytes, root);
  return rc;
}

EXPORT int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                          MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request));
  double bytes = trc_nbytes(count, type);
  icoll_call(t, "MPI_Iallreduce", TRC_COMM, rc, comm, -1, bytes, request, "MPI_Iallreduce (intercommunicator)",
             "allreduce %.0f 0", bytes);
  return rc;
}

EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ibarrier(comm, request));
  icoll_call(t, "MPI_Ibarrier", TRC_CTRL, rc, comm, -1, 0, request, "MPI_Ibarrier (intercommunicator)", "barrier");
  return rc;
}

EXPORT int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                       MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request));
  double bytes = trc_nbytes(count, type);
  icoll_call(t, "MPI_Ireduce", TRC_COMM, rc, comm, root, bytes, request, "MPI_Ireduce (intercommunicator)",
             "reduce %.0f 0 %d", bytes, root);
  return rc;
}

EXPORT int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request));
  double recv = trc_nbytes(recvcount, recvtype);
  double send = sendbuf == MPI_IN_PLACE ? recv : trc_nbytes(sendcount, sendtype);
  icoll_call(t, "MPI_Iallgather", TRC_COMM, rc, comm, -1, send, request, "MPI_Iallgather (intercommunicator)",
             "allgather %.0f %.0f", send, recv);
  return rc;
}

EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request));
  double recv = trc_nbytes(recvcount, recvtype);
  double send = sendbuf == MPI_IN_PLACE ? recv : trc_nbytes(sendcount, sendtype);
  icoll_call(t, "MPI_Ialltoall", TRC_COMM, rc, comm, -1, send * trc_comm_size(comm), request,
             "MPI_Ialltoall (intercommunicator)", "alltoall %.0f %.0f", send, recv);
  return rc;
}

EXPORT int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request));
  double send, recv;
  gather_sizes(sendbuf, sendcount, sendtype, recvcount, recvtype,
               recorded_intra(rc, comm) && trc_comm_rank(comm) == root, &send, &recv);
  icoll_call(t, "MPI_Igather", TRC_COMM, rc, comm, root, send, request, "MPI_Igather (intercommunicator)",
             "gather %.0f %.0f %d", send, recv, root);
  return rc;
}

EXPORT int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(
      PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request));
  double send;
  char *recv = rooted_v_sizes(recvcounts, recvtype, sendbuf == MPI_IN_PLACE, sendcount, sendtype, root,
                              recorded_intra(rc, comm), comm, &send);
  icoll_call(t, "MPI_Igatherv", TRC_COMM, rc, comm, root, send, request, "MPI_Igatherv (intercommunicator)",
             recv ? "gatherv %.0f %s %d" : NULL, send, recv, root);
  free(recv);
  return rc;
}

EXPORT int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request));
  double send, recv;
  scatter_sizes(sendcount, sendtype, recvbuf, recvcount, recvtype,
                recorded_intra(rc, comm) && trc_comm_rank(comm) == root, &send, &recv);
  icoll_call(t, "MPI_Iscatter", TRC_COMM, rc, comm, root, recv, request, "MPI_Iscatter (intercommunicator)",
             "scatter %.0f %.0f %d", send, recv, root);
  return rc;
}

EXPORT int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                         void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(
      PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request));
  double recv;
  char *send = rooted_v_sizes(sendcounts, sendtype, recvbuf == MPI_IN_PLACE, recvcount, recvtype, root,
                              recorded_intra(rc, comm), comm, &recv);
  icoll_call(t, "MPI_Iscatterv", TRC_COMM, rc, comm, root, recv, request, "MPI_Iscatterv (intercommunicator)",
             send ? "scatterv %s %.0f %d" : NULL, send, recv, root);
  free(send);
  return rc;
}

EXPORT int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(
      PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request));
  int ok = recorded_intra(rc, comm);
  double send = sendbuf != MPI_IN_PLACE ? trc_nbytes(sendcount, sendtype)
                : ok                    ? trc_nbytes(recvcounts[trc_comm_rank(comm)], recvtype)
                                        : 0;
  char *recv = ok ? trc_counts_text(recvcounts, trc_comm_size(comm), recvtype, 0) : NULL;
  icoll_call(t, "MPI_Iallgatherv", TRC_COMM, rc, comm, -1, send, request, "MPI_Iallgatherv (intercommunicator)",
             recv ? "allgatherv %.0f %s" : NULL, send, recv);
  free(recv);
  return rc;
}

EXPORT int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                          void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(
      PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request));
  alltoallv_t v = recorded_intra(rc, comm) ? alltoallv_sizes(sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm)
                                           : (alltoallv_t){0};
  if (recorded_intra(rc, comm)) /* what it receives, after its communicator, as MPI_Alltoallv's line */
    trc_envelope_request(llround(v.received));
  icoll_call(t, "MPI_Ialltoallv", TRC_COMM, rc, comm, -1, v.sent, request, "MPI_Ialltoallv (intercommunicator)",
             v.send && v.recv ? "alltoallv %s %s" : NULL, v.send, v.recv);
  free(v.send);
  free(v.recv);
  return rc;
}

EXPORT int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request));
  int ok = recorded_intra(rc, comm);
  char *counts = ok ? trc_counts_text(recvcounts, trc_comm_size(comm), datatype, 0) : NULL;
  double own = ok ? trc_nbytes(recvcounts[trc_comm_rank(comm)], datatype) : 0; /* as MPI_Reduce_scatter's line */
  icoll_call(t, "MPI_Ireduce_scatter", TRC_COMM, rc, comm, -1, own, request, "MPI_Ireduce_scatter (intercommunicator)",
             counts ? "reducescatter %s 0" : NULL, counts);
  free(counts);
  return rc;
}

EXPORT int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                     MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request));
  char *counts = recorded_intra(rc, comm) ? equal_counts_text(recvcount, trc_comm_size(comm), datatype) : NULL;
  icoll_call(t, "MPI_Ireduce_scatter_block", TRC_COMM, rc, comm, -1, trc_nbytes(recvcount, datatype), request,
             "MPI_Ireduce_scatter_block (intercommunicator)", counts ? "reducescatter %s 0" : NULL, counts);
  free(counts);
  return rc;
}

EXPORT int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                     MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, request));
  double bytes = trc_nbytes(count, type);
  icoll_call(t, "MPI_Iscan", TRC_COMM, rc, comm, -1, bytes, request, "MPI_Iscan (intercommunicator)", "scan %.0f 0",
             bytes);
  return rc;
}

EXPORT int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                       MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, request));
  double bytes = trc_nbytes(count, type);
  icoll_call(t, "MPI_Iexscan", TRC_COMM, rc, comm, -1, bytes, request, "MPI_Iexscan (intercommunicator)",
             "exscan %.0f 0", bytes);
  return rc;
}
