/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the first call of a kind costs against the next one of the same kind (bench/first_calls.sh,
 * docs/tracer-extras.md): 2 ranks, each call made twice, each time after two barriers (both ranks in step); each rank
 * times its call and a call's cost is the shorter of the two ranks' times, the call of the rank that came last, which
 * waited for no one. Rank 0 prints "NAME FIRST SECOND" per call, in microseconds: collectives on the world, two
 * non-blocking ones with their MPI_Wait, MPI_Comm_dup and MPI_Comm_split, and an MPI_Allreduce and MPI_Bcast on the
 * communicators they made. A process runs each first call once: bench/first_calls.sh runs it several times. */
#include <mpi.h>
#include <stdio.h>

enum { CALLS = 11, INTS = 8 };

static int rank, one = 1, many[2 * INTS];
static MPI_Comm dup, split;

/* Call `which` of the CALLS, on the communicators made so far (dup and split are made by calls 8 and 10). */
static void call(int which)
{
  MPI_Request request;
  switch (which) {
  case 0:
    MPI_Bcast(&one, 1, MPI_INT, 1, MPI_COMM_WORLD);
    break;
  case 1:
    MPI_Reduce(&one, many, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    break;
  case 2:
    MPI_Allreduce(&one, many, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    break;
  case 3:
    MPI_Allgather(&one, 1, MPI_INT, many, 1, MPI_INT, MPI_COMM_WORLD);
    break;
  case 4:
    MPI_Alltoall(many, 1, MPI_INT, many + INTS, 1, MPI_INT, MPI_COMM_WORLD);
    break;
  case 5:
    MPI_Ibcast(&one, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    break;
  case 6:
    MPI_Iallreduce(&one, many, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    break;
  case 7:
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    break;
  case 8:
    MPI_Allreduce(&one, many, 1, MPI_INT, MPI_SUM, dup);
    break;
  case 9:
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &split);
    break;
  default:
    MPI_Bcast(&one, 1, MPI_INT, 0, split);
  }
}

/* The seconds `which` took on this rank, both ranks in step before it. */
static double timed(int which)
{
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  call(which);
  return MPI_Wtime() - start;
}

int main(int argc, char **argv)
{
  static const char *const names[CALLS] = {"bcast",          "reduce",      "allreduce",       "allgather",
                                           "alltoall",       "ibcast+wait", "iallreduce+wait", "comm_dup",
                                           "allreduce(dup)", "comm_split",  "bcast(split)"};
  int size = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      fprintf(stderr, "usage: mpirun -np 2 first_calls\n");
    MPI_Finalize();
    return 2;
  }
  double mine[2 * CALLS], theirs[2 * CALLS];
  for (int i = 0; i < CALLS; i++) { /* the communicator-making calls made once each: their second is another one */
    mine[2 * i] = timed(i);
    if (i == 7 || i == 9)
      MPI_Comm_free(i == 7 ? &dup : &split);
    mine[2 * i + 1] = timed(i);
  }
  if (rank == 1)
    MPI_Send(mine, 2 * CALLS, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  else {
    MPI_Recv(theirs, 2 * CALLS, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < CALLS; i++)
      printf("%s %.3f %.3f\n", names[i], 1e6 * (mine[2 * i] < theirs[2 * i] ? mine[2 * i] : theirs[2 * i]),
             1e6 * (mine[2 * i + 1] < theirs[2 * i + 1] ? mine[2 * i + 1] : theirs[2 * i + 1]));
  }
  MPI_Comm_free(&dup);
  MPI_Comm_free(&split);
  MPI_Finalize();
  return 0;
}
