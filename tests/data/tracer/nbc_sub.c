/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Non-blocking collectives on the world and on sub-communicators (tests/test_trc_mpi.c), on 4 ranks: each half of a
 * split by parity (members in reverse order) broadcasts from its member of rank 1 there and gathers to all with
 * MPI_Iallgather; the world reduces to rank 2 with MPI_Ireduce; one MPI_Waitall completes the four. Then rank 0 works
 * some 20 ms while the others poll an MPI_Ibarrier of the world with MPI_Test; rank 2 sends rank 0 the sum and all
 * meet in an MPI_Barrier. Rank 0 prints "nbc_sub: reduced R": the sum of the world's ranks, 6. */
#include "../../../bench/work.h"

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  int rank = 0, sum = 0, done = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  double v[2] = {rank, 1};
  int all[2] = {0, 0};
  MPI_Request reqs[4];
  MPI_Ibcast(v, 2, MPI_DOUBLE, 1, half, &reqs[0]);
  MPI_Iallgather(&rank, 1, MPI_INT, all, 1, MPI_INT, half, &reqs[1]);
  MPI_Ireduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD, &reqs[2]);
  MPI_Ibarrier(half, &reqs[3]);
  MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
  MPI_Request barrier;
  if (rank == 0)
    work(5000000); /* some 20 ms */
  MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
  while (!done)
    MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
  if (rank == 2)
    MPI_Send(&sum, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
  if (rank == 0)
    MPI_Recv(&sum, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("nbc_sub: reduced %d\n", sum);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
