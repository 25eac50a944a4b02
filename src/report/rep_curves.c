/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The metrics of a study against p or a work size W (seed 000 Figs 1.7-1.8; docs/pictures.md): a curve per series
 * of points, with the fits the study's summary holds (stu_fit), drawn by rep_chart or printed as fits. */
#include "rep_curves.h"
#include "rep_chart.h"
#include "stu_lost_cycles.h"
#include "stu_series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct metric {
  const char *view;
  const char *label; /* the y axis */
  stu_metric_t which;
} metric_t;

static const metric_t metrics[] = {
    {"time", "run time T_par (s)", STU_METRIC_TIME},
    {"speedup", "speedup T_seq / T_par", STU_METRIC_SPEEDUP},
    {"efficiency", "efficiency speedup / p (0 to 1)", STU_METRIC_EFFICIENCY},
    {"ovh-ctrl", "overhead ratio Ovh_ctrl (control of parallelism)", STU_METRIC_OVH_CTRL},
    {"ovh-comm", "overhead ratio Ovh_comm (communication)", STU_METRIC_OVH_COMM},
    {"ovh-idle", "overhead ratio Ovh_idle (idling)", STU_METRIC_OVH_IDLE},
    {"ovh-anomaly", "overhead ratio Ovh_anomaly (parallel anomaly)", STU_METRIC_OVH_ANOMALY},
    {"granularity", "granularity T_comp / T_comm", STU_METRIC_GRANULARITY},
};

/* Metric `which` (a stu_metric_t) of a point, for rep_series_values. */
static double metric_value(const stu_point_t *point, int which)
{
  return stu_metric(point, (stu_metric_t)which);
}

/* The label of a curve that no group names: what produced the points, a simulation or a measurement (simrun analyse,
 * whose study has no skeleton). */
static const char *source_label(const stu_study_t *study)
{
  return study->facts.skeleton ? "simulated" : "measured";
}

/* The curve's fit from the study's summary (stu_fit). Returns 1 when some form applied but none is honest ("no simple
 * form fits"), else 0. */
static int curve_fit(const stu_study_t *study, size_t x_index, const metric_t *m, size_t series, rep_curve_t *curve)
{
  const stu_fit_t *f = stu_fit(study, x_index, m->which, series);
  if (!f)
    return 0;
  curve->fit = f->fit;
  curve->fitted = f->fitted;
  return f->unfit;
}

static void print_fit(rep_pictures_t *pics, const metric_t *m, const char *what, const rep_curve_t *curve, int unfit,
                      const char *var)
{
  char text[256];
  if (!pics->fits_only || (!curve->fitted && !unfit))
    return;
  if (!pics->fits_shown && !pics->sink)
    fprintf(pics->log,
            "\nRegression fits (least squares; of the forms in docs/pictures.md with at least two points more "
            "than coefficients, the best adjusted R^2, shown when it is at least %.2f and the fit stays within the "
            "metric's range over the data; valid only within the data's range):\n",
            MET_FIT_MIN_ADJ_R2);
  pics->fits_shown = 1;
  if (curve->fitted)
    rep_fit_text(&curve->fit, var, "R^2", text, sizeof text);
  else if (curve->fit.adj_r2 < MET_FIT_MIN_ADJ_R2)
    snprintf(text, sizeof text, "no simple form fits (the best, %s, has adjusted R^2 %.4f)",
             met_fit_name(curve->fit.form), curve->fit.adj_r2);
  else
    snprintf(text, sizeof text, "no simple form fits (the best, %s, leaves the metric's range within the data)",
             met_fit_name(curve->fit.form));
  if (pics->sink) {
    const char *group = strcmp(curve->label, source_label(pics->study)) ? curve->label : "";
    rep_fit_row_t row = {m->view, var, group, &curve->fit, curve->fitted, text};
    pics->sink(pics->sink_ctx, &row);
    return;
  }
  fprintf(pics->log, "  %s%s%s: %s\n", what, curve->label[0] ? ", " : "", curve->label, text);
}

/* Whether every value is below 1e-9 in size or not finite: nothing to draw but rounding (the anomaly of a deterministic
 * simulation). */
static int all_zero(const double *values, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (fabs(values[i]) > 1e-9 && isfinite(values[i]))
      return 0;
  return 1;
}

/* The curves of one metric, a curve per group, with their fits. Returns 0 or -1. */
static int metric_picture(rep_pictures_t *pics, const rep_series_t *groups, size_t ngroups, const metric_t *m,
                          size_t x_index, double *y, rep_curve_t *curves)
{
  const scn_param_t *x = &pics->study->scenario->params[x_index];
  const char *var = x->name;
  int against_p = x->role == SCN_ROLE_PROCESSES;
  size_t total = 0;
  int unfit[ngroups + 1];
  for (size_t k = 0; k < ngroups; k++) {
    const rep_series_t *g = &groups[k];
    rep_series_values(g, metric_value, m->which, y + total);
    curves[k] = (rep_curve_t){
        .label = g->title[0] ? g->title : source_label(pics->study), .x = g->x, .y = y + total, .n = g->count};
    unfit[k] = curve_fit(pics->study, x_index, m, k, &curves[k]);
    total += g->count;
  }
  if (all_zero(y, total))
    return 0;
  char view[128], title[300], what[160], fixed[300];
  snprintf(view, sizeof view, "%s%s%s", m->view, against_p ? "" : "-vs-", against_p ? "" : var);
  snprintf(what, sizeof what, "%s against %s%s", m->view, var,
           stu_fit_x(x) == MET_FIT_X_OTHER ? " (the swept grid rows, not a work size)" : "");
  snprintf(title, sizeof title, "%s: %s against %s", pics->study->scenario->name, m->label, var);
  rep_picture_subtitle(fixed, sizeof fixed, pics->study, "");
  for (size_t k = 0; k < ngroups; k++)
    print_fit(pics, m, what, &curves[k], unfit[k], var);
  if (pics->fits_only)
    return 0;
  rep_chart_t chart = {title, fixed, against_p ? "p (processors)" : var, m->label, var, 0, 1000};
  rep_file_t *file = rep_picture_open(pics, view, "");
  return file ? rep_picture_close(pics, file, rep_line_chart(rep_file_stream(file), &chart, curves, ngroups)) : -1;
}

/* Every metric against the parameter at x_index ("p" or a work size such as "n"). */
int rep_metric_pictures(rep_pictures_t *pics, size_t x_index)
{
  size_t ngroups = 0;
  rep_series_t *groups = rep_series_collect(pics->study, x_index, &ngroups);
  double *y = malloc(pics->study->npoints * sizeof *y);
  rep_curve_t *curves = calloc(ngroups ? ngroups : 1, sizeof *curves);
  int rc = groups && y && curves ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < sizeof metrics / sizeof metrics[0]; i++)
    rc = metric_picture(pics, groups, ngroups, &metrics[i], x_index, y, curves);
  rep_series_free(groups, ngroups);
  free(y);
  free(curves);
  return rc;
}
