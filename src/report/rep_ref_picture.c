/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Predicted against measured (rep_ref_picture.h): simrun's T_par beside the scenario's run-time references on one
 * chart against p, so that a paper's measured and modelled times and the simulation read at a glance. */
#include "rep_ref_picture.h"

#include "rep_chart.h"
#include "rep_group.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether reference `ref` is a run time that applies to the series. */
static int applies(const rep_pictures_t *pics, const rep_series_t *g, const scn_reference_t *ref)
{
  return strcmp(ref->quantity, "t_par") == 0 && rep_reference_applies(pics->study, ref, g->points[0]);
}

int rep_reference_picture(rep_pictures_t *pics, const rep_series_t *g)
{
  const scn_scenario_t *s = pics->study->scenario;
  size_t n = 1;
  for (size_t r = 0; r < s->nrefs; r++)
    n += applies(pics, g, &s->refs[r]);
  if (n == 1 || g->count < 2)
    return 0;
  rep_curve_t *curves = calloc(n, sizeof *curves);
  double *y = malloc(n * g->count * sizeof *y);
  int rc = curves && y ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < g->count; i++)
    y[i] = g->points[i]->t_par;
  if (rc == 0)
    curves[0] = (rep_curve_t){.label = "simrun (simulated)", .x = g->x, .y = y, .n = g->count};
  for (size_t r = 0, c = 1; rc == 0 && r < s->nrefs; r++)
    if (applies(pics, g, &s->refs[r])) {
      for (size_t i = 0; i < g->count; i++)
        y[c * g->count + i] = rep_reference_at(&s->refs[r], g->points[i]->p);
      curves[c] = (rep_curve_t){.label = s->refs[r].source, .x = g->x, .y = y + c * g->count, .n = g->count};
      c++;
    }
  char title[300], subtitle[300];
  rep_picture_title(title, sizeof title, "Simulated against the references' T_par", pics->study, g);
  rep_picture_subtitle(subtitle, sizeof subtitle, pics->study, "; <reference quantity=\"t_par\"> of the scenario");
  rep_chart_t chart = {.title = title,
                       .subtitle = subtitle,
                       .x_label = "p (processors)",
                       .y_label = "T_par (s)",
                       .var = "p",
                       .log_span = 20};
  rep_file_t *file = rc == 0 ? rep_picture_open(pics, "references", g->file) : NULL;
  rc = file ? rep_picture_close(pics, file, rep_line_chart(rep_file_stream(file), &chart, curves, n)) : -1;
  free(curves);
  free(y);
  return rc;
}
