/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The factor x factor view of a study (issue 45 item 3): the parameters it sweeps other than p, with two values or
 * more (its factors), crossed at each p, each cell a point with its rank by T_par and the best marked. The terminal
 * (rep_factors.c), CSV, JSON, HTML and SVG writers read the same table, so that they cannot disagree. */
#ifndef STU_FACTORS_H
#define STU_FACTORS_H

#include "stu_study.h"

#include <stddef.h>

/* Two T_par closer than this fraction of the smaller are a tie: both are ranked alike (the study summary's rule). */
#define STU_FACTORS_TIE 1e-9

/* One combination of the factors' values at one p. */
typedef struct stu_factor_cell {
  const stu_point_t *point; /* borrowed from the study; NULL where the sweep has no point (a process grid whose rows do
                             * not divide p, a machine with fewer hosts than p) */
  int rank;                 /* 1 + how many points at this p are faster beyond a tie; 0 without a point */
  int best;                 /* rank 1: the lowest T_par at this p (ties all marked) */
} stu_factor_cell_t;

/* Rows are the combinations of every factor but the last (earlier factors varying slowest, as in the sweep), columns
 * the last factor's values; one such table per p. */
typedef struct stu_factors {
  size_t nfactors;
  size_t *param; /* the factors' positions in the scenario, in its order */
  size_t rows, cols;
  size_t np;
  int *p;                   /* the study's p values, in the order of their first point */
  stu_factor_cell_t *cells; /* np x rows x cols: stu_factors_cell */
} stu_factors_t;

/* The study's factor x factor view in *out. Returns 1 with out filled, 0 when the study has none (fewer than two
 * factors, or no lost-cycle view: no speedup), BAS_ENOMEM when out of memory; either way stu_factors_free(out) frees
 * it. */
int stu_factors_collect(const stu_study_t *study, stu_factors_t *out);
void stu_factors_free(stu_factors_t *factors);

/* The cell of row `row` and column `col` at the k-th p. Borrowed from factors. */
const stu_factor_cell_t *stu_factors_cell(const stu_factors_t *factors, size_t k, size_t row, size_t col);
/* The value of the i-th factor (i < nfactors) in row `row` (the last factor: column `col`), as written in the
 * scenario. Borrowed from the scenario. */
const char *stu_factors_value(const stu_study_t *study, const stu_factors_t *factors, size_t i, size_t row, size_t col);

#endif
