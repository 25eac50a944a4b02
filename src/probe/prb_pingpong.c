/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun-pingpong: the ping-pong of `simrun machine probe` (docs/probe.md):
 * ranks 0 and 1 send a message of each size back and forth and rank 0 prints, per size, the lower quartile over
 * repetitions of half a round trip (repetitions interleaved over the sizes; the least disturbed quarter, as other load
 * on a shared machine comes in spells), as the "bytes,hops,time_us" lines seed 001's Table 2 was fitted to, then their
 * mean and spread as comment lines (print_spread).
 * `simrun-pingpong HOPS` (HOPS > 1: simrun machine probe --hostfile, ranks on two nodes) labels its lines with HOPS,
 * prints no header (its lines follow the on-node run's) and refuses to measure when both ranks run on one node, unless
 * told `--one-node` (the probe on one machine, which forces Open MPI's TCP transport as the stand-in of a network).
 * Before the ping-pong, at 1 hop, it times the process's first collective of each kind against the next one
 * (first_calls). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_BYTES = 1 << 20, REPEATS = 31 };

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* `rounds` round trips of `bytes` between ranks 0 and 1, timed together: one sample, half a round trip. */
static double half_round_trip(char *buf, int bytes, int rank, int rounds)
{
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int i = 0; i < rounds; i++) {
    if (rank == 0) {
      MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - start) / (2.0 * rounds);
}

/* "# spread BYTES HOPS MEAN_US SD_US": the mean and standard deviation of the REPEATS samples of one size, the
 * time the ranks see (as NetPIPE measures it: a mean over repeated round trips), beside the lower quartile the fit
 * takes; a comment line to simrun characterise, which simrun machine probe writes into the platform's comments. */
static void print_spread(int bytes, int hops, const double *sample)
{
  double sum = 0, squares = 0;
  for (int k = 0; k < REPEATS; k++)
    sum += sample[k];
  double mean = sum / REPEATS;
  for (int k = 0; k < REPEATS; k++)
    squares += (sample[k] - mean) * (sample[k] - mean);
  printf("# spread %d %d %.6f %.6f\n", bytes, hops, 1e6 * mean, 1e6 * sqrt(squares / (REPEATS - 1)));
}

/* Ranks 0 and 1 in step: two exchanges of one int, point to point (no collective, whose first calls are timed). */
static void in_step(int rank)
{
  int mine = rank, other = 0;
  for (int k = 0; k < 2; k++)
    MPI_Sendrecv(&mine, 1, MPI_INT, 1 - rank, 2, &other, 1, MPI_INT, 1 - rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Collective `which` of first_calls' FIRST_CALLS on the world, of one int a rank (two of 2 and 4 in `to`). */
static void collective(int which, int rank, int *to)
{
  static const int one[2] = {1, 1}, at[2] = {0, 1};
  int mine = rank + 1;
  switch (which) {
  case 0:
    MPI_Barrier(MPI_COMM_WORLD);
    break;
  case 1:
    MPI_Bcast(&mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
    break;
  case 2:
    MPI_Reduce(&mine, to, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    break;
  case 3:
    MPI_Allreduce(&mine, to, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    break;
  case 4:
    MPI_Alltoall(to, 1, MPI_INT, to + 2, 1, MPI_INT, MPI_COMM_WORLD);
    break;
  case 5:
    MPI_Alltoallv(to, one, at, MPI_INT, to + 2, one, at, MPI_INT, MPI_COMM_WORLD);
    break;
  case 6:
    MPI_Gather(&mine, 1, MPI_INT, to, 1, MPI_INT, 0, MPI_COMM_WORLD);
    break;
  case 7:
    MPI_Gatherv(&mine, 1, MPI_INT, to, one, at, MPI_INT, 0, MPI_COMM_WORLD);
    break;
  case 8:
    MPI_Scatter(to, 1, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
    break;
  case 9:
    MPI_Scatterv(to, one, at, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
    break;
  case 10:
    MPI_Allgather(&mine, 1, MPI_INT, to, 1, MPI_INT, MPI_COMM_WORLD);
    break;
  case 11:
    MPI_Allgatherv(&mine, 1, MPI_INT, to, one, at, MPI_INT, MPI_COMM_WORLD);
    break;
  case 12:
    MPI_Reduce_scatter(to, &mine, one, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    break;
  case 13:
    MPI_Scan(&mine, to, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    break;
  default:
    MPI_Exscan(&mine, to, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
}

/* "# first-call ACTION FIRST_US NEXT_US" on rank 0 for each collective a TI trace holds (its action's name): the
 * process's first call of it and the next one, each after the ranks came in step, as the slower rank took it (the
 * time its partner waits for: both make the call together). What the first costs beyond the next is the library's
 * set-up of that kind in each process, which simrun machine probe writes as simrun:first-call-us. */
static void first_calls(int rank)
{
  enum { FIRST_CALLS = 15 };
  static const char *const action[FIRST_CALLS] = {"barrier",   "bcast",      "reduce",        "allreduce", "alltoall",
                                                  "alltoallv", "gather",     "gatherv",       "scatter",   "scatterv",
                                                  "allgather", "allgatherv", "reducescatter", "scan",      "exscan"};
  double mine[2 * FIRST_CALLS], theirs[2 * FIRST_CALLS];
  int to[4] = {0};
  for (int i = 0; i < 2 * FIRST_CALLS; i++) {
    in_step(rank);
    double start = MPI_Wtime();
    collective(i / 2, rank, to);
    mine[i] = MPI_Wtime() - start;
  }
  MPI_Sendrecv(mine, 2 * FIRST_CALLS, MPI_DOUBLE, 1 - rank, 3, theirs, 2 * FIRST_CALLS, MPI_DOUBLE, 1 - rank, 3,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < 2 * FIRST_CALLS && rank == 0; i += 2)
    printf("# first-call %s %.3f %.3f\n", action[i / 2], 1e6 * fmax(mine[i], theirs[i]),
           1e6 * fmax(mine[i + 1], theirs[i + 1]));
}

/* 1 when ranks 0 and 1 run on one node (their processor names are equal), after a line on rank 0's stderr. */
static int one_node(int rank)
{
  char mine[MPI_MAX_PROCESSOR_NAME] = "", other[MPI_MAX_PROCESSOR_NAME] = "";
  int len = 0;
  MPI_Get_processor_name(mine, &len);
  MPI_Sendrecv(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1 - rank, 1, other, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1 - rank,
               1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int same = strcmp(mine, other) == 0;
  if (same && rank == 0)
    fprintf(stderr,
            "simrun-pingpong: both ranks run on node %s: the hostfile's first two nodes are one machine (Open MPI "
            "merges the names of one node), so no inter-node time can be measured\n",
            mine);
  return same;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char *buf = calloc(MAX_BYTES, 1);
  int hops = argc > 1 ? atoi(argv[1]) : 1;
  if (size != 2 || !buf || hops < 1) {
    if (rank == 0)
      fprintf(stderr, "simrun-pingpong: %s\n",
              !buf       ? "out of memory"
              : hops < 1 ? "HOPS must be 1 or more"
                         : "run it with 2 ranks (mpirun -np 2)");
    free(buf);
    MPI_Finalize();
    return 2;
  }
  int one_node_ok = argc > 2 && strcmp(argv[2], "--one-node") == 0;
  if (hops > 1 && !one_node_ok && one_node(rank)) {
    free(buf);
    MPI_Finalize();
    return 3;
  }
  if (hops == 1)
    first_calls(rank);
  enum { SIZES = 21 }; /* 1 byte to MAX_BYTES, doubling */
  int rounds[SIZES];
  static double samples[SIZES][REPEATS];
  for (int s = 0; s < SIZES; s++) { /* warm-up; its time gives the rounds per sample, about 1 ms */
    double t = half_round_trip(buf, 1 << s, rank, 2);
    rounds[s] = t > 0 ? (int)(1e-3 / t) : 1000;
    rounds[s] = rounds[s] < 4 ? 4 : rounds[s] > 1000 ? 1000 : rounds[s];
  }
  MPI_Bcast(rounds, SIZES, MPI_INT, 0, MPI_COMM_WORLD);
  /* every repetition sweeps every size, so that a spell of load on the machine touches all sizes alike */
  for (int k = 0; k < REPEATS; k++)
    for (int s = 0; s < SIZES; s++)
      samples[s][k] = half_round_trip(buf, 1 << s, rank, rounds[s]);
  if (rank == 0 && hops == 1)
    printf("bytes,hops,time_us\n");
  for (int s = 0; s < SIZES; s++) {
    qsort(samples[s], REPEATS, sizeof samples[s][0], by_value);
    if (rank == 0)
      printf("%d,%d,%.6f\n", 1 << s, hops, 1e6 * samples[s][REPEATS / 4]);
  }
  for (int s = 0; s < SIZES && rank == 0; s++)
    print_spread(1 << s, hops, samples[s]);
  free(buf);
  MPI_Finalize();
  return 0;
}
