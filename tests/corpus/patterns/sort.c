/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A parallel bucket sort of integers, the exchange of an integer sort (as NAS IS ranks its keys), run on 4 ranks:
 * each rank draws KEYS keys in [0, RANGE) from a linear congruential generator seeded by its rank, sends each key to
 * the rank whose slice of the range holds it (MPI_Alltoall of the counts, then MPI_Alltoallv of the keys), and sorts
 * what it received by counting. Three rounds, each with other seeds. What must hold, by construction: every rank's keys
 * are sorted and inside its slice, each slice's first key is not below the previous slice's last (MPI_Sendrecv), and
 * the number and the sum of all keys are those drawn (MPI_Allreduce). Prints "sort: No errors" when every check held.
 */
#include "check.h"

#include <mpi.h>
#include <stdlib.h>

enum { KEYS = 4096, RANGE = 1 << 16, ROUNDS = 3 };

/* The next key of a generator whose state is *x (the C standard's example rand constants, modulo 2^31). */
static int next_key(unsigned long *x)
{
  *x = (*x * 1103515245UL + 12345UL) % 2147483648UL;
  return (int)((*x >> 8) % RANGE);
}

/* Sends every key of `keys` to the rank owning its slice; the keys this rank owns come back in *mine (malloc'd), their
 * number in *count. */
static void exchange(const int *keys, int size, int **mine, int *count)
{
  int *sendcounts = calloc(size, sizeof *sendcounts);
  int *recvcounts = calloc(size, sizeof *recvcounts);
  int *sdispls = calloc(size, sizeof *sdispls);
  int *rdispls = calloc(size, sizeof *rdispls);
  int *by_owner = malloc(KEYS * sizeof *by_owner);
  int slice = RANGE / size;
  for (int k = 0; k < KEYS; k++)
    sendcounts[keys[k] / slice]++;
  MPI_Alltoall(sendcounts, 1, MPI_INT, recvcounts, 1, MPI_INT, MPI_COMM_WORLD);
  *count = 0;
  for (int j = 0; j < size; j++) {
    sdispls[j] = j ? sdispls[j - 1] + sendcounts[j - 1] : 0;
    rdispls[j] = *count;
    *count += recvcounts[j];
  }
  int *fill = calloc(size, sizeof *fill);
  for (int k = 0; k < KEYS; k++) {
    int owner = keys[k] / slice;
    by_owner[sdispls[owner] + fill[owner]++] = keys[k];
  }
  *mine = malloc((*count ? *count : 1) * sizeof **mine);
  MPI_Alltoallv(by_owner, sendcounts, sdispls, MPI_INT, *mine, recvcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
  free(fill);
  free(by_owner);
  free(rdispls);
  free(sdispls);
  free(recvcounts);
  free(sendcounts);
}

/* Sorts keys inside [lo, lo + slice) by counting, in place. */
static void counting_sort(int *keys, int count, int lo, int slice)
{
  int *seen = calloc(slice, sizeof *seen);
  for (int k = 0; k < count; k++)
    if (keys[k] >= lo && keys[k] < lo + slice)
      seen[keys[k] - lo]++;
  int k = 0;
  for (int v = 0; v < slice; v++)
    for (int n = 0; n < seen[v]; n++)
      keys[k++] = lo + v;
  free(seen);
}

/* One round: draws, exchanges, sorts and checks. */
static void sort_round(int rank, int size, int round, int *errors)
{
  int keys[KEYS];
  unsigned long x = 1 + (unsigned long)rank + 100UL * (unsigned long)round;
  long drawn[2] = {KEYS, 0};
  for (int k = 0; k < KEYS; k++) {
    keys[k] = next_key(&x);
    drawn[1] += keys[k];
  }
  int *mine = NULL;
  int count = 0;
  exchange(keys, size, &mine, &count);
  int slice = RANGE / size;
  int lo = rank * slice;
  long held[2] = {count, 0};
  for (int k = 0; k < count; k++) {
    CHECK(errors, mine[k] >= lo && mine[k] < lo + slice, "round %d: key %d outside [%d, %d)", round, mine[k], lo,
          lo + slice);
    held[1] += mine[k];
  }
  counting_sort(mine, count, lo, slice);
  for (int k = 1; k < count; k++)
    CHECK(errors, mine[k - 1] <= mine[k], "round %d: keys %d and %d out of order", round, mine[k - 1], mine[k]);
  int last = count ? mine[count - 1] : lo;
  int previous_last = -1;
  MPI_Sendrecv(&last, 1, MPI_INT, rank + 1 < size ? rank + 1 : MPI_PROC_NULL, round, &previous_last, 1, MPI_INT,
               rank > 0 ? rank - 1 : MPI_PROC_NULL, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(errors, count == 0 || mine[0] >= previous_last, "round %d: first key %d below the previous rank's last %d",
        round, count ? mine[0] : -1, previous_last);
  long all_drawn[2];
  long all_held[2];
  MPI_Allreduce(drawn, all_drawn, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(held, all_held, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  CHECK(errors, all_held[0] == (long)KEYS * size && all_held[0] == all_drawn[0] && all_held[1] == all_drawn[1],
        "round %d: %ld keys summing to %ld held, %ld summing to %ld drawn", round, all_held[0], all_held[1],
        all_drawn[0], all_drawn[1]);
  free(mine);
}

static void run(int rank, int size, int *errors)
{
  for (int round = 0; round < ROUNDS; round++)
    sort_round(rank, size, round, errors);
}

int main(int argc, char **argv)
{
  return check_main(argc, argv, "sort", 0, run);
}
