/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Requests completed in part, cancelled, freed, persistent, polled with every test variant, and collectives on
 * sub-communicators (tests/test_trc_mpi.c, issue 25): the TI trace must name exactly the requests each call
 * completed, so that a replay completes the same ones. Run on 4 ranks. With the argument "smpi" the calls that need
 * simrun's TI extensions (a cancelled receive from a known source, collectives on sub-communicators) are left out, so
 * that smpirun can replay the trace too. Ranks 0 and 1 exchange; 2 and 3 only join the collectives. */
#include <mpi.h>
#include <string.h>

enum { N = 5 };

/* Rank 0: five receives from rank 1, completed by Waitall on two, Waitany, Waitsome, then a Wait. */
static void subsets(int rank)
{
  int in[N][8] = {{0}};
  MPI_Request reqs[N];
  if (rank == 0) {
    for (int i = 0; i < N; i++)
      MPI_Irecv(in[i], 8, MPI_INT, 1, i, MPI_COMM_WORLD, &reqs[i]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE); /* tags 0 and 1 only */
    int index;
    MPI_Waitany(N - 2, reqs + 2, &index, MPI_STATUS_IGNORE);
    int outcount;
    int indices[N];
    MPI_Waitsome(N - 2, reqs + 2, &outcount, indices, MPI_STATUSES_IGNORE);
    for (int i = 2; i < N; i++)
      MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    for (int i = 0; i < N; i++)
      MPI_Send(in[i], 8, MPI_INT, 0, i, MPI_COMM_WORLD);
  }
}

/* Rank 0 cancels a receive from any source (and, unless `smpi`, one from rank 1) that nothing will match, frees an
 * active send, polls with Test, Testany, Testsome, Testall and Iprobe for messages rank 1 sends after a barrier, and
 * tests a null request and a persistent one not started with each test and MPI_Request_get_status, which complete
 * none. */
static void cancel_free_poll(int rank, int smpi)
{
  int buf[4] = {0};
  int flag = 0;
  MPI_Request r[2];
  if (rank == 0) {
    MPI_Status st;
    MPI_Irecv(buf, 4, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &r[0]);
    MPI_Cancel(&r[0]);
    MPI_Wait(&r[0], &st);
    if (!smpi) {
      MPI_Irecv(buf, 4, MPI_INT, 1, 98, MPI_COMM_WORLD, &r[0]);
      MPI_Cancel(&r[0]);
      MPI_Wait(&r[0], &st);
    }
    MPI_Isend(buf, 1, MPI_INT, 1, 20, MPI_COMM_WORLD, &r[0]);
    MPI_Request_free(&r[0]);
  } else if (rank == 1) {
    MPI_Recv(buf, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int index;
    int outcount;
    int indices[2];
    MPI_Irecv(buf, 1, MPI_INT, 1, 30, MPI_COMM_WORLD, &r[0]);
    for (flag = 0; !flag;)
      MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
    MPI_Irecv(buf, 1, MPI_INT, 1, 31, MPI_COMM_WORLD, &r[0]);
    for (flag = 0; !flag;)
      MPI_Testany(1, r, &index, &flag, MPI_STATUS_IGNORE);
    MPI_Irecv(buf, 1, MPI_INT, 1, 32, MPI_COMM_WORLD, &r[0]);
    for (outcount = 0; outcount == 0;)
      MPI_Testsome(1, r, &outcount, indices, MPI_STATUSES_IGNORE);
    MPI_Irecv(buf, 1, MPI_INT, 1, 33, MPI_COMM_WORLD, &r[0]);
    for (flag = 0; !flag;)
      MPI_Testall(1, r, &flag, MPI_STATUSES_IGNORE);
    for (flag = 0; !flag;)
      MPI_Iprobe(1, 34, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Request none[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Recv_init(buf, 1, MPI_INT, 1, 35, MPI_COMM_WORLD, &none[1]);
    for (int k = 0; k < 2; k++) {
      MPI_Test(&none[k], &flag, MPI_STATUS_IGNORE);
      MPI_Testany(1, &none[k], &index, &flag, MPI_STATUS_IGNORE);
      MPI_Testsome(1, &none[k], &outcount, indices, MPI_STATUSES_IGNORE);
      MPI_Testall(1, &none[k], &flag, MPI_STATUSES_IGNORE);
      MPI_Request_get_status(none[k], &flag, MPI_STATUS_IGNORE);
    }
    MPI_Testall(2, none, &flag, MPI_STATUSES_IGNORE);
    MPI_Request_free(&none[1]);
    MPI_Recv(buf, 1, MPI_INT, 1, 34, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    for (int tag = 30; tag <= 34; tag++)
      MPI_Send(buf, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
  }
}

/* Persistent requests between ranks 0 and 1, started three times. */
static void persistent(int rank)
{
  double x[16] = {0};
  MPI_Request r[2];
  if (rank > 1)
    return;
  int other = 1 - rank;
  MPI_Send_init(x, 8, MPI_DOUBLE, other, 40, MPI_COMM_WORLD, &r[0]);
  MPI_Recv_init(x + 8, 8, MPI_DOUBLE, other, 40, MPI_COMM_WORLD, &r[1]);
  for (int i = 0; i < 3; i++) {
    MPI_Startall(2, r);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
}

/* Collectives on the halves of a split, on a 2 x 2 Cartesian grid's rows and on a group of ranks 1 to 3. */
static void sub_communicators(int rank)
{
  double v[4] = {1, 2, 3, 4};
  double w[16];
  MPI_Comm half;
  MPI_Comm grid;
  MPI_Comm row;
  MPI_Comm three;
  MPI_Group world;
  MPI_Group upper;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half); /* members in reverse order */
  MPI_Allreduce(v, w, 4, MPI_DOUBLE, MPI_SUM, half);
  MPI_Barrier(half);
  MPI_Bcast(v, 2, MPI_DOUBLE, 1, half);
  MPI_Gather(v, 1, MPI_DOUBLE, w, 1, MPI_DOUBLE, 0, half);
  MPI_Alltoall(v, 1, MPI_DOUBLE, w, 1, MPI_DOUBLE, half);
  MPI_Scan(v, w, 2, MPI_DOUBLE, MPI_SUM, half);
  int dims[2] = {2, 2};
  int periods[2] = {1, 1};
  int keep[2] = {0, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Cart_sub(grid, keep, &row);
  MPI_Allgather(v, 1, MPI_DOUBLE, w, 1, MPI_DOUBLE, row);
  int ranks[3] = {1, 2, 3};
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 3, ranks, &upper);
  MPI_Comm_create(MPI_COMM_WORLD, upper, &three);
  if (three != MPI_COMM_NULL) {
    MPI_Reduce(v, w, 3, MPI_DOUBLE, MPI_MAX, 2, three);
    MPI_Comm_free(&three);
  }
  MPI_Group_free(&upper);
  MPI_Group_free(&world);
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);
  MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
  int rank = 0;
  MPI_Init(&argc, &argv);
  int smpi = argc > 1 && strcmp(argv[1], "smpi") == 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  subsets(rank);
  cancel_free_poll(rank, smpi);
  persistent(rank);
  if (!smpi)
    sub_communicators(rank);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
