/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What an Open MPI rank that waits in MPI_Recv does to the rank computing beside it on an oversubscribed machine
 * (bench/share.sh, docs/validation.md "What a waiting rank keeps"). Two modes:
 * - `share N K`: ranks 0 .. K-1 compute N multiply-adds each, the others wait in MPI_Recv for rank r % K; rank 0
 *   prints each rank's process CPU seconds over its wall seconds, "r cpu/wall": the share of a core each kept;
 * - `wake ROUNDS HOG`: ranks 0 and 1, each fixed on core `rank`, bounce 8 bytes ROUNDS times; with HOG = 1 each forks
 *   a process that computes on its core all along; rank 0 prints the one-way time, which with a hog is the time a
 *   waiting rank takes to notice its message while its core computes. */
#define _GNU_SOURCE /* sched_setaffinity */
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_RANKS = 64 };

static double cpu_seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double compute(long n)
{
  volatile double a = 1.0000001; /* kept in memory: the loop stays */
  double s = 0;
  for (long i = 0; i < n; i++)
    s = s * a + 1e-9;
  return s;
}

static void share(int rank, int size, long n, int k)
{
  MPI_Barrier(MPI_COMM_WORLD);
  double wall = MPI_Wtime(), cpu = cpu_seconds(), x = 0;
  if (rank < k) {
    x = compute(n);
    for (int r = k; r < size; r++)
      if (r % k == rank)
        MPI_Send(&x, 1, MPI_DOUBLE, r, 0, MPI_COMM_WORLD);
  } else
    MPI_Recv(&x, 1, MPI_DOUBLE, rank % k, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double mine[2] = {cpu_seconds() - cpu, MPI_Wtime() - wall};
  static double all[MAX_RANKS][2];
  MPI_Gather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int r = 0; rank == 0 && r < size; r++)
    printf("%s%d %.4f/%.4f", r ? "  " : "", r, all[r][0], all[r][1]);
  if (rank == 0)
    printf("\n");
}

static void wake(int rank, int rounds, int hog)
{
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(rank, &set);
  sched_setaffinity(0, sizeof set, &set);
  pid_t child = hog ? fork() : 0;
  if (hog && child == 0)
    for (;;)
      compute(1L << 30);
  double b = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int i = 0; i < rounds; i++) {
    if (rank == 0)
      MPI_Send(&b, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(&b, 1, MPI_DOUBLE, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 1)
      MPI_Send(&b, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  }
  double span = MPI_Wtime() - start;
  if (child > 0)
    kill(child, SIGKILL);
  if (rank == 0)
    printf("hog %d: %.2f us per one-way message (%d round trips)\n", hog, 1e6 * span / (2.0 * rounds), rounds);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int ok = argc == 4 && size <= MAX_RANKS;
  if (ok && strcmp(argv[1], "share") == 0 && atoi(argv[3]) >= 1 && atoi(argv[3]) <= size)
    share(rank, size, atol(argv[2]), atoi(argv[3]));
  else if (ok && strcmp(argv[1], "wake") == 0 && size == 2)
    wake(rank, atoi(argv[2]), atoi(argv[3]));
  else if (rank == 0)
    fprintf(stderr, "usage: mpirun -np P share share N K | mpirun -np 2 share wake ROUNDS HOG\n");
  MPI_Finalize();
  return 0;
}
