/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Communicators and process topologies as the MPI standard defines them (chapters 6 and 7), run on 4 ranks:
 * MPI_Cart_shift on a line (MPI_PROC_NULL past its ends) and on a 2 x 2 torus, MPI_Cart_sub into its rows and columns
 * with a collective on each, neighbourhood collectives on a ring, MPI_Comm_split (reversed keys, one rank left out) and
 * MPI_Comm_dup, whose messages never match receives on the communicator it copies. Prints "topology: No errors" when
 * every check held. The expected figures follow from row-major rank order: on the 2 x 2 grid rank r is at (r / 2, r %
 * 2). With the argument "smpi" the collectives on sub-communicators (simrun's TI extensions) are left out, and their
 * sums not checked, so that smpirun can replay the trace too. */
#include "check.h"

#include <mpi.h>
#include <string.h>

enum { N = 4, DUP_TAG = 5 };

/* Whether collectives on sub-communicators are left out (the argument "smpi"). */
static int world_only;

/* The sum of `rank` over `comm`, or -1 when world_only leaves the collective out. */
static int sum_over(MPI_Comm comm, int rank)
{
  int sum = -1;
  if (!world_only)
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
  return sum;
}

/* A line of 4, not periodic: shifting by +1, rank r receives r - 1 (nothing at rank 0, whose source is
 * MPI_PROC_NULL) and sends to r + 1 (MPI_PROC_NULL at rank 3). */
static void shift_on_a_line(int rank, int *errors)
{
  MPI_Comm line;
  int dims[1] = {N};
  int periods[1] = {0};
  int source = -2;
  int dest = -2;
  int in = -1;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
  MPI_Cart_shift(line, 0, 1, &source, &dest);
  CHECK(errors, source == (rank == 0 ? MPI_PROC_NULL : rank - 1) && dest == (rank == N - 1 ? MPI_PROC_NULL : rank + 1),
        "line shift: source %d, destination %d", source, dest);
  MPI_Sendrecv(&rank, 1, MPI_INT, dest, 0, &in, 1, MPI_INT, source, 0, line, MPI_STATUS_IGNORE);
  CHECK(errors, in == (rank == 0 ? -1 : rank - 1), "line shift: received %d", in);
  MPI_Comm_free(&line);
}

/* The 2 x 2 torus: shifting along dimension 0 reaches the other row, (1 - i, j), both ways. Its rows (dimension 1
 * kept) hold ranks 2i and 2i + 1, whose sum is 4i + 1; its columns (dimension 0 kept) ranks j and j + 2, sum 2j + 2;
 * in each, a rank's rank is its coordinate along the kept dimension. */
static void torus(int rank, int *errors)
{
  MPI_Comm grid;
  MPI_Comm row;
  MPI_Comm column;
  int dims[2] = {2, 2};
  int periods[2] = {1, 1};
  int i = rank / 2;
  int j = rank % 2;
  int source = -2;
  int dest = -2;
  int in = -1;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Cart_shift(grid, 0, 1, &source, &dest);
  CHECK(errors, source == 2 * (1 - i) + j && dest == source, "torus shift: source %d, destination %d", source, dest);
  MPI_Sendrecv(&rank, 1, MPI_INT, dest, 0, &in, 1, MPI_INT, source, 0, grid, MPI_STATUS_IGNORE);
  CHECK(errors, in == 2 * (1 - i) + j, "torus shift: received %d", in);
  int keep_row[2] = {0, 1};
  int keep_column[2] = {1, 0};
  int sub_rank = -1;
  MPI_Cart_sub(grid, keep_row, &row);
  MPI_Comm_rank(row, &sub_rank);
  int sum = sum_over(row, rank);
  CHECK(errors, sub_rank == j && (world_only || sum == 4 * i + 1), "row: rank %d, sum %d", sub_rank, sum);
  MPI_Cart_sub(grid, keep_column, &column);
  MPI_Comm_rank(column, &sub_rank);
  sum = sum_over(column, rank);
  CHECK(errors, sub_rank == i && (world_only || sum == 2 * j + 2), "column: rank %d, sum %d", sub_rank, sum);
  MPI_Comm_free(&column);
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);
}

/* A periodic ring of 4: a Cartesian rank's neighbours are, per dimension, the one at -1 then the one at +1. An
 * allgather gives rank r [r - 1, r + 1] (mod 4); an alltoall that sends 100 r to the left and 100 r + 1 to the right
 * gives it 100 (r - 1) + 1 from the left and 100 (r + 1) from the right. */
static void neighbourhood(int rank, int *errors)
{
  MPI_Comm ring;
  int dims[1] = {N};
  int periods[1] = {1};
  int left = (rank + N - 1) % N;
  int right = (rank + 1) % N;
  int got[2] = {-1, -1};
  int out[2] = {100 * rank, 100 * rank + 1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, ring);
  CHECK(errors, got[0] == left && got[1] == right, "neighbor allgather: %d %d", got[0], got[1]);
  MPI_Neighbor_alltoall(out, 1, MPI_INT, got, 1, MPI_INT, ring);
  CHECK(errors, got[0] == 100 * left + 1 && got[1] == 100 * right, "neighbor alltoall: %d %d", got[0], got[1]);
  MPI_Comm_free(&ring);
}

/* Split by parity with key -rank: the halves are {2, 0} and {3, 1} in that order, so ranks 0 and 1 become 1, ranks 2
 * and 3 become 0; the sums of world ranks are 2 and 4. A split that gives rank 3 MPI_UNDEFINED leaves it out. */
static void split(int rank, int *errors)
{
  MPI_Comm half;
  MPI_Comm some;
  int sub_rank = -1;
  int size = -1;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  MPI_Comm_rank(half, &sub_rank);
  MPI_Comm_size(half, &size);
  int sum = sum_over(half, rank);
  CHECK(errors, sub_rank == (rank < 2) && size == 2 && (world_only || sum == 2 + 2 * (rank % 2)),
        "split: rank %d of %d, sum %d", sub_rank, size, sum);
  MPI_Comm_free(&half);
  MPI_Comm_split(MPI_COMM_WORLD, rank == N - 1 ? MPI_UNDEFINED : 0, rank, &some);
  CHECK(errors, (some == MPI_COMM_NULL) == (rank == N - 1), "split with MPI_UNDEFINED");
  if (some != MPI_COMM_NULL) {
    MPI_Comm_size(some, &size);
    sum = sum_over(some, rank);
    CHECK(errors, size == N - 1 && (world_only || sum == 3), "split without rank 3: %d ranks, sum %d", size, sum);
    MPI_Comm_free(&some);
  }
}

/* A duplicate is congruent with its original but a separate context: rank 0 sends 50 on the duplicate, then 51 on
 * MPI_COMM_WORLD, both with one tag; rank 1's receive from any source with any tag on MPI_COMM_WORLD gets 51, and the
 * one on the duplicate 50. */
static void dup(int rank, int *errors)
{
  MPI_Comm copy;
  int result = -1;
  MPI_Comm_dup(MPI_COMM_WORLD, &copy);
  MPI_Comm_compare(MPI_COMM_WORLD, copy, &result);
  CHECK(errors, result == MPI_CONGRUENT, "dup: comparison %d", result);
  if (rank == 0) {
    int first = 50;
    int second = 51;
    MPI_Request req;
    MPI_Isend(&first, 1, MPI_INT, 1, DUP_TAG, copy, &req);
    MPI_Send(&second, 1, MPI_INT, 1, DUP_TAG, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    int in = -1;
    MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(errors, in == 51, "dup: MPI_COMM_WORLD's receive got %d", in);
    MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, copy, MPI_STATUS_IGNORE);
    CHECK(errors, in == 50, "dup: the duplicate's receive got %d", in);
  }
  MPI_Comm_free(&copy);
}

static void run(int rank, int size, int *errors)
{
  (void)size;
  shift_on_a_line(rank, errors);
  torus(rank, errors);
  neighbourhood(rank, errors);
  split(rank, errors);
  dup(rank, errors);
}

int main(int argc, char **argv)
{
  world_only = argc > 1 && strcmp(argv[1], "smpi") == 0;
  return check_main(argc, argv, "topology", N, run);
}
