/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Wait states in the reports: Scalasca's patterns per rank (met_wait.h) as one table declared once (rep_schema.h),
 * read from the points (stu_waits.h: computed once per point whose timeline is kept). */
#include "rep_wait.h"
#include "rep_group.h"
#include "rep_svg.h"

#include <stdlib.h>

int rep_wait_any(const stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (stu_waits(&study->points[i]))
      return 1;
  return 0;
}

static rep_cell_t rank(const rep_at_t *at, int i)
{
  (void)i;
  return at->rank < 0 ? rep_cell_text("all") : rep_cell_num(at->rank);
}

/* Pattern k's seconds at the row's rank, or over all ranks for the totals' row. */
static double pattern_time(const rep_at_t *at, int k)
{
  const met_waits_t *w = stu_waits(at->point);
  return at->rank < 0 ? met_wait_total(w, (met_wait_pattern_t)k) : met_wait_time(w, at->rank, (met_wait_pattern_t)k);
}

static rep_cell_t pattern(const rep_at_t *at, int k)
{
  return rep_cell_num(pattern_time(at, k));
}

static rep_cell_t total(const rep_at_t *at, int i)
{
  (void)i;
  double sum = 0;
  for (int k = 0; k < MET_WAIT_PATTERNS; k++)
    sum += pattern_time(at, k);
  return rep_cell_num(sum);
}

static const char *pattern_label(int k)
{
  return met_wait_name((met_wait_pattern_t)k);
}

enum { ALL = REP_IN_ALL };

/* csv, json, head, unit, meaning, format, key, in, each, label, has, get */
static const rep_column_t columns[] = {
    {"rank", "rank", "rank", "", "the rank (all: the point's totals, on the terminal)", REP_FMT_INT, 1, ALL, 0, NULL,
     NULL, rank},
    {"%s_s", "%s_s", "%s", "s", "the seconds the rank lost in Scalasca's pattern (docs/wait-states.md)", REP_FMT_TIME,
     0, ALL, MET_WAIT_PATTERNS, pattern_label, NULL, pattern},
    {"total_s", "total_s", "total", "s", "their sum", REP_FMT_TIME, 0, ALL, 0, NULL, NULL, total},
};

const rep_schema_t rep_wait_states_schema = {"wait-states", columns, sizeof columns / sizeof columns[0], NULL};

rep_at_t *rep_wait_states_rows(const stu_study_t *study, const stu_point_t *only, int totals, size_t *count)
{
  size_t n = 0;
  for (size_t i = 0; i < study->npoints; i++)
    if ((!only || only == &study->points[i]) && stu_waits(&study->points[i]))
      n += (size_t)stu_waits(&study->points[i])->nranks + (totals != 0);
  rep_at_t *rows = n ? malloc(n * sizeof *rows) : NULL;
  *count = rows ? n : 0;
  n = 0;
  for (size_t i = 0; rows && i < study->npoints; i++) {
    const met_waits_t *w = (!only || only == &study->points[i]) ? stu_waits(&study->points[i]) : NULL;
    for (int r = 0; w && r < w->nranks + (totals != 0); r++) /* the totals' row last, its rank -1 */
      rows[n++] = (rep_at_t){study, &study->points[i], r < w->nranks ? r : -1, NULL};
  }
  return rows;
}

void rep_wait_print(FILE *out, const stu_study_t *study, int width)
{
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    size_t count;
    rep_at_t *rows = rep_wait_states_rows(study, point, 1, &count);
    if (!rows)
      continue;
    fprintf(out, "\nWait states, p = %d, ", point->p);
    if (!rep_print_params(out, study, point, 1))
      fprintf(out, "%s", study->scenario->name);
    fprintf(out, " (seconds lost per Scalasca pattern; docs/wait-states.md)\n");
    rep_schema_print(out, &rep_wait_states_schema, rows, count, width);
    free(rows);
  }
}

void rep_wait_json(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  size_t count;
  rep_at_t *rows = rep_wait_states_rows(study, point, 0, &count);
  rep_schema_json_rows(out, "wait_states", &rep_wait_states_schema, rows, count);
  free(rows);
}

const char *rep_wait_colour(met_wait_pattern_t pattern)
{
  return rep_svg_series_colour((size_t)pattern);
}
