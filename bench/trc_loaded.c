/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Two ranks that exchange one double (MPI_Sendrecv) after each WORK multiply-adds (some 11 us on this machine's
 * cores), N times (bench/loaded.sh, docs/tracer.md): run beside busy loops, traced and untraced. With the argument
 * "clock" the program reads its thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) before and after each exchange, as the
 * tracer once did: Linux brings its scheduler's accounting up to date at each such reading and hands the processor to
 * a busy loop at once when the rank's slice is spent. Rank 0 prints "wall SECONDS" from after MPI_Init to the end of
 * the last exchange. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work.h"

enum { WORK = 7500 };

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long n = argc > 1 ? atol(argv[1]) : 20000;
  int clock = argc > 2 && strcmp(argv[2], "clock") == 0;
  if (size != 2) {
    if (rank == 0)
      fprintf(stderr, "trc_loaded: run at p = 2\n");
    MPI_Finalize();
    return 2;
  }
  double mine = 1, theirs = 0;
  double start = MPI_Wtime();
  for (long i = 0; i < n; i++) {
    work(WORK);
    if (clock)
      cpu_seconds(); /* a system call: it stays, its value unused */
    MPI_Sendrecv(&mine, 1, MPI_DOUBLE, 1 - rank, 0, &theirs, 1, MPI_DOUBLE, 1 - rank, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (clock)
      cpu_seconds();
  }
  if (rank == 0)
    printf("wall %.3f\n", MPI_Wtime() - start);
  MPI_Finalize();
  return 0;
}
