/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The metrics of a study against p or a work size W (seed 000 Figs 1.7-1.8; docs/pictures.md): a curve per series
 * of points, fitted by met_fit with the forms for what x is, drawn by rep_chart or printed as fits. */
#include "rep_curves.h"
#include "stu_lost_cycles.h"
#include "rep_chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { M_TIME = MET_OVH_COUNT, M_SPEEDUP, M_EFFICIENCY, M_GRANULARITY }; /* 0 .. MET_OVH_COUNT - 1: Ovh_j */

/* Metric `which` of a point: Ovh_which below MET_OVH_COUNT, then the M_ values. */
static double eppa_value(const stu_point_t *point, int which)
{
  const met_eppa_t *e = stu_eppa(point);
  switch (which) {
  case M_TIME:
    return e->t_par;
  case M_SPEEDUP:
    return e->speedup;
  case M_EFFICIENCY:
    return 100 * e->efficiency;
  case M_GRANULARITY:
    return e->granularity;
  default:
    return e->ovh_ratio[which];
  }
}

typedef struct metric {
  const char *view;
  const char *label; /* the y axis */
  rep_point_value_fn get;
  int which;
  double lo, hi; /* the metric's range: a fit leaving it inside the data is not shown (met_fit_honest) */
} metric_t;

static const metric_t metrics[] = {
    {"time", "run time T_par (s)", eppa_value, M_TIME, 0, INFINITY},
    {"speedup", "speedup T_seq / T_par", eppa_value, M_SPEEDUP, 0, INFINITY},
    {"efficiency", "efficiency speedup / p (%)", eppa_value, M_EFFICIENCY, 0, 100},
    {"ovh-ctrl", "overhead ratio Ovh_ctrl (control of parallelism)", eppa_value, MET_OVH_CTRL, 0, INFINITY},
    {"ovh-comm", "overhead ratio Ovh_comm (communication)", eppa_value, MET_OVH_COMM, 0, INFINITY},
    {"ovh-idle", "overhead ratio Ovh_idle (idling)", eppa_value, MET_OVH_IDLE, 0, INFINITY},
    {"ovh-anomaly", "overhead ratio Ovh_anomaly (parallel anomaly)", eppa_value, MET_OVH_ANOMALY, -INFINITY, INFINITY},
    {"granularity", "granularity T_comp / T_comm", eppa_value, M_GRANULARITY, 0, INFINITY},
};

/* Fits the curve's finite points with the forms for what x is, and keeps the best only when it is honest within the
 * metric's range. Returns 1 when some form applied but none is honest ("no simple form fits"), else 0. */
static int fit_curve(rep_curve_t *curve, met_fit_x_t xkind, const metric_t *m)
{
  double x[curve->n], y[curve->n];
  size_t n = 0;
  for (size_t i = 0; i < curve->n; i++)
    if (isfinite(curve->y[i])) {
      x[n] = curve->x[i];
      y[n++] = curve->y[i];
    }
  int found = met_fit_best(x, y, n, xkind, &curve->fit) == 0;
  curve->fitted = found && met_fit_honest(&curve->fit, m->lo, m->hi);
  return found && !curve->fitted;
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
    const char *group = strcmp(curve->label, "simulated") ? curve->label : "";
    rep_fit_row_t row = {m->view, var, group, &curve->fit, curve->fitted, text};
    pics->sink(pics->sink_ctx, &row);
    return;
  }
  fprintf(pics->log, "  %s%s%s: %s\n", what, curve->label[0] ? ", " : "", curve->label, text);
}

/* What parameter x is: p, the grid's rows (a shape, not a work size) or a work size. */
static met_fit_x_t x_kind(const scn_param_t *x)
{
  return x->role == SCN_ROLE_PROCESSES   ? MET_FIT_X_PROCESSORS
         : x->role == SCN_ROLE_GRID_ROWS ? MET_FIT_X_OTHER
                                         : MET_FIT_X_WORK;
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
static int metric_picture(rep_pictures_t *pics, const rep_series_list_t *groups, const metric_t *m,
                          const scn_param_t *x, double *y, rep_curve_t *curves)
{
  const char *var = x->name;
  int against_p = x->role == SCN_ROLE_PROCESSES;
  size_t total = 0;
  int unfit[groups->count + 1];
  for (size_t k = 0; k < groups->count; k++) {
    const rep_series_t *g = &groups->list[k];
    rep_series_values(g, m->get, m->which, y + total);
    curves[k] = (rep_curve_t){.label = g->title[0] ? g->title : "simulated", .x = g->x, .y = y + total, .n = g->count};
    unfit[k] = fit_curve(&curves[k], x_kind(x), m);
    total += g->count;
  }
  if (all_zero(y, total))
    return 0;
  char view[128], title[300], what[160], fixed[300];
  snprintf(view, sizeof view, "%s%s%s", m->view, against_p ? "" : "-vs-", against_p ? "" : var);
  snprintf(what, sizeof what, "%s against %s%s", m->view, var,
           x_kind(x) == MET_FIT_X_OTHER ? " (the swept grid rows, not a work size)" : "");
  snprintf(title, sizeof title, "%s: %s against %s", pics->study->scenario->name, m->label, var);
  rep_picture_subtitle(fixed, sizeof fixed, pics->study, "");
  for (size_t k = 0; k < groups->count; k++)
    print_fit(pics, m, what, &curves[k], unfit[k], var);
  if (pics->fits_only)
    return 0;
  rep_chart_t chart = {title, fixed, against_p ? "p (processors)" : var, m->label, var, 0, 1000};
  rep_file_t *file = rep_picture_open(pics, view, "");
  return file ? rep_picture_close(pics, file, rep_line_chart(rep_file_stream(file), &chart, curves, groups->count))
              : -1;
}

/* Every metric against the parameter at x_index ("p" or a work size such as "n"). */
int rep_metric_pictures(rep_pictures_t *pics, size_t x_index)
{
  rep_series_list_t groups;
  const scn_param_t *x = &pics->study->scenario->params[x_index];
  double *y = malloc(pics->study->npoints * sizeof *y);
  rep_curve_t *curves = NULL;
  int rc = rep_series_collect(pics->study, x_index, &groups);
  if (rc == 0 && y && (curves = calloc(groups.count, sizeof *curves)))
    for (size_t i = 0; rc == 0 && i < sizeof metrics / sizeof metrics[0]; i++)
      rc = metric_picture(pics, &groups, &metrics[i], x, y, curves);
  else if (rc == 0)
    rc = -1;
  rep_series_free(&groups);
  free(y);
  free(curves);
  return rc;
}
