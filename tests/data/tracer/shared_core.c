/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ranks that share one core (tests/test_trc_mpi.c runs it under `taskset -c 0`), each computing in CHUNKS pieces of
 * about CHUNK seconds of its thread's CPU time with cheap calls after each (a send to MPI_PROC_NULL, or an MPI_Isend to
 * it and its MPI_Wait, in turn), so that the scheduler switches them often, some of the times inside the tracer's work
 * between a call and the next computation. Each rank prints "shared CPU SECONDS PROCESS": the CPU time of its pieces of
 * computation, by its thread's CPU clock, and its process's CPU time over the loop (getrusage: the pieces, the calls,
 * the tracer's work, the other threads'). */
#include <mpi.h>
#include <stdio.h>
#include <sys/resource.h>
#include "../../../bench/work.h"

enum { CHUNKS = 8000 };
#define CHUNK 25e-6

static double process_cpu(void)
{
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  double computed = 0, process = process_cpu();
  for (int i = 0; i < CHUNKS; i++) {
    double start = cpu_seconds(), now = start;
    while (now - start < CHUNK) {
      work(200);
      now = cpu_seconds();
    }
    computed += now - start;
    if (i % 2 == 0) {
      MPI_Send(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    } else { /* the tracer's work after the wait's record too (trc_after_call) */
      MPI_Request request;
      MPI_Isend(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
  }
  printf("shared CPU %.6f %.6f\n", computed, process_cpu() - process);
  MPI_Finalize();
  return 0;
}
