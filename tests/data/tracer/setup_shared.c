/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ranks that share one core (tests/test_trc_mpi.c runs it under `taskset -c 0`) and only make communicators: DUPS
 * MPI_Comm_dup and MPI_Comm_free in turn, no computation between. After each duplicate the tracer agrees with the
 * members on its number and cost (two reductions of its own): a member spinning there while its core-mate has the
 * processor waits for the rest of a scheduler's slice, a wait of the tracer's. Prints "setup done". */
#include <mpi.h>
#include <stdio.h>

enum { DUPS = 20 };

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  for (int i = 0; i < DUPS; i++) {
    MPI_Comm copy;
    MPI_Comm_dup(MPI_COMM_WORLD, &copy);
    MPI_Comm_free(&copy);
  }
  printf("setup done\n");
  MPI_Finalize();
  return 0;
}
