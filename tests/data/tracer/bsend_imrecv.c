/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Buffered sends and matched non-blocking receives (tests/test_trc_mpi.c), on a ring of P ranks: each rank sends
 * 64 KiB to the next with MPI_Bsend (beyond the eager limit: only the attached buffer lets it return before the
 * next rank receives), then receives the previous rank's with MPI_Recv; then it sends 4 bytes of tag 31 with
 * MPI_Isend, finds the previous rank's with MPI_Improbe (any tag) and receives it with MPI_Imrecv and MPI_Wait.
 * Rank 0 prints "bsend_imrecv: got B from the ring, tag T" (B = 65536, T = 31). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BYTES = 65536 };

int main(int argc, char **argv)
{
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int room = BYTES + MPI_BSEND_OVERHEAD;
  char *attached = malloc((size_t)room), *out = calloc(BYTES, 1), *in = calloc(BYTES, 1);
  MPI_Buffer_attach(attached, room);
  MPI_Bsend(out, BYTES, MPI_BYTE, next, 7, MPI_COMM_WORLD);
  MPI_Status status;
  MPI_Recv(in, BYTES, MPI_BYTE, previous, 7, MPI_COMM_WORLD, &status);
  int got = 0;
  MPI_Get_count(&status, MPI_BYTE, &got);
  int mine = rank, theirs = -1, found = 0;
  MPI_Request sent, received;
  MPI_Isend(&mine, 1, MPI_INT, next, 31, MPI_COMM_WORLD, &sent);
  MPI_Message message;
  while (!found)
    MPI_Improbe(previous, MPI_ANY_TAG, MPI_COMM_WORLD, &found, &message, &status);
  MPI_Imrecv(&theirs, 1, MPI_INT, &message, &received);
  MPI_Wait(&received, &status);
  MPI_Wait(&sent, MPI_STATUS_IGNORE);
  MPI_Buffer_detach(&attached, &room);
  if (rank == 0)
    printf("bsend_imrecv: got %d from the ring, tag %d\n", got, status.MPI_TAG);
  free(attached);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
