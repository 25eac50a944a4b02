/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Every collective that has a non-blocking form the tracer writes (tests/test_trc_mpi.c), on the world and on a
 * sub-communicator (ranks 0 and 1 together, 2 alone at p = 3), in its blocking form, or with the argument "nb" in its
 * non-blocking form followed by MPI_Wait: both runs' TI actions must be the same. A gather in place at the root. Rank 0
 * prints "nbc_forms: blocking ok" or "nbc_forms: nb ok". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* The collective `blocking`, or `nonblocking` (which sets the request q) and its MPI_Wait when `nb`. */
#define EITHER(blocking, nonblocking)                                                                                  \
  do {                                                                                                                 \
    if (nb) {                                                                                                          \
      nonblocking;                                                                                                     \
      MPI_Wait(&q, MPI_STATUS_IGNORE);                                                                                 \
    } else {                                                                                                           \
      blocking;                                                                                                        \
    }                                                                                                                  \
  } while (0)

int main(int argc, char **argv)
{
  int r, nb = argc > 1 && strcmp(argv[1], "nb") == 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, r < 2, r, &sub);
  MPI_Comm comms[2] = {MPI_COMM_WORLD, sub};
  int counts[8], displs[8], s[64], d[64];
  for (int i = 0; i < 8; i++) {
    counts[i] = i + 1;
    displs[i] = 8 * i;
  }
  for (int i = 0; i < 64; i++)
    s[i] = d[i] = i;
  for (int c = 0; c < 2; c++) {
    MPI_Comm cm = comms[c];
    int me, n;
    MPI_Comm_rank(cm, &me);
    MPI_Comm_size(cm, &n);
    int own[8]; /* an alltoallv's: me + 1 elements to each member, as each receives j + 1 from member j */
    for (int i = 0; i < 8; i++)
      own[i] = me + 1;
    MPI_Request q = MPI_REQUEST_NULL;
    EITHER(MPI_Barrier(cm), MPI_Ibarrier(cm, &q));
    EITHER(MPI_Bcast(d, 3, MPI_INT, n - 1, cm), MPI_Ibcast(d, 3, MPI_INT, n - 1, cm, &q));
    EITHER(MPI_Reduce(s, d, 2, MPI_INT, MPI_SUM, 0, cm), MPI_Ireduce(s, d, 2, MPI_INT, MPI_SUM, 0, cm, &q));
    EITHER(MPI_Allreduce(s, d, 2, MPI_INT, MPI_SUM, cm), MPI_Iallreduce(s, d, 2, MPI_INT, MPI_SUM, cm, &q));
    EITHER(MPI_Allgather(s, 2, MPI_INT, d, 2, MPI_INT, cm), MPI_Iallgather(s, 2, MPI_INT, d, 2, MPI_INT, cm, &q));
    EITHER(MPI_Alltoall(s, 2, MPI_INT, d, 2, MPI_INT, cm), MPI_Ialltoall(s, 2, MPI_INT, d, 2, MPI_INT, cm, &q));
    EITHER(MPI_Gather(me == 0 ? MPI_IN_PLACE : s, 2, MPI_INT, d, 2, MPI_INT, 0, cm),
           MPI_Igather(me == 0 ? MPI_IN_PLACE : s, 2, MPI_INT, d, 2, MPI_INT, 0, cm, &q));
    EITHER(MPI_Scatter(s, 2, MPI_INT, d, 2, MPI_INT, 0, cm), MPI_Iscatter(s, 2, MPI_INT, d, 2, MPI_INT, 0, cm, &q));
    EITHER(MPI_Gatherv(s, me + 1, MPI_INT, d, counts, displs, MPI_INT, 0, cm),
           MPI_Igatherv(s, me + 1, MPI_INT, d, counts, displs, MPI_INT, 0, cm, &q));
    EITHER(MPI_Scatterv(s, counts, displs, MPI_INT, d, me + 1, MPI_INT, 0, cm),
           MPI_Iscatterv(s, counts, displs, MPI_INT, d, me + 1, MPI_INT, 0, cm, &q));
    EITHER(MPI_Allgatherv(s, me + 1, MPI_INT, d, counts, displs, MPI_INT, cm),
           MPI_Iallgatherv(s, me + 1, MPI_INT, d, counts, displs, MPI_INT, cm, &q));
    EITHER(MPI_Reduce_scatter(s, d, counts, MPI_INT, MPI_SUM, cm),
           MPI_Ireduce_scatter(s, d, counts, MPI_INT, MPI_SUM, cm, &q));
    EITHER(MPI_Alltoallv(s, own, displs, MPI_INT, d, counts, displs, MPI_INT, cm),
           MPI_Ialltoallv(s, own, displs, MPI_INT, d, counts, displs, MPI_INT, cm, &q));
    EITHER(MPI_Reduce_scatter_block(s, d, 2, MPI_INT, MPI_SUM, cm),
           MPI_Ireduce_scatter_block(s, d, 2, MPI_INT, MPI_SUM, cm, &q));
  }
  if (r == 0)
    printf("nbc_forms: %s ok\n", nb ? "nb" : "blocking");
  MPI_Finalize();
  return 0;
}
