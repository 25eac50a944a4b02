/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A run of polls with work between them (tests/test_trc_mpi.c, docs/tracer.md "Runs of polls"): rank 0 posts a
 * receive and tests it after each piece of ITERATIONS multiply-adds (the argument ITERATIONS[xBURST], default 500:
 * about 2 us of work; 0: tests back to back, its clock read at one in 4096 of them only), BURST times in a row (default
 * 1: a loop that tests each of its requests, then computes), until rank 1's message comes, which rank 1 sends after
 * 50 ms of computation and once rank 0 said that it polled for 10 ms of its CPU time (on cores shared with other work,
 * rank 1 could finish before rank 0 polled 5 ms: the test's precondition failed once in a suite). Rank 0 times the loop
 * with its thread's CPU clock and prints "polled CPU SECONDS POLLS"; after MPI_Finalize, untraced, it times the pieces
 * of work the loop made, at most some WORK_TIMED seconds of them scaled to all, and prints "work CPU SECONDS". Run on
 * 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../../bench/work.h"

/* The most CPU seconds of work after MPI_Finalize: the tracer warns of 0.1 s and more there (a loop of 2-us pieces
 * that ran 150 ms beside a loaded suite had its timing of all of them so warned of, and
 * test_trc_mpi_polls_with_work_keep_their_processor_time wants no warning). */
#define WORK_TIMED 0.02

int main(int argc, char **argv)
{
  int rank = 0, value = 0;
  MPI_Init(&argc, &argv);
  char *end = NULL;
  long iterations = argc > 1 ? strtol(argv[1], &end, 10) : 500;
  long burst = end && *end == 'x' ? atol(end + 1) : 1;
  burst = burst > 0 ? burst : 1;
  long every = iterations > 0 ? burst : 4096; /* the clock read after so many tests */
  long pieces = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    double start = cpu_seconds();
    while (cpu_seconds() - start < 0.05)
      work(10000);
    MPI_Recv(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    value = 42;
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Request request;
    MPI_Irecv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
    int done = 0, told = 0;
    long polls = 0;
    double start = cpu_seconds();
    while (!done) {
      work(iterations);
      pieces++;
      for (long b = 0; b < burst && !done; b++) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        polls++;
        if (!told && polls % every == 0 && cpu_seconds() - start >= 0.01) {
          MPI_Send(&told, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
          told = 1;
        }
      }
    }
    printf("polled CPU %.9f %ld\n", cpu_seconds() - start, polls - 1);
  }
  MPI_Finalize();
  if (rank == 0) {
    double start = cpu_seconds(), used = 0;
    long timed = 0;
    while (timed < pieces && used < WORK_TIMED) {
      for (long i = 0; i < 16 && timed < pieces; i++, timed++) /* the CPU clock (a system call) read every 16 */
        work(iterations);
      used = cpu_seconds() - start;
    }
    printf("work CPU %.9f\n", timed > 0 ? used * (double)pieces / (double)timed : 0);
  }
  return value == 42 ? 0 : 1;
}
