/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The phases view's table declared once (rep_phases.h), from stu_phases' sums. */
#include "rep_phases.h"
#include "stu_phases.h"

#include <stdlib.h>

/* Whether the row is the point's end-of-run wait, after its phases. */
static int end_of_run(const rep_at_t *at)
{
  return (size_t)at->rank == stu_phases(at->point)->count;
}

static rep_cell_t phase(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(end_of_run(at) ? "(end-of-run wait)" : stu_phases(at->point)->phases[at->rank].name);
}

static const char *category(int i)
{
  return met_category_name(stu_phase_cats[i]);
}

/* Category i's seconds in the phase; the end-of-run wait is idle time alone. */
static rep_cell_t seconds(const rep_at_t *at, int i)
{
  const stu_phases_t *s = stu_phases(at->point);
  if (end_of_run(at))
    return rep_cell_num(stu_phase_cats[i] == MET_CAT_IDLE ? s->end_wait : 0);
  return rep_cell_num(s->phases[at->rank].seconds[i]);
}

static rep_cell_t share(const rep_at_t *at, int i)
{
  (void)i;
  const stu_phases_t *s = stu_phases(at->point);
  return rep_cell_num((end_of_run(at) ? s->end_share : s->phases[at->rank].share) / 100);
}

static const rep_column_t columns[] = {
    {"phase", "phase", "phase", "", "the label the program gave its part (simrun_phase.h), or the end-of-run wait",
     REP_FMT_TEXT, 1, REP_IN_ALL, 0, NULL, NULL, phase},
    {"%s_s", "seconds.%s", "%s", "s", "seconds of the category in the phase, summed over the ranks", REP_FMT_TIME, 0,
     REP_IN_ALL, STU_PHASE_CATS, category, NULL, seconds},
    {"share", "share", "share", "", "the phase's share of the p T_par processor-seconds", REP_FMT_PERCENT, 0,
     REP_IN_ALL, 0, NULL, NULL, share},
};

const rep_schema_t rep_phases_schema = {"phases", columns, sizeof columns / sizeof columns[0], NULL};

int rep_phases_any(const stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (stu_phases(&study->points[i]))
      return 1;
  return 0;
}

rep_at_t *rep_phases_rows(const stu_study_t *study, const stu_point_t *only, size_t *count)
{
  size_t n = 0;
  for (size_t i = 0; i < study->npoints; i++)
    if ((!only || only == &study->points[i]) && stu_phases(&study->points[i]))
      n += stu_phases(&study->points[i])->count + 1;
  rep_at_t *rows = n ? malloc(n * sizeof *rows) : NULL;
  *count = rows ? n : 0;
  n = 0;
  for (size_t i = 0; rows && i < study->npoints; i++) {
    const stu_phases_t *s = !only || only == &study->points[i] ? stu_phases(&study->points[i]) : NULL;
    for (size_t k = 0; s && k <= s->count; k++) /* the end-of-run wait last */
      rows[n++] = (rep_at_t){study, &study->points[i], (int)k, NULL};
  }
  return rows;
}

void rep_phases_print(FILE *out, const stu_study_t *study, int width)
{
  for (size_t i = 0; i < study->npoints; i++) {
    size_t count;
    rep_at_t *rows = rep_phases_rows(study, &study->points[i], &count);
    if (!rows)
      continue;
    fprintf(out, "\nPhases, p = %d (summed over the ranks; share of p T_par)\n", study->points[i].p);
    rep_schema_print(out, &rep_phases_schema, rows, count, width);
    free(rows);
  }
}

void rep_phases_json(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  size_t count;
  rep_at_t *rows = rep_phases_rows(study, point, &count);
  rep_schema_json_rows(out, "phases", &rep_phases_schema, rows, count);
  free(rows);
}
