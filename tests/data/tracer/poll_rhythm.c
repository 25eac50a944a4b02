/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs of polls at two rhythms (tests/test_trc_mpi.c, docs/tracer.md "Runs of polls"): rank 0 posts a receive that
 * rank 1 answers only when told, then tests it POLLS times back to back (a poll every 0.1 us or less: the recorder
 * reads the clock at every few of them only), works for about 2 ms, and tests it POLLS / 10 times more after about
 * 2 us of work each (every poll's clock read). Then it tells rank 1, which sends, and waits. Rank 0 prints "polls N"
 * (its unsuccessful tests) and "work CPU SECONDS" (the 2 ms, its thread's CPU clock). Run on 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include "fixture_work.h"

enum { POLLS = 200000 };

/* `n` tests of `request`, after `iterations` of work each; the unsuccessful ones. */
static long polls(MPI_Request *request, long n, long iterations)
{
  long missed = 0;
  for (long i = 0; i < n; i++) {
    int done = 0;
    work(iterations);
    MPI_Test(request, &done, MPI_STATUS_IGNORE);
    missed += !done;
  }
  return missed;
}

int main(int argc, char **argv)
{
  int rank = 0, value = 0, go = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    value = 42;
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Request request;
    MPI_Irecv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
    long missed = polls(&request, POLLS, 0);
    double start = cpu_seconds();
    while (cpu_seconds() - start < 0.002)
      work(1000);
    double worked = cpu_seconds() - start;
    missed += polls(&request, POLLS / 10, 500);
    MPI_Send(&go, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("polls %ld\nwork CPU %.9f\n", missed, worked);
  }
  MPI_Finalize();
  return 0;
}
