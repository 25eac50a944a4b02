/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Message matching as the MPI standard defines it (section 3.5, order; 3.8, probe and cancel), run on 4 ranks: a
 * ping-pong, receives from any source with any tag (non-overtaking: each sender's messages arrive in the order it sent
 * them, whatever their tags), a receive from any source cancelled before any message could match it, and probes of
 * messages sent before their receives were posted. Prints "matching: No errors" when every check held. */
#include "check.h"

#include <mpi.h>

enum { PEERS = 3, SENT = 3, PROBE_TAG = 10, CANCEL_TAG = 77 };

/* Rank 0 sends 100 to rank 1, which answers with the value plus one. */
static void ping_pong(int rank, int *errors)
{
  int value = 100;
  if (rank == 0) {
    MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(errors, value == 101, "ping-pong: got %d back, not 101", value);
  } else if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    value++;
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
}

/* Ranks 1-3 each send rank 0 three messages tagged 3, 1, 2 holding 10 x rank + 0, 1, 2; rank 0 receives all nine from
 * any source with any tag. Whatever the interleaving of senders, each sender's messages must come in the order sent:
 * the k-th from rank s holds 10 s + k and carries the k-th tag. */
static void any_source_any_tag(int rank, int *errors)
{
  static const int tags[SENT] = {3, 1, 2};
  if (rank == 0) {
    int next[PEERS + 1] = {0};
    for (int m = 0; m < PEERS * SENT; m++) {
      int value = -1;
      MPI_Status st;
      MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      int s = st.MPI_SOURCE;
      int k = s >= 1 && s <= PEERS ? next[s]++ : -1;
      CHECK(errors, k >= 0 && k < SENT && value == 10 * s + k && st.MPI_TAG == tags[k],
            "any-source: message %d from rank %d holds %d with tag %d", k, s, value, st.MPI_TAG);
    }
  } else {
    for (int k = 0; k < SENT; k++) {
      int value = 10 * rank + k;
      MPI_Send(&value, 1, MPI_INT, 0, tags[k], MPI_COMM_WORLD);
    }
  }
}

/* Rank 0 posts a receive from any source with a tag nobody has sent yet and cancels it: nothing can have matched it,
 * so the cancel succeeds. After a barrier rank 2 sends 7 with that tag, which the next receive gets, from rank 2. */
static void cancelled_any_source(int rank, int *errors)
{
  int value = -1;
  if (rank == 0) {
    MPI_Request req;
    MPI_Status st;
    int cancelled = 0;
    MPI_Irecv(&value, 1, MPI_INT, MPI_ANY_SOURCE, CANCEL_TAG, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(errors, cancelled && req == MPI_REQUEST_NULL, "cancel: the receive was not cancelled");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, CANCEL_TAG, MPI_COMM_WORLD, &st);
    CHECK(errors, value == 7 && st.MPI_SOURCE == 2, "cancel: got %d from rank %d, not 7 from 2", value, st.MPI_SOURCE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2) {
      value = 7;
      MPI_Send(&value, 1, MPI_INT, 0, CANCEL_TAG, MPI_COMM_WORLD);
    }
  }
}

/* Rank 0 receives one message probed from any source with any tag: rank s sent 3 s ints 1000 s + i with tag 10 + s,
 * which its status and count must say before the receive takes it. */
static void receive_probed(int *errors)
{
  int buf[3 * PEERS];
  int count = -1;
  MPI_Status st;
  MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  int s = st.MPI_SOURCE;
  CHECK(errors, s >= 1 && s <= PEERS && st.MPI_TAG == PROBE_TAG + s && count == 3 * s,
        "probe: rank %d, tag %d, %d ints", s, st.MPI_TAG, count);
  if (count < 0 || count > 3 * PEERS)
    return;
  MPI_Recv(buf, count, MPI_INT, s, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < count; i++)
    CHECK(errors, buf[i] == 1000 * s + i, "probe: element %d from rank %d is %d", i, s, buf[i]);
}

/* Ranks 1-3 send before a barrier, rank 0 probes after it: the messages are unexpected when probed. A probe for a tag
 * nobody sends finds nothing. */
static void unexpected_probes(int rank, int *errors)
{
  int out[3 * PEERS];
  MPI_Request req = MPI_REQUEST_NULL;
  if (rank > 0) {
    for (int i = 0; i < 3 * rank; i++)
      out[i] = 1000 * rank + i;
    MPI_Isend(out, 3 * rank, MPI_INT, 0, PROBE_TAG + rank, MPI_COMM_WORLD, &req);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, CANCEL_TAG + 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(errors, !flag, "probe: found a message with a tag nobody sent");
    for (int m = 0; m < PEERS; m++)
      receive_probed(errors);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

static void run(int rank, int size, int *errors)
{
  (void)size;
  ping_pong(rank, errors);
  any_source_any_tag(rank, errors);
  cancelled_any_source(rank, errors);
  unexpected_probes(rank, errors);
}

int main(int argc, char **argv)
{
  return check_main(argc, argv, "matching", PEERS + 1, run);
}
