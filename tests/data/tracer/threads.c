/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A two-rank MPI program that uses threads, as many libraries do. With the argument `main`, MPI is initialised with
 * MPI_THREAD_MULTIPLE and only the thread that initialised it calls it (one message each way): the tracer records it
 * whole. With `other`, the same two messages go from a second thread of each rank: the tracer, which records one
 * thread per rank, counts those calls and writes no index (tests/test_trc_mpi.c). With `serialized`, as StarPU-MPI
 * does: a progress thread initialises MPI at MPI_THREAD_SERIALIZED and makes the messages, while the main thread asks
 * MPI_Comm_size many times meanwhile (a local query, which Debian's StarPU examples make some 360 times a rank from
 * their other threads), then computes 0.4 s as StarPU's workers do: the tracer records the progress thread whole and
 * says that the other thread's CPU time is not in the trace. Prints "threads ok" when the messages
 * arrived. */
#include <mpi.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int rank;
static int received;
static sem_t initialised;
static sem_t queried;

static void exchange(void)
{
  int out = rank + 1;
  int peer = 1 - rank;
  MPI_Sendrecv(&out, 1, MPI_INT, peer, 0, &received, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void *other(void *unused)
{
  (void)unused;
  exchange();
  return NULL;
}

/* StarPU's progress thread: MPI from start to end, its messages sent while the main thread queries. */
static void *progress(void *unused)
{
  (void)unused;
  int provided = 0;
  MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  sem_post(&initialised);
  for (int i = 0; i < 200; i++)
    exchange();
  sem_wait(&queried);
  MPI_Barrier(MPI_COMM_WORLD);
  if (received == 2 - rank)
    printf("threads ok\n");
  MPI_Finalize();
  return NULL;
}

/* The main thread: its queries, then 0.4 s of CPU (StarPU's workers' computation) while the progress thread waits. */
static int serialized(void)
{
  pthread_t thread;
  sem_init(&initialised, 0, 0);
  sem_init(&queried, 0, 0);
  pthread_create(&thread, NULL, progress, NULL);
  sem_wait(&initialised);
  int size = 0;
  for (int i = 0; i < 20000; i++)
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct timespec t = {0, 0};
  volatile double x = 1.0;
  while (t.tv_sec * 1000000000L + t.tv_nsec < 400000000L) {
    for (int i = 0; i < 100000; i++)
      x = x * 1.0000001 + 1e-9;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  }
  sem_post(&queried);
  pthread_join(thread, NULL);
  return size == 2 ? 0 : 1;
}

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "serialized") == 0)
    return serialized();
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 1 && strcmp(argv[1], "other") == 0 && provided == MPI_THREAD_MULTIPLE) {
    pthread_t thread;
    pthread_create(&thread, NULL, other, NULL);
    pthread_join(thread, NULL);
  } else {
    exchange();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (received == 2 - rank)
    printf("threads ok\n");
  MPI_Finalize();
  return 0;
}
