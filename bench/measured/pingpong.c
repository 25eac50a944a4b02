/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A message-bound loop for bench/internode.sh: ranks 0 and 1 bounce a message of each size from 1 KiB to 1 MiB
 * (powers of 4) back and forth ROUNDS times (default 200), with no computation between; rank 0 prints the span
 * (span.h), from a barrier after the buffer's allocation to the last barrier. Run on 2 ranks. */
#include "span.h"

#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rounds = argc > 1 ? atoi(argv[1]) : 200;
  char *buf = calloc(1 << 20, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  span_t span = span_start();
  int other = 1 - rank; /* rank 0 serves, rank 1 returns */
  for (int bytes = 1 << 10; bytes <= 1 << 20; bytes *= 4)
    for (int i = 0; rank < 2 && i < rounds; i++) {
      if (rank == 0)
        MPI_Send(buf, bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (rank == 1)
        MPI_Send(buf, bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD);
    }
  span_print(span, rank);
  free(buf);
  MPI_Finalize();
  return 0;
}
