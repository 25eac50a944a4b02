/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A two-rank MPI program for the tracer's tests (tests/test_trc_mpi.c) with the calls it does not trace: a file
 * written through MPI-IO (as parallel HDF5 does for Debian's mpb-mpi) and a one-sided window, each of which the tracer
 * must name at MPI_Finalize; then a message, which it traces. Between the window's two fences rank 1 computes for
 * SPIN seconds of wall time before its put, which rank 0 spends in the second fence: one-sided time the tracer must
 * state. Rank 0 prints "io_rma: read back 1 2, put 42". */
#include <mpi.h>
#include <stdio.h>

#define SPIN 0.05

int main(int argc, char **argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_File file;
  MPI_File_open(MPI_COMM_WORLD, "io_rma.dat", MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                &file);
  int mine = rank + 1;
  int back[2] = {0, 0};
  MPI_File_write_at_all(file, rank * (MPI_Offset)sizeof mine, &mine, 1, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_sync(file); /* MPI-IO's consistency: sync, barrier, sync before reading what another rank wrote */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(file);
  MPI_File_read_at_all(file, 0, back, 2, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_close(&file);
  int *cell;
  MPI_Win window;
  MPI_Win_allocate(sizeof *cell, sizeof *cell, MPI_INFO_NULL, MPI_COMM_WORLD, &cell, &window);
  *cell = 0;
  MPI_Win_fence(0, window);
  int answer = 42;
  if (rank == 1) {
    volatile double sink = 0;
    for (double start = MPI_Wtime(); MPI_Wtime() - start < SPIN;)
      sink += 1;
    MPI_Put(&answer, 1, MPI_INT, 0, 0, 1, MPI_INT, window);
  }
  MPI_Win_fence(0, window);
  int got = *cell;
  MPI_Win_free(&window);
  if (rank == 0)
    MPI_Send(&got, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
  else
    MPI_Recv(&got, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 0)
    printf("io_rma: read back %d %d, put %d\n", back[0], back[1], got);
  MPI_Finalize();
  return 0;
}
