/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A program that never calls MPI_Finalize (tests/test_trc_mpi.c): the ranks exchange MESSAGES messages around a ring,
 * meet at a barrier and return from main, rank 0 20 ms after the others, so that it ends last (as GetDP does at p = 1:
 * its files used to stay in the tracer's buffers, the run refused as killed). With `fork`, each rank first forks a
 * child that returns from main at once, without exec (the tracer's state and open files are the child's too, which its
 * exit must leave alone), and the ranks then end with MPI_Finalize. With `alarm` (p = 1), a timer's signal handler
 * calls exit() 50 ms into a computation that never ends, as a program's SIGTERM handler does when mpirun stops the
 * job; with `alarm-recv`, inside an MPI_Recv of a message from the rank itself that never comes. With `status`, rank
 * 1 calls exit(3) where it would return. With `late`, the ranks but 0 sleep 10 s where they would return, so that
 * mpirun kills them once rank 0's process is gone. */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MESSAGES = 100 };

static void leave(int sig)
{
  (void)sig;
  exit(0);
}

/* Exits from a signal handler 50 ms from now, in a computation or in a receive (`in_recv`) that never ends. */
static void interrupted(int rank, int in_recv)
{
  int x = 0;
  volatile double sum = 0;
  signal(SIGALRM, leave);
  setitimer(ITIMER_REAL, &(struct itimerval){.it_value = {.tv_usec = 50000}}, NULL);
  if (in_recv)
    MPI_Recv(&x, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (;;)
    sum += 1;
}

int main(int argc, char **argv)
{
  int rank, size, x = 0;
  int forks = argc > 1 && strcmp(argv[1], "fork") == 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strncmp(argv[1], "alarm", 5) == 0)
    interrupted(rank, strcmp(argv[1], "alarm-recv") == 0);
  if (forks) {
    pid_t child = fork();
    if (child == 0)
      return 0; /* exit(), not _exit(): the destructors run in the child */
    waitpid(child, NULL, 0);
  }
  for (int i = 0; i < MESSAGES; i++)
    MPI_Sendrecv_replace(&x, 1, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  if (forks)
    MPI_Finalize();
  else if (rank == 1 && argc > 1 && strcmp(argv[1], "status") == 0)
    exit(3);
  else if (rank != 0 && argc > 1 && strcmp(argv[1], "late") == 0)
    sleep(10);
  else if (rank == 0)
    usleep(20000);
  return 0;
}
