/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A two-rank MPI program initialised with MPI_THREAD_MULTIPLE, as many libraries ask for whether they use it or not.
 * With the argument `main`, only the thread that initialised MPI calls it (one message each way): the tracer records
 * it whole. With `other`, the same two messages go from a second thread of each rank: the tracer, which records one
 * thread per rank, counts those calls and writes no index (tests/test_trc_mpi.c). Prints "threads ok" when the
 * messages arrived. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int rank;
static int received;

static void *exchange(void *unused)
{
  (void)unused;
  int out = rank + 1;
  int peer = 1 - rank;
  MPI_Sendrecv(&out, 1, MPI_INT, peer, 0, &received, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return NULL;
}

int main(int argc, char **argv)
{
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 1 && strcmp(argv[1], "other") == 0 && provided == MPI_THREAD_MULTIPLE) {
    pthread_t thread;
    pthread_create(&thread, NULL, exchange, NULL);
    pthread_join(thread, NULL);
  } else {
    exchange(NULL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (received == 2 - rank)
    printf("threads ok\n");
  MPI_Finalize();
  return 0;
}
