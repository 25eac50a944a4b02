/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* NetPIPE's pattern for the folding of repeated calls (tests/test_trc_mpi.c, docs/tracer.md): rank 0 and rank 1
 * bounce a message back and forth ITERATIONS times for each of SIZES sizes, with MPI_Send and MPI_Recv, and between
 * sizes rank 0 tells rank 1 the next size with an MPI_Bcast. Each size's round trips are one loop in the folded trace,
 * so the trace's size grows with the number of sizes, not with the iterations. Run on 2 ranks; prints "pingpong done"
 * once every byte came back as sent. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SIZES = 6, ITERATIONS = 1000 };

int main(int argc, char **argv)
{
  static const int sizes[SIZES] = {1, 8, 256, 1024, 4096, 8192};
  int rank = 0;
  int ok = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char *buf = malloc(8192);
  for (int s = 0; s < SIZES; s++) {
    int size = rank == 0 ? sizes[s] : 0;
    MPI_Bcast(&size, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; i < ITERATIONS; i++) {
      if (rank == 0) {
        memset(buf, (char)i, (size_t)size);
        MPI_Send(buf, size, MPI_CHAR, 1, s, MPI_COMM_WORLD);
        MPI_Recv(buf, size, MPI_CHAR, 1, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ok = ok && buf[size - 1] == (char)i;
      } else {
        MPI_Recv(buf, size, MPI_CHAR, 0, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, size, MPI_CHAR, 0, s, MPI_COMM_WORLD);
      }
    }
  }
  free(buf);
  if (rank == 0 && ok)
    printf("pingpong done\n");
  MPI_Finalize();
  return ok ? 0 : 1;
}
