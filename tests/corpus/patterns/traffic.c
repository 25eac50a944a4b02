/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A data-traffic graph (as NAS DT passes arrays along one), run on 7 ranks: ranks 0-3 are sources, 4 and 5
 * comparators, 6 the sink. Source s sends an array of LENGTH doubles, element i being LENGTH s + i, to comparator 4 + s
 * / 2. A comparator receives its two inputs from any source, in whichever order they come, and sends the sink their
 * element-wise sum and maximum. The sink receives from both comparators and adds the sums: element i must be the sum
 * over the four sources, 6 LENGTH + 4 i, and the larger maximum that of source 3, 3 LENGTH + i. Prints "traffic: No
 * errors" when every check held. */
#include "check.h"

#include <mpi.h>
#include <stdlib.h>

enum { SOURCES = 4, COMPARATORS = 2, SINK = SOURCES + COMPARATORS, RANKS = SINK + 1, LENGTH = 20000, TAG = 1 };

static void source(int rank)
{
  double *out = malloc(LENGTH * sizeof *out);
  for (int i = 0; i < LENGTH; i++)
    out[i] = (double)LENGTH * rank + i;
  MPI_Send(out, LENGTH, MPI_DOUBLE, SOURCES + rank / 2, TAG, MPI_COMM_WORLD);
  free(out);
}

/* Receives its two sources' arrays from any source, checks that both came, and sends the sink [sum, max]. */
static void comparator(int rank, int *errors)
{
  double *in = malloc(2 * LENGTH * sizeof *in);
  double *out = malloc(2 * LENGTH * sizeof *out);
  int from = 0;
  for (int k = 0; k < 2; k++) {
    MPI_Status st;
    MPI_Recv(in + k * LENGTH, LENGTH, MPI_DOUBLE, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
    from |= 1 << st.MPI_SOURCE;
  }
  int first = 2 * (rank - SOURCES);
  CHECK(errors, from == (1 << first | 1 << (first + 1)), "comparator %d: inputs from ranks %#x", rank, from);
  for (int i = 0; i < LENGTH; i++) {
    out[i] = in[i] + in[LENGTH + i];
    out[LENGTH + i] = in[i] > in[LENGTH + i] ? in[i] : in[LENGTH + i];
  }
  MPI_Send(out, 2 * LENGTH, MPI_DOUBLE, SINK, TAG, MPI_COMM_WORLD);
  free(out);
  free(in);
}

static void sink(int *errors)
{
  double *in = malloc(COMPARATORS * 2 * LENGTH * sizeof *in);
  for (int c = 0; c < COMPARATORS; c++)
    MPI_Recv(in + c * 2 * LENGTH, 2 * LENGTH, MPI_DOUBLE, SOURCES + c, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int wrong = 0;
  for (int i = 0; i < LENGTH; i++) {
    double sum = in[i] + in[2 * LENGTH + i];
    double max = in[LENGTH + i] > in[3 * LENGTH + i] ? in[LENGTH + i] : in[3 * LENGTH + i];
    wrong += sum != 6.0 * LENGTH + 4.0 * i || max != 3.0 * LENGTH + i;
  }
  CHECK(errors, wrong == 0, "sink: %d elements wrong", wrong);
  free(in);
}

static void run(int rank, int size, int *errors)
{
  (void)size;
  if (rank < SOURCES)
    source(rank);
  else if (rank < SINK)
    comparator(rank, errors);
  else
    sink(errors);
}

int main(int argc, char **argv)
{
  return check_main(argc, argv, "traffic", RANKS, run);
}
