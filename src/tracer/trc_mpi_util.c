/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the PMPI wrappers (trc_mpi.c, trc_mpi_coll.c) share: this rank in the world, message sizes in bytes, the TI
 * count lists of the v-collectives */
#include "trc_mpi_util.h"

#include <stdio.h>
#include <stdlib.h>

/* This process's rank in MPI_COMM_WORLD. */
int trc_world_rank(void)
{
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

double trc_nbytes(int count, MPI_Datatype type)
{
  int size = 0;
  if (!trc_active() || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
    return 0;
  return (double)count * size;
}

/* "N c0 c1 ... " of `count` entries of `counts` in bytes of `type` (zeros when counts is NULL), N their sum first when
 * `with_sum`: a new string, or NULL when out of memory. */
char *trc_counts_text(const int *counts, int count, MPI_Datatype type, int with_sum)
{
  double unit = counts ? trc_nbytes(1, type) : 0;
  size_t cap = 24 * ((size_t)count + 1);
  char *text = malloc(cap);
  if (!text)
    return NULL;
  size_t len = 0;
  double sum = 0;
  for (int i = 0; counts && i < count; i++)
    sum += counts[i] * unit;
  if (with_sum)
    len += (size_t)snprintf(text, cap, "%.0f", sum);
  for (int i = 0; i < count; i++)
    len += (size_t)snprintf(text + len, cap - len, "%s%.0f", len ? " " : "", counts ? counts[i] * unit : 0);
  return text;
}

int trc_comm_rank(MPI_Comm comm)
{
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  return rank;
}

int trc_comm_size(MPI_Comm comm)
{
  int size = 0;
  PMPI_Comm_size(comm, &size);
  return size;
}

void trc_untraced_call(double t, const char *name, trc_category_t category, const char *why)
{
  trc_call(t, name, category, -1, 0, NULL);
  if (trc_active())
    trc_untraced(why);
}
