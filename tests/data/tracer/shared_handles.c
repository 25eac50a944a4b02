/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sends in flight that share one request handle (tests/test_trc_mpi.c), as Ray's message loop has them: ROUNDS rounds
 * (the argument, default 1000) in which rank 0 posts SLOTS MPI_Isend of 8 bytes to rank 1, tag the slot's number, each
 * into a slot of its own, then, in even rounds, tests the slots in another order than it posted them (slot 7k mod
 * SLOTS) until every one is complete, in odd ones completes the younger half by MPI_Testsome, then the older; rank 1
 * receives each message with MPI_Recv. Open MPI 4.1 completes such small sends at once and gives each the one handle
 * of its completed request: rank 0 prints "shared_handles: H of P postings shared a handle" (a handle equal to one
 * still pending in another slot). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { SLOTS = 32 };

/* Completes the younger half of the slots by MPI_Testsome, then the older half likewise. */
static void complete_by_halves(MPI_Request *slot)
{
  for (int half = 1; half >= 0; half--) {
    int left = SLOTS / 2, done = 0, index[SLOTS / 2];
    while (left > 0 && done != MPI_UNDEFINED) {
      MPI_Testsome(SLOTS / 2, slot + half * SLOTS / 2, &done, index, MPI_STATUSES_IGNORE);
      left -= done != MPI_UNDEFINED ? done : 0;
    }
  }
}

/* Tests the slots in the order 7k mod SLOTS, again until each is complete. */
static void complete_out_of_order(MPI_Request *slot)
{
  int left = SLOTS;
  while (left > 0)
    for (int k = 0; k < SLOTS; k++) {
      int i = (7 * k) % SLOTS, done = 0;
      if (slot[i] == MPI_REQUEST_NULL)
        continue;
      MPI_Test(&slot[i], &done, MPI_STATUS_IGNORE);
      left -= done;
    }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, rounds = argc > 1 ? atoi(argv[1]) : 1000;
  long shared = 0;
  double values[SLOTS] = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int r = 0; r < rounds; r++) {
    MPI_Request slot[SLOTS];
    for (int i = 0; i < SLOTS; i++) {
      if (rank == 1) {
        MPI_Recv(&values[i], 1, MPI_DOUBLE, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        continue;
      }
      MPI_Isend(&values[i], 1, MPI_DOUBLE, 1, i, MPI_COMM_WORLD, &slot[i]);
      for (int j = 0; j < i; j++)
        if (slot[j] == slot[i]) {
          shared++;
          break;
        }
    }
    if (rank == 0 && r % 2 == 0)
      complete_out_of_order(slot);
    else if (rank == 0)
      complete_by_halves(slot);
  }
  if (rank == 0)
    printf("shared_handles: %ld of %d postings shared a handle\n", shared, rounds * SLOTS);
  MPI_Finalize();
  return 0;
}
