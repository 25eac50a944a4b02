/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Wait states in the reports: Scalasca's patterns per rank (met_wait.h) as a terminal table, CSV rows, JSON members,
 * read from the points (stu_waits.h: computed once per point whose timeline is kept). */
#include "rep_wait.h"
#include "rep_group.h"
#include "rep_svg.h"

int rep_wait_any(const stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (stu_waits(&study->points[i]))
      return 1;
  return 0;
}

/* A pattern's short heading in the terminal table. */
static const char *const heads[MET_WAIT_PATTERNS] = {"late send", "late recv",  "barrier",
                                                     "N x N",     "late bcast", "early red"};

static void print_point(FILE *out, const stu_study_t *study, const stu_point_t *point, const met_waits_t *w)
{
  fprintf(out, "\nWait states, p = %d, ", point->p);
  if (!rep_print_params(out, study, point, 1))
    fprintf(out, "%s", study->scenario->name);
  fprintf(out, " (seconds lost per Scalasca pattern; docs/wait-states.md)\n%6s", "rank");
  for (int k = 0; k < MET_WAIT_PATTERNS; k++)
    fprintf(out, " %10s", heads[k]);
  fprintf(out, " %10s\n", "total");
  for (int r = 0; r <= point->p; r++) {
    double sum = 0;
    if (r < point->p)
      fprintf(out, "%6d", r);
    else
      fprintf(out, "%6s", "all");
    for (int k = 0; k < MET_WAIT_PATTERNS; k++) {
      double t = r < point->p ? met_wait_time(w, r, (met_wait_pattern_t)k) : met_wait_total(w, (met_wait_pattern_t)k);
      sum += t;
      fprintf(out, " %10.4f", t);
    }
    fprintf(out, " %10.4f\n", sum);
  }
}

void rep_wait_print(FILE *out, const stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (stu_waits(&study->points[i]))
      print_point(out, study, &study->points[i], stu_waits(&study->points[i]));
}

void rep_wait_csv_head(FILE *out)
{
  fprintf(out, ",rank");
  for (int k = 0; k < MET_WAIT_PATTERNS; k++)
    fprintf(out, ",%s_s", met_wait_name((met_wait_pattern_t)k));
  fprintf(out, ",total_s\n");
}

void rep_wait_csv_rows(FILE *out, const stu_study_t *study, const stu_point_t *point,
                       void (*lead)(FILE *, const stu_study_t *, const stu_point_t *))
{
  const met_waits_t *w = stu_waits(point);
  for (int r = 0; w && r < w->nranks; r++) {
    lead(out, study, point);
    double sum = 0;
    fprintf(out, ",%d", r);
    for (int k = 0; k < MET_WAIT_PATTERNS; k++) {
      double t = met_wait_time(w, r, (met_wait_pattern_t)k);
      sum += t;
      fprintf(out, ",%.9g", t);
    }
    fprintf(out, ",%.9g\n", sum);
  }
}

void rep_wait_json(FILE *out, const stu_point_t *point)
{
  const met_waits_t *w = stu_waits(point);
  if (!w)
    return;
  fprintf(out, ",\n     \"wait_states\": {\"total_s\": %.9g", met_wait_total(w, MET_WAIT_PATTERNS));
  for (int k = 0; k < MET_WAIT_PATTERNS; k++) {
    fprintf(out, ",\n       \"%s\": {\"total_s\": %.9g, \"per_rank_s\": [", met_wait_name((met_wait_pattern_t)k),
            met_wait_total(w, (met_wait_pattern_t)k));
    for (int r = 0; r < w->nranks; r++)
      fprintf(out, "%s%.9g", r ? ", " : "", met_wait_time(w, r, (met_wait_pattern_t)k));
    fprintf(out, "]}");
  }
  fprintf(out, "}");
}

const char *rep_wait_colour(met_wait_pattern_t pattern)
{
  return rep_svg_series_colour((size_t)pattern);
}
