/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* MPI calls made inside another MPI call (tests/test_trc_mpi.c): freeing a duplicate of MPI_COMM_WORLD runs the delete
 * callback of an attribute set on it, which frees a second duplicate and meets the other rank in a barrier on it, all
 * inside the outer MPI_Comm_free (PETSc frees its inner communicators so, and GetDP through it). The inner calls are
 * the outer call's time: the timeline must hold the outer call alone, after what came before it. Then a message, so
 * that the run has something to pair. Run on 2 ranks. */
#include <mpi.h>
#include <stdio.h>

static MPI_Comm inner = MPI_COMM_NULL;

static int free_inner(MPI_Comm comm, int keyval, void *value, void *extra)
{
  (void)comm, (void)keyval, (void)value, (void)extra;
  MPI_Barrier(inner);
  return MPI_Comm_free(&inner);
}

int main(int argc, char **argv)
{
  int rank = 0, keyval, value = 0;
  MPI_Comm outer;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &outer);
  MPI_Comm_dup(MPI_COMM_WORLD, &inner);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_inner, &keyval, NULL);
  MPI_Comm_set_attr(outer, keyval, &value);
  MPI_Comm_free(&outer);
  MPI_Comm_free_keyval(&keyval);
  if (rank == 0)
    MPI_Send(&rank, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("nested done on rank %d: inner %s\n", rank, inner == MPI_COMM_NULL ? "freed" : "kept");
  MPI_Finalize();
  return 0;
}
