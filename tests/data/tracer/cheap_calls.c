/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Many cheap calls with a little computation between them, for the tracer's own time (tests/test_trc_mpi.c,
 * docs/tracer.md): CALLS reductions of one int, each after a short sum, so that the recorder's time after each call is
 * a large share of the run. Run on 1 rank; prints "cheap calls done" with the right total. */
#include <mpi.h>
#include <stdio.h>

enum { CALLS = 100000, WORK = 50 };

int main(int argc, char **argv)
{
  long total = 0;
  MPI_Init(&argc, &argv);
  for (int i = 0; i < CALLS; i++) {
    volatile int sum = 0;
    for (int k = 0; k < WORK; k++)
      sum += k;
    int mine = sum, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    total += all;
  }
  if (total == (long)CALLS * (WORK * (WORK - 1) / 2))
    printf("cheap calls done\n");
  MPI_Finalize();
  return 0;
}
