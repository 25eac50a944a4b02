/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fits table (docs/results.md "-fits", issue 27): a row per regression fit of the report (rep_fits_each: the
 * metric, the swept parameter, the group, the best form with its coefficients, R^2, range, whether it is shown and the
 * report's line), as a table declaration (rep_schema.h) that the CSV and the JSON walk; the terminal's lines are each
 * row's text. */
#ifndef REP_FITS_H
#define REP_FITS_H

#include "rep_chart.h"
#include "rep_schema.h"

extern const rep_schema_t rep_fits_schema;

/* A row of the table: the fit as rep_fits_each hands it over (borrowed for the call) and its formula, written here. */
typedef struct rep_fit_item {
  const rep_fit_row_t *row;
  char formula[160];
} rep_fit_item_t;
/* The row of `row`, its item `item` (filled: it must outlive the row's use). */
rep_at_t rep_fits_at(const stu_study_t *study, const rep_fit_row_t *row, rep_fit_item_t *item);

#endif
