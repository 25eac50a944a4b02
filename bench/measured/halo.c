/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A 1-D halo exchange (MPI_Irecv, MPI_Send, MPI_Waitall) with a reduction per step: bench/measured.sh's halo-exchange
 * program. Each rank updates N / p cells per step; rank 0 prints the time from the end of MPI_Init to a barrier before
 * MPI_Finalize (span.h), the span a replay of the trace predicts (set-up and frees included: 13% of it at p = 1). */
#include "span.h"

#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  span_t span = span_start();
  long n = (argc > 1 ? atol(argv[1]) : 4000000) / p;
  int steps = argc > 2 ? atoi(argv[2]) : 40;
  double *u = calloc((size_t)n + 2, sizeof *u), *v = calloc((size_t)n + 2, sizeof *v);
  for (long i = 1; i <= n; i++)
    u[i] = (double)(rank * n + i);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int s = 0; s < steps; s++) {
    MPI_Request rq[2];
    int k = 0;
    if (rank > 0)
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, &rq[k++]);
    if (rank < p - 1)
      MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD, &rq[k++]);
    if (rank > 0)
      MPI_Send(&u[1], 1, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD);
    if (rank < p - 1)
      MPI_Send(&u[n], 1, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD);
    MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
    double local = 0, global;
    for (long i = 1; i <= n; i++) {
      v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
      local += v[i] * v[i];
    }
    double *t = u;
    u = v;
    v = t;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  free(u);
  free(v);
  span_print(span, rank);
  MPI_Finalize();
  return 0;
}
