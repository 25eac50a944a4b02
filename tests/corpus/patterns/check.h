/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The verdict of one of the corpus's pattern programs (tests/corpus/README.md): each rank counts the checks it saw
 * fail, printing each; rank 0 prints "NAME: No errors" when no rank saw one, and every rank's exit status says the
 * same. */
#ifndef CORPUS_CHECK_H
#define CORPUS_CHECK_H

#include <mpi.h>
#include <stdio.h>

/* Counts a failed check in *errors and says which, on standard error. */
#define CHECK(errors, cond, ...)                                                                                       \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, __VA_ARGS__);                                                                                    \
      fputc('\n', stderr);                                                                                             \
      (*(errors))++;                                                                                                   \
    }                                                                                                                  \
  } while (0)

/* The sum of every rank's `errors` on MPI_COMM_WORLD; rank 0 prints the success line when it is 0. Returns the exit
 * status: 0 when no rank counted an error, 1 otherwise. */
static inline int check_verdict(const char *name, int errors)
{
  int rank = 0;
  int total = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (total == 0)
      printf("%s: No errors\n", name);
    else
      printf("%s: %d errors\n", name, total);
  }
  return total != 0;
}

/* The whole run of a pattern program: between MPI_Init and MPI_Finalize, `body` on every rank when the run has `ranks`
 * ranks (0: any number; otherwise a run on another number fails), then check_verdict. Returns the exit status. */
static inline int check_main(int argc, char **argv, const char *name, int ranks,
                             void (*body)(int rank, int size, int *errors))
{
  int rank = 0;
  int size = 0;
  int errors = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(&errors, ranks == 0 || size == ranks, "run on %d ranks, not %d", ranks, size);
  if (ranks == 0 || size == ranks)
    body(rank, size, &errors);
  int status = check_verdict(name, errors);
  MPI_Finalize();
  return status;
}

#endif
