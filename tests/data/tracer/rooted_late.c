/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rooted collectives whose waits are known by construction (tests/test_trc_mpi.c): after a barrier, the root (rank 0)
 * sleeps 0.2 s before an MPI_Bcast on a duplicate of MPI_COMM_WORLD (congruent with it), which rank 1 entered at once;
 * after a second barrier, rank 1 sleeps 0.1 s before an MPI_Reduce to rank 0, which rank 0 entered at once; then each
 * rank broadcasts on a communicator of its own (MPI_Comm_split), whose line names it; after a third barrier, rank 0
 * sleeps 0.1 s before an MPI_Scan, which rank 1 entered at once. Rank 1 waits about 0.2 s for its root, rank 0 about
 * 0.1 s for the first value to reduce, rank 1 about 0.1 s for rank 0's part of the scan; after a fourth, rank 0 sleeps
 * 0.1 s before an MPI_Iscan, which rank 1 initiated at once and waits for with MPI_Wait, about 0.1 s. Run on 2 ranks;
 * prints "rooted ok" when the values came. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static void pause_for(double seconds)
{
  struct timespec t = {.tv_sec = 0, .tv_nsec = (long)(seconds * 1e9)};
  nanosleep(&t, NULL);
}

int main(int argc, char **argv)
{
  int rank = 0, value = 0, sum = 0, mine = 0, prefix = 0, later = 0;
  MPI_Comm twin, alone;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &twin);
  MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &alone);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    pause_for(0.2);
    value = 42;
  }
  MPI_Bcast(&value, 1, MPI_INT, 0, twin);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    pause_for(0.1);
  MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  mine = rank + 1;
  MPI_Bcast(&mine, 1, MPI_INT, 0, alone);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    pause_for(0.1);
  MPI_Scan(&mine, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    pause_for(0.1);
  MPI_Request scan;
  MPI_Iscan(&mine, &later, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &scan);
  MPI_Wait(&scan, MPI_STATUS_IGNORE);
  if (rank == 0 && value == 42 && sum == 84 && mine == 1 && prefix == 1 && later == 1)
    printf("rooted ok\n");
  MPI_Comm_free(&alone);
  MPI_Comm_free(&twin);
  MPI_Finalize();
  return 0;
}
