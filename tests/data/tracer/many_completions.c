/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One MPI_Waitall that completes many requests, for the recorder's time after a call (tests/test_trc_mpi.c,
 * docs/tracer.md). On 1 rank: a receive from itself is posted and left pending (tag 0), then PAIRS receives from and
 * sends to itself (tags 1 to PAIRS); one MPI_Waitall completes those 2 x PAIRS, which the tracer writes as a wait each
 * (they are not every request pending), and an MPI_Barrier follows at once, with no computation between. Then POLLS
 * MPI_Testsome of the pending receive find nothing (a run of polls), and last it gets its message. Prints
 * "completions done" when every value came as sent. */
#include <mpi.h>
#include <stdio.h>

enum { PAIRS = 500, POLLS = 200000 };

int main(int argc, char **argv)
{
  static int sent[PAIRS + 1], got[PAIRS + 1];
  static MPI_Request requests[2 * PAIRS];
  MPI_Request pending;
  int ok = 1;
  MPI_Init(&argc, &argv);
  for (int i = 0; i <= PAIRS; i++)
    sent[i] = 7 * i + 1;
  MPI_Irecv(&got[0], 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &pending);
  for (int i = 1; i <= PAIRS; i++) {
    MPI_Irecv(&got[i], 1, MPI_INT, 0, i, MPI_COMM_WORLD, &requests[2 * (i - 1)]);
    MPI_Isend(&sent[i], 1, MPI_INT, 0, i, MPI_COMM_WORLD, &requests[2 * (i - 1) + 1]);
  }
  MPI_Waitall(2 * PAIRS, requests, MPI_STATUSES_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  int found = 0, index;
  for (int i = 0; i < POLLS; i++) {
    MPI_Testsome(1, &pending, &found, &index, MPI_STATUSES_IGNORE);
    ok = ok && found == 0;
  }
  MPI_Send(&sent[0], 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  MPI_Wait(&pending, MPI_STATUS_IGNORE);
  for (int i = 0; i <= PAIRS; i++)
    ok = ok && got[i] == sent[i];
  if (ok)
    printf("completions done\n");
  MPI_Finalize();
  return 0;
}
