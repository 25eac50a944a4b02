/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A rank whose tracer time is large, for causality once it is removed (tests/test_trc_mpi.c, docs/tracer.md): rank 0
 * makes CALLS cheap traced calls (send-receives with MPI_PROC_NULL, which move nothing: the tracer's own time after
 * each), then sends "go" (tag 1) to rank 1 and receives its answer (tag 2); rank 1 receives "go" and answers at once.
 * With each rank's own time removed alone, rank 0's receive would end before rank 1's answer entered its send. Both
 * ranks pass a barrier first, so that rank 1 waits for "go" through rank 0's calls even when it started late (a
 * loaded machine held it 5 ms before its first call once, and it never waited), and rank 0 computes for 20 ms of its
 * CPU time before its calls, so that rank 1 waits even when it loses its processor after the barrier (beside 8 busy
 * loops on 2 cores, for 10-25 ms of wall time, while rank 0's calls took 4-16 ms without the tracer's time). Run on 2
 * ranks; prints "own time pair ok". */
#include <mpi.h>
#include <stdio.h>
#include "../../../bench/work.h"

enum { CALLS = 20000 };

int main(int argc, char **argv)
{
  int rank = 0, value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    double start = cpu_seconds();
    while (cpu_seconds() - start < 0.02)
      work(1000);
    for (int i = 0; i < CALLS; i++)
      MPI_Sendrecv(&i, 1, MPI_INT, MPI_PROC_NULL, 0, &value, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    value = 41;
    MPI_Send(&value, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Recv(&value, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (value == 42)
      printf("own time pair ok\n");
  } else if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    value++;
    MPI_Send(&value, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
