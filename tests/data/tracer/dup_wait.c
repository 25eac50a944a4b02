/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Communicators and requests as the measured timeline names them (tests/test_trc_mpi.c): rank 0 sends four
 * messages of one tag on a sub-communicator (both ranks in reverse order), on its duplicate, on a duplicate of
 * MPI_COMM_WORLD and on the sub-communicator's duplicate with info; rank 1 posts their receives in another order and
 * waits on them in a third. Each communicator must have a key of its own (a duplicate's messages never match its
 * parent's) and each wait name the request it completed, the last one on a communicator freed after its receive was
 * posted. Run on 2 ranks. */
#include <mpi.h>

int main(int argc, char **argv)
{
  int rank = 0;
  int in[4] = {0};
  MPI_Comm half, twin, world, third;
  MPI_Request reqs[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &half);
  MPI_Comm_dup(half, &twin);
  MPI_Comm_dup(MPI_COMM_WORLD, &world);
  MPI_Comm_dup_with_info(half, MPI_INFO_NULL, &third);
  if (rank == 0) { /* rank 1 of half and twin */
    MPI_Send(&rank, 1, MPI_INT, 0, 5, half);
    MPI_Send(&rank, 1, MPI_INT, 0, 5, twin);
    MPI_Send(&rank, 1, MPI_INT, 1, 5, world);
    MPI_Send(&rank, 1, MPI_INT, 0, 5, third);
    MPI_Comm_free(&world);
  } else if (rank == 1) {
    MPI_Irecv(&in[0], 1, MPI_INT, 1, 5, twin, &reqs[0]);
    MPI_Irecv(&in[1], 1, MPI_INT, 1, 5, half, &reqs[1]);
    MPI_Irecv(&in[2], 1, MPI_INT, 0, 5, world, &reqs[2]);
    MPI_Irecv(&in[3], 1, MPI_INT, 1, 5, third, &reqs[3]);
    MPI_Comm_free(&world); /* freed with a receive pending on it, as MPI allows: its wait still names it */
    MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    MPI_Wait(&reqs[2], MPI_STATUS_IGNORE);
    MPI_Wait(&reqs[3], MPI_STATUS_IGNORE);
  }
  MPI_Comm_free(&third);
  MPI_Comm_free(&twin);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
