/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Waits that complete a non-blocking collective or no request the timeline holds (tests/test_trc_mpi.c), on 2 ranks:
 * rank 0 posts a receive of tag 1 from rank 1, then waits for a non-blocking MPI_Iallreduce with MPI_Wait and calls
 * MPI_Waitany on two null requests (none active), works, sends rank 1 a message of tag 4 and waits for its receive;
 * rank 1 sends tag 1 only once tag 4 came. Rank 0 prints "nbc_wait: waits took W s, work C s": the wall time of its
 * three waits and the CPU time of its work, which bound its idle and its computation. */
#include "../../../bench/work.h"

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  int rank = 0, in = 0, out = 1, sum = 0, index = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Request reduced, received, none[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  if (rank == 0)
    MPI_Irecv(&in, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &received);
  MPI_Iallreduce(&out, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reduced);
  double t0 = MPI_Wtime();
  MPI_Wait(&reduced, MPI_STATUS_IGNORE);
  double waited = MPI_Wtime() - t0;
  if (rank == 0) {
    t0 = MPI_Wtime();
    MPI_Waitany(2, none, &index, MPI_STATUS_IGNORE);
    double c0 = cpu_seconds();
    waited += MPI_Wtime() - t0;
    work(10000000); /* some 40 ms */
    double worked = cpu_seconds() - c0;
    MPI_Send(&out, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_Wait(&received, MPI_STATUS_IGNORE);
    waited += MPI_Wtime() - t0;
    printf("nbc_wait: waits took %.6f s, work %.6f s\n", waited, worked);
  } else if (rank == 1) {
    MPI_Recv(&in, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&out, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
