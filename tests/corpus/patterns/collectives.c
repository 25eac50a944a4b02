/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Collectives as the MPI standard defines them (chapter 5), run on 4 ranks: a barrier, inclusive and exclusive scans
 * (blocking), and every non-blocking collective of a communicator started together and completed by MPI_Waitsome, then
 * MPI_Waitall. Each result below is the definition applied to rank r's contribution, by hand for p = 4. Prints
 * "collectives: No errors" when every check held. */
#include "check.h"

#include <mpi.h>

enum { N = 4, STARTED = 11 };

/* Scans of r + 1: the inclusive sum is (r + 1)(r + 2) / 2, the exclusive one r (r + 1) / 2 (undefined at rank 0,
 * whose buffer keeps -1); the inclusive product of 2 is 2^(r + 1), the exclusive maximum of r is r - 1. */
static void scans(int rank, int *errors)
{
  int mine = rank + 1;
  int two = 2;
  int sum = -1;
  int before = -1;
  int product = -1;
  int max = -1;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Scan(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(&mine, &before, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(&two, &product, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
  MPI_Exscan(&rank, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(errors, sum == (rank + 1) * (rank + 2) / 2, "scan: %d", sum);
  CHECK(errors, rank == 0 || before == rank * (rank + 1) / 2, "exscan: %d", before);
  CHECK(errors, product == 1 << (rank + 1), "scan of products: %d", product);
  CHECK(errors, rank == 0 || max == rank - 1, "exscan of maxima: %d", max);
}

/* What each non-blocking collective gives rank r. */
typedef struct {
  int bcast;          /* from rank 1: 1234 */
  int reduce;         /* sum of r + 1 at rank 2: 10 */
  int allreduce;      /* maximum of r^2: 9 */
  int gather[N];      /* 10 r at rank 0: 0 10 20 30 */
  int scatter;        /* rank 3 scatters 5 6 7 8: r + 5 */
  int allgather[N];   /* r + 100: 100 101 102 103 */
  int alltoall[N];    /* j sends r 10 j + r */
  int scan;           /* sum of r + 1: (r + 1)(r + 2) / 2 */
  int exscan;         /* sum of r + 1 before r: r (r + 1) / 2 */
  int reduce_scatter; /* block j of rank r is r + j: block r summed is 6 + 4 r */
} results_t;

static void check_results(int rank, const results_t *got, int *errors)
{
  CHECK(errors, got->bcast == 1234, "ibcast: %d", got->bcast);
  CHECK(errors, rank != 2 || got->reduce == 10, "ireduce: %d", got->reduce);
  CHECK(errors, got->allreduce == 9, "iallreduce: %d", got->allreduce);
  CHECK(errors, got->scatter == rank + 5, "iscatter: %d", got->scatter);
  CHECK(errors, got->scan == (rank + 1) * (rank + 2) / 2, "iscan: %d", got->scan);
  CHECK(errors, rank == 0 || got->exscan == rank * (rank + 1) / 2, "iexscan: %d", got->exscan);
  CHECK(errors, got->reduce_scatter == 6 + 4 * rank, "ireduce_scatter_block: %d", got->reduce_scatter);
  for (int j = 0; j < N; j++) {
    CHECK(errors, rank != 0 || got->gather[j] == 10 * j, "igather[%d]: %d", j, got->gather[j]);
    CHECK(errors, got->allgather[j] == j + 100, "iallgather[%d]: %d", j, got->allgather[j]);
    CHECK(errors, got->alltoall[j] == 10 * j + rank, "ialltoall[%d]: %d", j, got->alltoall[j]);
  }
}

/* Starts the eleven non-blocking collectives in one order on every rank, completes some with MPI_Waitsome and the
 * rest with MPI_Waitall, then checks every result. */
static void nonblocking(int rank, int *errors)
{
  results_t got = {.bcast = rank == 1 ? 1234 : -1, .reduce = -1, .exscan = -1};
  int mine = rank + 1;
  int square = rank * rank;
  int ten = 10 * rank;
  int hundred = rank + 100;
  int scattered[N] = {5, 6, 7, 8};
  int to_each[N];
  int blocks[N];
  for (int j = 0; j < N; j++) {
    to_each[j] = 10 * rank + j;
    blocks[j] = rank + j;
  }
  MPI_Request reqs[STARTED];
  MPI_Ibarrier(MPI_COMM_WORLD, &reqs[0]);
  MPI_Ibcast(&got.bcast, 1, MPI_INT, 1, MPI_COMM_WORLD, &reqs[1]);
  MPI_Ireduce(&mine, &got.reduce, 1, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD, &reqs[2]);
  MPI_Iallreduce(&square, &got.allreduce, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &reqs[3]);
  MPI_Igather(&ten, 1, MPI_INT, got.gather, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[4]);
  MPI_Iscatter(scattered, 1, MPI_INT, &got.scatter, 1, MPI_INT, 3, MPI_COMM_WORLD, &reqs[5]);
  MPI_Iallgather(&hundred, 1, MPI_INT, got.allgather, 1, MPI_INT, MPI_COMM_WORLD, &reqs[6]);
  MPI_Ialltoall(to_each, 1, MPI_INT, got.alltoall, 1, MPI_INT, MPI_COMM_WORLD, &reqs[7]);
  MPI_Iscan(&mine, &got.scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[8]);
  MPI_Iexscan(&mine, &got.exscan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[9]);
  MPI_Ireduce_scatter_block(blocks, &got.reduce_scatter, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[10]);
  int done = 0;
  int indices[STARTED];
  MPI_Waitsome(STARTED, reqs, &done, indices, MPI_STATUSES_IGNORE);
  CHECK(errors, done >= 1 && done <= STARTED, "waitsome completed %d", done);
  MPI_Waitall(STARTED, reqs, MPI_STATUSES_IGNORE);
  check_results(rank, &got, errors);
}

static void run(int rank, int size, int *errors)
{
  (void)size;
  scans(rank, errors);
  nonblocking(rank, errors);
}

int main(int argc, char **argv)
{
  return check_main(argc, argv, "collectives", N, run);
}
