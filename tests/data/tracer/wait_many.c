/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A wait for many requests (tests/test_trc_mpi.c): ROUNDS rounds (the second argument, default 50) of N/2 receives
 * from the rank itself and N/2 sends to it, all of tag 0 (N the first argument, default 4096), then one MPI_Waitall
 * over the N, with no work between. The wrapper copies and looks up the N requests before the wait: the wait's time,
 * not the computation before it. Run on 1 rank. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int n = argc > 1 ? atoi(argv[1]) : 4096, rounds = argc > 2 ? atoi(argv[2]) : 50;
  n = n > 1 ? n : 2;
  int *values = calloc((size_t)n, sizeof *values);
  MPI_Request *requests = calloc((size_t)n, sizeof *requests);
  if (!values || !requests)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; k < rounds; k++) {
    for (int i = 0; i < n / 2; i++)
      MPI_Irecv(&values[i], 1, MPI_INT, 0, 0, MPI_COMM_SELF, &requests[i]);
    for (int i = 0; i < n / 2; i++)
      MPI_Isend(&values[n / 2 + i], 1, MPI_INT, 0, 0, MPI_COMM_SELF, &requests[n / 2 + i]);
    MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
  }
  free(values);
  free(requests);
  MPI_Finalize();
  return 0;
}
