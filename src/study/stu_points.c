/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The points of a sweep: the cross product of a scenario's values, filtered by a skeleton's process grid and by
 * --shard. */
#include "stu_points.h"
#include "sim_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The values parameter j adds to the cross product: its own, or its zip's for the zip's leader, 1 for the zip's other
 * parameters (they follow the leader). */
static size_t axis_size(const scn_scenario_t *s, size_t j)
{
  return scn_zip_leader(s, j) == j ? s->params[j].nvalues : 1;
}

int stu_points_count(const scn_scenario_t *s, char *err, size_t errlen)
{
  size_t count = 1;
  int over = 0;
  for (size_t j = 0; j < s->nparams; j++)
    over |= __builtin_mul_overflow(count, axis_size(s, j), &count) || count > STU_MAX_POINTS;
  size_t p_index = scn_role_index(s, SCN_ROLE_PROCESSES);
  over |= p_index < s->nparams && stu_points_scaled(s, p_index) && count > STU_MAX_POINTS / 2;
  if (!over)
    return 0;
  int n = snprintf(err, errlen, "the sweep has more than %d points (the product of its value counts:", STU_MAX_POINTS);
  for (size_t j = 0; j < s->nparams && n > 0 && (size_t)n < errlen; j++)
    n += snprintf(err + n, errlen - (size_t)n, "%s %s %zu", j ? " x" : "", s->params[j].name, axis_size(s, j));
  if (n > 0 && (size_t)n < errlen)
    snprintf(err + n, errlen - (size_t)n, "); sweep fewer values, or split the study into several scenarios");
  return SIM_EINVAL;
}

int stu_points_build(stu_study_t *study, size_t p_index)
{
  const scn_scenario_t *s = study->scenario;
  study->npoints = 1;
  for (size_t j = 0; j < s->nparams; j++)
    if (__builtin_mul_overflow(study->npoints, axis_size(s, j), &study->npoints))
      return SIM_ENOMEM; /* a wrapped count would silently drop points */
  study->points = calloc(study->npoints, sizeof *study->points);
  if (!study->points)
    return SIM_ENOMEM;
  for (size_t i = 0; i < study->npoints; i++) {
    stu_point_t *point = &study->points[i];
    point->values = calloc(s->nparams, sizeof *point->values);
    if (!point->values)
      return SIM_ENOMEM;
    size_t rest = i;
    for (size_t j = s->nparams; j-- > 0;) { /* a zip's leader comes first: its index is set when the others read it */
      if (scn_zip_leader(s, j) != j)
        continue;
      size_t k = rest % s->params[j].nvalues;
      rest /= s->params[j].nvalues;
      for (size_t m = j; m < s->nparams; m++)
        if (m == j || (s->params[j].zip && s->params[m].zip == s->params[j].zip))
          point->values[m] = s->params[m].values[k];
    }
    point->p = atoi(point->values[p_index]);
    stu_resolve_roles(s, point);
  }
  return 0;
}

int stu_points_scaled(const scn_scenario_t *s, size_t p_index)
{
  int zip = s->params[p_index].zip;
  for (size_t j = 0; zip && j < s->nparams; j++)
    if (j != p_index && s->params[j].zip == zip)
      return 1;
  return 0;
}

/* The position of point's p among the values of p (values are borrowed from the scenario). */
static size_t p_position(const scn_param_t *p, const stu_point_t *point, size_t p_index)
{
  size_t k = 0;
  while (k + 1 < p->nvalues && p->values[k] != point->values[p_index])
    k++;
  return k;
}

/* Whether the zip's other parameters have their first values at point `point`'s position k already. */
static int at_first_values(const scn_scenario_t *s, size_t p_index, size_t k)
{
  int same = 1;
  for (size_t j = 0; j < s->nparams; j++)
    if (j != p_index && s->params[j].zip == s->params[p_index].zip)
      same &= strcmp(s->params[j].values[k], s->params[j].values[0]) == 0;
  return same;
}

int stu_points_add_fixed(stu_study_t *study, size_t p_index)
{
  const scn_scenario_t *s = study->scenario;
  const scn_param_t *p = &s->params[p_index];
  size_t n = study->npoints;
  stu_point_t *grown = realloc(study->points, 2 * n * sizeof *grown);
  if (!grown)
    return SIM_ENOMEM;
  study->points = grown;
  for (size_t i = 0; i < n; i++) {
    size_t k = p_position(p, &study->points[i], p_index);
    if (k == 0 || at_first_values(s, p_index, k))
      continue;
    stu_point_t *fixed = &study->points[study->npoints];
    *fixed = (stu_point_t){.p = study->points[i].p, .fixed_size = 1};
    if (!(fixed->values = malloc(s->nparams * sizeof *fixed->values)))
      return SIM_ENOMEM;
    study->npoints++;
    for (size_t j = 0; j < s->nparams; j++)
      fixed->values[j] =
          j != p_index && s->params[j].zip == p->zip ? s->params[j].values[0] : study->points[i].values[j];
    stu_resolve_roles(s, fixed);
  }
  return 0;
}

/* Whether some kept point has value `value` for parameter j (values are borrowed from the scenario). */
static int value_used(const stu_study_t *study, size_t j, const char *value)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (study->points[i].values[j] == value)
      return 1;
  return 0;
}

/* Every value of parameter j must keep a point of the grid sweep; otherwise blames it, saying why. */
static int check_grid_coverage(const stu_study_t *study, size_t j, size_t p_index, const char *why, const char **blame,
                               char *err, size_t errlen)
{
  const scn_param_t *param = &study->scenario->params[j];
  for (size_t v = 0; v < param->nvalues; v++)
    if (!value_used(study, j, param->values[v]) && !(j == p_index && atoi(param->values[v]) == 1)) {
      snprintf(err, errlen, "%s = %s %s", param->name, param->values[v], why);
      *blame = param->name;
      return SIM_EPARAM;
    }
  return 0;
}

/* Keeps the points for which keep(study, i, ...) holds, freeing the others' values. */
static void keep_points(stu_study_t *study, int (*keep)(const stu_study_t *, size_t, size_t, size_t), size_t a,
                        size_t b)
{
  size_t kept = 0;
  for (size_t i = 0; i < study->npoints; i++) {
    if (keep(study, i, a, b))
      study->points[kept++] = study->points[i];
    else
      free(study->points[i].values);
  }
  study->npoints = kept;
}

/* Whether point i is not a refused fixed-size point. */
static int not_refused(const stu_study_t *study, size_t i, size_t unused_a, size_t unused_b)
{
  (void)unused_a;
  (void)unused_b;
  return study->points[i].fixed_size >= 0;
}

void stu_points_drop_refused(stu_study_t *study)
{
  keep_points(study, not_refused, 0, 0);
}

/* Whether point i's grid rows divide its p. */
static int rows_divide_p(const stu_study_t *study, size_t i, size_t unused_a, size_t unused_b)
{
  (void)unused_a;
  (void)unused_b;
  return study->points[i].p % study->points[i].role.grid_rows == 0;
}

int stu_points_keep_grid(stu_study_t *study, size_t p_index, const char **blame, char *err, size_t errlen)
{
  size_t g = scn_role_index(study->scenario, SCN_ROLE_GRID_ROWS);
  if (g == study->scenario->nparams)
    return 0;
  keep_points(study, rows_divide_p, 0, 0);
  static const char rows_unused[] = "divides none of the values of p: the grid is grid-rows x (p / grid-rows); add a "
                                    "p it divides, or drop this value";
  static const char p_unused[] = "is a multiple of none of the values of grid-rows; add grid-rows = 1, or drop this p";
  int rc = check_grid_coverage(study, g, p_index, rows_unused, blame, err, errlen);
  return rc ? rc : check_grid_coverage(study, p_index, p_index, p_unused, blame, err, errlen);
}

/* Whether point i (of the study before filtering) is in shard `index` of `count`. */
static int in_shard(const stu_study_t *study, size_t i, size_t index, size_t count)
{
  (void)study;
  return i % count == index - 1;
}

int stu_points_keep_shard(stu_study_t *study, int index, int count, char *err, size_t errlen)
{
  size_t all = study->npoints;
  if (count <= 1)
    return 0;
  keep_points(study, in_shard, (size_t)index, (size_t)count);
  if (study->npoints > 0)
    return 0;
  snprintf(err, errlen, "--shard %d/%d: the study has %zu points, so this shard has none; use at most %zu shards",
           index, count, all, all);
  return SIM_EPARAM;
}
