/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A wait by polling many requests (tests/test_trc_mpi.c, docs/tracer.md "Runs of polls"), poll_many.f90's in C: rank
 * 0 posts N receives (the argument, default 4096) and tests them with MPI_Testsome back to back, no work between, until
 * all came; rank 1 sends them after 50 ms of CPU time of its own. Rank 0 times its loop with its thread's CPU clock and
 * prints "polled CPU SECONDS TESTS". The wrapper copies the N request handles before each test (the requests it
 * completes are known by them): work of the test's, not of the program between its tests. Run on 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../../bench/work.h"

int main(int argc, char **argv)
{
  int rank = 0;
  MPI_Init(&argc, &argv);
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  n = n > 0 ? n : 1;
  int *values = calloc((size_t)n, sizeof *values), *indices = calloc((size_t)n, sizeof *indices);
  MPI_Request *requests = calloc((size_t)n, sizeof *requests);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (!values || !indices || !requests)
    MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 0) {
    for (int i = 0; i < n; i++)
      MPI_Irecv(&values[i], 1, MPI_INT, 1, i, MPI_COMM_WORLD, &requests[i]);
    long tests = 0;
    double start = cpu_seconds();
    for (int left = n, out = 0; left > 0; tests++) {
      MPI_Testsome(n, requests, &out, indices, MPI_STATUSES_IGNORE);
      left -= out == MPI_UNDEFINED ? 0 : out;
    }
    printf("polled CPU %.6f %ld\n", cpu_seconds() - start, tests);
  } else if (rank == 1) {
    double start = cpu_seconds();
    while (cpu_seconds() - start < 0.05)
      work(10000);
    for (int i = 0; i < n; i++)
      MPI_Send(&values[i], 1, MPI_INT, 0, i, MPI_COMM_WORLD);
  }
  free(values);
  free(indices);
  free(requests);
  MPI_Finalize();
  return 0;
}
