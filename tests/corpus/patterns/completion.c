/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Request completion as the MPI standard defines it (section 3.7), run on 4 ranks: waits and tests over null requests
 * (MPI_Waitany gives MPI_UNDEFINED, MPI_Testall and MPI_Testany succeed at once), MPI_Waitany over a mix of null and
 * active requests, MPI_Request_free of an active send, whose message is delivered all the same, and persistent
 * requests started three times around a ring. Prints "completion: No errors" when every check held. */
#include "check.h"

#include <mpi.h>

enum { N = 4, FREED_TAG = 20, MIXED_TAG = 30, RING_TAG = 40, ROUNDS = 3 };

/* Every rank: requests that are all null complete at once, with no index. */
static void null_requests(int *errors)
{
  MPI_Request reqs[N] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int index = 0;
  int flag = 0;
  MPI_Waitany(N, reqs, &index, MPI_STATUS_IGNORE);
  CHECK(errors, index == MPI_UNDEFINED, "waitany over null requests gave index %d", index);
  MPI_Testall(N, reqs, &flag, MPI_STATUSES_IGNORE);
  CHECK(errors, flag, "testall over null requests did not succeed");
  flag = 0;
  MPI_Testany(N, reqs, &index, &flag, MPI_STATUS_IGNORE);
  CHECK(errors, flag && index == MPI_UNDEFINED, "testany over null requests: flag %d, index %d", flag, index);
  MPI_Waitall(N, reqs, MPI_STATUSES_IGNORE);
}

/* Rank 0 receives 31 from rank 1 and 32 from rank 2 into slots 1 and 3 of four, the others null: two MPI_Waitany
 * give slots 1 and 3 in some order, each then null, and a third gives MPI_UNDEFINED. Then the same with
 * MPI_Testall, polled, over one null slot and a receive of 33 from rank 3. */
static void mixed_requests(int rank, int *errors)
{
  int in[N] = {-1, -1, -1, -1};
  if (rank == 0) {
    MPI_Request reqs[N] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Irecv(&in[1], 1, MPI_INT, 1, MIXED_TAG, MPI_COMM_WORLD, &reqs[1]);
    MPI_Irecv(&in[3], 1, MPI_INT, 2, MIXED_TAG, MPI_COMM_WORLD, &reqs[3]);
    int seen = 0;
    for (int k = 0; k < 3; k++) {
      int index = -1;
      MPI_Waitany(N, reqs, &index, MPI_STATUS_IGNORE);
      if (k < 2 && (index == 1 || index == 3) && reqs[index] == MPI_REQUEST_NULL)
        seen |= 1 << index;
      else
        CHECK(errors, k == 2 && index == MPI_UNDEFINED, "waitany %d over a mix gave index %d", k, index);
    }
    CHECK(errors, seen == (1 << 1 | 1 << 3) && in[1] == 31 && in[3] == 32, "waitany over a mix: got %d and %d", in[1],
          in[3]);
    MPI_Irecv(&in[2], 1, MPI_INT, 3, MIXED_TAG, MPI_COMM_WORLD, &reqs[2]);
    for (int flag = 0; !flag;)
      MPI_Testall(N, reqs, &flag, MPI_STATUSES_IGNORE);
    CHECK(errors, in[2] == 33 && reqs[2] == MPI_REQUEST_NULL, "testall over a mix: got %d", in[2]);
  } else {
    int out = 30 + rank;
    MPI_Send(&out, 1, MPI_INT, 0, MIXED_TAG, MPI_COMM_WORLD);
  }
}

/* Ranks 1-3 each start a send of 5 x rank to rank 0 and free its request at once; rank 0 receives the three, then
 * tells each that its buffer may be used again. */
static void freed_sends(int rank, int *errors)
{
  int value = 5 * rank;
  if (rank == 0) {
    for (int s = 1; s < N; s++) {
      MPI_Recv(&value, 1, MPI_INT, s, FREED_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(errors, value == 5 * s, "freed send: got %d from rank %d, not %d", value, s, 5 * s);
    }
    for (int s = 1; s < N; s++)
      MPI_Send(&value, 0, MPI_INT, s, FREED_TAG, MPI_COMM_WORLD);
  } else {
    MPI_Request req;
    MPI_Isend(&value, 1, MPI_INT, 0, FREED_TAG, MPI_COMM_WORLD, &req);
    MPI_Request_free(&req);
    CHECK(errors, req == MPI_REQUEST_NULL, "request_free left the request");
    MPI_Recv(NULL, 0, MPI_INT, 0, FREED_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

/* Each rank sends 10 x round + rank to the next around the ring with persistent requests: in round r it receives
 * 10 r + the previous rank. */
static void persistent_ring(int rank, int *errors)
{
  int out = 0;
  int in = -1;
  MPI_Request reqs[2];
  int next = (rank + 1) % N;
  int prev = (rank + N - 1) % N;
  MPI_Send_init(&out, 1, MPI_INT, next, RING_TAG, MPI_COMM_WORLD, &reqs[0]);
  MPI_Recv_init(&in, 1, MPI_INT, prev, RING_TAG, MPI_COMM_WORLD, &reqs[1]);
  for (int round = 0; round < ROUNDS; round++) {
    out = 10 * round + rank;
    MPI_Startall(2, reqs);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    CHECK(errors, in == 10 * round + prev, "persistent round %d: got %d, not %d", round, in, 10 * round + prev);
  }
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);
}

static void run(int rank, int size, int *errors)
{
  (void)size;
  null_requests(errors);
  mixed_requests(rank, errors);
  freed_sends(rank, errors);
  persistent_ring(rank, errors);
}

int main(int argc, char **argv)
{
  return check_main(argc, argv, "completion", N, run);
}
