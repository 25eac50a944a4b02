/* The pictures of a study (seed 000 §1.2, Figs 1.4-1.8; seed 001 Figs 5-9), drawn with rep_svg: a function per view,
 * sharing two chart builders, curves (with regression fits, met_fit) and stacked bars. docs/pictures.md shows them. */
#include "rep_pictures.h"
#include "met_carnival.h"
#include "met_fit.h"
#include "rep_report.h"
#include "rep_svg.h"
#include "rep_wait.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CHART_WIDTH  900.0
#define CHART_LEFT   90.0
#define CHART_PLOT_W 780.0
#define CURVE_PLOT_H 340.0
#define BAR_PLOT_H   260.0
#define BELOW_PLOT   52.0 /* tick labels and the x axis label */
#define FIT_SAMPLES  96
#define MAX_STACKS   16
#define NOTE_ROW     15.0

#define TL_WIDTH    1200.0
#define TL_LEFT     70.0
#define TL_COLS     1100 /* pixel columns of the time axis: the resolution of the aggregation */
#define NO_CATEGORY 255

/* ---------- text helpers ---------- */

/* Appends printf-style text to the NUL-terminated buf of size len, truncating. */
static void append(char *buf, size_t len, const char *fmt, ...)
{
  size_t used = strlen(buf);
  if (used + 1 >= len)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}

/* Characters other than letters, digits, '.', '_' and '-' become '_', so that any name makes a file name. */
static void file_safe(char *name)
{
  for (char *c = name; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_' && *c != '-')
      *c = '_';
}

/* ---------- the study: groups of points ---------- */

typedef struct pictures {
  const stu_study_t *study;
  const char *dir;
  FILE *log;
  char *err;
  size_t errlen;
  size_t written;
  size_t p_index;
  int fits_shown; /* the heading of the fits has been printed */
  int fits_only;  /* rep_print_fits: the fits on the log, no picture */
} pictures_t;

/* Points that share every parameter value but the one at x_index, in increasing order of that parameter. */
typedef struct group {
  const stu_point_t **points;
  double *x; /* the x parameter's value at each point */
  size_t count;
  char title[256]; /* "broadcast = neighbour": the other swept parameters; "" when there are none */
  char file[128];  /* "neighbour" */
} group_t;

typedef struct groups {
  group_t *list;
  size_t count;
} groups_t;

/* The group's title and file name part from the swept parameters other than the one at `except`; a path is shown by
 * its last part. In file names a value that starts with a letter stands alone ("neighbour"), a number follows its
 * parameter's name ("n256"). */
static void describe(const stu_study_t *study, const stu_point_t *point, size_t except, group_t *g)
{
  const scn_scenario_t *s = study->scenario;
  for (size_t j = 0; j < s->nparams; j++) {
    if (j == except || s->params[j].nvalues < 2)
      continue;
    const char *value = strrchr(point->values[j], '/') ? strrchr(point->values[j], '/') + 1 : point->values[j];
    append(g->title, sizeof g->title, "%s%s = %s", g->title[0] ? ", " : "", s->params[j].name, value);
    append(g->file, sizeof g->file, "%s%s%s", g->file[0] ? "-" : "",
           isalpha((unsigned char)value[0]) ? "" : s->params[j].name, value);
  }
  file_safe(g->file);
}

static void groups_free(groups_t *groups)
{
  for (size_t i = 0; groups->list && i < groups->count; i++) {
    free(groups->list[i].points);
    free(groups->list[i].x);
  }
  free(groups->list);
}

/* Inserts the point into its group, keeping the group sorted by x. */
static void group_insert(group_t *g, const stu_point_t *point, double x)
{
  size_t at = g->count++;
  for (; at > 0 && g->x[at - 1] > x; at--) {
    g->points[at] = g->points[at - 1];
    g->x[at] = g->x[at - 1];
  }
  g->points[at] = point;
  g->x[at] = x;
}

/* The groups of the study's points for x parameter `x_index`. Returns 0, or -1 when out of memory. */
static int collect_groups(const stu_study_t *study, size_t x_index, groups_t *out)
{
  size_t n = study->npoints;
  *out = (groups_t){.list = calloc(n, sizeof *out->list)};
  if (!out->list)
    return -1;
  for (size_t i = 0; i < n; i++) {
    const stu_point_t *point = &study->points[i];
    size_t k = 0;
    while (k < out->count && !stu_same_except(study, out->list[k].points[0], point, x_index))
      k++;
    group_t *g = &out->list[k];
    if (k == out->count) {
      out->count++;
      g->points = calloc(n, sizeof *g->points);
      g->x = calloc(n, sizeof *g->x);
      if (!g->points || !g->x)
        return -1;
      describe(study, point, x_index, g);
    }
    group_insert(g, point, strtod(point->values[x_index], NULL));
  }
  return 0;
}

/* "gauss-jordan, n = 256 on t800-mesh-128.xml": the skeleton, the parameters that are not swept and the platform
 * (unless a parameter names it), for subtitles. */
static void describe_fixed(const stu_study_t *study, char *buf, size_t len)
{
  const scn_scenario_t *s = study->scenario;
  const char *base = strrchr(s->platform, '/');
  snprintf(buf, len, "%s", s->skeleton);
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].nvalues == 1)
      append(buf, len, ", %s = %s", s->params[j].name, s->params[j].values[0]);
  if (!scn_param(s, "platform"))
    append(buf, len, " on %s", base ? base + 1 : s->platform);
}

/* "<what>: <scenario>[, <group>]" */
static void picture_title(char *buf, size_t len, const char *what, const stu_study_t *study, const group_t *g)
{
  buf[0] = '\0';
  append(buf, len, "%s: %s%s%s", what, study->scenario->name, g->title[0] ? ", " : "", g->title);
}

/* The fixed parameters, then `note`. */
static void picture_subtitle(char *buf, size_t len, const stu_study_t *study, const char *note)
{
  describe_fixed(study, buf, len);
  append(buf, len, "%s", note);
}

/* ---------- files ---------- */

/* Opens <dir>/<scenario>-<view>[-<suffix>].svg under a temporary name. NULL with pics->err filled. */
static rep_file_t *open_picture(pictures_t *pics, const char *view, const char *suffix)
{
  char name[512];
  snprintf(name, sizeof name, "%s-%s%s%s.svg", pics->study->scenario->name, view, suffix[0] ? "-" : "", suffix);
  file_safe(name);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", pics->dir, name);
  return rep_file_open(path, pics->err, pics->errlen);
}

/* Commits the picture when drawing it succeeded (drawn == 0), else removes it. Returns 0 or -1 with pics->err. */
static int close_picture(pictures_t *pics, rep_file_t *file, int drawn)
{
  if (drawn != 0) {
    rep_file_abort(file);
    snprintf(pics->err, pics->errlen, "drawing a picture in '%s' failed: out of memory or a write error", pics->dir);
    return -1;
  }
  if (rep_file_commit(file, pics->err, pics->errlen) != 0)
    return -1;
  pics->written++;
  return 0;
}

/* ---------- curves ---------- */

typedef struct curve {
  const char *label;
  const double *x;
  const double *y;
  size_t n;
  int fitted; /* fit holds a regression fit */
  met_fit_t fit;
} curve_t;

typedef struct chart {
  const char *title;
  const char *subtitle;
  const char *x_label;
  const char *y_label;
  const char *var;   /* the variable in fitted formulas */
  int reference_one; /* a dashed line at y = 1: a ratio above it marks a bottleneck */
  double log_span;   /* the y axis is logarithmic when the positive values span this factor or more */
} chart_t;

/* "fit 1.02 + 12.3/p (amdahl), R² = 0.9981, adjusted 0.9975, p from 1 to 128" */
static void fit_text(const met_fit_t *fit, const char *var, const char *r2, char *buf, size_t len)
{
  char formula[160];
  met_fit_format(fit, var, formula, sizeof formula);
  snprintf(buf, len, "fit %s (%s), %s = %.4f, adjusted %.4f, %s from %g to %g", formula, met_fit_name(fit->form), r2,
           fit->r2, fit->adj_r2, var, fit->x_min, fit->x_max);
}

/* A log2 x axis when every x is positive and they span a factor of 4 or more (p = 1, 2, 4, ...). */
static rep_scale_t x_scale(const curve_t *curves, size_t n, double *lo, double *hi)
{
  *lo = INFINITY;
  *hi = -INFINITY;
  for (size_t c = 0; c < n; c++)
    for (size_t i = 0; i < curves[c].n; i++) {
      *lo = fmin(*lo, curves[c].x[i]);
      *hi = fmax(*hi, curves[c].x[i]);
    }
  return *lo > 0 && *hi >= 4 * *lo ? REP_LOG2 : REP_LINEAR;
}

/* A log10 y axis when no value is negative and the positive ones span the chart's log_span or more (zeros are then
 * not drawn); otherwise linear from min(0, lowest). */
static rep_scale_t y_scale(const chart_t *chart, const curve_t *curves, size_t n, double *lo, double *hi)
{
  double low = INFINITY, high = -INFINITY, pos_low = INFINITY;
  for (size_t c = 0; c < n; c++)
    for (size_t i = 0; i < curves[c].n; i++) {
      double v = curves[c].y[i];
      if (!isfinite(v))
        continue;
      low = fmin(low, v);
      high = fmax(high, v);
      pos_low = v > 0 ? fmin(pos_low, v) : pos_low;
    }
  if (chart->reference_one) {
    low = fmin(low, 1);
    high = fmax(high, 1);
    pos_low = fmin(pos_low, 1);
  }
  if (!isfinite(low))
    low = high = 0;
  int log_scale = low >= 0 && isfinite(pos_low) && high >= chart->log_span * pos_low;
  *lo = log_scale ? pos_low : fmin(0, low);
  *hi = high;
  return log_scale ? REP_LOG10 : REP_LINEAR;
}

static void chart_plot(rep_plot_t *plot, const chart_t *chart, const curve_t *curves, size_t n)
{
  double lo, hi;
  *plot = (rep_plot_t){.left = CHART_LEFT, .top = REP_SVG_HEADING + 16, .width = CHART_PLOT_W, .height = CURVE_PLOT_H};
  plot->x.scale = x_scale(curves, n, &lo, &hi);
  plot->x.label = chart->x_label;
  rep_axis_range(&plot->x, lo, hi);
  plot->y.scale = y_scale(chart, curves, n, &lo, &hi);
  plot->y.label = chart->y_label;
  rep_axis_range(&plot->y, lo, hi);
}

static void draw_curve(rep_svg_t *svg, const rep_plot_t *plot, const curve_t *curve, size_t index)
{
  const char *colour = rep_svg_series_colour(index);
  double *px = malloc(curve->n * sizeof *px);
  double *py = malloc(curve->n * sizeof *py);
  for (size_t i = 0; px && py && i < curve->n; i++) {
    px[i] = rep_plot_x(plot, curve->x[i]);
    py[i] = isfinite(curve->y[i]) ? rep_plot_y(plot, curve->y[i]) : NAN;
  }
  if (px && py) {
    rep_svg_polyline(svg, px, py, curve->n, colour, 2, rep_svg_series_style(index));
    for (size_t i = 0; i < curve->n; i++)
      if (!isnan(py[i]))
        rep_svg_marker(svg, px[i], py[i], colour);
  }
  free(px);
  free(py);
}

/* The fitted function, sampled evenly along the x axis between the curve's first and last x. */
static void draw_fit(rep_svg_t *svg, const rep_plot_t *plot, const curve_t *curve, const char *colour)
{
  double px[FIT_SAMPLES], py[FIT_SAMPLES];
  double a = curve->x[0], b = curve->x[curve->n - 1];
  int log_x = plot->x.scale == REP_LOG2;
  for (int i = 0; i < FIT_SAMPLES; i++) {
    double t = (double)i / (FIT_SAMPLES - 1);
    double x = log_x ? a * pow(b / a, t) : a + (b - a) * t;
    double y = met_fit_eval(&curve->fit, x);
    px[i] = rep_plot_x(plot, x);
    py[i] = isfinite(y) ? rep_plot_y(plot, y) : NAN;
  }
  rep_svg_polyline(svg, px, py, FIT_SAMPLES, colour, 1.5, 1);
}

/* Legend items: a line per curve, a dashed line per fit; fit texts written into texts[c]. Returns the item count. */
static size_t curve_legend(const chart_t *chart, const curve_t *curves, size_t n, char (*texts)[200],
                           rep_legend_item_t *items)
{
  size_t count = 0;
  for (size_t c = 0; c < n; c++) {
    items[count++] = (rep_legend_item_t){curves[c].label, rep_svg_series_colour(c), rep_svg_series_key(c)};
    if (!curves[c].fitted)
      continue;
    fit_text(&curves[c].fit, chart->var, "R²", texts[c], sizeof texts[c]);
    items[count++] = (rep_legend_item_t){texts[c], rep_svg_series_colour(c), REP_KEY_DASHED};
  }
  return count;
}

/* Whether a curve has a value <= 0, which a log axis cannot show. */
static int has_zero(const curve_t *curves, size_t n)
{
  for (size_t c = 0; c < n; c++)
    for (size_t i = 0; i < curves[c].n; i++)
      if (curves[c].y[i] <= 0)
        return 1;
  return 0;
}

/* A chart of curves against one x variable, each with its fit when it has one. Returns 0 or -1. */
static int line_chart(FILE *out, const chart_t *chart, const curve_t *curves, size_t n)
{
  rep_plot_t plot;
  chart_plot(&plot, chart, curves, n);
  char subtitle[400];
  snprintf(subtitle, sizeof subtitle, "%s%s", chart->subtitle,
           plot.y.scale == REP_LOG10 && has_zero(curves, n) ? "; log scale: zeros are not drawn" : "");
  char(*texts)[200] = calloc(n, sizeof *texts);
  rep_legend_item_t *items = calloc(2 * n, sizeof *items);
  if (!texts || !items) {
    free(texts);
    free(items);
    return -1;
  }
  size_t nitems = curve_legend(chart, curves, n, texts, items);
  double legend_top = plot.top + plot.height + BELOW_PLOT;
  double height = legend_top + rep_svg_legend(NULL, CHART_LEFT, legend_top, CHART_PLOT_W, items, nitems) + 16;
  rep_svg_t *svg = rep_svg_new(out, CHART_WIDTH, height, chart->title, subtitle);
  if (svg) {
    rep_svg_axes(svg, &plot);
    rep_svg_clip_begin(svg, &plot);
    if (chart->reference_one)
      rep_svg_line(svg, plot.left, rep_plot_y(&plot, 1), plot.left + plot.width, rep_plot_y(&plot, 1), "#444444", 1, 1);
    for (size_t c = 0; c < n; c++) {
      if (curves[c].fitted)
        draw_fit(svg, &plot, &curves[c], rep_svg_series_colour(c));
      draw_curve(svg, &plot, &curves[c], c);
    }
    rep_svg_clip_end(svg);
    rep_svg_legend(svg, CHART_LEFT, legend_top, CHART_PLOT_W, items, nitems);
  }
  free(texts);
  free(items);
  return rep_svg_end(svg);
}

/* ---------- stacked bars ---------- */

typedef struct stack {
  const char *label;
  const char *colour;
  const double *values; /* one per bar */
} stack_t;

typedef struct bars {
  const char *heading; /* a bold line above the plot, or NULL */
  const char *x_label;
  const char *y_label;
  const char *const *names; /* one per bar */
  size_t count;
  const stack_t *stacks;
  size_t nstacks;
  double notes_height; /* room between the heading and the plot, for notes over the bars */
} bars_t;

/* The sums of the positive and of the negative values of the tallest and deepest bars. */
static void bar_extent(const bars_t *bars, double *lo, double *hi)
{
  *lo = *hi = 0;
  for (size_t i = 0; i < bars->count; i++) {
    double up = 0, down = 0;
    for (size_t s = 0; s < bars->nstacks; s++) {
      double v = bars->stacks[s].values[i];
      up += v > 0 ? v : 0;
      down += v < 0 ? v : 0;
    }
    *hi = fmax(*hi, up);
    *lo = fmin(*lo, down);
  }
}

static void draw_bars(rep_svg_t *svg, const rep_plot_t *plot, const bars_t *bars)
{
  double w = 0.72 * rep_plot_band(plot, 0);
  for (size_t i = 0; i < bars->count; i++) {
    double up = 0, down = 0;
    double x = rep_plot_x(plot, (double)i) - w / 2;
    for (size_t s = 0; s < bars->nstacks; s++) {
      double v = bars->stacks[s].values[i];
      double from = v > 0 ? up : down;
      double to = from + v;
      if (v == 0 || !isfinite(v))
        continue;
      double y0 = rep_plot_y(plot, fmax(from, to)), y1 = rep_plot_y(plot, fmin(from, to));
      rep_svg_rect(svg, x, y0, w, y1 - y0, bars->stacks[s].colour);
      *(v > 0 ? &up : &down) = to;
    }
  }
  if (plot->y.lo < 0)
    rep_svg_line(svg, plot->left, rep_plot_y(plot, 0), plot->left + plot->width, rep_plot_y(plot, 0), "#444444", 1, 0);
}

/* Draws, or with svg NULL only measures, a panel of stacked bars whose heading starts at `top`: positive values stack
 * up from 0, negative ones down. Fills *plot; returns the y below the panel's legend. */
static double bar_panel(rep_svg_t *svg, double top, const bars_t *bars, rep_plot_t *plot)
{
  double y = top + (bars->heading ? 26 : 0) + bars->notes_height;
  double lo, hi;
  *plot = (rep_plot_t){.left = CHART_LEFT, .top = y, .width = CHART_PLOT_W, .height = BAR_PLOT_H};
  rep_axis_bands(&plot->x, bars->names, bars->count);
  plot->x.label = bars->x_label;
  plot->y.label = bars->y_label;
  bar_extent(bars, &lo, &hi);
  rep_axis_range(&plot->y, lo, hi);
  rep_legend_item_t items[MAX_STACKS];
  for (size_t s = 0; s < bars->nstacks && s < MAX_STACKS; s++)
    items[s] = (rep_legend_item_t){bars->stacks[s].label, bars->stacks[s].colour, REP_KEY_BOX};
  double legend_top = y + BAR_PLOT_H + BELOW_PLOT;
  if (svg) {
    if (bars->heading)
      rep_svg_text(svg, CHART_LEFT - 70, top + 14, 14, REP_START, bars->heading);
    rep_svg_axes(svg, plot);
    draw_bars(svg, plot, bars);
  }
  return legend_top + rep_svg_legend(svg, CHART_LEFT, legend_top, CHART_PLOT_W, items, bars->nstacks) + 10;
}

/* A picture of one or more bar panels, one under the other; `annotate` (or NULL) draws over panel i once it is
 * drawn. Returns 0 or -1. */
typedef void (*annotate_fn)(rep_svg_t *svg, size_t panel, const rep_plot_t *plot, const void *arg);

static int bar_picture(FILE *out, const char *title, const char *subtitle, const bars_t *panels, size_t n,
                       annotate_fn annotate, const void *arg)
{
  rep_plot_t plot;
  double height = REP_SVG_HEADING + 8;
  for (size_t i = 0; i < n; i++)
    height = bar_panel(NULL, height, &panels[i], &plot);
  rep_svg_t *svg = rep_svg_new(out, CHART_WIDTH, height + 8, title, subtitle);
  double top = REP_SVG_HEADING + 8;
  for (size_t i = 0; svg && i < n; i++) {
    top = bar_panel(svg, top, &panels[i], &plot);
    if (annotate)
      annotate(svg, i, &plot, arg);
  }
  return rep_svg_end(svg);
}

/* ---------- values of a point ---------- */

/* What a curve or a bar shows of a point; `which` selects among related values. */
typedef double (*point_value_fn)(const stu_point_t *point, int which);

enum { M_TIME = MET_OVH_COUNT, M_SPEEDUP, M_EFFICIENCY, M_GRANULARITY }; /* 0 .. MET_OVH_COUNT - 1: Ovh_j */

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

static double component_time(const stu_point_t *point, int which)
{
  return point->breakdown.component[which];
}

static double b_ratio(const stu_point_t *point, int which)
{
  return point->breakdown.b_ratio[which];
}

static double bottleneck_ratio(const stu_point_t *point, int which)
{
  return which == 0 ? point->breakdown.comm_comp_ratio : point->breakdown.mem_proc_ratio;
}

/* values[which] as a percentage of the sum of the n values (0 when they sum to 0). */
static double share(const double *values, int n, int which)
{
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += values[i];
  return sum > 0 ? 100 * values[which] / sum : 0;
}

static double component_share(const stu_point_t *point, int which)
{
  return share(point->breakdown.component, MET_COMP_COUNT, which);
}

static double sub_share(const stu_point_t *point, int which)
{
  return share(point->breakdown.sub, MET_SUB_COUNT, which);
}

/* Fills values[i] with get(point i of g, which). */
static void group_values(const group_t *g, point_value_fn get, int which, double *values)
{
  for (size_t i = 0; i < g->count; i++)
    values[i] = get(g->points[i], which);
}

/* ---------- curves of a metric against p or W (seed 000 Figs 1.7-1.8) ---------- */

typedef struct metric {
  const char *view;
  const char *label; /* the y axis */
  point_value_fn get;
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
static void fit_curve(curve_t *curve, met_fit_x_t xkind)
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

static void print_fit(pictures_t *pics, const char *what, const curve_t *curve, const char *var)
{
  char text[256];
  if (!pics->fits_only || !curve->fitted)
    return;
  if (!pics->fits_shown)
    fprintf(pics->log, "\nRegression fits (least squares; of the forms in docs/pictures.md with at least two points more "
                       "than coefficients, the best adjusted R^2; valid only within the data's range):\n");
  pics->fits_shown = 1;
  fit_text(&curve->fit, var, "R^2", text, sizeof text);
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
static int metric_picture(pictures_t *pics, const groups_t *groups, const metric_t *m, const char *var, double *y,
                          curve_t *curves)
{
  size_t total = 0;
  for (size_t k = 0; k < groups->count; k++) {
    const group_t *g = &groups->list[k];
    group_values(g, m->get, m->which, y + total);
    curves[k] = (curve_t){.label = g->title[0] ? g->title : "simulated", .x = g->x, .y = y + total, .n = g->count};
    fit_curve(&curves[k], strcmp(var, "p") ? MET_FIT_X_WORK : MET_FIT_X_PROCESSORS);
    total += g->count;
  }
  if (all_zero(y, total))
    return 0;
  char view[128], title[300], what[160], fixed[300];
  snprintf(view, sizeof view, "%s%s%s", m->view, strcmp(var, "p") ? "-vs-" : "", strcmp(var, "p") ? var : "");
  snprintf(what, sizeof what, "%s against %s", m->view, var);
  snprintf(title, sizeof title, "%s: %s against %s", pics->study->scenario->name, m->label, var);
  picture_subtitle(fixed, sizeof fixed, pics->study, "");
  for (size_t k = 0; k < groups->count; k++)
    print_fit(pics, what, &curves[k], var);
  if (pics->fits_only)
    return 0;
  chart_t chart = {title, fixed, strcmp(var, "p") ? var : "p (processors)", m->label, var, 0, 1000};
  rep_file_t *file = open_picture(pics, view, "");
  return file ? close_picture(pics, file, line_chart(rep_file_stream(file), &chart, curves, groups->count)) : -1;
}

/* Every metric against the parameter at x_index ("p" or a work size such as "n"). */
static int metric_pictures(pictures_t *pics, size_t x_index)
{
  groups_t groups;
  const char *var = pics->study->scenario->params[x_index].name;
  double *y = malloc(pics->study->npoints * sizeof *y);
  curve_t *curves = NULL;
  int rc = collect_groups(pics->study, x_index, &groups);
  if (rc == 0 && y && (curves = calloc(groups.count, sizeof *curves)))
    for (size_t i = 0; rc == 0 && i < sizeof metrics / sizeof metrics[0]; i++)
      rc = metric_picture(pics, &groups, &metrics[i], var, y, curves);
  else if (rc == 0)
    rc = -1;
  groups_free(&groups);
  free(y);
  free(curves);
  return rc;
}

/* Whether parameter j is swept over numbers: a work size W (or p) that curves can be drawn against. */
static int numeric_sweep(const scn_param_t *param)
{
  if (param->nvalues < 2)
    return 0;
  for (size_t i = 0; i < param->nvalues; i++) {
    char *end = NULL;
    strtod(param->values[i], &end);
    if (end == param->values[i] || *end)
      return 0;
  }
  return 1;
}

/* ---------- per group of p: overall performance and the bottleneck views ---------- */

/* Names for bars: the group's p values. */
typedef struct labels {
  char (*text)[16];
  const char **names;
} labels_t;

static int labels_new(labels_t *l, const double *values, size_t n)
{
  l->text = calloc(n, sizeof *l->text);
  l->names = calloc(n, sizeof *l->names);
  if (!l->text || !l->names)
    return -1;
  for (size_t i = 0; i < n; i++) {
    snprintf(l->text[i], sizeof l->text[i], "%g", values[i]);
    l->names[i] = l->text[i];
  }
  return 0;
}

static void labels_free(labels_t *l)
{
  free(l->text);
  free(l->names);
}

/* Stacks of `count` values each, get(point, which) for which = 0 .. n-1, in one block. NULL when out of memory. */
static double *stack_values(const group_t *g, point_value_fn get, int n, stack_t *stacks)
{
  double *block = calloc((size_t)n * g->count, sizeof *block);
  for (int s = 0; block && s < n; s++) {
    group_values(g, get, s, block + (size_t)s * g->count);
    stacks[s].values = block + (size_t)s * g->count;
  }
  return block;
}

/* Share of p T_par (%) for the overall view: useful work at its sequential cost is the efficiency; a positive anomaly
 * (useful work done slower in parallel) sits on it; a negative one shrinks it. The shares add up to 100. */
static double cycle_share(const stu_point_t *point, int which)
{
  const met_eppa_t *e = &point->eppa;
  double anomaly = e->ovh_ratio[MET_OVH_ANOMALY];
  if (which == 0)
    return 100 * e->efficiency * (1 + fmin(anomaly, 0));
  if (which == 1)
    return 100 * e->efficiency * fmax(anomaly, 0);
  return 100 * e->efficiency * e->ovh_ratio[which - 2];
}

static double overhead_ratio(const stu_point_t *point, int which)
{
  return point->eppa.ovh_ratio[which];
}

static const char *const anomaly_colour = "#9c6ade";

/* The sum of the overhead ratios over each bar of the second panel, which small p would leave unreadable. */
static void annotate_sums(rep_svg_t *svg, const rep_plot_t *plot, const group_t *g)
{
  for (size_t i = 0; i < g->count; i++) {
    char text[32];
    double sum = 0;
    for (int j = 0; j < MET_OVH_COUNT; j++)
      sum += g->points[i]->eppa.ovh_ratio[j];
    snprintf(text, sizeof text, "%.3g", sum);
    rep_svg_text(svg, rep_plot_x(plot, (double)i), rep_plot_y(plot, fmax(sum, 0)) - 4, 11, REP_MIDDLE, text);
  }
}

/* Speedup and efficiency over each bar of the first panel; the sum of the overhead ratios over those of the second. */
static void annotate_overall(rep_svg_t *svg, size_t panel, const rep_plot_t *plot, const void *arg)
{
  const group_t *g = arg;
  if (panel != 0) {
    annotate_sums(svg, plot, g);
    return;
  }
  rep_svg_text(svg, plot->left - 8, plot->top - NOTE_ROW - 6, 11, REP_END, "speedup");
  rep_svg_text(svg, plot->left - 8, plot->top - 6, 11, REP_END, "efficiency");
  for (size_t i = 0; i < g->count; i++) {
    char text[32];
    double x = rep_plot_x(plot, (double)i);
    snprintf(text, sizeof text, "%.3g", g->points[i]->eppa.speedup);
    rep_svg_text(svg, x, plot->top - NOTE_ROW - 6, 11, REP_MIDDLE, text);
    snprintf(text, sizeof text, "%.3g%%", 100 * g->points[i]->eppa.efficiency);
    rep_svg_text(svg, x, plot->top - 6, 11, REP_MIDDLE, text);
  }
}

/* Seed 000 Fig. 1.5 for every p of the group. */
static int overall_picture(pictures_t *pics, const group_t *g, const labels_t *p_names)
{
  stack_t shares[2 + MET_OVH_ANOMALY] = {{"useful work (its share is the efficiency)", rep_svg_category_colour(0), 0},
                                         {"parallel anomaly", anomaly_colour, 0},
                                         {"control of parallelism", rep_svg_category_colour(MET_CAT_CTRL), 0},
                                         {"communication", rep_svg_category_colour(MET_CAT_COMM), 0},
                                         {"idling", rep_svg_category_colour(MET_CAT_IDLE), 0}};
  stack_t ratios[MET_OVH_COUNT] = {{"Ovh_ctrl", rep_svg_category_colour(MET_CAT_CTRL), 0},
                                   {"Ovh_comm", rep_svg_category_colour(MET_CAT_COMM), 0},
                                   {"Ovh_idle", rep_svg_category_colour(MET_CAT_IDLE), 0},
                                   {"Ovh_anomaly", anomaly_colour, 0}};
  double *a = stack_values(g, cycle_share, 2 + MET_OVH_ANOMALY, shares);
  double *b = stack_values(g, overhead_ratio, MET_OVH_COUNT, ratios);
  bars_t panels[2] = {{"Where the processors' time p T_par goes", "p (processors)", "share of p T_par (%)",
                       p_names->names, g->count, shares, 2 + MET_OVH_ANOMALY, 2 * NOTE_ROW + 4},
                      {"Overhead ratios Ovh_j = T_ovh^j / T_seq, stacked: speedup = p / (1 + their sum)",
                       "p (processors)", "overhead ratio", p_names->names, g->count, ratios, MET_OVH_COUNT, 0}};
  char title[300], subtitle[300];
  picture_title(title, sizeof title, "Overall performance", pics->study, g);
  picture_subtitle(subtitle, sizeof subtitle, pics->study, "; seed 000 Fig. 1.5 for each p");
  rep_file_t *file = a && b ? open_picture(pics, "overall", g->file) : NULL;
  int rc = file ? close_picture(pics, file,
                                bar_picture(rep_file_stream(file), title, subtitle, panels, 2, annotate_overall, g))
                : -1;
  free(a);
  free(b);
  return rc;
}

/* A chart of curves get(point, 0 .. n-1) against p, one per name; no fits. */
static int group_curves(pictures_t *pics, const group_t *g, const char *view, const chart_t *chart, point_value_fn get,
                        const char *const *names, int n)
{
  curve_t curves[MET_COMP_COUNT];
  double *y = calloc((size_t)n * g->count, sizeof *y);
  if (!y)
    return -1;
  for (int c = 0; c < n; c++) {
    group_values(g, get, c, y + (size_t)c * g->count);
    curves[c] = (curve_t){.label = names[c], .x = g->x, .y = y + (size_t)c * g->count, .n = g->count};
  }
  rep_file_t *file = open_picture(pics, view, g->file);
  int rc = file ? close_picture(pics, file, line_chart(rep_file_stream(file), chart, curves, (size_t)n)) : -1;
  free(y);
  return rc;
}

/* Bars of shares (%) per p, get(point, 0 .. n-1), one stack per name, coloured by `colours`. */
static int group_shares(pictures_t *pics, const group_t *g, const labels_t *p_names, const char *view,
                        const char *title, const char *subtitle, point_value_fn get, const char *const *names,
                        const char *const *colours, int n)
{
  stack_t stacks[MAX_STACKS];
  for (int s = 0; s < n; s++)
    stacks[s] = (stack_t){names[s], colours[s], NULL};
  double *block = stack_values(g, get, n, stacks);
  bars_t panel = {
      NULL, "p (processors)", "share of the components' sum (%)", p_names->names, g->count, stacks, (size_t)n, 0};
  rep_file_t *file = block ? open_picture(pics, view, g->file) : NULL;
  int rc =
      file ? close_picture(pics, file, bar_picture(rep_file_stream(file), title, subtitle, &panel, 1, NULL, NULL)) : -1;
  free(block);
  return rc;
}

static const char *const component_labels[MET_COMP_COUNT] = {"processing (CPU, FPU)", "memory (internal, external)",
                                                             "communication", "I/O"};
static const char *const sub_labels[MET_SUB_COUNT] = {
    "CPU",          "FPU",       "internal memory", "external memory",     "link initialisation",
    "distribution", "broadcast", "collection",      "other communication", "input",
    "output"};
/* Sub-components in their component's hue: processing blue, memory green, communication red to orange, I/O purple. */
static const char *const sub_colours[MET_SUB_COUNT] = {"#1f4e79", "#6baed6", "#1b7837", "#7fbf7b", "#ffd92f", "#fc8d62",
                                                       "#d7301f", "#7f0000", "#fdbb84", "#762a83", "#c2a5cf"};

/* Seed 001 Figs 5-9 for the group: component times, their shares, B-ratios, the two ratios, sub-component shares. */
static int bottleneck_pictures(pictures_t *pics, const group_t *g, const labels_t *p_names)
{
  static const char *const ratio_labels[] = {"communication / computation", "memory / processing"};
  const char *comp_colours[MET_COMP_COUNT];
  for (int c = 0; c < MET_COMP_COUNT; c++)
    comp_colours[c] = rep_svg_series_colour((size_t)c);
  char title[5][300], sub[5][300];
  static const char *const heads[5] = {"Components of the run time", "B-ratios", "Bottleneck ratios",
                                       "Components' shares", "Sub-components' shares"};
  static const char *const notes[5] = {
      "; seed 001 Fig. 5: each the time of the rank that spends the most on it",
      "; seed 001 Fig. 7: a component / the sum of the others; above 1 (dashed), a bottleneck",
      "; seed 001 Fig. 8: above 1 (dashed), communication is a bottleneck", "; seed 001 Fig. 6",
      "; seed 001 Fig. 9 (Table 5's rows)"};
  for (int i = 0; i < 5; i++) {
    picture_title(title[i], sizeof title[i], heads[i], pics->study, g);
    picture_subtitle(sub[i], sizeof sub[i], pics->study, notes[i]);
  }
  chart_t times = {title[0], sub[0], "p (processors)", "time (s)", "p", 0, 20};
  chart_t bratios = {title[1], sub[1], "p (processors)", "B-ratio", "p", 1, 1000};
  chart_t ratios = {title[2], sub[2], "p (processors)", "ratio", "p", 1, 1000};
  int rc = group_curves(pics, g, "components", &times, component_time, component_labels, MET_COMP_COUNT);
  rc = rc ? rc : group_curves(pics, g, "bratios", &bratios, b_ratio, component_labels, MET_COMP_COUNT);
  rc = rc ? rc : group_curves(pics, g, "ratios", &ratios, bottleneck_ratio, ratio_labels, 2);
  rc = rc ? rc
          : group_shares(pics, g, p_names, "component-shares", title[3], sub[3], component_share, component_labels,
                         comp_colours, MET_COMP_COUNT);
  return rc ? rc
            : group_shares(pics, g, p_names, "subcomponents", title[4], sub[4], sub_share, sub_labels, sub_colours,
                           MET_SUB_COUNT);
}

static int group_pictures(pictures_t *pics)
{
  groups_t groups;
  int rc = collect_groups(pics->study, pics->p_index, &groups);
  for (size_t k = 0; rc == 0 && k < groups.count; k++) {
    labels_t p_names = {0};
    rc = labels_new(&p_names, groups.list[k].x, groups.list[k].count);
    rc = rc ? rc : overall_picture(pics, &groups.list[k], &p_names);
    if (groups.list[k].count > 1) /* curves against p need two p at least */
      rc = rc ? rc : bottleneck_pictures(pics, &groups.list[k], &p_names);
    labels_free(&p_names);
  }
  groups_free(&groups);
  return rc;
}

/* ---------- per point: overhead ratios per process (Fig. 1.6), timeline (Fig. 1.4) ---------- */

/* A bar per rank of `point`, `stacks` stacked (their values one per rank), as <scenario>-<view>[-<group>].svg, titled
 * `what` with `note` after the subtitle. */
static int rank_picture(pictures_t *pics, const stu_point_t *point, const group_t *g, const char *view,
                        const char *what, const char *note, const char *y_label, const stack_t *stacks, size_t nstacks)
{
  size_t p = (size_t)point->p;
  double *ranks = calloc(p, sizeof *ranks);
  labels_t names = {0};
  int rc = ranks ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < p; i++)
    ranks[i] = (double)i;
  rc = rc ? rc : labels_new(&names, ranks, p);
  bars_t panel = {NULL, "rank", y_label, names.names, p, stacks, nstacks, 0};
  char title[300], subtitle[300];
  picture_title(title, sizeof title, what, pics->study, g);
  append(title, sizeof title, ", p = %d", point->p);
  picture_subtitle(subtitle, sizeof subtitle, pics->study, note);
  rep_file_t *file = rc == 0 ? open_picture(pics, view, g->file) : NULL;
  rc =
      file ? close_picture(pics, file, bar_picture(rep_file_stream(file), title, subtitle, &panel, 1, NULL, NULL)) : -1;
  labels_free(&names);
  free(ranks);
  return rc;
}

/* Seed 000 Fig. 1.6: a bar per rank, its overhead ratios stacked. */
static int processes_picture(pictures_t *pics, const stu_point_t *point, const group_t *g)
{
  size_t p = (size_t)point->p;
  double *block = calloc(MET_OVH_COUNT * p, sizeof *block);
  if (!block)
    return -1;
  for (size_t i = 0; i < p; i++)
    for (int j = 0; j < MET_OVH_COUNT; j++)
      block[(size_t)j * p + i] = point->procs[i].ovh_ratio[j];
  stack_t stacks[MET_OVH_COUNT] = {{"control of parallelism", rep_svg_category_colour(MET_CAT_CTRL), block},
                                   {"communication", rep_svg_category_colour(MET_CAT_COMM), block + p},
                                   {"idling", rep_svg_category_colour(MET_CAT_IDLE), block + 2 * p},
                                   {"anomaly_i = work_i - T_seq / p", anomaly_colour, block + 3 * p}};
  int rc = rank_picture(pics, point, g, "processes", "Overhead ratios per process",
                        "; seed 000 Fig. 1.6: the ranks' ratios add up to the overall ones",
                        "overhead ratio T_ovh^{i,j} / T_seq", stacks, MET_OVH_COUNT);
  free(block);
  return rc;
}

/* Wait states (docs/wait-states.md): a bar per rank, the seconds it lost stacked by Scalasca pattern. */
static int wait_states_picture(pictures_t *pics, const stu_point_t *point, const group_t *g, const met_waits_t *w)
{
  size_t p = (size_t)w->nranks;
  double *block = calloc(MET_WAIT_PATTERNS * p, sizeof *block);
  if (!block)
    return -1;
  stack_t stacks[MET_WAIT_PATTERNS];
  for (int k = 0; k < MET_WAIT_PATTERNS; k++) {
    for (size_t i = 0; i < p; i++)
      block[(size_t)k * p + i] = met_wait_time(w, (int)i, (met_wait_pattern_t)k);
    stacks[k] = (stack_t){met_wait_title((met_wait_pattern_t)k), rep_wait_colour((met_wait_pattern_t)k), block + k * p};
  }
  int rc = rank_picture(pics, point, g, "wait-states", "Wait states per process", "; Scalasca's patterns",
                        "time lost (s)", stacks, MET_WAIT_PATTERNS);
  free(block);
  return rc;
}

/* ---------- CARNIVAL's views of a DSM point (seed 002 Figs. 4-5) ---------- */

enum { DSM_MAP_BARS = 12 };

/* Bars of a DSM point, one per item, stacked by `ncats` categories: values[cat * count + item] in ms. */
static int dsm_bars(pictures_t *pics, const stu_point_t *point, const char *view, const char *what, const char *note,
                    const char *const *names, size_t count, const double *values, const char *const *cats,
                    int ncats)
{
  stack_t stacks[MET_W_COUNT]; /* the 8 wait categories, or the 4 PP ones */
  for (int c = 0; c < ncats; c++)
    stacks[c] = (stack_t){cats[c], rep_svg_series_colour((size_t)c), values + (size_t)c * count};
  bars_t panel = {NULL, what, "time (ms), all nodes", names, count, stacks, (size_t)ncats, 0};
  group_t g = {0};
  char title[300], subtitle[300];
  describe(pics->study, point, (size_t)-1, &g);
  picture_title(title, sizeof title, view, pics->study, &g);
  picture_subtitle(subtitle, sizeof subtitle, pics->study, note);
  char file_view[64];
  snprintf(file_view, sizeof file_view, "dsm-%s", what);
  rep_file_t *file = open_picture(pics, file_view, g.file);
  return file ? close_picture(pics, file, bar_picture(rep_file_stream(file), title, subtitle, &panel, 1, NULL, NULL))
              : -1;
}

/* Time by code scope, a bar per scope split by the PP's categories (CARNIVAL's scope view). */
static int dsm_scope_picture(pictures_t *pics, const stu_point_t *point)
{
  const met_carnival_t *c = point->carnival;
  size_t n = (size_t)met_carnival_scope_count(c);
  const char **names = calloc(n, sizeof *names);
  double *values = calloc(n * (MET_CE_PRSTE + 1), sizeof *values);
  const char *cats[MET_CE_PRSTE + 1];
  for (int cat = 0; cat <= MET_CE_PRSTE; cat++)
    cats[cat] = met_ce_cat_name(cat);
  for (size_t s = 0; names && values && s < n; s++) {
    names[s] = met_carnival_scope_name(c, (int)s);
    for (int cat = 0; cat <= MET_CE_PRSTE; cat++)
      values[(size_t)cat * n + s] = 1e3 * met_carnival_time(c, -1, (int)s, cat, -1);
  }
  int rc = names && values ? dsm_bars(pics, point, "Time by code scope (PP)", "scopes",
                                      "; seed 002 Fig. 4: the PPs' time in each scope, by category",
                                      names, n, values, cats, MET_CE_PRSTE + 1)
                           : -1;
  free(names);
  free(values);
  return rc;
}

/* The wait map's longest lines, a bar each split by the 8 categories of Table 1 (CARNIVAL's CPWait map, Fig. 5). */
static int dsm_map_picture(pictures_t *pics, const stu_point_t *point)
{
  size_t rows = 0;
  const met_ce_row_t *map = met_carnival_map(point->carnival, &rows);
  size_t n = rows < DSM_MAP_BARS ? rows : DSM_MAP_BARS;
  if (n == 0)
    return 0;
  char(*labels)[64] = calloc(n, sizeof *labels);
  const char **names = calloc(n, sizeof *names);
  double *values = calloc(n * MET_W_COUNT, sizeof *values);
  const char *cats[MET_W_COUNT];
  for (int k = 0; k < MET_W_COUNT; k++)
    cats[k] = met_wait_cat_name(k);
  for (size_t i = 0; labels && names && values && i < n; i++) {
    snprintf(labels[i], sizeof labels[i], "%s %s %s", met_carnival_scope_name(point->carnival, map[i].scope),
             map[i].unit == MET_UNIT_PP ? "Wait" : "CPWait", met_ce_op_name(map[i].op));
    names[i] = labels[i];
    for (int k = 0; k < MET_W_COUNT; k++)
      values[(size_t)k * n + i] = 1e3 * map[i].wait.cat[k];
  }
  int rc = labels && names && values ? dsm_bars(pics, point, "Wait map", "waits",
                                                "; seed 002 Fig. 5: the longest waits (scope, waiter, operation), by "
                                                "the categories of Table 1",
                                                names, n, values, cats, MET_W_COUNT)
                                     : -1;
  free(labels);
  free(names);
  free(values);
  return rc;
}

static int point_pictures(pictures_t *pics)
{
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < pics->study->npoints; i++) {
    const stu_point_t *point = &pics->study->points[i];
    group_t g = {0};
    describe(pics->study, point, pics->p_index, &g);
    if (point->procs)
      rc = processes_picture(pics, point, &g);
    if (rc == 0 && point->carnival)
      rc = dsm_scope_picture(pics, point);
    if (rc == 0 && point->carnival)
      rc = dsm_map_picture(pics, point);
    if (rc == 0 && point->trace) {
      char title[300];
      picture_title(title, sizeof title, "Timeline", pics->study, &g);
      append(title, sizeof title, ", p = %d", point->p);
      rep_file_t *file = open_picture(pics, "timeline", g.file);
      rc = file ? close_picture(pics, file, rep_timeline(rep_file_stream(file), point->trace, title)) : -1;
    }
    met_waits_t w = {0};
    int waits = rc == 0 ? rep_wait_of(point, &w) : 0;
    rc = waits < 0 ? -1 : waits ? wait_states_picture(pics, point, &g, &w) : rc;
    met_wait_free(&w);
  }
  return rc;
}

/* ---------- the timeline ---------- */

/* Adds the span [a, b) (in columns) of one category to the columns it covers. */
static void add_span(double (*acc)[MET_CAT_COUNT], int cols, double a, double b, int category)
{
  if (b > cols)
    b = cols;
  for (int c = (int)floor(fmax(a, 0)); c < cols && c < b; c++)
    acc[c][category] += fmin(b, c + 1) - fmax(a, c);
}

/* One rank's row: per column, the category with the most time in it (the lowest of equals), or NO_CATEGORY after
 * the end of the run. Gaps between intervals and the tail up to T_par are idle, as in met_trace_category_time. */
static void raster_rank(const met_trace_t *trace, int rank, double scale, double (*acc)[MET_CAT_COUNT],
                        unsigned char *row)
{
  memset(acc, 0, TL_COLS * sizeof *acc);
  const met_interval_t *iv = met_trace_intervals(trace, rank);
  double at = 0;
  for (size_t i = 0; i < met_trace_count(trace, rank); i++) {
    add_span(acc, TL_COLS, at * scale, iv[i].start * scale, MET_CAT_IDLE);
    add_span(acc, TL_COLS, iv[i].start * scale, iv[i].end * scale, iv[i].category);
    at = iv[i].end;
  }
  add_span(acc, TL_COLS, at * scale, met_trace_end(trace) * scale, MET_CAT_IDLE);
  for (int c = 0; c < TL_COLS; c++) {
    row[c] = NO_CATEGORY;
    double best = 0;
    for (int k = 0; k < MET_CAT_COUNT; k++)
      if (acc[c][k] > best) {
        best = acc[c][k];
        row[c] = (unsigned char)k;
      }
  }
}

typedef struct timeline {
  const met_trace_t *trace;
  int nranks;
  double row_h;
  double unit;          /* seconds to axis units */
  rep_axis_t time;      /* from 0 to T_par in those units */
  double scale;         /* columns per second */
  unsigned char *cells; /* nranks x TL_COLS dominant categories */
  uint64_t *messages;   /* distinct (column from, column to, rank, peer), packed */
  size_t nmessages;
  size_t count; /* all messages, before merging those drawn on the same pixels */
} timeline_t;

static int by_value(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Each message once, as (first column, last column, sender, receiver) (met_message_ends: the lower rank and the higher
 * where the trace did not record who sent); messages that fall on the same pixels are drawn once. */
static int collect_messages(timeline_t *tl)
{
  double scale = tl->scale;
  size_t cap = 0;
  for (int r = 0; r < tl->nranks; r++)
    cap += met_trace_count(tl->trace, r);
  tl->messages = malloc((cap ? cap : 1) * sizeof *tl->messages);
  if (!tl->messages)
    return -1;
  for (int r = 0; r < tl->nranks; r++) {
    const met_interval_t *iv = met_trace_intervals(tl->trace, r);
    for (size_t i = 0; i < met_trace_count(tl->trace, r); i++) {
      int from, to;
      if (!met_message_ends(&iv[i], r, &from, &to))
        continue;
      uint64_t c0 = (uint64_t)fmin(TL_COLS - 1, floor(iv[i].start * scale));
      uint64_t c1 = (uint64_t)fmin(TL_COLS - 1, floor(iv[i].end * scale));
      tl->messages[tl->count++] = c0 << 48 | c1 << 32 | (uint64_t)from << 16 | (uint64_t)to;
    }
  }
  qsort(tl->messages, tl->count, sizeof *tl->messages, by_value);
  for (size_t i = 0; i < tl->count; i++)
    if (tl->nmessages == 0 || tl->messages[tl->nmessages - 1] != tl->messages[i])
      tl->messages[tl->nmessages++] = tl->messages[i];
  return 0;
}

/* The rows of one category as one path of rectangles, a rectangle per run of equal columns. */
static void draw_category(rep_svg_t *svg, const timeline_t *tl, const rep_plot_t *plot, int category)
{
  int started = 0;
  double gap = tl->row_h >= 8 ? 1 : 0;
  for (int r = 0; r < tl->nranks; r++) {
    const unsigned char *row = tl->cells + (size_t)r * TL_COLS;
    for (int c = 0; c < TL_COLS;) {
      int end = c;
      while (end < TL_COLS && row[end] == row[c])
        end++;
      if (row[c] == category) {
        if (!started)
          rep_svg_path_begin(svg, rep_svg_category_colour((met_category_t)category), NULL, 0, 1);
        started = 1;
        rep_svg_path_rect(svg, plot->left + c, plot->top + r * tl->row_h + gap, end - c, tl->row_h - 2 * gap);
      }
      c = end;
    }
  }
  if (started)
    rep_svg_path_end(svg);
}

/* Message i's line: from the sender's row at its first column to the receiver's at its last. */
static void message_line(const timeline_t *tl, const rep_plot_t *plot, size_t i, double xy[4])
{
  uint64_t m = tl->messages[i];
  xy[0] = plot->left + (double)(m >> 48) + 0.5;
  xy[1] = plot->top + ((double)(m >> 16 & 0xFFFF) + 0.5) * tl->row_h;
  xy[2] = plot->left + (double)(m >> 32 & 0xFFFF) + 0.5;
  xy[3] = plot->top + ((double)(m & 0xFFFF) + 0.5) * tl->row_h;
}

/* The messages' lines, then their arrowheads at the receivers' ends, on lines at least three heads long (shorter
 * ones, between neighbouring rows within a column or two, would be all head). */
static void draw_messages(rep_svg_t *svg, const timeline_t *tl, const rep_plot_t *plot)
{
  enum { HEAD = 4 }; /* px */
  double xy[4];
  if (!tl->nmessages)
    return;
  rep_svg_path_begin(svg, NULL, "#000000", 0.5, 0.4);
  for (size_t i = 0; i < tl->nmessages; i++) {
    message_line(tl, plot, i, xy);
    rep_svg_path_segment(svg, xy[0], xy[1], xy[2], xy[3]);
  }
  rep_svg_path_end(svg);
  rep_svg_path_begin(svg, "#000000", NULL, 0, 0.6);
  for (size_t i = 0; i < tl->nmessages; i++) {
    message_line(tl, plot, i, xy);
    if (hypot(xy[2] - xy[0], xy[3] - xy[1]) >= 3 * HEAD)
      rep_svg_path_arrowhead(svg, xy[0], xy[1], xy[2], xy[3], HEAD);
  }
  rep_svg_path_end(svg);
}

/* The time axis from 0 to T_par, in seconds, milliseconds or microseconds, whichever makes T_par a number from 1 to
 * 1000; ticks at round values within. */
static void time_axis(timeline_t *tl)
{
  double t_par = met_trace_end(tl->trace);
  tl->unit = t_par >= 1 ? 1 : t_par >= 1e-3 ? 1e3 : 1e6;
  tl->time = (rep_axis_t){.scale = REP_LINEAR,
                          .label = t_par >= 1      ? "time (s)"
                                   : t_par >= 1e-3 ? "time (ms)"
                                                   : "time (µs)"};
  rep_axis_range(&tl->time, 0, t_par * tl->unit);
  if (t_par > 0)
    tl->time.hi = t_par * tl->unit;
  tl->scale = TL_COLS / (tl->time.hi / tl->unit);
}

static int draw_timeline(FILE *out, timeline_t *tl, const char *title, const char *const *rank_names)
{
  double t_par = met_trace_end(tl->trace);
  rep_plot_t plot = {
      .left = TL_LEFT, .top = REP_SVG_HEADING + 12, .width = TL_COLS, .height = tl->nranks * tl->row_h, .x = tl->time};
  rep_axis_bands(&plot.y, rank_names, (size_t)tl->nranks);
  plot.y.reversed = 1;
  plot.y.label = "rank";
  rep_legend_item_t items[MET_CAT_COUNT + 1];
  for (int k = 0; k < MET_CAT_COUNT; k++)
    items[k] = (rep_legend_item_t){met_category_name((met_category_t)k), rep_svg_category_colour(k), REP_KEY_BOX};
  items[MET_CAT_COUNT] =
      (rep_legend_item_t){"message (joins its two ranks over the transfer)", "#000000", REP_KEY_LINE};
  double legend_top = plot.top + plot.height + BELOW_PLOT;
  double height = legend_top + rep_svg_legend(NULL, TL_LEFT, legend_top, TL_COLS, items, MET_CAT_COUNT + 1) + 12;
  char subtitle[300];
  snprintf(subtitle, sizeof subtitle,
           "T_par = %.4g s, %zu message%s; a pixel column shows the category that took "
           "most of its time (seed 000 Fig. 1.4)",
           t_par, tl->count, tl->count == 1 ? "" : "s");
  rep_svg_t *svg = rep_svg_new(out, TL_WIDTH, height, title, subtitle);
  if (!svg)
    return -1;
  rep_svg_axes(svg, &plot);
  for (int k = 0; k < MET_CAT_COUNT; k++)
    draw_category(svg, tl, &plot, k);
  draw_messages(svg, tl, &plot);
  rep_svg_legend(svg, TL_LEFT, legend_top, TL_COLS, items, MET_CAT_COUNT + 1);
  return rep_svg_end(svg);
}

int rep_timeline(FILE *out, const met_trace_t *trace, const char *title)
{
  timeline_t tl = {.trace = trace, .nranks = met_trace_nranks(trace)};
  tl.row_h = fmin(24, fmax(4, 640.0 / tl.nranks));
  time_axis(&tl);
  double(*acc)[MET_CAT_COUNT] = malloc(TL_COLS * sizeof *acc);
  tl.cells = malloc((size_t)tl.nranks * TL_COLS);
  labels_t names = {0};
  double *ranks = calloc((size_t)tl.nranks, sizeof *ranks);
  int rc = acc && tl.cells && ranks ? 0 : -1;
  for (int r = 0; rc == 0 && r < tl.nranks; r++) {
    raster_rank(trace, r, tl.scale, acc, tl.cells + (size_t)r * TL_COLS);
    ranks[r] = r;
  }
  rc = rc ? rc : labels_new(&names, ranks, (size_t)tl.nranks);
  rc = rc ? rc : collect_messages(&tl);
  rc = rc ? rc : draw_timeline(out, &tl, title, names.names);
  labels_free(&names);
  free(ranks);
  free(acc);
  free(tl.cells);
  free(tl.messages);
  return rc;
}

/* ---------- the whole study ---------- */

int rep_pictures_folder(const char *dir, char *err, size_t errlen)
{
  char path[4096];
  struct stat st;
  if (!dir[0] || snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
    snprintf(err, errlen, "--svg '%s': give a folder name of at most 4095 characters", dir);
    return -1;
  }
  for (char *c = path + 1;; c++) {
    if (*c != '/' && *c != '\0')
      continue;
    char kept = *c;
    *c = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      snprintf(err, errlen, "cannot create folder '%s': %s; check the path and its permissions", path, strerror(errno));
      return -1;
    }
    *c = kept;
    if (!kept)
      break;
  }
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "'%s' is not a folder; give a folder for the pictures", dir);
    return -1;
  }
  return 0;
}

/* Every metric against p and against each numeric swept parameter (lost-cycle studies). */
static int every_metric(pictures_t *pics)
{
  const scn_scenario_t *s = pics->study->scenario;
  int rc = 0;
  for (size_t j = 0; rc == 0 && stu_has_view(pics->study, STU_VIEW_LOST_CYCLES) && j < s->nparams; j++)
    if (numeric_sweep(&s->params[j]))
      rc = metric_pictures(pics, j);
  return rc;
}

int rep_print_fits(FILE *out, const stu_study_t *study)
{
  pictures_t pics = {.study = study, .log = out, .fits_only = 1};
  return every_metric(&pics);
}

int rep_pictures(const stu_study_t *study, const char *dir, FILE *log, char *err, size_t errlen)
{
  pictures_t pics = {.study = study, .dir = dir, .log = log, .err = err, .errlen = errlen};
  const scn_scenario_t *s = study->scenario;
  snprintf(err, errlen, "out of memory while drawing the pictures"); /* unless a file names what failed */
  while (pics.p_index < s->nparams && strcmp(s->params[pics.p_index].name, "p") != 0)
    pics.p_index++;
  int rc = point_pictures(&pics);
  rc = rc ? rc : every_metric(&pics);
  if (rc == 0 && stu_has_view(study, STU_VIEW_LOST_CYCLES))
    rc = group_pictures(&pics);
  if (rc == 0 && study->facts.grid_param) {
    rc = rep_grid_picture(study, dir, err, errlen);
    pics.written += rc == 0;
  }
  if (log)
    fprintf(log, "\nPictures: %zu SVG file%s in %s (docs/pictures.md)\n", pics.written, pics.written == 1 ? "" : "s",
            dir);
  return rc;
}
