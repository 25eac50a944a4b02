/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A run of polls inside which MPI works (tests/test_trc_mpi.c, docs/tracer.md "Runs of polls"): rank 0 posts 400
 * receives of 64 KiB from rank 1 and one more of an int, then tests that last one back to back until it comes, while
 * rank 1 sends the 400 (Open MPI copies them in during rank 0's tests, some microseconds each), computes 20 ms and
 * sends the int. Rank 0 times its loop with its thread's CPU clock and prints "polled CPU SECONDS POLLS". Run on 2
 * ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../../bench/work.h"

enum { MESSAGES = 400, SIZE = 65536 };

int main(int argc, char **argv)
{
  int rank = 0, value = 0, done = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char *buffer = calloc(MESSAGES, SIZE);
  if (!buffer)
    MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 0) {
    MPI_Request received[MESSAGES], last;
    for (int i = 0; i < MESSAGES; i++)
      MPI_Irecv(buffer + (size_t)i * SIZE, SIZE, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &received[i]);
    MPI_Irecv(&value, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &last);
    MPI_Barrier(MPI_COMM_WORLD);
    long polls = 0;
    double start = cpu_seconds();
    while (!done) {
      MPI_Test(&last, &done, MPI_STATUS_IGNORE);
      polls++;
    }
    printf("polled CPU %.9f %ld\n", cpu_seconds() - start, polls);
    MPI_Waitall(MESSAGES, received, MPI_STATUSES_IGNORE);
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < MESSAGES; i++)
      MPI_Send(buffer + (size_t)i * SIZE, SIZE, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    double start = cpu_seconds();
    while (cpu_seconds() - start < 0.02)
      work(10000);
    value = 42;
    MPI_Send(&value, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
  free(buffer);
  MPI_Finalize();
  return rank == 0 && value != 42;
}
