/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libsimrun-span.so (docs/analyse.md, "Replaying"): the untraced run's time that simrun analyse --untraced compares a
 * prediction with. Preloaded into each rank as libsimrun-trace.so is, it times what a trace's T_par spans, from a
 * barrier at the end of MPI_Init (the tracer's time 0) to the entry into MPI_Finalize, and counts the involuntary
 * context switches of the rank's process over it (getrusage: another process took its processor), and nothing else:
 * it wraps no other call, so the run is as untraced. Rank 0 prints one line on standard error, the longest rank's span
 * and the ranks' switches summed, with the option to give simrun analyse. A wall time of the whole program (`time
 * mpirun`) also holds the processes' start-up before MPI_Init (a Python program's imports, a library's loading: with
 * one line of work, Debian's pvbatch took 0.84 s and gretlmpi 0.37 s of wall time), which no trace holds. A program
 * that exits without MPI_Finalize: rank 0's span to its exit, said so. C's MPI_Init and MPI_Init_thread, and Fortran's
 * mpi_init_ and mpi_init_thread_ (Open MPI's mpif.h and use mpi bindings call PMPI_Init) and their use mpi_f08 names.
 */
#include <mpi.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

static struct {
  int started; /* MPI_Init returned: the span runs */
  int ended;   /* MPI_Finalize was entered */
  int rank;
  int size;
  double zero; /* CLOCK_MONOTONIC at the span's start */
  long switches_at_zero;
} span;

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The process's involuntary context switches so far. */
static long switches(void)
{
  struct rusage u;
  return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_nivcsw : 0;
}

/* The span starts once every rank is out of MPI_Init (a barrier, as the tracer's time 0). */
static void start(int rc)
{
  if (rc != MPI_SUCCESS || span.started)
    return;
  PMPI_Comm_rank(MPI_COMM_WORLD, &span.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &span.size);
  PMPI_Barrier(MPI_COMM_WORLD);
  span.zero = now();
  span.switches_at_zero = switches();
  span.started = 1;
}

/* Rank 0's line: `seconds` of span, `switched` involuntary switches, `how` the span's end. */
static void say(double seconds, long switched, const char *how)
{
  fprintf(stderr,
          "simrun-span: %.6f s from the end of MPI_Init to %s at p = %d, %ld involuntary context switch(es): give "
          "simrun analyse --untraced %d=%.6f\n",
          seconds, how, span.size, switched, span.size, seconds);
}

/* At the entry into MPI_Finalize: the longest rank's span and the ranks' switches, said by rank 0. */
static void stop(void)
{
  if (!span.started || span.ended)
    return;
  span.ended = 1;
  double mine = now() - span.zero, longest = 0;
  long switched = switches() - span.switches_at_zero, all = 0;
  PMPI_Reduce(&mine, &longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  PMPI_Reduce(&switched, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (span.rank == 0)
    say(longest, all, "MPI_Finalize (the longest rank's)");
}

/* At the exit of a process that never called MPI_Finalize: rank 0's own span to its exit (no MPI call: Open MPI's
 * destructors may have run). */
__attribute__((destructor)) static void exited(void)
{
  if (span.started && !span.ended && span.rank == 0)
    say(now() - span.zero, switches() - span.switches_at_zero, "rank 0's exit without MPI_Finalize (its own)");
}

EXPORT int MPI_Init(int *argc, char ***argv)
{
  int rc = PMPI_Init(argc, argv);
  start(rc);
  return rc;
}

EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  start(rc);
  return rc;
}

EXPORT int MPI_Finalize(void)
{
  stop();
  return PMPI_Finalize();
}

EXPORT void mpi_init_(MPI_Fint *ierr)
{
  *ierr = MPI_Init(NULL, NULL);
}

EXPORT void mpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
  int level = 0;
  *ierr = MPI_Init_thread(NULL, NULL, *required, &level);
  *provided = level;
}

EXPORT void mpi_finalize_(MPI_Fint *ierr)
{
  *ierr = MPI_Finalize();
}

/* `use mpi_f08`: Open MPI 4.1's bindings call the mpif.h ones by their implementation's names, ompi_NAME_f (as the
 * tracer binds them, trc_fortran.c) */
EXPORT extern __typeof__(mpi_init_) ompi_init_f __attribute__((alias("mpi_init_")));
EXPORT extern __typeof__(mpi_init_thread_) ompi_init_thread_f __attribute__((alias("mpi_init_thread_")));
EXPORT extern __typeof__(mpi_finalize_) ompi_finalize_f __attribute__((alias("mpi_finalize_")));
