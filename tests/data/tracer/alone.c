/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A program whose collectives run on communicators of one member (tests/test_trc_mpi.c): each rank splits the world by
 * its rank, as FreeFem++ does at p = 2, and makes an MPI_Allreduce and an MPI_Barrier alone, then an MPI_Allreduce on
 * the world. Rank 0 prints "alone: sum S" (S = 1 + ... + p). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  int rank = 0, mine = 0, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm self;
  MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &self);
  int one = rank + 1;
  MPI_Allreduce(&one, &mine, 1, MPI_INT, MPI_SUM, self);
  MPI_Barrier(self);
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_free(&self);
  if (rank == 0)
    printf("alone: sum %d\n", sum);
  MPI_Finalize();
  return 0;
}
