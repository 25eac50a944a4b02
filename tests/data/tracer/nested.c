/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* MPI calls made inside another MPI call (tests/test_trc_mpi.c): freeing a duplicate of MPI_COMM_WORLD runs the delete
 * callback of an attribute set on it, which frees a second duplicate and meets the other rank in a barrier on it, all
 * inside the outer MPI_Comm_free (PETSc frees its inner communicators so, and GetDP through it), after exchanging a
 * message each way on it with MPI_Isend and MPI_Irecv, then again with persistent requests started by one
 * MPI_Startall. The inner calls are the outer call's time: the timeline must hold the outer call alone, after what
 * came before it, and the TI trace none of their actions. Around it, a message on MPI_COMM_WORLD posted before the
 * outer call and waited for after it, so that the run has something to pair and a wait that names its request by the
 * postings since. Run on 2 ranks. */
#include <mpi.h>
#include <stdio.h>

static MPI_Comm inner = MPI_COMM_NULL;

static int free_inner(MPI_Comm comm, int keyval, void *value, void *extra)
{
  (void)comm, (void)keyval, (void)value, (void)extra;
  int rank, out = 1, in[2];
  MPI_Request r[2];
  MPI_Comm_rank(inner, &rank);
  MPI_Irecv(&in[0], 1, MPI_INT, 1 - rank, 7, inner, &r[0]);
  MPI_Isend(&out, 1, MPI_INT, 1 - rank, 7, inner, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Recv_init(&in[1], 1, MPI_INT, 1 - rank, 8, inner, &r[0]);
  MPI_Send_init(&out, 1, MPI_INT, 1 - rank, 8, inner, &r[1]);
  MPI_Startall(2, r);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
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
  MPI_Request message;
  if (rank == 0)
    MPI_Isend(&rank, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &message);
  else
    MPI_Irecv(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &message);
  MPI_Comm_free(&outer);
  MPI_Comm_free_keyval(&keyval);
  MPI_Wait(&message, MPI_STATUS_IGNORE);
  printf("nested done on rank %d: inner %s\n", rank, inner == MPI_COMM_NULL ? "freed" : "kept");
  MPI_Finalize();
  return 0;
}
