/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Work done in child processes (tests/test_trc_mpi.c, docs/tracer-extras.md "Child processes"): each rank runs ITEMS
 * items, each through system() running this program again as `children burn SECONDS`, which computes for SECONDS of its
 * own CPU time and exits (as a program that compresses each item with xz does), then an MPI_Allreduce. Rank 0 prints
 * "children CPU SECONDS", its children's CPU time by getrusage(RUSAGE_CHILDREN). Run on 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { ITEMS = 4 };
#define ITEM_SECONDS "0.05"

static double process_cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The child: computes until its CPU clock reads `seconds`. */
static int burn(double seconds)
{
  volatile double x = 1;
  while (process_cpu() < seconds)
    for (int i = 0; i < 10000; i++)
      x = x * 0.999999 + 1e-9;
  return x > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
  if (argc == 3 && strcmp(argv[1], "burn") == 0)
    return burn(atof(argv[2]));
  int rank = 0, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char command[4200];
  snprintf(command, sizeof command, "%s burn %s", argv[0], ITEM_SECONDS);
  for (int item = 0; item < ITEMS; item++) {
    if (system(command) != 0) {
      fprintf(stderr, "children: %s failed\n", command);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  struct rusage u;
  getrusage(RUSAGE_CHILDREN, &u);
  if (rank == 0)
    printf("children CPU %.6f\n",
           (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec));
  MPI_Finalize();
  return 0;
}
