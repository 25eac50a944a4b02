/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ring matrix multiply of Lemeire's EPPA (seed 000 Ex. 1.2, Fig. 1.3) as a real MPI program: rank 0 distributes
 * A in p blocks of rows and B in p blocks of columns, p steps each multiply the blocks held and shift B around the
 * ring, and the ranks send their rows of C back to rank 0. Usage: ring_matmul [N] (default 600). */
#include "simrun_phase.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { TAG_A = 1, TAG_B = 2, TAG_SHIFT = 3, TAG_C = 4 };

/* Rows of A (and columns of B) in block b: n / p each, the first n mod p blocks one more (as simrun's ring-matmul). */
static int block_size(int n, int p, int b)
{
  return n / p + (b < n % p);
}

static int block_start(int n, int p, int b)
{
  return b * (n / p) + (b < n % p ? b : n % p);
}

static double a_value(int i, int j)
{
  return (double)((i + 2 * j) % 7) - 3.0;
}

static double b_value(int i, int j)
{
  return (double)((3 * i + j) % 5) - 2.0;
}

/* B's column block b as n rows of its block_size columns. */
static void pack_b(int n, int p, int b, double *out)
{
  int w = block_size(n, p, b);
  int c0 = block_start(n, p, b);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < w; j++)
      out[i * w + j] = b_value(i, c0 + j);
}

/* Rank 0 keeps block 0 and sends each other rank its rows of A and its columns of B. */
static void distribute(int n, int p, int me, double *a, double *b)
{
  simrun_phase_begin("distribution");
  int rows = block_size(n, p, me);
  if (me != 0) {
    MPI_Recv(a, rows * n, MPI_DOUBLE, 0, TAG_A, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(b, n * rows, MPI_DOUBLE, 0, TAG_B, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    double *buf = malloc(sizeof *buf * (size_t)n * (size_t)block_size(n, p, 0));
    for (int r = 1; r < p; r++) {
      int w = block_size(n, p, r);
      for (int i = 0; i < w * n; i++)
        buf[i] = a_value(block_start(n, p, r) + i / n, i % n);
      MPI_Send(buf, w * n, MPI_DOUBLE, r, TAG_A, MPI_COMM_WORLD);
      pack_b(n, p, r, buf);
      MPI_Send(buf, n * w, MPI_DOUBLE, r, TAG_B, MPI_COMM_WORLD);
    }
    free(buf);
  }
  if (me == 0) {
    for (int i = 0; i < rows * n; i++)
      a[i] = a_value(i / n, i % n);
    pack_b(n, p, 0, b);
  }
  simrun_phase_end();
}

/* C's rows of this rank, columns of block `held`: rows x w elements of n multiplications and n - 1 additions. */
static void multiply(int n, int p, int rows, int held, const double *a, const double *b, double *c)
{
  simrun_phase_begin("multiply");
  int w = block_size(n, p, held);
  int c0 = block_start(n, p, held);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < w; j++) {
      double sum = a[i * n] * b[j];
      for (int k = 1; k < n; k++)
        sum += a[i * n + k] * b[k * w + j];
      c[i * n + c0 + j] = sum;
    }
  simrun_phase_end();
}

/* Passes B block `held` to the next rank and takes block held - 1 from the previous one. Even ranks send first, odd
 * ranks receive first, so that the ring completes even with synchronous sends. */
static void shift(int n, int p, int me, int held, double **b, double **spare)
{
  simrun_phase_begin("shift");
  int next = (me + 1) % p;
  int prev = (me - 1 + p) % p;
  int out = n * block_size(n, p, held);
  int in = n * block_size(n, p, (held - 1 + p) % p);
  if (me % 2 == 0) {
    MPI_Send(*b, out, MPI_DOUBLE, next, TAG_SHIFT, MPI_COMM_WORLD);
    MPI_Recv(*spare, in, MPI_DOUBLE, prev, TAG_SHIFT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(*spare, in, MPI_DOUBLE, prev, TAG_SHIFT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(*b, out, MPI_DOUBLE, next, TAG_SHIFT, MPI_COMM_WORLD);
  }
  double *t = *b;
  *b = *spare;
  *spare = t;
  simrun_phase_end();
}

/* The ranks' rows of C to rank 0, which checks them in O(n^2) against A (B u) for u = (1, ..., 1): row i of C must add
 * up to row i of A times B's row sums (small whole numbers, so the sums are exact). The number of wrong rows at rank
 * 0, 0 elsewhere. */
static long collect(int n, int p, int me, double *c)
{
  simrun_phase_begin("collection");
  long wrong = 0;
  if (me != 0)
    MPI_Send(c, block_size(n, p, me) * n, MPI_DOUBLE, 0, TAG_C, MPI_COMM_WORLD);
  for (int r = 1; me == 0 && r < p; r++)
    MPI_Recv(c + (size_t)block_start(n, p, r) * n, block_size(n, p, r) * n, MPI_DOUBLE, r, TAG_C, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  simrun_phase_end();
  double *bu = me == 0 ? malloc(sizeof *bu * (size_t)n) : NULL;
  for (int k = 0; bu && k < n; k++) {
    bu[k] = 0;
    for (int j = 0; j < n; j++)
      bu[k] += b_value(k, j);
  }
  for (int i = 0; bu && i < n; i++) {
    double row = 0;
    double expected = 0;
    for (int j = 0; j < n; j++) {
      row += c[(size_t)i * n + j];
      expected += a_value(i, j) * bu[j];
    }
    wrong += row != expected;
  }
  free(bu);
  return wrong;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int p;
  int me;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int n = argc > 1 ? atoi(argv[1]) : 600;
  if (n < p || n > 20000) {
    if (me == 0)
      fprintf(stderr, "ring_matmul: N = %s must be between p = %d and 20000\n", argc > 1 ? argv[1] : "", p);
    MPI_Finalize();
    return 2;
  }
  size_t big = (size_t)n * (size_t)block_size(n, p, 0);
  double *a = malloc(sizeof *a * big);
  double *b = malloc(sizeof *b * big);
  double *spare = malloc(sizeof *spare * big);
  double *c = malloc(sizeof *c * (me == 0 ? (size_t)n * n : big));
  double t0 = MPI_Wtime();
  distribute(n, p, me, a, b);
  for (int step = 0; step < p; step++) {
    int held = (me - step + p) % p;
    multiply(n, p, block_size(n, p, me), held, a, b, c);
    if (p > 1)
      shift(n, p, me, held, &b, &spare);
  }
  long wrong = collect(n, p, me, c);
  if (me == 0)
    printf("ring_matmul: n = %d, p = %d, %.6f s, %s\n", n, p, MPI_Wtime() - t0, wrong ? "WRONG PRODUCT" : "product ok");
  free(a);
  free(b);
  free(spare);
  free(c);
  MPI_Finalize();
  return wrong ? 1 : 0;
}
