/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A small MPI program for tests/test_sim_ti.c, compiled with smpicc and traced by smpirun -trace-ti: a token of 128
 * doubles around a ring of the ranks, a broadcast of one int from rank 0, and a barrier. */
#include <mpi.h>

int main(int argc, char **argv)
{
  int rank;
  int size;
  int token = 0;
  double buf[128] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    MPI_Send(buf, 128, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(buf, 128, MPI_DOUBLE, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(buf, 128, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 128, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD);
  }
  MPI_Bcast(&token, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
