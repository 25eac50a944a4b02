/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A collective-heavy loop (MPI_Bcast of a vector, a local product, MPI_Allreduce, MPI_Allgather): bench/measured.sh's
 * collective program. Rank 0 prints the time between two barriers (span.h). */
#include "span.h"

#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  int steps = argc > 2 ? atoi(argv[2]) : 200;
  double *x = calloc((size_t)n, sizeof *x), *y = calloc((size_t)n, sizeof *y), *all = calloc((size_t)p, sizeof *all);
  MPI_Barrier(MPI_COMM_WORLD);
  span_t span = span_start();
  for (int s = 0; s < steps; s++) {
    if (rank == 0)
      for (int i = 0; i < n; i++)
        x[i] = (double)(i + s);
    MPI_Bcast(x, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double local = 0, sum;
    for (int r = 0; r < 200 / p; r++)
      for (int i = rank; i < n; i++)
        local += x[i] * x[(i + r) % n];
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allgather(&local, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    y[s % n] = sum;
  }
  span_print(span, rank);
  free(x);
  free(y);
  free(all);
  MPI_Finalize();
  return 0;
}
