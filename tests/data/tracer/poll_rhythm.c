/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs of polls at two rhythms (tests/test_trc_mpi.c, docs/tracer.md "Runs of polls"): rank 0 posts a receive that
 * rank 1 answers only when told, then tests it POLLS times back to back (a poll every 0.1 us or less: the recorder
 * reads the clock at every few of them only), works for about 2 ms, and tests it POLLS / 10 times more after about
 * 2 us of work each (every poll's clock read). Then a run of polls that sleeps 0.6 ms (off its processor, as a test
 * that yields it on a loaded machine) soon after the recorder read the CPU clock (at the exit of an MPI_Irecv after
 * 50 us of work), and works for about 4 ms. Then it tells rank 1, which sends, and waits. Rank 0 prints "polls N"
 * (its unsuccessful tests), "work CPU SECONDS" (the 2 ms, its thread's CPU clock) and "slept work CPU SECONDS" (the
 * 4 ms). Run on 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>
#include "../../../bench/work.h"

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

/* Works for `seconds` of the thread's CPU time: the CPU seconds it took. */
static double work_for(double seconds)
{
  double start = cpu_seconds();
  while (cpu_seconds() - start < seconds)
    work(1000);
  return cpu_seconds() - start;
}

/* The slept run: the unsuccessful tests of `request`, the 4 ms of work after them into *worked. */
static long slept_polls(MPI_Request *request, double *worked)
{
  int self = 0;
  MPI_Request own;
  work_for(50e-6);
  MPI_Irecv(&self, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &own);
  long missed = polls(request, 10, 0);
  nanosleep(&(struct timespec){.tv_nsec = 600000}, NULL);
  missed += polls(request, 10, 0);
  *worked = work_for(0.004);
  MPI_Send(&self, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
  MPI_Wait(&own, MPI_STATUS_IGNORE);
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
    double worked = work_for(0.002), slept;
    missed += polls(&request, POLLS / 10, 500);
    missed += slept_polls(&request, &slept);
    MPI_Send(&go, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("polls %ld\nwork CPU %.9f\nslept work CPU %.9f\n", missed, worked, slept);
  }
  MPI_Finalize();
  return 0;
}
