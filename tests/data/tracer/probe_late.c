/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Probes that wait for a late sender (tests/test_trc_mpi.c), whose wait is known by construction: after a barrier,
 * rank 1 sleeps 0.2 s before it sends tag 7, while rank 0 probes from any source with any tag (MPI_Probe) and
 * receives what the status names; after a second barrier, rank 1 sleeps 0.1 s before it sends tag 8 on a duplicate of
 * MPI_COMM_WORLD, which rank 0 finds with MPI_Mprobe and takes with MPI_Mrecv; then rank 1 sends tag 9 at once, and
 * rank 0 polls with MPI_Iprobe until it comes and receives it. Rank 0 waits about 0.3 s in its probes for a sender
 * that comes late. Run on 2 ranks; prints "probes ok" when every message came as sent. */
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
  int rank = 0, got[3] = {0}, flag = 0;
  MPI_Comm twin;
  MPI_Status status;
  MPI_Message message;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &twin);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    int values[3] = {7, 8, 9};
    pause_for(0.2);
    MPI_Send(&values[0], 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    pause_for(0.1);
    MPI_Send(&values[1], 1, MPI_INT, 0, 8, twin);
    MPI_Send(&values[2], 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    MPI_Recv(&got[0], 1, MPI_INT, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Mprobe(1, 8, twin, &message, MPI_STATUS_IGNORE);
    MPI_Mrecv(&got[1], 1, MPI_INT, &message, MPI_STATUS_IGNORE);
    while (!flag)
      MPI_Iprobe(1, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Recv(&got[2], 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (got[0] == 7 && got[1] == 8 && got[2] == 9)
      printf("probes ok\n");
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Comm_free(&twin);
  MPI_Finalize();
  return 0;
}
