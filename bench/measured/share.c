/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What an Open MPI rank that waits in MPI_Recv does to the rank computing beside it on an oversubscribed machine
 * (bench/share.sh, docs/history/validation.md "What a waiting rank keeps"). Two modes:
 * - `share N K`: ranks 0 .. K-1 compute N multiply-adds each, the others wait in MPI_Recv for rank r % K; rank 0
 *   prints each rank's process CPU seconds over its wall seconds, "r cpu/wall": the share of a core each kept;
 * - `wake ROUNDS HOG`: ranks 0 and 1, each fixed on core `rank`, bounce 8 bytes ROUNDS times; with HOG = 1 each forks
 *   a process that computes on its core all along; rank 0 prints the one-way time, which with a hog is the time a
 *   waiting rank takes to notice its message while its core computes;
 * - `turn POLLS`: on one core, rank 0 makes POLLS unsuccessful MPI_Iprobe calls while rank 1 waits in MPI_Recv for
 *   it; rank 0 prints its wall and thread CPU time a poll: their difference is the waiting rank's turn at each poll
 *   (with the yield, it takes a progress pass and yields back). */
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

/* rank 0 prints every rank's "r cpu/wall" seconds, and its count of polls where it is not negative */
static void print_ranks(int rank, int size, const double mine[3])
{
  static double all[MAX_RANKS][3];
  MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int r = 0; rank == 0 && r < size; r++) {
    printf("%s%d %.4f/%.4f", r ? "  " : "", r, all[r][0], all[r][1]);
    if (all[r][2] >= 0)
      printf(" %.0f", all[r][2]);
  }
  if (rank == 0)
    printf("\n");
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
  print_ranks(rank, size, (double[3]){cpu_seconds() - cpu, MPI_Wtime() - wall, -1});
}

/* computes n multiply-adds in pieces of c (all at once if c <= 0), polling after each piece; returns the polls */
static long compute_polling(long n, long c, double *x)
{
  long polls = 0;
  int flag;
  for (long done = 0; done < n; done += c, polls++) {
    *x += compute(c > 0 && c < n - done ? c : n - done);
    if (c <= 0)
      return polls;
    MPI_Iprobe(0, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); /* tag 1: never sent */
  }
  return polls;
}

static void polling(int rank, int size, long n, long w, long c)
{
  MPI_Barrier(MPI_COMM_WORLD);
  double wall = MPI_Wtime(), cpu = cpu_seconds(), x = 0;
  long polls = 0;
  if (rank == 0) {
    polls = compute_polling(n, c, &x);
    for (int r = 1; r < size; r++)
      MPI_Send(&x, 1, MPI_DOUBLE, r, 0, MPI_COMM_WORLD);
  } else {
    int flag = 0;
    for (; !flag; polls++) {
      x += compute(w);
      MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Recv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  print_ranks(rank, size, (double[3]){cpu_seconds() - cpu, MPI_Wtime() - wall, (double)polls});
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

static double thread_seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void turn(int rank, long polls)
{
  char byte = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Recv(&byte, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return;
  }
  int flag;
  double wall = MPI_Wtime(), cpu = thread_seconds();
  for (long i = 0; i < polls; i++)
    MPI_Iprobe(1, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); /* tag 1: never sent */
  cpu = thread_seconds() - cpu;
  wall = MPI_Wtime() - wall;
  MPI_Send(&byte, 1, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
  printf("a poll: %.3f us of wall, %.3f us of rank 0's CPU, the waiting rank's turn %.3f us\n", 1e6 * wall / polls,
         1e6 * cpu / polls, 1e6 * (wall - cpu) / polls);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int ok = (argc == 4 || (argc == 5 && strcmp(argv[1], "poll") == 0) || (argc == 3 && strcmp(argv[1], "turn") == 0)) &&
           size <= MAX_RANKS;
  if (ok && strcmp(argv[1], "share") == 0 && atoi(argv[3]) >= 1 && atoi(argv[3]) <= size)
    share(rank, size, atol(argv[2]), atoi(argv[3]));
  else if (ok && strcmp(argv[1], "poll") == 0)
    polling(rank, size, atol(argv[2]), atol(argv[3]), argc == 5 ? atol(argv[4]) : 0);
  else if (ok && strcmp(argv[1], "wake") == 0 && size == 2)
    wake(rank, atoi(argv[2]), atoi(argv[3]));
  else if (ok && strcmp(argv[1], "turn") == 0 && size == 2 && atol(argv[2]) > 0)
    turn(rank, atol(argv[2]));
  else if (rank == 0)
    fprintf(
        stderr,
        "usage: mpirun -np P share share N K | mpirun -np P share poll N W [C] | mpirun -np 2 share wake ROUNDS HOG | "
        "mpirun -np 2 share turn POLLS\n");
  MPI_Finalize();
  return 0;
}
