/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Receives posted from any source (tests/test_trc_mpi.c), as master-worker programs post them: rank 0 completes them
 * with MPI_Waitany, MPI_Waitall (statuses ignored), MPI_Testall (ignored), MPI_Waitsome (ignored), MPI_Testsome
 * (statuses given; before each test, a message rank 1 sends after the one tested, so that it is there by the time
 * of the test in any reading of the clocks) and MPI_Wait, then one from rank 1 with any tag, and the TI trace must hold
 * each as the receive from the sender, tag and size its status names. Each of them gets fewer bytes than its buffer
 * holds, which the timeline line of the call that completed it must give, not the buffer's size. Found by the held-out
 * check of docs/tracer.md: the tracer dropped such receives and the waits that completed them. Run on 2 ranks. */
#include <mpi.h>

int main(int argc, char **argv)
{
  int rank = 0;
  int ints[4] = {0};
  double reals[3] = {0};
  MPI_Request reqs[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int index = 0;
    int done = 0;
    int indices[1];
    MPI_Status statuses[1];
    MPI_Irecv(ints, 4, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &reqs[0]);
    MPI_Waitany(1, reqs, &index, MPI_STATUS_IGNORE);
    MPI_Irecv(reals, 3, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(ints, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    MPI_Irecv(reals, 3, MPI_DOUBLE, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv(&index, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* sent after: the test finds it there */
    while (!done)
      MPI_Testall(1, reqs, &done, MPI_STATUSES_IGNORE);
    MPI_Irecv(ints, 4, MPI_INT, MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, &reqs[0]);
    MPI_Waitsome(1, reqs, &done, indices, MPI_STATUSES_IGNORE);
    MPI_Irecv(ints, 4, MPI_INT, MPI_ANY_SOURCE, 13, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv(&index, 1, MPI_INT, 1, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (done = 0; !done;)
      MPI_Testsome(1, reqs, &done, indices, statuses);
    MPI_Irecv(ints, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[0]);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    MPI_Irecv(ints, 4, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[0]);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Send(ints, 2, MPI_INT, 0, 5, MPI_COMM_WORLD); /* 8 bytes into rank 0's 16 */
    MPI_Recv(ints, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(reals, 2, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD); /* 16 into 24 */
    MPI_Send(reals, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD); /* 8 into 24 */
    MPI_Send(ints, 1, MPI_INT, 0, 99, MPI_COMM_WORLD);
    MPI_Send(ints, 3, MPI_INT, 0, 12, MPI_COMM_WORLD); /* 12 into 16 */
    MPI_Send(ints, 1, MPI_INT, 0, 13, MPI_COMM_WORLD); /* 4 into 16 */
    MPI_Send(ints, 1, MPI_INT, 0, 98, MPI_COMM_WORLD);
    MPI_Send(ints, 1, MPI_INT, 0, 10, MPI_COMM_WORLD); /* 4 into 16 */
    MPI_Send(ints, 2, MPI_INT, 0, 11, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
