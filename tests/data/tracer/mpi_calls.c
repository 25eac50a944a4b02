/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A two-rank MPI program for the tracer's tests (tests/test_trc_mpi.c): one call of each kind whose TI action the
 * test knows by hand (a matched probe among them), then calls the TI format cannot hold, which the tracer must count,
 * and a send to no one. */
#include "simrun_phase.h"

#include <mpi.h>

int main(int argc, char **argv)
{
  int buf[100] = {0};
  double x[10] = {0};
  double y[10];
  int rank;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  simrun_phase_begin("exchange");
  if (rank == 0) {
    MPI_Isend(buf, 100, MPI_INT, 1, 7, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else {
    MPI_Irecv(buf, 100, MPI_INT, 0, 7, MPI_COMM_WORLD, &request);
    MPI_Waitall(1, &request, MPI_STATUSES_IGNORE);
  }
  simrun_phase_end();
  MPI_Bcast(x, 10, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  MPI_Allreduce(x, y, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm dup;
  MPI_Comm alone;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Barrier(dup);
  MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &alone);
  MPI_Bcast(x, 10, MPI_DOUBLE, 0, alone);
  MPI_Sendrecv(x, 1, MPI_DOUBLE, 1 - rank, 3, y, 1, MPI_DOUBLE, 1 - rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 0) {
    MPI_Send(buf, 1, MPI_INT, 1, 12, MPI_COMM_WORLD);
  } else {
    MPI_Message message;
    MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &message, MPI_STATUS_IGNORE);
    MPI_Mrecv(buf, 100, MPI_INT, &message, MPI_STATUS_IGNORE); /* written as the receive its status names */
  }
  MPI_Comm ring;
  int dims[1] = {2};
  int periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Neighbor_allgather(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, ring); /* no TI action: counted */
  MPI_Comm_free(&ring);
  int flag;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  MPI_Send(x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD); /* no message: timed, not in the TI trace */
  MPI_Reduce_scatter_block(x, y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  MPI_Request_get_status(request, &flag, MPI_STATUS_IGNORE); /* a poll, or a test that completes nothing */
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Comm twin;
  MPI_Comm_idup(MPI_COMM_WORLD, &twin, &request); /* non-blocking collective: counted */
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Comm_free(&twin);
  MPI_Comm_free(&alone);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
