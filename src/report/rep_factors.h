/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The factor x factor view of a study (stu_factors.h) in the terminal, on the HTML page and as a picture: at each p, a
 * table of the factors' combinations with T_par and speedup, the best marked; and bars of the speedup per combination
 * with each one's rank, a panel per p. The CSV's and the JSON's rows (a row per point) walk the view's table
 * declaration, rep_factors_schema, which the terminal's and the page's cells read too. */
#ifndef REP_FACTORS_H
#define REP_FACTORS_H

#include "rep_picture.h"
#include "rep_schema.h"
#include "stu_factors.h"

#include <stdio.h>

/* The view's rows: a rep_at_t per cell with a point (its item the stu_factor_cell_t): p (the key), T_par, speedup, the
 * rank by T_par at that p and whether it is the best there. The factors' own values are the writers' key columns. */
extern const rep_schema_t rep_factors_schema;
/* The row of a cell. */
rep_at_t rep_factors_at(const stu_study_t *study, const stu_factor_cell_t *cell);

/* The terminal's tables, no line wider than `width` columns (a table with more columns than fit is split into
 * blocks of columns, each with the rows' labels); nothing when the study has no factor x factor view. */
void rep_factors_print(FILE *out, const stu_study_t *study, int width);
/* The page's section: a <table> per p. */
void rep_factors_html(FILE *out, const stu_study_t *study, const stu_factors_t *factors);
/* The picture as an SVG document on `out`. Returns 0, or -1 on a write error or when out of memory. */
int rep_factors_svg(FILE *out, const stu_study_t *study, const stu_factors_t *factors);
/* The picture as <scenario>-factors.svg among `pics`, when the study has the view. Returns 0, or -1 with pics->err
 * filled. */
int rep_factors_picture(rep_pictures_t *pics);

#endif
