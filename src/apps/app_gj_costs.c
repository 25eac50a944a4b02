/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan's work and bytes (seed 001 §4.1-4.2, eq. 10): what each rank computes and sends at each step, as the
 * skeleton (app_gj.c) charges them and its closed form (app_gj_closed.c) evaluates them, and how rows map to ranks. */
#include "app_gj_costs.h"

/* The work of one element of each module of eq. 10, as operation counts (met_machine.h); what an operation costs is
 * the platform's (simrun:cycles-*, docs/machines.md). Rsub, a[i][j] -= f * a[k][j], compiled as a loop over j:
 *  - cpu 3: the loop's index increment, compare and branch (the address arithmetic folds into the loads);
 *  - flop 2: one multiply, one subtract;
 *  - intmem 2: the loop index and the factor f, read from the workspace (on-chip memory on the T800);
 *  - extmem 3: load a[k][j], load a[i][j], store a[i][j] (the matrix, N(N+1) doubles, is in external memory).
 * The paper gives cycle counts per module (t_i of eq. 10) but not their instruction mix, so each other module is
 * described as Rsub's mix times a weight by its memory and floating-point operations per element: Norm a[k][j] *= inv
 * (load, fmul, store) 0.6; Set (read f, clear a[i][k]) and Buf (copy one element) 0.4; Inv (one division per step)
 * 1. Rsub is 99% of all the work, so these weights move results by well under 1%. */
const met_ops_t app_gj_rsub_element = {
    .n = {[MET_CLASS_CPU] = 3, [MET_CLASS_FLOP] = 2, [MET_CLASS_INTMEM] = 2, [MET_CLASS_EXTMEM] = 3}};

#define GJ_WEIGHT_NORM 0.6
#define GJ_WEIGHT_SET  0.4
#define GJ_WEIGHT_BUF  0.4
#define GJ_WEIGHT_INV  1.0
#define GJ_DOUBLE      8.0

double app_gj_input_bytes(int n)
{
  return (double)n * (n + 2) * GJ_DOUBLE;
}

double app_gj_block_bytes(int n, int rows)
{
  return (double)rows * (n + 1) * GJ_DOUBLE;
}

double app_gj_row_bytes(int n)
{
  return (n + 1) * GJ_DOUBLE;
}

double app_gj_result_bytes(int rows)
{
  return rows * GJ_DOUBLE;
}

/* The pivot's work at step k: invert the pivot, normalise the N - k entries right of it, buffer the row. */
double app_gj_pivot_ops(int n, int k)
{
  return GJ_WEIGHT_INV + GJ_WEIGHT_NORM * (n - k) + GJ_WEIGHT_BUF * (n + 1);
}

/* Updating `rows` other rows at step k: clear their column k, subtract the pivot row from the N - k entries right. */
double app_gj_update_ops(int n, int k, int rows)
{
  return rows * (GJ_WEIGHT_SET + (double)(n - k));
}

double app_gj_element_ops(int n)
{
  double ops = 0;
  for (int k = 0; k < n; k++)
    ops += app_gj_pivot_ops(n, k) + app_gj_update_ops(n, k, n - 1);
  return ops;
}

int app_gj_rows_of(int n, int p, int r)
{
  return n / p + (r < n % p);
}

int app_gj_owner_of(int n, int p, int row)
{
  int q = n / p;
  int big = (n % p) * (q + 1); /* rows held by the ranks with one more */
  return row < big ? row / (q + 1) : n % p + (row - big) / q;
}

met_ops_t app_gj_ops(int n, int rows)
{
  met_ops_t ops = app_gj_rsub_element;
  ops.working_set = app_gj_block_bytes(n, rows) + app_gj_row_bytes(n);
  ops.seq_working_set = app_gj_block_bytes(n, n) + app_gj_row_bytes(n);
  return ops;
}
