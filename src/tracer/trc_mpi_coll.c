/* The PMPI wrappers of the collectives (on MPI_COMM_WORLD or a congruent communicator), the communicator calls and
 * send-receives, and the calls the TI format cannot hold (timed, counted, listed at MPI_Finalize). */
#include "trc_mpi.h"

#include <stdlib.h>

/* ---- collectives (on MPI_COMM_WORLD or a congruent communicator) ---- */

EXPORT int MPI_Barrier(MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Barrier(comm);
  trc_call(t, "MPI_Barrier", TRC_IDLE, -1, 0, trc_world_only(comm, "barrier", "MPI_Barrier (sub-communicator)"));
  return rc;
}

EXPORT int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Bcast(buf, count, type, root, comm);
  double bytes = trc_nbytes(count, type);
  trc_call(t, "MPI_Bcast", TRC_COMM, -1, bytes, trc_world_only(comm, "bcast %.0f %d", "MPI_Bcast (sub-communicator)"),
           bytes, root);
  return rc;
}

/* The reduction's own computation is in the measured call, not in a compute amount: written as 0 flops. */
EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                      MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  double bytes = trc_nbytes(count, type);
  trc_call(t, "MPI_Reduce", TRC_COMM, -1, bytes,
           trc_world_only(comm, "reduce %.0f 0 %d", "MPI_Reduce (sub-communicator)"), bytes, root);
  return rc;
}

EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
  double bytes = trc_nbytes(count, type);
  trc_call(t, "MPI_Allreduce", TRC_COMM, -1, bytes,
           trc_world_only(comm, "allreduce %.0f 0", "MPI_Allreduce (sub-communicator)"), bytes);
  return rc;
}

EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  double recv = trc_nbytes(recvcount, recvtype);
  double send = sendbuf == MPI_IN_PLACE ? recv : trc_nbytes(sendcount, sendtype);
  trc_call(t, "MPI_Alltoall", TRC_COMM, -1, send * trc_comm_size(comm),
           trc_world_only(comm, "alltoall %.0f %.0f", "MPI_Alltoall (sub-communicator)"), send, recv);
  return rc;
}

EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  const char *format = trc_world_only(comm, "alltoallv %s %s", "MPI_Alltoallv (sub-communicator)");
  int size = format ? trc_comm_size(comm) : 0;
  int in_place = sendbuf == MPI_IN_PLACE;
  char *send =
      format ? trc_counts_text(in_place ? recvcounts : sendcounts, size, in_place ? recvtype : sendtype, 1) : NULL;
  char *recv = format ? trc_counts_text(recvcounts, size, recvtype, 1) : NULL;
  trc_call(t, "MPI_Alltoallv", TRC_COMM, -1, 0, send && recv ? format : NULL, send, recv);
  free(send);
  free(recv);
  return rc;
}

/* Gather and scatter: the buffer that only the root uses is sized as the other one on the other ranks (MPI ignores
 * its type there, which may then be invalid), and MPI_IN_PLACE's ignored side as its counterpart. */
EXPORT int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const char *format = trc_world_only(comm, "gather %.0f %.0f %d", "MPI_Gather (sub-communicator)");
  int at_root = format && trc_world_rank() == root;
  double recv = at_root ? trc_nbytes(recvcount, recvtype) : 0;
  double send = at_root && sendbuf == MPI_IN_PLACE ? recv : trc_nbytes(sendcount, sendtype);
  trc_call(t, "MPI_Gather", TRC_COMM, -1, send, format, send, at_root ? recv : send, root);
  return rc;
}

EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  const char *format = trc_world_only(comm, "gatherv %.0f %s %d", "MPI_Gatherv (sub-communicator)");
  int at_root = format && trc_world_rank() == root;
  double send =
      at_root && sendbuf == MPI_IN_PLACE ? trc_nbytes(recvcounts[root], recvtype) : trc_nbytes(sendcount, sendtype);
  char *recv = format ? trc_counts_text(at_root ? recvcounts : NULL, trc_comm_size(comm), recvtype, 0) : NULL;
  trc_call(t, "MPI_Gatherv", TRC_COMM, -1, send, recv ? format : NULL, send, recv, root);
  free(recv);
  return rc;
}

EXPORT int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const char *format = trc_world_only(comm, "scatter %.0f %.0f %d", "MPI_Scatter (sub-communicator)");
  int at_root = format && trc_world_rank() == root;
  double send = at_root ? trc_nbytes(sendcount, sendtype) : 0;
  double recv = at_root && recvbuf == MPI_IN_PLACE ? send : trc_nbytes(recvcount, recvtype);
  trc_call(t, "MPI_Scatter", TRC_COMM, -1, recv, format, at_root ? send : recv, recv, root);
  return rc;
}

EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const char *format = trc_world_only(comm, "scatterv %s %.0f %d", "MPI_Scatterv (sub-communicator)");
  int at_root = format && trc_world_rank() == root;
  double recv =
      at_root && recvbuf == MPI_IN_PLACE ? trc_nbytes(sendcounts[root], sendtype) : trc_nbytes(recvcount, recvtype);
  char *send = format ? trc_counts_text(at_root ? sendcounts : NULL, trc_comm_size(comm), sendtype, 0) : NULL;
  trc_call(t, "MPI_Scatterv", TRC_COMM, -1, recv, send ? format : NULL, send, recv, root);
  free(send);
  return rc;
}

EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  double recv = trc_nbytes(recvcount, recvtype);
  double send = sendbuf == MPI_IN_PLACE ? recv : trc_nbytes(sendcount, sendtype);
  trc_call(t, "MPI_Allgather", TRC_COMM, -1, send,
           trc_world_only(comm, "allgather %.0f %.0f", "MPI_Allgather (sub-communicator)"), send, recv);
  return rc;
}

EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  const char *format = trc_world_only(comm, "allgatherv %.0f %s", "MPI_Allgatherv (sub-communicator)");
  double send = sendbuf == MPI_IN_PLACE && format ? trc_nbytes(recvcounts[trc_world_rank()], recvtype)
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
  int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
  const char *format = trc_world_only(comm, "reducescatter %s 0", "MPI_Reduce_scatter (sub-communicator)");
  char *counts = format ? trc_counts_text(recvcounts, trc_comm_size(comm), type, 0) : NULL;
  trc_call(t, "MPI_Reduce_scatter", TRC_COMM, -1, 0, counts ? format : NULL, counts);
  free(counts);
  return rc;
}

/* Equal blocks: the TI reducescatter with every count `recvcount`. */
EXPORT int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                                    MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
  const char *format = trc_world_only(comm, "reducescatter %s 0", "MPI_Reduce_scatter_block (sub-communicator)");
  int size = format ? trc_comm_size(comm) : 0;
  int *counts = format ? malloc(sizeof *counts * (size_t)size) : NULL;
  for (int i = 0; counts && i < size; i++)
    counts[i] = recvcount;
  char *text = counts ? trc_counts_text(counts, size, type, 0) : NULL;
  trc_call(t, "MPI_Reduce_scatter_block", TRC_COMM, -1, trc_nbytes(recvcount, type), text ? format : NULL, text);
  free(text);
  free(counts);
  return rc;
}

/* ---- communicators ---- */

EXPORT int MPI_Comm_size(MPI_Comm comm, int *size)
{
  double t = trc_enter();
  int rc = PMPI_Comm_size(comm, size);
  trc_call(t, "MPI_Comm_size", TRC_CTRL, -1, 0, NULL); /* a local query: TI's comm_size action means something else */
  return rc;
}

EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
  double t = trc_enter();
  int rc = PMPI_Comm_split(comm, color, key, newcomm);
  trc_call(t, "MPI_Comm_split", TRC_CTRL, -1, 0, "comm_split");
  return rc;
}

EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
  double t = trc_enter();
  int rc = PMPI_Comm_dup(comm, newcomm);
  trc_call(t, "MPI_Comm_dup", TRC_CTRL, -1, 0, "comm_dup");
  return rc;
}

/* A send-receive as MPI defines it, an isend, a receive and the wait for the send (MPI 3.1 §3.10), in TI actions that
 * SMPI replays: the receive's source, tag and size from its status. A side with MPI_PROC_NULL moves nothing and is
 * left out. */
static void sendrecv_done(double t, const char *name, int rc, double sent, int dest, int sendtag, MPI_Comm comm,
                          MPI_Status *status)
{
  int to = trc_to_world(comm, dest);
  int from = rc == MPI_SUCCESS ? trc_to_world(comm, status->MPI_SOURCE) : -1;
  int got = 0;
  if (from >= 0)
    PMPI_Get_count(status, MPI_BYTE, &got);
  int me = trc_active() ? trc_world_rank() : 0;
  if (to >= 0 && from >= 0)
    trc_call(t, name, TRC_COMM, to, sent, "isend %d %d %.0f\n%d recv %d %d %d\n%d wait %d %d %d", to, sendtag, sent, me,
             from, status->MPI_TAG, got, me, me, to, sendtag);
  else if (to >= 0)
    trc_call(t, name, TRC_COMM, to, sent, "send %d %d %.0f", to, sendtag, sent);
  else
    trc_call(t, name, TRC_COMM, from, got, from >= 0 ? "recv %d %d %d" : NULL, from, from >= 0 ? status->MPI_TAG : 0,
             got);
}

EXPORT int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                        MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter();
  int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
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
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  sendrecv_done(t, "MPI_Sendrecv_replace", rc, trc_nbytes(count, type), dest, sendtag, comm, status);
  return rc;
}

/* ---- calls the TI format cannot hold: timed in the timeline, counted, listed at MPI_Finalize ---- */

static void untraced(double t, const char *name, trc_category_t category)
{
  trc_call(t, name, category, -1, 0, NULL);
  if (trc_active())
    trc_untraced(name);
}

EXPORT int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  double t = trc_enter();
  int rc = PMPI_Probe(source, tag, comm, status);
  untraced(t, "MPI_Probe", TRC_IDLE);
  return rc;
}

EXPORT int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
  double t = trc_enter();
  int rc = PMPI_Iprobe(source, tag, comm, flag, status);
  untraced(t, "MPI_Iprobe", TRC_CTRL);
  return rc;
}

EXPORT int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
  untraced(t, "MPI_Scan", TRC_COMM);
  return rc;
}

EXPORT int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
  untraced(t, "MPI_Exscan", TRC_COMM);
  return rc;
}

EXPORT int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Ibcast(buf, count, type, root, comm, request);
  untraced(t, "MPI_Ibcast", TRC_COMM);
  return rc;
}

EXPORT int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                          MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request);
  untraced(t, "MPI_Iallreduce", TRC_COMM);
  return rc;
}

EXPORT int MPI_Start(MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Start(request);
  untraced(t, "MPI_Start", TRC_COMM);
  return rc;
}

EXPORT int MPI_Startall(int count, MPI_Request requests[])
{
  double t = trc_enter();
  int rc = PMPI_Startall(count, requests);
  untraced(t, "MPI_Startall", TRC_COMM);
  return rc;
}

EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Ibarrier(comm, request);
  untraced(t, "MPI_Ibarrier", TRC_CTRL);
  return rc;
}

EXPORT int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                       MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request);
  untraced(t, "MPI_Ireduce", TRC_COMM);
  return rc;
}

EXPORT int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  untraced(t, "MPI_Iallgather", TRC_COMM);
  return rc;
}

EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  untraced(t, "MPI_Ialltoall", TRC_COMM);
  return rc;
}
