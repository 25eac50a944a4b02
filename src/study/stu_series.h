/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The series of a study's points against one swept parameter x: the points equal in every other parameter, sorted by
 * x, series in the order of their first point. The views' summaries (a fit per series, a verdict per series against
 * p) and the report's curves and tables walk the same series, so the k-th series is the same for both. */
#ifndef STU_SERIES_H
#define STU_SERIES_H

#include "met_fit.h"
#include "stu_study.h"

typedef struct stu_series {
  const stu_point_t **points; /* count points, borrowed from the study, sorted by x */
  double *x;                  /* the x parameter's value at each point */
  size_t count;
} stu_series_t;

typedef struct stu_series_list {
  stu_series_t *list;
  size_t count;
} stu_series_list_t;

/* The series of the study's points against the parameter at x_index (past the last parameter: none, so that points
 * differing in any parameter are in different series). Returns 0, or BAS_ENOMEM when out of memory; either way the
 * caller frees out with stu_series_free. */
int stu_series_collect(const stu_study_t *study, size_t x_index, stu_series_list_t *out);
void stu_series_free(stu_series_list_t *series);

/* Whether the parameter is swept over numbers: a work size W (or p) that curves can be drawn and fitted against. */
int stu_numeric_sweep(const scn_param_t *param);
/* What the parameter is as the x of a fit: p, the grid's rows (a shape, not a work size) or a work size. */
met_fit_x_t stu_fit_x(const scn_param_t *param);

#endif
