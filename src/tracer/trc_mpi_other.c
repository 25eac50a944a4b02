/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The PMPI wrappers of the MPI-3.1 communication calls that no TI action, SMPI's or simrun's, can hold: timed in the
 * timeline and named with their count at MPI_Finalize (trc_untraced_call), so that a replay's missing messages are
 * known (written from Open MPI 4.1's mpi.h prototypes), with the calls that open MPI-IO files and one-sided windows;
 * and the matched probes, which are traced. */
#include "trc_comm.h"
#include "trc_mpi_util.h"
#include "trc_request.h"

EXPORT int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                         const MPI_Datatype recvtypes[], MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(
      PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm));
  trc_untraced_call(t, "MPI_Alltoallw", TRC_COMM, "MPI_Alltoallw (a datatype per rank: no TI action)");
  return rc;
}

EXPORT int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Comm_idup(comm, newcomm, request));
  trc_untraced_call(t, "MPI_Comm_idup", TRC_CTRL, "MPI_Comm_idup (non-blocking collective: no TI action)");
  return rc;
}

/* MPI-IO and one-sided communication are not traced: their opening and window-making calls are timed and named, so
 * that a program whose reads, writes, puts and gets a replay will miss says so (mpb-mpi writes its HDF5 files through
 * MPI-IO); the other one-sided calls are counted and timed (trc_mpi_rma.c). */
#define IO "(MPI-IO: its reads and writes are not traced, their time is in the computation around them)"

EXPORT int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_File_open(comm, filename, amode, info, fh));
  trc_untraced_call(t, "MPI_File_open", TRC_CTRL, "MPI_File_open " IO);
  return rc;
}

EXPORT int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Win_create(base, size, disp_unit, info, comm, win));
  trc_untraced_call(t, "MPI_Win_create", TRC_CTRL, "MPI_Win_create " TRC_RMA_NOTE);
  return rc;
}

EXPORT int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win));
  trc_untraced_call(t, "MPI_Win_allocate", TRC_CTRL, "MPI_Win_allocate " TRC_RMA_NOTE);
  return rc;
}

EXPORT int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                   MPI_Win *win)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win));
  trc_untraced_call(t, "MPI_Win_allocate_shared", TRC_CTRL, "MPI_Win_allocate_shared " TRC_RMA_NOTE);
  return rc;
}

EXPORT int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Win_create_dynamic(info, comm, win));
  trc_untraced_call(t, "MPI_Win_create_dynamic", TRC_CTRL, "MPI_Win_create_dynamic " TRC_RMA_NOTE);
  return rc;
}

/* Dynamic processes (MPI-2's spawn, connect and accept): intercommunicators to processes outside the traced run. */
#define DYNAMIC "(dynamic processes: ranks outside the trace, no TI action)"

EXPORT int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                          MPI_Comm *intercomm, int array_of_errcodes[])
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Comm_spawn(command, argv, maxprocs, info, root, comm, intercomm, array_of_errcodes));
  trc_untraced_call(t, "MPI_Comm_spawn", TRC_CTRL, "MPI_Comm_spawn " DYNAMIC);
  return rc;
}

EXPORT int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                                   const int array_of_maxprocs[], const MPI_Info array_of_info[], int root,
                                   MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Comm_spawn_multiple(count, array_of_commands, array_of_argv, array_of_maxprocs,
                                                 array_of_info, root, comm, intercomm, array_of_errcodes));
  trc_untraced_call(t, "MPI_Comm_spawn_multiple", TRC_CTRL, "MPI_Comm_spawn_multiple " DYNAMIC);
  return rc;
}

EXPORT int MPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Comm_accept(port_name, info, root, comm, newcomm));
  trc_untraced_call(t, "MPI_Comm_accept", TRC_CTRL, "MPI_Comm_accept " DYNAMIC);
  return rc;
}

EXPORT int MPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Comm_connect(port_name, info, root, comm, newcomm));
  trc_untraced_call(t, "MPI_Comm_connect", TRC_CTRL, "MPI_Comm_connect " DYNAMIC);
  return rc;
}

EXPORT int MPI_Comm_join(int fd, MPI_Comm *intercomm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Comm_join(fd, intercomm));
  trc_untraced_call(t, "MPI_Comm_join", TRC_CTRL, "MPI_Comm_join " DYNAMIC);
  return rc;
}

EXPORT int MPI_Comm_disconnect(MPI_Comm *comm)
{
  double t = trc_enter();
  MPI_Comm before = *comm;
  int rc = trc_returned(PMPI_Comm_disconnect(comm));
  trc_comm_forget(before); /* its handle may name another communicator next */
  trc_untraced_call(t, "MPI_Comm_disconnect", TRC_CTRL, "MPI_Comm_disconnect " DYNAMIC);
  return rc;
}

EXPORT int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(
      PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request));
  trc_untraced_call(t, "MPI_Ialltoallw", TRC_COMM, "MPI_Ialltoallw (non-blocking collective: no TI action)");
  return rc;
}

EXPORT int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
  trc_untraced_call(t, "MPI_Neighbor_allgather", TRC_COMM,
                    "MPI_Neighbor_allgather (neighbourhood collective: no TI action)");
  return rc;
}

EXPORT int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc =
      trc_returned(PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
  trc_untraced_call(t, "MPI_Neighbor_allgatherv", TRC_COMM,
                    "MPI_Neighbor_allgatherv (neighbourhood collective: no TI action)");
  return rc;
}

EXPORT int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
  trc_untraced_call(t, "MPI_Neighbor_alltoall", TRC_COMM,
                    "MPI_Neighbor_alltoall (neighbourhood collective: no TI action)");
  return rc;
}

EXPORT int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                  MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc =
      PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  trc_untraced_call(t, "MPI_Neighbor_alltoallv", TRC_COMM,
                    "MPI_Neighbor_alltoallv (neighbourhood collective: no TI action)");
  return rc;
}

EXPORT int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
  double t = trc_enter();
  int rc =
      PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  trc_untraced_call(t, "MPI_Neighbor_alltoallw", TRC_COMM,
                    "MPI_Neighbor_alltoallw (neighbourhood collective: no TI action)");
  return rc;
}

EXPORT int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc =
      trc_returned(PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request));
  trc_untraced_call(t, "MPI_Ineighbor_allgather", TRC_COMM,
                    "MPI_Ineighbor_allgather (neighbourhood collective: no TI action)");
  return rc;
}

EXPORT int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Request *request)
{
  double t = trc_enter();
  int rc =
      PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
  trc_untraced_call(t, "MPI_Ineighbor_allgatherv", TRC_COMM,
                    "MPI_Ineighbor_allgatherv (neighbourhood collective: no TI action)");
  return rc;
}

EXPORT int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc =
      trc_returned(PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request));
  trc_untraced_call(t, "MPI_Ineighbor_alltoall", TRC_COMM,
                    "MPI_Ineighbor_alltoall (neighbourhood collective: no TI action)");
  return rc;
}

EXPORT int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                                 recvtype, comm, request));
  trc_untraced_call(t, "MPI_Ineighbor_alltoallv", TRC_COMM,
                    "MPI_Ineighbor_alltoallv (neighbourhood collective: no TI action)");
  return rc;
}

EXPORT int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                                 recvtypes, comm, request));
  trc_untraced_call(t, "MPI_Ineighbor_alltoallw", TRC_COMM,
                    "MPI_Ineighbor_alltoallw (neighbourhood collective: no TI action)");
  return rc;
}

/* ---- matched probes: a message probed is received as from its status, by MPI_Mrecv or MPI_Imrecv (the TI recv) ----
 */

enum { PROBED = 64 };

/* The communicator and status of each message probed and not yet received (MPI_Message does not say them). */
typedef struct probe {
  MPI_Message message;
  MPI_Comm comm;
  MPI_Status status;
} probe_t;

static probe_t probed[PROBED];
static int nprobed;

static void probed_add(MPI_Message message, MPI_Comm comm, const MPI_Status *status)
{
  if (!trc_active() || message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
    return;
  if (nprobed < PROBED)
    probed[nprobed++] = (probe_t){.message = message, .comm = comm, .status = *status};
  else
    trc_untraced("MPI_Mprobe (more than 64 messages probed at once)");
}

/* The communicator of `message` and (when `status` is not NULL) its probe's status into *status, forgotten;
 * MPI_COMM_NULL when unknown. */
static MPI_Comm probed_take(MPI_Message message, MPI_Status *status)
{
  for (int i = 0; i < nprobed; i++)
    if (probed[i].message == message) {
      MPI_Comm comm = probed[i].comm;
      if (status)
        *status = probed[i].status;
      probed[i] = probed[--nprobed];
      return comm;
    }
  return MPI_COMM_NULL;
}

/* The line and TI recv of a matched receive of `comm` (MPI_COMM_NULL: its probe unknown) as `status` gives its
 * message (rc: the call's). */
static void matched_received(double t, const char *name, trc_category_t category, int rc, MPI_Comm comm,
                             const MPI_Status *status)
{
  int got = 0;
  int peer = rc == MPI_SUCCESS && comm != MPI_COMM_NULL ? trc_to_world(comm, status->MPI_SOURCE) : -1;
  if (peer >= 0) {
    PMPI_Get_count(status, MPI_BYTE, &got);
    trc_envelope(status->MPI_TAG, trc_comm_key(comm));
  }
  trc_call(t, name, category, peer, got, peer >= 0 ? "recv %d %d %d" : NULL, peer, status->MPI_TAG, got);
}

EXPORT int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter();
  int rc = trc_returned(PMPI_Mprobe(source, tag, comm, message, status));
  trc_probed(t, "MPI_Mprobe", TRC_IDLE, comm, rc == MPI_SUCCESS ? status : NULL);
  if (rc == MPI_SUCCESS)
    probed_add(*message, comm, status);
  return rc;
}

EXPORT int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter_poll();
  int rc = PMPI_Improbe(source, tag, comm, flag, message, status);
  if (rc == MPI_SUCCESS && !*flag) {
    trc_poll(t, "MPI_Improbe");
    return rc;
  }
  trc_probed(t, "MPI_Improbe", TRC_CTRL, comm, rc == MPI_SUCCESS ? status : NULL);
  if (rc == MPI_SUCCESS)
    probed_add(*message, comm, status);
  return rc;
}

EXPORT int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  MPI_Comm comm = probed_take(*message, NULL); /* its own status gives the message */
  double t = trc_enter();
  int rc = trc_returned(PMPI_Mrecv(buf, count, type, message, status));
  matched_received(t, "MPI_Mrecv", TRC_IDLE, rc, comm, status);
  return rc;
}

/* The message its probe matched is received as MPI_Mrecv receives it, here, from the probe's status: the probe saw
 * it arrive, its sender had entered. Before, the request was pending from any source with any tag, and its wait's
 * line gave tag -1: simrun analyse paired no send with it (a helper's MPI_Improbe + MPI_Imrecv loop: 2 sends "no
 * receive took" at p = 2, the receives missing from the exports). The wait that completes the request writes
 * nothing of it. */
EXPORT int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Request *request)
{
  MPI_Status probe;
  MPI_Comm comm = probed_take(*message, &probe);
  double t = trc_enter();
  int rc = trc_returned(PMPI_Imrecv(buf, count, type, message, request));
  matched_received(t, "MPI_Imrecv", TRC_COMM, rc, comm, &probe);
  return rc;
}
