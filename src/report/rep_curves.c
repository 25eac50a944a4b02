/* The metrics of a study against p or a work size W (seed 000 Figs 1.7-1.8; docs/pictures.md): a curve per series
 * of points, fitted by met_fit with the forms for what x is, drawn by rep_chart or printed as fits. */
#include "rep_curves.h"
#include "rep_chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { M_TIME = MET_OVH_COUNT, M_SPEEDUP, M_EFFICIENCY, M_GRANULARITY }; /* 0 .. MET_OVH_COUNT - 1: Ovh_j */

/* Metric `which` of a point: Ovh_which below MET_OVH_COUNT, then the M_ values. */
static double eppa_value(const stu_point_t *point, int which)
{
  const met_eppa_t *e = &point->eppa;
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
} metric_t;

static const metric_t metrics[] = {
    {"time", "run time T_par (s)", eppa_value, M_TIME},
    {"speedup", "speedup T_seq / T_par", eppa_value, M_SPEEDUP},
    {"efficiency", "efficiency speedup / p (%)", eppa_value, M_EFFICIENCY},
    {"ovh-ctrl", "overhead ratio Ovh_ctrl (control of parallelism)", eppa_value, MET_OVH_CTRL},
    {"ovh-comm", "overhead ratio Ovh_comm (communication)", eppa_value, MET_OVH_COMM},
    {"ovh-idle", "overhead ratio Ovh_idle (idling)", eppa_value, MET_OVH_IDLE},
    {"ovh-anomaly", "overhead ratio Ovh_anomaly (parallel anomaly)", eppa_value, MET_OVH_ANOMALY},
    {"granularity", "granularity T_comp / T_comm", eppa_value, M_GRANULARITY},
};

/* Fits the curve's finite points with the forms for what x is (p, or a work size). */
static void fit_curve(rep_curve_t *curve, met_fit_x_t xkind)
{
  double x[curve->n], y[curve->n];
  size_t n = 0;
  for (size_t i = 0; i < curve->n; i++)
    if (isfinite(curve->y[i])) {
      x[n] = curve->x[i];
      y[n++] = curve->y[i];
    }
  curve->fitted = met_fit_best(x, y, n, xkind, &curve->fit) == 0;
}

static void print_fit(rep_pictures_t *pics, const char *what, const rep_curve_t *curve, const char *var)
{
  char text[256];
  if (!pics->fits_only || !curve->fitted)
    return;
  if (!pics->fits_shown)
    fprintf(pics->log,
            "\nRegression fits (least squares; of the forms in docs/pictures.md with at least two points more "
            "than coefficients, the best adjusted R^2; valid only within the data's range):\n");
  pics->fits_shown = 1;
  rep_fit_text(&curve->fit, var, "R^2", text, sizeof text);
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
static int metric_picture(rep_pictures_t *pics, const rep_series_list_t *groups, const metric_t *m, const char *var,
                          double *y, rep_curve_t *curves)
{
  size_t total = 0;
  for (size_t k = 0; k < groups->count; k++) {
    const rep_series_t *g = &groups->list[k];
    rep_series_values(g, m->get, m->which, y + total);
    curves[k] = (rep_curve_t){.label = g->title[0] ? g->title : "simulated", .x = g->x, .y = y + total, .n = g->count};
    fit_curve(&curves[k], strcmp(var, "p") ? MET_FIT_X_WORK : MET_FIT_X_PROCESSORS);
    total += g->count;
  }
  if (all_zero(y, total))
    return 0;
  char view[128], title[300], what[160], fixed[300];
  snprintf(view, sizeof view, "%s%s%s", m->view, strcmp(var, "p") ? "-vs-" : "", strcmp(var, "p") ? var : "");
  snprintf(what, sizeof what, "%s against %s", m->view, var);
  snprintf(title, sizeof title, "%s: %s against %s", pics->study->scenario->name, m->label, var);
  rep_picture_subtitle(fixed, sizeof fixed, pics->study, "");
  for (size_t k = 0; k < groups->count; k++)
    print_fit(pics, what, &curves[k], var);
  if (pics->fits_only)
    return 0;
  rep_chart_t chart = {title, fixed, strcmp(var, "p") ? var : "p (processors)", m->label, var, 0, 1000};
  rep_file_t *file = rep_picture_open(pics, view, "");
  return file ? rep_picture_close(pics, file, rep_line_chart(rep_file_stream(file), &chart, curves, groups->count))
              : -1;
}

/* Every metric against the parameter at x_index ("p" or a work size such as "n"). */
int rep_metric_pictures(rep_pictures_t *pics, size_t x_index)
{
  rep_series_list_t groups;
  const char *var = pics->study->scenario->params[x_index].name;
  double *y = malloc(pics->study->npoints * sizeof *y);
  rep_curve_t *curves = NULL;
  int rc = rep_series_collect(pics->study, x_index, &groups);
  if (rc == 0 && y && (curves = calloc(groups.count, sizeof *curves)))
    for (size_t i = 0; rc == 0 && i < sizeof metrics / sizeof metrics[0]; i++)
      rc = metric_picture(pics, &groups, &metrics[i], var, y, curves);
  else if (rc == 0)
    rc = -1;
  rep_series_free(&groups);
  free(y);
  free(curves);
  return rc;
}
