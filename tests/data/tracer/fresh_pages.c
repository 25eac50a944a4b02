/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A receive into pages its rank has not touched yet (tests/test_trc_mpi.c, docs/tracer.md): rank 1 maps BYTES of
 * fresh memory (huge pages refused, so that each 4 KiB page faults once) and receives BYTES from rank 0 into it twice;
 * its first receive takes a page fault per page inside the call, its second none. Run on 2 ranks; prints "fresh pages
 * ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { BYTES = 1 << 20 };

int main(int argc, char **argv)
{
  int rank = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char *buf = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (buf == MAP_FAILED)
    MPI_Abort(MPI_COMM_WORLD, 1);
  madvise(buf, BYTES, MADV_NOHUGEPAGE);
  if (rank == 0) {
    memset(buf, 7, BYTES);
    for (int i = 0; i < 2; i++)
      MPI_Send(buf, BYTES, MPI_CHAR, 1, i, MPI_COMM_WORLD);
  } else if (rank == 1) {
    for (int i = 0; i < 2; i++)
      MPI_Recv(buf, BYTES, MPI_CHAR, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (buf[0] == 7 && buf[BYTES - 1] == 7)
      printf("fresh pages ok\n");
  }
  munmap(buf, BYTES);
  MPI_Finalize();
  return 0;
}
