/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A polling-heavy program for the tracer's cost (bench/tracer.sh, tests/test_trc_mpi.c): as HPC Challenge's
 * RandomAccess does, each rank keeps a receive from any source posted and, between small pieces of work (WORK
 * multiply-adds, about 0.1 us), tests it with MPI_Testany; every PERIOD pieces it sends a message of 8 bytes to the
 * next rank (itself at p = 1), SENDS of them in all, and it stops once it has sent its SENDS and received as many.
 * Most tests find nothing. Prints "polling CPU SECONDS TESTS" (the process's CPU time from after MPI_Init to before
 * MPI_Finalize, and its tests) on each rank. Usage: trc_polling [SENDS [PERIOD]] (default 20000 and 100). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

enum { WORK = 40 };

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  long sends = argc > 1 ? atol(argv[1]) : 20000;
  long period = argc > 2 ? atol(argv[2]) : 100;
  int rank = 0, size = 1, flag = 0, index = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double got = 0, out = 0;
  MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  double start = cpu();
  MPI_Irecv(&got, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r[0]);
  long sent = 0, received = 0, tests = 0;
  for (long piece = 1; sent < sends || received < sends; piece++) {
    work(WORK);
    if (sent < sends && piece % period == 0 && r[1] == MPI_REQUEST_NULL) {
      out = (double)sent++;
      MPI_Isend(&out, 1, MPI_DOUBLE, (rank + 1) % size, 1, MPI_COMM_WORLD, &r[1]);
    }
    MPI_Testany(2, r, &index, &flag, MPI_STATUS_IGNORE);
    tests++;
    if (flag && index == 0 && ++received < sends)
      MPI_Irecv(&got, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r[0]);
  }
  double used = cpu() - start;
  printf("polling CPU %.6f %ld\n", used, tests);
  MPI_Finalize();
  return 0;
}
