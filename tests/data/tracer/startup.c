/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A run of a few milliseconds whose start-up is a large share of it, as an MPI solver's example (tests/test_trc_mpi.c,
 * docs/tracer.md "Communicator set-up"): a computation before the first MPI call, then a solver's set-up of its
 * communicators (ROUNDS of MPI_Comm_dup, MPI_Comm_split and both freed, some 20-40 us each under Open MPI 4.1), a
 * computation and one MPI_Allreduce of its result. Prints "startup done" with the right sum. With `late`, each process
 * first sleeps LATE microseconds before MPI_Init, as a program's start-up (a Python program's imports) does. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { ROUNDS = 40, BEFORE = 150000, WORK = 400000, LATE = 300000 };

/* `n` dependent multiply-adds: some 4 ns each (a volatile store). */
static double compute(long n)
{
  volatile double x = 1;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-6;
  return x;
}

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "late") == 0)
    usleep(LATE);
  MPI_Init(&argc, &argv);
  double x = compute(BEFORE);
  int rank = 0;
  for (int i = 0; i < ROUNDS; i++) {
    MPI_Comm dup, split;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_rank(dup, &rank);
    MPI_Comm_split(dup, rank % 2, rank, &split);
    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);
  }
  x += compute(WORK);
  int size = 0, mine = x > 0, all = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (all == size && rank == 0)
    printf("startup done\n");
  MPI_Finalize();
  return 0;
}
