/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What an MPI call costs after a computation (bench/cold_calls.sh, docs/tracer-extras.md): 2 ranks, ROUNDS rounds of a
 * computation that reads WORDS doubles 512 bytes apart in a 2 MiB array, then an MPI_Allreduce of one int. Each rank
 * times its call; the round's cost is the shorter of the two ranks' times, the call of the rank that came last, which
 * waited for no one. Rank 0 prints "words WORDS: allreduce MEAN MEDIAN Q1 Q3 compute MEAN" (microseconds; the last,
 * its computation's mean). The probe's ping-pong (simrun machine probe) and a loop of calls with nothing between
 * (WORDS 0) time calls that follow each other.
 * Usage: cold_calls [ROUNDS [WORDS]]   (default 3000 rounds, 4096 words) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SPAN = 1 << 18, STRIDE = 64 }; /* 2 MiB of doubles; 64 doubles: 512 bytes */

static double array[SPAN];
static volatile double sink;

static void compute(int words)
{
  double sum = 0;
  for (int i = 0; i < words; i++)
    sum += array[(i * STRIDE) & (SPAN - 1)];
  sink = sum;
}

static int ascending(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rounds = argc > 1 ? atoi(argv[1]) : 3000, words = argc > 2 ? atoi(argv[2]) : 4096, rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *mine = malloc(sizeof *mine * (size_t)(rounds > 0 ? rounds : 1));
  double *theirs = malloc(sizeof *theirs * (size_t)(rounds > 0 ? rounds : 1));
  if (size != 2 || rounds < 4 || words < 0 || !mine || !theirs) {
    if (rank == 0)
      fprintf(stderr, "usage: mpirun -np 2 cold_calls [ROUNDS >= 4 [WORDS >= 0]]\n");
    MPI_Finalize();
    return 2;
  }
  memset(array, 1, sizeof array);
  int one = 1, sum = 0;
  double computing = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < rounds; i++) {
    double before = MPI_Wtime();
    compute(words);
    double start = MPI_Wtime();
    computing += start - before;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mine[i] = MPI_Wtime() - start;
  }
  if (rank == 1)
    MPI_Send(mine, rounds, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  else {
    MPI_Recv(theirs, rounds, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double total = 0;
    for (int i = 0; i < rounds; i++) {
      mine[i] = mine[i] < theirs[i] ? mine[i] : theirs[i];
      total += mine[i];
    }
    qsort(mine, (size_t)rounds, sizeof *mine, ascending);
    printf("words %d: allreduce %.3f %.3f %.3f %.3f compute %.3f\n", words, 1e6 * total / rounds,
           1e6 * mine[rounds / 2], 1e6 * mine[rounds / 4], 1e6 * mine[3 * rounds / 4], 1e6 * computing / rounds);
  }
  free(mine);
  free(theirs);
  MPI_Finalize();
  return 0;
}
