/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The paper's FAST pdtrsm model (Caron & Suter 2002, seed 003 §4.2, eqs. 4-7) as the paper writes it: the oracle the
 * tests hold the product's critical-path model (met_pdtrsm_pipeline, which adds the pipeline's idle times and the
 * links the messages share) and the pdtrsm skeleton's simulation against. Checked by hand in test_met_model.c. */
#ifndef TU_FAST_H
#define TU_FAST_H

#include "met_model.h"

/* Columns of B a process updates after i solved blocks: R ceil((N - iR) / (QR)) (§4.2). */
static inline double tu_update_columns(const met_dense_t *d, long i)
{
  long width = (long)d->cols * d->r;
  long left = d->n - i * d->r;
  return (double)d->r * (double)(left <= 0 ? 0 : (left + width - 1) / width);
}

/* One step of pbdtrsm after i solved blocks: eq. 6 on a single-row grid (P = 1), else the summand of eq. 7; eq. 4 for
 * the ring broadcast of the solved block (none on a single column, Q = 1), eq. 5 for the send to the next process
 * row. Seconds. */
static inline double tu_pbdtrsm_step(const met_dense_t *d, const met_machine_t *m, long i)
{
  double r = (double)d->r;
  double trsm = r * r * r / m->flops; /* R rows, each an R x R triangular solve of R^2 operations */
  double broadcast = d->cols > 1 ? met_hockney(&m->link, r * r * m->elem_bytes) : 0;
  double columns = tu_update_columns(d, i);
  if (d->rows == 1)
    return trsm + broadcast + met_dgemm_flops(r, r, columns) / m->flops; /* eq. 6 */
  double first = (double)(d->rows - 1) * r;
  columns = first < columns ? first : columns;
  double send = met_hockney(&m->col_link, r * columns * m->elem_bytes); /* eq. 5 */
  double add = r * columns / m->flops;
  return trsm + broadcast + met_dgemm_flops(r, r, columns) / m->flops + send + add; /* eq. 7 */
}

/* One pbdtrsm call (one block row of B): its ceil(N/R) steps, in seconds. */
static inline double tu_pbdtrsm_time(const met_dense_t *d, const met_machine_t *m)
{
  double t = 0;
  long blocks = (d->n + d->r - 1) / d->r;
  for (long i = 1; i <= blocks; i++)
    t += tu_pbdtrsm_step(d, m, i);
  return t;
}

/* The FAST pdtrsm time: ceil(M/R) pbdtrsm calls, one after another. */
static inline double tu_pdtrsm_time(const met_dense_t *d, const met_machine_t *m)
{
  return (double)((d->m + d->r - 1) / d->r) * tu_pbdtrsm_time(d, m);
}

#endif
