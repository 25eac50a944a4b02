/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Persistent requests in a ring with one slow rank (tests/test_trc_mpi.c), whose waits are known by construction.
 * Each rank makes a receive from the previous rank and a send to the next (one int, tagged 10 + the sender's rank, so
 * that each message has a tag of its own) and a send to MPI_PROC_NULL (tag 6). After a barrier rank 1 sleeps 0.2 s,
 * then every rank starts the three with one MPI_Startall and waits for them with MPI_Waitall: the rank after the
 * sleeper waits for it. Then ranks 0 and 1 exchange 40 rounds the same way (tags 30 + the sender's rank and 6),
 * which the tracer folds, while rank 2 waits in the next barrier; every rank then makes an MPI_Startall of no request.
 * Last, after that second barrier, rank 1
 * sleeps 0.1 s, then every rank starts a receive from any source and a synchronous send to the next (MPI_Ssend_init,
 * tag 20 + its rank) with two MPI_Start calls and waits for each with MPI_Wait: the rank after the sleeper waits for it
 * again (about 0.3 s of late sender in all). Prints "persistent ok" on rank 0 when every value came as sent. */
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
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  int got = -1, none = 0, ok = 1;
  int other = rank < 2 ? 1 - rank : rank;
  MPI_Request ring[3], pair[3], last[2];
  MPI_Recv_init(&got, 1, MPI_INT, prev, 10 + prev, MPI_COMM_WORLD, &ring[0]);
  MPI_Send_init(&rank, 1, MPI_INT, next, 10 + rank, MPI_COMM_WORLD, &ring[1]);
  MPI_Send_init(&none, 1, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &ring[2]);
  MPI_Recv_init(&got, 1, MPI_INT, other, 30 + other, MPI_COMM_WORLD, &pair[0]);
  MPI_Send_init(&rank, 1, MPI_INT, other, 30 + rank, MPI_COMM_WORLD, &pair[1]);
  MPI_Send_init(&none, 1, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &pair[2]);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1 % size)
    pause_for(0.2);
  MPI_Startall(3, ring);
  MPI_Waitall(3, ring, MPI_STATUSES_IGNORE);
  ok = got == prev;
  for (int round = 0; round < 40 && rank < 2 && size > 1; round++) {
    got = -1;
    MPI_Startall(3, pair);
    MPI_Waitall(3, pair, MPI_STATUSES_IGNORE);
    ok = ok && got == other;
  }
  MPI_Startall(0, pair); /* no request: a rank without neighbours' halo exchange */
  got = -1;
  MPI_Recv_init(&got, 1, MPI_INT, MPI_ANY_SOURCE, 20 + prev, MPI_COMM_WORLD, &last[0]);
  MPI_Ssend_init(&rank, 1, MPI_INT, next, 20 + rank, MPI_COMM_WORLD, &last[1]);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1 % size)
    pause_for(0.1);
  MPI_Start(&last[0]);
  MPI_Start(&last[1]);
  MPI_Wait(&last[0], MPI_STATUS_IGNORE);
  MPI_Wait(&last[1], MPI_STATUS_IGNORE);
  ok = ok && got == prev;
  for (int i = 0; i < 3; i++) {
    MPI_Request_free(&ring[i]);
    MPI_Request_free(&pair[i]);
  }
  for (int i = 0; i < 2; i++)
    MPI_Request_free(&last[i]);
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0 && ok)
    printf("persistent ok\n");
  MPI_Finalize();
  return 0;
}
