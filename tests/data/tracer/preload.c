/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a rank's child process inherits of LD_PRELOAD (tests/test_trc_mpi.c, docs/tracer-extras.md "Child
 * processes"): after MPI_Init, rank 0 runs a shell through system() that prints "child LD_PRELOAD=[VALUE]", or
 * "[unset]" when the variable is not set. Run on 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  if (rank == 0) {
    fflush(stdout);
    status = system("printf 'child LD_PRELOAD=[%s]\\n' \"${LD_PRELOAD-unset}\"");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return status == 0 ? 0 : 1;
}
