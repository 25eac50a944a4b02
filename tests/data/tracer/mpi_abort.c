/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A two-rank MPI program that dies: rank 1 calls MPI_Abort after one message and a barrier (no argument), or kills
 * itself there with SIGKILL (`kill`), or both ranks finish (`finish`), so that the tracer's files stop short or not
 * (tests/test_trc_mpi.c checks that simrun analyse refuses the folder by the rank's name, and reads it with
 * --partial up to where it stopped). */
#include <mpi.h>
#include <signal.h>
#include <string.h>

int main(int argc, char **argv)
{
  int rank;
  int x = 0;
  const char *how = argc > 1 ? argv[1] : "abort";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  else
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1 && strcmp(how, "kill") == 0)
    raise(SIGKILL);
  if (rank == 1 && strcmp(how, "abort") == 0)
    MPI_Abort(MPI_COMM_WORLD, 3);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
