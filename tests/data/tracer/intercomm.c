/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A two-rank MPI program for the tracer's tests (tests/test_trc_mpi.c): point-to-point messages over an
 * intercommunicator, whose partner ranks are those of the remote group, as mpi4py.futures' manager and workers talk.
 * World rank 0 is the manager, alone in its group; rank 1 the worker, alone in the other. The manager sends 3 ints
 * (tag 4) with MPI_Issend, the worker answers 2 (tag 5); rank 0 prints "intercomm: got 7 8". */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm mine;
  MPI_Comm inter;
  MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &mine);
  MPI_Intercomm_create(mine, 0, MPI_COMM_WORLD, 1 - rank, 99, &inter);
  int job[3] = {7, 8, 9};
  int answer[2] = {0, 0};
  if (rank == 0) {
    MPI_Request request;
    MPI_Issend(job, 3, MPI_INT, 0, 4, inter, &request); /* rank 0 of the remote group: world rank 1 */
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Recv(answer, 2, MPI_INT, 0, 5, inter, MPI_STATUS_IGNORE);
    printf("intercomm: got %d %d\n", answer[0], answer[1]);
  } else {
    MPI_Recv(job, 3, MPI_INT, MPI_ANY_SOURCE, 4, inter, MPI_STATUS_IGNORE);
    MPI_Send(job, 2, MPI_INT, 0, 5, inter);
  }
  MPI_Comm_free(&inter);
  MPI_Comm_free(&mine);
  MPI_Finalize();
  return 0;
}
