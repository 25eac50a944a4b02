/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Predicted against measured (rep_ref_picture.h): simrun's T_par beside the scenario's run-time references on one
 * chart against p, so that a paper's measured and modelled times and the simulation read at a glance; and a measured
 * run's replayed prediction beside its measured time. */
#include "rep_ref_picture.h"

#include "rep_chart.h"
#include "rep_group.h"
#include "stu_replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether reference `ref` is a run time that applies to the series. */
static int applies(const rep_pictures_t *pics, const rep_series_t *g, const scn_reference_t *ref)
{
  return strcmp(ref->quantity, "t_par") == 0 && rep_reference_applies(pics->study, ref, g->points[0]);
}

/* Draws curves[0..n) of T_par against p as <scenario>-<view>[-<series>].svg, titled `what`, the subtitle ending with
 * `note`; frees curves and y. 0, or -1 with pics->err filled. */
static int draw(rep_pictures_t *pics, const rep_series_t *g, rep_curve_t *curves, double *y, size_t n, const char *what,
                const char *view, const char *note)
{
  char title[300], subtitle[300];
  rep_picture_title(title, sizeof title, what, pics->study, g);
  rep_picture_subtitle(subtitle, sizeof subtitle, pics->study, note);
  rep_chart_t chart = {.title = title,
                       .subtitle = subtitle,
                       .x_label = "p (processors)",
                       .y_label = "T_par (s)",
                       .var = "p",
                       .log_span = 20};
  rep_file_t *file = curves && y ? rep_picture_open(pics, view, g->file) : NULL;
  int rc = file ? rep_picture_close(pics, file, rep_line_chart(rep_file_stream(file), &chart, curves, n)) : -1;
  free(curves);
  free(y);
  return rc;
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
  for (size_t i = 0; curves && y && i < g->count; i++)
    y[i] = g->points[i]->t_par;
  if (curves && y)
    curves[0] = (rep_curve_t){.label = "simrun (simulated)", .x = g->x, .y = y, .n = g->count};
  for (size_t r = 0, c = 1; curves && y && r < s->nrefs; r++)
    if (applies(pics, g, &s->refs[r])) {
      for (size_t i = 0; i < g->count; i++)
        y[c * g->count + i] = rep_reference_at(&s->refs[r], g->points[i]->p);
      curves[c] = (rep_curve_t){.label = s->refs[r].source, .x = g->x, .y = y + c * g->count, .n = g->count};
      c++;
    }
  return draw(pics, g, curves, y, n, "Simulated against the references' T_par", "references",
              "; <reference quantity=\"t_par\"> of the scenario");
}

/* Whether a point of the series was measured as a range (a disturbed run: stu_replay.h). */
static int has_range(const rep_series_t *g)
{
  for (size_t i = 0; i < g->count; i++) {
    const stu_replay_t *r = stu_replay(g->points[i]);
    if (r && r->least < r->measured)
      return 1;
  }
  return 0;
}

int rep_replay_picture(rep_pictures_t *pics, const rep_series_t *g)
{
  if (!stu_has_replay(pics->study) || g->count < 2)
    return 0;
  size_t n = 2 + (size_t)has_range(g); /* measured (the most of a range), predicted, the least of the ranges */
  rep_curve_t *curves = calloc(n, sizeof *curves);
  double *y = malloc(n * g->count * sizeof *y);
  int untraced = 0, traced = 0;
  for (size_t i = 0; curves && y && i < g->count; i++) {
    const stu_replay_t *r = stu_replay(g->points[i]);
    y[i] = r ? r->measured : NAN;
    y[g->count + i] = r ? r->predicted : NAN;
    if (n == 3)
      y[2 * g->count + i] = r ? r->least : NAN;
    untraced += r && r->untraced;
    traced += r && !r->untraced;
  }
  const char *measured = !traced ? "measured (untraced runs)" : !untraced ? "measured (traced runs)" : "measured";
  if (n == 3)
    measured = "measured (a disturbed run's: the most of its range)";
  if (curves && y) {
    curves[0] = (rep_curve_t){.label = measured, .x = g->x, .y = y, .n = g->count};
    curves[1] = (rep_curve_t){.label = "predicted (ti-replay)", .x = g->x, .y = y + g->count, .n = g->count};
    if (n == 3)
      curves[2] = (rep_curve_t){
          .label = "measured, the least of a disturbed run's range", .x = g->x, .y = y + 2 * g->count, .n = g->count};
  }
  return draw(pics, g, curves, y, n, "Predicted against measured T_par", "replay",
              "; each run's TI trace replayed (simrun analyse --replay-on)");
}
