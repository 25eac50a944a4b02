/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An untraced run's span, for programs that print no time of their own (bench/startup.sh): preloaded into each rank,
 * it times what a trace's T_par spans, from a barrier at the end of MPI_Init (the tracer's time 0) to the entry into
 * MPI_Finalize, and counts the involuntary context switches of the rank's process over it (getrusage: another
 * process took its processor). Rank 0 prints "span SECONDS SWITCHES" on standard error: the longest rank's span and
 * the ranks' switches summed, or nothing when MPI was initialised otherwise. C's MPI_Init and MPI_Init_thread, and
 * Fortran's mpi_init_ and mpi_init_thread_ (Open MPI's mpif.h bindings call PMPI_Init). */
#include <mpi.h>
#include <stdio.h>
#include <sys/resource.h>

static int started;
static double zero;
static long switches_at_zero;

static long switches(void)
{
  struct rusage u;
  return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_nivcsw : 0;
}

static void start(void)
{
  PMPI_Barrier(MPI_COMM_WORLD);
  zero = PMPI_Wtime();
  switches_at_zero = switches();
  started = 1;
}

static void stop(void)
{
  if (!started)
    return;
  double span = PMPI_Wtime() - zero, longest = 0;
  long mine = switches() - switches_at_zero, all = 0;
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Reduce(&span, &longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  PMPI_Reduce(&mine, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    fprintf(stderr, "span %.6f %ld\n", longest, all);
}

int MPI_Init(int *argc, char ***argv)
{
  int rc = PMPI_Init(argc, argv);
  start();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  start();
  return rc;
}

int MPI_Finalize(void)
{
  stop();
  return PMPI_Finalize();
}

void mpi_init_(int *ierr)
{
  *ierr = PMPI_Init(NULL, NULL);
  start();
}

void mpi_init_thread_(const int *required, int *provided, int *ierr)
{
  *ierr = PMPI_Init_thread(NULL, NULL, *required, provided);
  start();
}

void mpi_finalize_(int *ierr)
{
  stop();
  *ierr = PMPI_Finalize();
}
