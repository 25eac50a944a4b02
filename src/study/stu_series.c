/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Series of points against a swept parameter (stu_series.h), shared by the views' summaries and the report. */
#include "stu_series.h"
#include "bas_error.h"

#include <stdlib.h>

void stu_series_free(stu_series_list_t *series)
{
  for (size_t i = 0; series->list && i < series->count; i++) {
    free(series->list[i].points);
    free(series->list[i].x);
  }
  free(series->list);
  *series = (stu_series_list_t){0};
}

/* Inserts the point into its series, keeping the series sorted by x (after the points of equal x). */
static void insert(stu_series_t *g, const stu_point_t *point, double x)
{
  size_t at = g->count++;
  for (; at > 0 && g->x[at - 1] > x; at--) {
    g->points[at] = g->points[at - 1];
    g->x[at] = g->x[at - 1];
  }
  g->points[at] = point;
  g->x[at] = x;
}

int stu_series_collect(const stu_study_t *study, size_t x_index, stu_series_list_t *out)
{
  size_t n = study->npoints;
  *out = (stu_series_list_t){.list = calloc(n ? n : 1, sizeof *out->list)};
  if (!out->list)
    return BAS_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    const stu_point_t *point = &study->points[i];
    size_t k = 0;
    while (k < out->count && !stu_same_except(study, out->list[k].points[0], point, x_index))
      k++;
    stu_series_t *g = &out->list[k];
    if (k == out->count) {
      out->count++;
      g->points = calloc(n, sizeof *g->points);
      g->x = calloc(n, sizeof *g->x);
      if (!g->points || !g->x)
        return BAS_ENOMEM;
    }
    insert(g, point, x_index < study->scenario->nparams ? strtod(point->values[x_index], NULL) : 0);
  }
  return 0;
}

int stu_numeric_sweep(const scn_param_t *param)
{
  if (param->nvalues < 2)
    return 0;
  for (size_t i = 0; i < param->nvalues; i++) {
    char *end = NULL;
    strtod(param->values[i], &end);
    if (end == param->values[i] || *end)
      return 0;
  }
  return 1;
}

met_fit_x_t stu_fit_x(const scn_param_t *param)
{
  return param->role == SCN_ROLE_PROCESSES   ? MET_FIT_X_PROCESSORS
         : param->role == SCN_ROLE_GRID_ROWS ? MET_FIT_X_OTHER
                                             : MET_FIT_X_WORK;
}
