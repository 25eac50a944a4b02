/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A ring of send-receives with one slow rank (tests/test_trc_mpi.c), whose partners' waits are known by construction:
 * after a barrier, rank 1 sleeps 0.2 s, then every rank passes its rank to the next with MPI_Sendrecv (tag 7); after a
 * second barrier, rank 0 sleeps 0.1 s, then every rank passes it back to the previous one with MPI_Sendrecv_replace
 * (tag 8). The rank that receives from the sleeper waits for it each time (rank 2 both times on 3 ranks: about
 * 0.3 s of late sender). The messages are small (one int): the first sleeper's sender does not wait, but Open MPI's
 * MPI_Sendrecv_replace waited for the second sleeper to receive (0.1 s of late receiver on rank 1 in one run). Last,
 * a chain (tag 9): each rank sends to the next and receives from the previous, the ends' other halves MPI_PROC_NULL.
 * Then ranks 0 and 1 exchange 40 times, rank 1 sending tags 10 and 11 in turn, rank 0 always tag 10 and receiving
 * any tag: rank 0's calls differ only in the tag they received, which folding must keep. Prints "sendrecv ok" on
 * rank 0 when every value and tag came as sent. */
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
  int rank = 0, size = 1, got = -1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1 % size)
    pause_for(0.2);
  MPI_Sendrecv(&rank, 1, MPI_INT, next, 7, &got, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int ok = got == prev;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    pause_for(0.1);
  int value = rank;
  MPI_Sendrecv_replace(&value, 1, MPI_INT, prev, 8, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  ok = ok && value == next;
  got = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, rank + 1 < size ? rank + 1 : MPI_PROC_NULL, 9, &got, 1, MPI_INT,
               rank > 0 ? rank - 1 : MPI_PROC_NULL, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  ok = ok && got == (rank > 0 ? rank - 1 : -1);
  for (int i = 0; i < 40 && rank < 2 && size > 1; i++) {
    MPI_Status status;
    MPI_Sendrecv(&rank, 1, MPI_INT, 1 - rank, rank == 1 ? 10 + i % 2 : 10, &got, 1, MPI_INT, 1 - rank, MPI_ANY_TAG,
                 MPI_COMM_WORLD, &status);
    ok = ok && got == 1 - rank && status.MPI_TAG == (rank == 0 ? 10 + i % 2 : 10);
  }
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0 && ok)
    printf("sendrecv ok\n");
  MPI_Finalize();
  return 0;
}
