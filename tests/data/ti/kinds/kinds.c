/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The programs whose smpirun -trace-ti traces test_app_ti replays with both simulators (README.md; `make` writes them):
 * `kinds KIND`, built with smpicc, runs one pattern of TI actions, with computations of fixed sizes
 * (smpi_execute_flops, so that a trace does not depend on the machine that made it) on ranks that differ in what they
 * compute. KIND: bcast, bcast-datatypes, allreduce, alltoall, alltoallv, barrier, gather, allgatherv, reducescatter,
 * waitall, isend, pair (see each function). */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdlib.h>
#include <string.h>

enum { BIG = 600000 };

static int rank;
static int size;
static double *buf;
static double *out;

/* Two broadcasts of 50 000 bytes from rank 0 with computations between (rank 1 computes 2e8 flops, the others 5e8),
 * then a reduce of 100 ints that costs 1e8 flops. */
static void bcast(void)
{
  for (int k = 0; k < 2; k++) {
    MPI_Bcast(buf, 6250, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    smpi_execute_flops(rank == 1 ? 2e8 : 5e8);
  }
  MPI_Reduce(buf, out, 100, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
}

/* Broadcasts and a reduce with other roots and datatypes: ints from rank 1, chars from rank 2, a reduce of floats to
 * rank 2. */
static void bcast_datatypes(void)
{
  MPI_Bcast(buf, 12500, MPI_INT, 1, MPI_COMM_WORLD);
  smpi_execute_flops(rank == 2 ? 3e8 : 1e8);
  MPI_Bcast(buf, 50000, MPI_CHAR, 2, MPI_COMM_WORLD);
  smpi_execute_flops(2e8);
  MPI_Reduce(buf, out, 12500, MPI_FLOAT, MPI_MAX, 2, MPI_COMM_WORLD);
}

/* Three all-reduces of 50 000 doubles between computations of 5e8 flops (rank 0: 1e9). */
static void allreduce(void)
{
  for (int k = 0; k < 3; k++) {
    smpi_execute_flops(rank == 0 ? 1e9 : 5e8);
    MPI_Allreduce(buf, out, 50000, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

/* An all-to-all of 5000 doubles to each rank, after rank r computes (r + 1) 1e8 flops. */
static void alltoall(void)
{
  smpi_execute_flops((rank + 1) * 1e8);
  MPI_Alltoall(buf, 5000, MPI_DOUBLE, out, 5000, MPI_DOUBLE, MPI_COMM_WORLD);
}

/* An all-to-all of unequal blocks: rank r sends rank j 1000 (r + 2 j + 1) doubles. */
static void alltoallv(void)
{
  int sendcounts[8], recvcounts[8], sdispls[8], rdispls[8];
  for (int j = 0, s = 0, r = 0; j < size; j++) {
    sendcounts[j] = 1000 * (rank + 2 * j + 1);
    recvcounts[j] = 1000 * (j + 2 * rank + 1);
    sdispls[j] = s;
    rdispls[j] = r;
    s += sendcounts[j];
    r += recvcounts[j];
  }
  smpi_execute_flops(2e8);
  MPI_Alltoallv(buf, sendcounts, sdispls, MPI_DOUBLE, out, recvcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
}

/* Barriers after computations that differ by rank: (r + 1) 1e8 flops, then 3e8 on rank 0 alone. */
static void barrier(void)
{
  smpi_execute_flops((rank + 1) * 1e8);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    smpi_execute_flops(3e8);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Gathers of 1000 doubles to rank 0, then to rank 3 after a computation of 1e8 flops. */
static void gather(void)
{
  MPI_Gather(buf, 1000, MPI_DOUBLE, out, 1000, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  smpi_execute_flops(1e8);
  MPI_Gather(buf, 1000, MPI_DOUBLE, out, 1000, MPI_DOUBLE, 3 % size, MPI_COMM_WORLD);
}

/* An all-gather of unequal contributions: rank r gives 2000 (r + 1) doubles. */
static void allgatherv(void)
{
  int counts[8], displs[8];
  for (int j = 0, d = 0; j < size; j++) {
    counts[j] = 2000 * (j + 1);
    displs[j] = d;
    d += counts[j];
  }
  MPI_Allgatherv(buf, counts[rank], MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
}

/* A reduce-scatter of unequal blocks, 150 000 doubles each but the last (100 000), more than SMPI's 524 288 elements in
 * all, so that both simulators take MPICH's pairwise exchange, after computations of 1e8 flops (rank 1: 2e8). */
static void reducescatter(void)
{
  int counts[8];
  for (int j = 0; j < size; j++)
    counts[j] = j == size - 1 ? 100000 : 150000;
  smpi_execute_flops(rank == 1 ? 2e8 : 1e8);
  MPI_Reduce_scatter(buf, out, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* A ring of non-blocking messages completed by one MPI_Waitall: rank r receives 250 (r + 8) doubles from r - 1 and
 * sends 250 (r + 9) to r + 1. */
static void waitall(void)
{
  MPI_Request reqs[2];
  int next = (rank + 1) % size;
  int prev = (rank + size - 1) % size;
  MPI_Irecv(out, 250 * (prev + 9), MPI_DOUBLE, prev, 0, MPI_COMM_WORLD, &reqs[0]);
  smpi_execute_flops(rank * 1e7);
  MPI_Isend(buf, 250 * (rank + 9), MPI_DOUBLE, next, 0, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
}

/* Three ranks overlapping 1 MB messages with computation: rank 0 sends to 1 and receives from 2; rank 1 tests its
 * receive from 0 between computations, then sends to 2; rank 2 tests and waits for it, then answers rank 0. */
static void isend(void)
{
  MPI_Request req;
  int flag = 0;
  if (rank == 0) {
    smpi_execute_flops(1e9);
    MPI_Send(buf, 125000, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    smpi_execute_flops(1e9);
    MPI_Recv(out, 125000, MPI_DOUBLE, 2, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Irecv(out, 125000, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req);
    smpi_execute_flops(5e8);
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    smpi_execute_flops(5e8);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Send(buf, 125000, MPI_DOUBLE, 2, 1, MPI_COMM_WORLD);
  } else if (rank == 2) {
    smpi_execute_flops(2e9);
    MPI_Irecv(out, 125000, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &req);
    smpi_execute_flops(2.5e8);
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    smpi_execute_flops(2.5e8);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Isend(buf, 125000, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &req);
    smpi_execute_flops(5e8);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
}

/* Two ranks, for the trace in one file per rank: rank 0 sends 1 MB, receives 1 MB and sends 1 MB; rank 1 receives,
 * computes 1e9 flops, then answers with an MPI_Isend and takes the third message with an MPI_Irecv, both waited. */
static void pair(void)
{
  if (rank == 0) {
    MPI_Send(buf, 125000, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(out, 125000, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 125000, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Request reqs[2];
    MPI_Recv(out, 125000, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    smpi_execute_flops(1e9);
    MPI_Isend(buf, 125000, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(out, 125000, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &reqs[1]);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv)
{
  static const struct {
    const char *name;
    void (*run)(void);
  } kinds[] = {{"bcast", bcast},
               {"bcast-datatypes", bcast_datatypes},
               {"allreduce", allreduce},
               {"alltoall", alltoall},
               {"alltoallv", alltoallv},
               {"barrier", barrier},
               {"gather", gather},
               {"allgatherv", allgatherv},
               {"reducescatter", reducescatter},
               {"waitall", waitall},
               {"isend", isend},
               {"pair", pair}};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  buf = calloc(BIG, sizeof *buf);
  out = calloc(4 * BIG, sizeof *out);
  int status = 1;
  for (size_t k = 0; argc > 1 && size <= 8 && k < sizeof kinds / sizeof kinds[0]; k++)
    if (strcmp(argv[1], kinds[k].name) == 0) {
      kinds[k].run();
      status = 0;
    }
  free(out);
  free(buf);
  MPI_Finalize();
  return status;
}
