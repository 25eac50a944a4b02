/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An MPI program for tests/test_app_ti.c that calls every operation SimGrid 3.32's TI traces record (smpi_replay.cpp):
 * blocking, non-blocking and combined point-to-point messages with wait, waitall and test, and every collective, some
 * with per-rank counts, with computations between them. Compiled with smpicc, traced by smpirun -trace-ti. */
#include <mpi.h>
#include <stdlib.h>

/* A computation SMPI measures and records as a compute action. */
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
  enum { N = 4096 };
  double *a = calloc((size_t)N * size, sizeof *a);
  double *b = calloc((size_t)N * size, sizeof *b);
  int *counts = malloc((size_t)size * sizeof *counts);
  int *displs = malloc((size_t)size * sizeof *displs);
  int *to = malloc((size_t)size * sizeof *to); /* alltoallv: what this rank sends to each, and gets from each */
  int *from = malloc((size_t)size * sizeof *from);
  for (int i = 0; i < size; i++) {
    counts[i] = 100 + 50 * i;
    displs[i] = N * i;
    to[i] = 100 + 50 * rank + 10 * i;
    from[i] = 100 + 50 * i + 10 * rank;
  }
  int right = (rank + 1) % size;
  int left = (rank + size - 1) % size;
  work(100000 * (rank + 1));
  if (rank % 2 == 0) { /* blocking pairs, an eager (small) and a rendezvous (large) message */
    MPI_Send(a, 16, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
    MPI_Recv(b, N, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(b, 16, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(a, N, MPI_DOUBLE, right, 2, MPI_COMM_WORLD);
  }
  MPI_Request req[2];
  MPI_Irecv(b, N, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(a, N, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[1]);
  work(200000);
  int flag = 0;
  MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
  work(100000);
  if (!flag)
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  MPI_Wait(&req[1], MPI_STATUS_IGNORE);
  MPI_Irecv(b, 64, MPI_INT, left, 4, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(a, 64, MPI_INT, right, 4, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  MPI_Sendrecv(a, 256, MPI_DOUBLE, right, 5, b, 256, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(a, N, MPI_DOUBLE, 1 % size, MPI_COMM_WORLD);
  work(50000 * (size - rank));
  MPI_Reduce(a, b, N, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(a, b, 512, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Alltoall(a, 128, MPI_DOUBLE, b, 128, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Alltoallv(a, to, displs, MPI_DOUBLE, b, from, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Gather(a, 300, MPI_DOUBLE, b, 300, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gatherv(a, counts[rank], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Scatter(a, 300, MPI_DOUBLE, b, 300, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Scatterv(a, counts, displs, MPI_DOUBLE, b, counts[rank], MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allgather(a, 200, MPI_DOUBLE, b, 200, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Allgatherv(a, counts[rank], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  int *same = malloc((size_t)size * sizeof *same);
  for (int i = 0; i < size; i++)
    same[i] = 256;
  MPI_Reduce_scatter(a, b, same, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(a, b, 128, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(a, b, 128, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  work(100000);
  MPI_Finalize();
  free(a);
  free(b);
  free(counts);
  free(displs);
  free(to);
  free(from);
  free(same);
  return 0;
}
