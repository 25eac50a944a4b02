/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Messages to oneself, as LLNL's MPI tutorial programs (mpi_contig, mpi_vector, mpi_indexed) send them: an isend and
 * an irecv to the same rank completed by one waitall, a sendrecv with oneself, and a ring step between them. Traced by
 * smpirun -trace-ti in tests/test_app_ti.c and replayed by both simulators. */
#include <mpi.h>
int main(int argc, char **argv)
{
  int rank, size;
  double a[100] = {0}, b[100];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Request r[2];
  MPI_Isend(a, 100, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(b, 100, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Send(a, 10, MPI_DOUBLE, (rank + 1) % size, 1, MPI_COMM_WORLD);
  MPI_Recv(b, 10, MPI_DOUBLE, (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(a, 20, MPI_DOUBLE, rank, 3, b, 20, MPI_DOUBLE, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
