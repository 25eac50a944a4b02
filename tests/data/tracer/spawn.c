/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An MPI program for the tracer's tests (tests/test_trc_mpi.c) that starts processes of its own, as Rmpi's
 * mpi.spawn.Rslaves does: its 2 ranks spawn 2 copies of it (MPI_Comm_spawn), whose own MPI_COMM_WORLD has 2 ranks too.
 * The children add their world ranks plus one (1 + 2) with an MPI_Reduce and their rank 0 sends the sum to the
 * parents' rank 0, which prints "spawn: children sent 3". Then, as Rmpi talks to its workers, both sides merge the
 * intercommunicator (parents first: ranks 0 and 1, children 2 and 3), broadcast a token from rank 0 on it, rank 0
 * sends it to rank 3 by a persistent request, which sends it back to an MPI_Irecv from any source, and rank 0 sends
 * it to rank 4, which the communicator lacks (MPI_ERRORS_RETURN: the error ignored, as Rmpi's mpi.remote.exec ignores
 * its send one past its workers). The parents then exchange a message, and rank 0 sends one to rank 2, which
 * MPI_COMM_WORLD lacks (the error ignored too). With the argument "bare" the children run without the tracer's
 * preload. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* Both sides: the merged communicator's broadcast, and rank 0's messages with rank 3 (and to 4). */
static void merged(MPI_Comm inter, int high)
{
  MPI_Comm all;
  MPI_Intercomm_merge(inter, high, &all);
  int rank, size, token = 11;
  MPI_Comm_rank(all, &rank);
  MPI_Comm_size(all, &size);
  MPI_Bcast(&token, 1, MPI_INT, 0, all);
  if (rank == 0) {
    MPI_Request request;
    MPI_Send_init(&token, 1, MPI_INT, size - 1, 8, all, &request);
    MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Request_free(&request);
    MPI_Irecv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 9, all, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Comm_set_errhandler(all, MPI_ERRORS_RETURN);
    if (MPI_Send(&token, 1, MPI_INT, size, 8, all) == MPI_SUCCESS)
      printf("spawn: a send to rank %d of %d succeeded\n", size, size);
  } else if (rank == size - 1) {
    MPI_Recv(&token, 1, MPI_INT, 0, 8, all, MPI_STATUS_IGNORE);
    MPI_Send(&token, 1, MPI_INT, 0, 9, all);
  }
  MPI_Comm_free(&all);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (parent != MPI_COMM_NULL) { /* a child */
    int mine = rank + 1;
    int sum = 0;
    MPI_Reduce(&mine, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
      MPI_Send(&sum, 1, MPI_INT, 0, 7, parent); /* to the parents' rank 0 */
    merged(parent, 1);
    MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return 0;
  }
  MPI_Comm children;
  /* "bare": the children run without the tracer (env -u LD_PRELOAD), as a program started by another name may */
  int bare = argc > 1 && strcmp(argv[1], "bare") == 0;
  char *unset[] = {"-u", "LD_PRELOAD", argv[0], NULL};
  MPI_Comm_spawn(bare ? "env" : argv[0], bare ? unset : MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children,
                 MPI_ERRCODES_IGNORE);
  int sum = 0;
  if (rank == 0) {
    MPI_Recv(&sum, 1, MPI_INT, 0, 7, children, MPI_STATUS_IGNORE);
    printf("spawn: children sent %d\n", sum);
  }
  merged(children, 0);
  MPI_Comm_disconnect(&children);
  MPI_Sendrecv_replace(&sum, 1, MPI_INT, 1 - rank, 1, 1 - rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 0 && MPI_Send(&sum, 1, MPI_INT, size, 1, MPI_COMM_WORLD) == MPI_SUCCESS)
    printf("spawn: a send to rank %d of %d succeeded\n", size, size);
  MPI_Finalize();
  return 0;
}
