/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The span bench/measured's programs time (docs/validation.md, "A measured machine"): from span_start to span_print,
 * rank 0 prints "elapsed WALL cpu CPU", the wall seconds and the largest rank's process CPU seconds. Where ranks do not
 * outnumber cores the CPU time stands in for the idle machine's wall time (a rank waiting in Open MPI polls, so its
 * CPU time runs as its wall time would on its own core), and other jobs on a shared machine do not stretch it. */
#ifndef SPAN_H
#define SPAN_H

#include <mpi.h>
#include <stdio.h>
#include <time.h>

typedef struct span {
  double wall, cpu;
} span_t;

static inline double span_cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline span_t span_start(void)
{
  return (span_t){MPI_Wtime(), span_cpu()};
}

/* Ends the span at a barrier; rank 0 prints it. */
static inline void span_print(span_t s, int rank)
{
  MPI_Barrier(MPI_COMM_WORLD);
  double wall = MPI_Wtime() - s.wall, cpu = span_cpu() - s.cpu, most = cpu;
  MPI_Reduce(&cpu, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("elapsed %.6f cpu %.6f\n", wall, most);
}

#endif
