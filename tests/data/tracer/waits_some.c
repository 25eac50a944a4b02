/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A wait for some of the pending requests (tests/test_trc_mpi.c), on 2 ranks: rank 0 posts receives of tags 1, 2 and
 * 3 from rank 1, waits for the first two with MPI_Waitall, works, sends rank 1 a message of tag 4 and waits for the
 * third; rank 1 sends tags 1 and 2 at once, and tag 3 only once tag 4 came. Rank 0 prints "waits_some: waits took W s,
 * work C s": the wall time of its two waits and the CPU time of its work, which bound its idle and its computation. */
#include "../../../bench/work.h"

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  int rank = 0, in[3] = {0}, out = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Request r[3];
    for (int i = 0; i < 3; i++)
      MPI_Irecv(&in[i], 1, MPI_INT, 1, i + 1, MPI_COMM_WORLD, &r[i]);
    double t0 = MPI_Wtime();
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    double waited = MPI_Wtime() - t0, c0 = cpu_seconds();
    work(10000000); /* some 40 ms */
    double worked = cpu_seconds() - c0;
    MPI_Send(&out, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_Wait(&r[2], MPI_STATUS_IGNORE);
    waited += MPI_Wtime() - t0;
    printf("waits_some: waits took %.6f s, work %.6f s\n", waited, worked);
  } else if (rank == 1) {
    MPI_Send(&out, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    MPI_Send(&out, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    MPI_Recv(&in[0], 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&out, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
