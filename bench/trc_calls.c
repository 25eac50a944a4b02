/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracer's cost per call (bench/tracer.sh, docs/tracer.md): on one rank, N calls each of MPI_Send to
 * MPI_PROC_NULL, MPI_Test of a receive nothing matches and MPI_Iprobe finding nothing, then N rounds of an MPI_Irecv
 * from itself, the MPI_Send to itself it receives and the MPI_Waitall (statuses ignored) that completes it, and N
 * rounds of the same with the receive from any source, then N rounds of the first kind whose messages are 1 to 50
 * ints drawn at random (a linear congruential generator), which no loop folds, as the calls of a program whose
 * iterations differ (OpenFOAM's pisoFoam) do not fold, then IRREGULAR calls of MPI_Send to MPI_PROC_NULL, one in
 * three drawn at random after some 250 us of work (WORK multiply-adds), the others right after the one before: the same
 * record again and again, its iterations too unequal to fold (trc_fold.c: an outlier in most windows of 16), timed by
 * the process's CPU clock; prints "<call> <ns per call>" (per round for the rounds, "Irecv+Send+Waitall",
 * "IrecvAny+Send+Waitall" and "Irecv+Send+Waitall_varied"; the work included for "MPI_Send_irregular"). Run untraced
 * and under libsimrun-trace.so, the difference is the tracer's. Last, N more MPI_Test of a receive nothing matches,
 * the wall clock read every 16: "MPI_Test_gaps <percent>", the loop's share in gaps over 10 us (test_gaps). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

enum { IRREGULAR = 3000, WORK = 150000 };

/* The share of a loop of `n` unsuccessful MPI_Test, in percent, spent in gaps of over GAP seconds between two clock
 * readings 16 tests apart (interrupts, the hypervisor's): what a tracer that counts such gaps as computation cannot
 * go below on this machine (bench/tracer.sh prints it beside the traced loop's computation). */
enum { SLICE = 16 };
#define GAP 10e-6

static double test_gaps(long n)
{
  int x = 0, flag = 0;
  MPI_Request r;
  MPI_Irecv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r); /* nothing is sent with tag 5 */
  double first = clock_seconds(CLOCK_MONOTONIC), prev = first, gaps = 0;
  for (long i = 1; i <= n; i++) {
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    if (i % SLICE == 0) {
      double now = clock_seconds(CLOCK_MONOTONIC);
      gaps += now - prev > GAP ? now - prev : 0;
      prev = now;
    }
  }
  MPI_Cancel(&r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  return prev > first ? 100 * gaps / (prev - first) : 0;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  int x = 0;
  int flag = 0;
  MPI_Request r;
  double t0 = cpu();
  for (long i = 0; i < n; i++)
    MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  double t1 = cpu();
  MPI_Irecv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &r);
  for (long i = 0; i < n; i++)
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD); /* ends the run of polls: the iprobes are a run of their own */
  double t2 = cpu();
  for (long i = 0; i < n; i++)
    MPI_Iprobe(0, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  double t3 = cpu();
  MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD); /* to itself, eagerly: the receive completes */
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  double round[2];
  for (int any = 0; any < 2; any++) {
    double start = cpu();
    for (long i = 0; i < n; i++) {
      MPI_Irecv(&x, 1, MPI_INT, any ? MPI_ANY_SOURCE : 0, 3, MPI_COMM_WORLD, &r);
      MPI_Send(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
      MPI_Waitall(1, &r, MPI_STATUSES_IGNORE);
    }
    round[any] = 1e9 * (cpu() - start) / n;
  }
  static int in[50], out[50];
  unsigned draw = 12345;
  double start = cpu();
  for (long i = 0; i < n; i++) {
    draw = draw * 1103515245u + 12345u; /* C's example rand(): sizes that repeat in no short period */
    int count = 1 + (int)((draw >> 16) % 50);
    MPI_Irecv(in, count, MPI_INT, 0, 4, MPI_COMM_WORLD, &r);
    MPI_Send(out, count, MPI_INT, 0, 4, MPI_COMM_WORLD);
    MPI_Waitall(1, &r, MPI_STATUSES_IGNORE);
  }
  double varied = 1e9 * (cpu() - start) / n;
  start = cpu();
  for (long i = 0; i < IRREGULAR; i++) {
    draw = draw * 1103515245u + 12345u;
    if ((draw >> 16) % 3 == 0)
      work(WORK);
    MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  }
  double irregular = 1e9 * (cpu() - start) / IRREGULAR;
  printf("MPI_Send %.1f\nMPI_Test %.1f\nMPI_Iprobe %.1f\nIrecv+Send+Waitall %.1f\nIrecvAny+Send+Waitall %.1f\n"
         "Irecv+Send+Waitall_varied %.1f\nMPI_Send_irregular %.1f\nMPI_Test_gaps %.2f\n",
         1e9 * (t1 - t0) / n, 1e9 * (t2 - t1) / n, 1e9 * (t3 - t2) / n, round[0], round[1], varied, irregular,
         test_gaps(n));
  MPI_Finalize();
  return 0;
}
