/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A program that does its work after MPI_Finalize (as yorick-mpy does at p = 1), for the tracer's warning at exit
 * (tests/test_trc_mpi.c): each rank computes AFTER seconds of its CPU time after MPI_Finalize, BEFORE before it, and
 * prints "after done". With the argument "before", the work is all before MPI_Finalize: no warning. With "uneven",
 * rank 0 computes AFTER seconds after the barrier, before MPI_Finalize, which rank 1 enters at once and waits in for
 * rank 0 (Open MPI's ranks spin there): no warning either, that wait is no work of the program. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "../../../bench/work.h"

#define AFTER  0.3
#define BEFORE 0.02

/* `seconds` of the thread's CPU time in pieces of work. */
static void compute(double seconds)
{
  double start = cpu_seconds();
  while (cpu_seconds() - start < seconds)
    work(100000);
}

int main(int argc, char **argv)
{
  int all_before = argc > 1 && strcmp(argv[1], "before") == 0, uneven = argc > 1 && strcmp(argv[1], "uneven") == 0;
  int rank = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  compute(all_before ? AFTER + BEFORE : BEFORE);
  MPI_Barrier(MPI_COMM_WORLD);
  if (uneven && rank == 0)
    compute(AFTER);
  MPI_Finalize();
  if (!all_before && !uneven)
    compute(AFTER);
  printf("after done\n");
  return 0;
}
