/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A collective-heavy MPI program for bench/vs-smpi.sh, traced by smpirun -trace-ti: 20 iterations of a computation,
 * an allreduce, an alltoall, a broadcast, an allgather, a reduce and a barrier, as an iterative solver's step. */
#include <mpi.h>
#include <stdlib.h>

/* tests/data/ti/colls.c includes this file with fewer steps and no allgather */
#ifndef COLL_HEAVY_STEPS
#define COLL_HEAVY_STEPS 20
#endif
#ifndef COLL_HEAVY_ALLGATHER
#define COLL_HEAVY_ALLGATHER 1
#endif

static double work(int n)
{
  volatile double x = 0;
  for (int i = 0; i < n; i++)
    x += i * 0.5;
  return x;
}

int main(int argc, char **argv)
{
  int rank;
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  enum { N = 2048 };
  double *a = calloc((size_t)N * size, sizeof *a);
  double *b = calloc((size_t)N * size, sizeof *b);
  for (int step = 0; step < COLL_HEAVY_STEPS; step++) {
    work(20000 * (1 + rank % 4));
    MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Alltoall(a, 64, MPI_DOUBLE, b, 64, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Bcast(a, N, MPI_DOUBLE, step % size, MPI_COMM_WORLD);
    if (COLL_HEAVY_ALLGATHER)
      MPI_Allgather(a, 32, MPI_DOUBLE, b, 32, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Reduce(a, b, N, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  free(a);
  free(b);
  return 0;
}
