/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The factor x factor view (stu_factors.h): the study's points placed by their factors' values and p, and ranked by
 * T_par at each p. */
#include "stu_factors.h"
#include "bas_error.h"

#include <stdlib.h>
#include <string.h>

/* Whether the parameter is a factor: swept over two values or more, and not p. */
static int is_factor(const scn_param_t *param)
{
  return param->role != SCN_ROLE_PROCESSES && param->nvalues >= 2;
}

/* The position of `value` among the parameter's values (its first, should a sweep repeat one). */
static size_t value_index(const scn_param_t *param, const char *value)
{
  size_t v = 0;
  while (v + 1 < param->nvalues && strcmp(param->values[v], value) != 0)
    v++;
  return v;
}

/* The index of `p` in factors->p, adding it when it is new. */
static size_t p_index(stu_factors_t *factors, int p)
{
  size_t k = 0;
  while (k < factors->np && factors->p[k] != p)
    k++;
  if (k == factors->np)
    factors->p[factors->np++] = p;
  return k;
}

/* Where the point goes: its row (its values of every factor but the last, mixed radix) and column. */
static void place(const stu_study_t *study, const stu_factors_t *factors, const stu_point_t *point, size_t *row,
                  size_t *col)
{
  const scn_param_t *params = study->scenario->params;
  *row = 0;
  for (size_t i = 0; i + 1 < factors->nfactors; i++) {
    const scn_param_t *f = &params[factors->param[i]];
    *row = *row * f->nvalues + value_index(f, point->values[factors->param[i]]);
  }
  const scn_param_t *last = &params[factors->param[factors->nfactors - 1]];
  *col = value_index(last, point->values[factors->param[factors->nfactors - 1]]);
}

/* Whether two points solve the same problem: equal in every factor that sets it (scn_param_sets_problem: a size, a
 * zipped parameter), so that N = 64 is never ranked against N = 128. */
static int same_problem(const stu_study_t *study, const stu_factors_t *factors, const stu_point_t *a,
                        const stu_point_t *b)
{
  for (size_t i = 0; i < factors->nfactors; i++) {
    size_t j = factors->param[i];
    if (scn_param_sets_problem(study->scenario, j) && strcmp(a->values[j], b->values[j]) != 0)
      return 0;
  }
  return 1;
}

/* Ranks the cells of the k-th p: 1 + how many points of the same problem there are faster beyond a tie. */
static void rank(const stu_study_t *study, stu_factors_t *factors, size_t k)
{
  size_t n = factors->rows * factors->cols;
  stu_factor_cell_t *cells = factors->cells + k * n;
  for (size_t a = 0; a < n; a++) {
    if (!cells[a].point)
      continue;
    double t = cells[a].point->t_par;
    cells[a].rank = 1;
    for (size_t b = 0; b < n; b++)
      if (cells[b].point && cells[b].point->t_par < t * (1 - STU_FACTORS_TIE) &&
          same_problem(study, factors, cells[a].point, cells[b].point))
        cells[a].rank++;
    cells[a].best = cells[a].rank == 1;
  }
}

/* The factors' positions, and the table's rows and columns. Returns the number of factors. */
static size_t find_factors(const stu_study_t *study, stu_factors_t *out)
{
  const scn_scenario_t *s = study->scenario;
  out->rows = 1;
  for (size_t j = 0; j < s->nparams; j++)
    if (is_factor(&s->params[j])) {
      out->param[out->nfactors++] = j;
      out->rows *= s->params[j].nvalues;
    }
  if (out->nfactors >= 2) {
    out->cols = s->params[out->param[out->nfactors - 1]].nvalues;
    out->rows /= out->cols;
  }
  return out->nfactors;
}

int stu_factors_collect(const stu_study_t *study, stu_factors_t *out)
{
  const scn_scenario_t *s = study->scenario;
  *out = (stu_factors_t){.param = calloc(s->nparams ? s->nparams : 1, sizeof *out->param)};
  if (!out->param)
    return BAS_ENOMEM;
  if (!stu_has_view(study, MET_VIEW_LOST_CYCLES) || find_factors(study, out) < 2)
    return 0;
  out->p = calloc(study->npoints ? study->npoints : 1, sizeof *out->p);
  for (size_t i = 0; out->p && i < study->npoints; i++)
    p_index(out, study->points[i].p);
  size_t n = out->rows * out->cols;
  out->cells = out->p ? calloc(out->np * n, sizeof *out->cells) : NULL;
  if (!out->cells)
    return BAS_ENOMEM;
  for (size_t i = 0; i < study->npoints; i++) {
    size_t row, col;
    place(study, out, &study->points[i], &row, &col);
    out->cells[p_index(out, study->points[i].p) * n + row * out->cols + col].point = &study->points[i];
  }
  for (size_t k = 0; k < out->np; k++)
    rank(study, out, k);
  return 1;
}

void stu_factors_free(stu_factors_t *factors)
{
  free(factors->param);
  free(factors->p);
  free(factors->cells);
  *factors = (stu_factors_t){0};
}

const stu_factor_cell_t *stu_factors_cell(const stu_factors_t *factors, size_t k, size_t row, size_t col)
{
  return &factors->cells[(k * factors->rows + row) * factors->cols + col];
}

const char *stu_factors_value(const stu_study_t *study, const stu_factors_t *factors, size_t i, size_t row, size_t col)
{
  const scn_param_t *params = study->scenario->params;
  if (i + 1 == factors->nfactors)
    return params[factors->param[i]].values[col];
  for (size_t later = factors->nfactors - 1; later-- > i + 1;)
    row /= params[factors->param[later]].nvalues;
  return params[factors->param[i]].values[row % params[factors->param[i]].nvalues];
}
