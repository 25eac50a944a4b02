/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The chart builders of the study's pictures (docs/pictures.md), on rep_svg: curves against one x variable with their
 * regression fits (seed 000 Figs 1.7-1.8) and panels of stacked bars (Figs 1.5-1.6; seed 001 Figs 6, 9). */
#include "rep_chart.h"
#include "bas_error.h"

#include <math.h>
#include <stdlib.h>

#define CHART_WIDTH  900.0
#define CHART_PLOT_W 780.0
#define CURVE_PLOT_H 340.0
#define BAR_PLOT_H   260.0
#define FIT_SAMPLES  96

/* ---------- curves ---------- */

/* "fit 1.02 + 12.3/p (amdahl), R² = 0.9981, adjusted 0.9975, p from 1 to 128" */
void rep_fit_text(const met_fit_t *fit, const char *var, const char *r2, char *buf, size_t len)
{
  char formula[160];
  met_fit_format(fit, var, formula, sizeof formula);
  if (fit->form == MET_FIT_CONSTANT)
    snprintf(buf, len, "constant: %s at every %s from %g to %g (no fit)", formula, var, fit->x_min, fit->x_max);
  else
    snprintf(buf, len, "fit %s (%s), %s = %.4f, adjusted %.4f, %s from %g to %g", formula, met_fit_name(fit->form), r2,
             fit->r2, fit->adj_r2, var, fit->x_min, fit->x_max);
}

/* A log2 x axis when every x is positive and they span a factor of 4 or more (p = 1, 2, 4, ...). */
static rep_scale_t x_scale(const rep_curve_t *curves, size_t n, double *lo, double *hi)
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
static rep_scale_t y_scale(const rep_chart_t *chart, const rep_curve_t *curves, size_t n, double *lo, double *hi)
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

static void chart_plot(rep_plot_t *plot, const rep_chart_t *chart, const rep_curve_t *curves, size_t n)
{
  double lo, hi;
  *plot =
      (rep_plot_t){.left = REP_CHART_LEFT, .top = REP_SVG_HEADING + 16, .width = CHART_PLOT_W, .height = CURVE_PLOT_H};
  plot->x.scale = x_scale(curves, n, &lo, &hi);
  plot->x.label = chart->x_label;
  rep_axis_range(&plot->x, lo, hi);
  plot->y.scale = y_scale(chart, curves, n, &lo, &hi);
  plot->y.label = chart->y_label;
  rep_axis_range(&plot->y, lo, hi);
}

static void draw_curve(rep_svg_t *svg, const rep_plot_t *plot, const rep_curve_t *curve, size_t index)
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
static void draw_fit(rep_svg_t *svg, const rep_plot_t *plot, const rep_curve_t *curve, const char *colour)
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
static size_t curve_legend(const rep_chart_t *chart, const rep_curve_t *curves, size_t n, char (*texts)[200],
                           rep_legend_item_t *items)
{
  size_t count = 0;
  for (size_t c = 0; c < n; c++) {
    items[count++] = (rep_legend_item_t){curves[c].label, rep_svg_series_colour(c), rep_svg_series_key(c)};
    if (!curves[c].fitted)
      continue;
    rep_fit_text(&curves[c].fit, chart->var, "R²", texts[c], sizeof texts[c]);
    items[count++] = (rep_legend_item_t){texts[c], rep_svg_series_colour(c), REP_KEY_DASHED};
  }
  return count;
}

/* Whether a curve has a value <= 0, which a log axis cannot show. */
static int has_zero(const rep_curve_t *curves, size_t n)
{
  for (size_t c = 0; c < n; c++)
    for (size_t i = 0; i < curves[c].n; i++)
      if (curves[c].y[i] <= 0)
        return 1;
  return 0;
}

/* A chart of curves against one x variable, each with its fit when it has one. Returns 0 or -1. */
int rep_line_chart(FILE *out, const rep_chart_t *chart, const rep_curve_t *curves, size_t n)
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
    return BAS_ENOMEM;
  }
  size_t nitems = curve_legend(chart, curves, n, texts, items);
  double legend_top = plot.top + plot.height + REP_CHART_BELOW;
  double height = legend_top + rep_svg_legend(NULL, REP_CHART_LEFT, legend_top, CHART_PLOT_W, items, nitems) + 16;
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
    rep_svg_legend(svg, REP_CHART_LEFT, legend_top, CHART_PLOT_W, items, nitems);
  }
  free(texts);
  free(items);
  return rep_svg_end(svg);
}

/* ---------- stacked bars ---------- */

/* The sums of the positive and of the negative values of the tallest and deepest bars. */
static void bar_extent(const rep_bars_t *bars, double *lo, double *hi)
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

static void draw_bars(rep_svg_t *svg, const rep_plot_t *plot, const rep_bars_t *bars)
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
      char tip[256];
      if (bars->tip)
        snprintf(tip, sizeof tip, "%s %s: %s %.9g%s", bars->tip, bars->names[i], bars->stacks[s].label, v,
                 bars->unit ? bars->unit : "");
      rep_svg_rect_titled(svg, x, y0, w, y1 - y0, bars->stacks[s].colour, bars->tip ? tip : NULL);
      *(v > 0 ? &up : &down) = to;
    }
  }
  if (plot->y.lo < 0)
    rep_svg_line(svg, plot->left, rep_plot_y(plot, 0), plot->left + plot->width, rep_plot_y(plot, 0), "#444444", 1, 0);
}

/* Draws, or with svg NULL only measures, a panel of stacked bars whose heading starts at `top`: positive values stack
 * up from 0, negative ones down. Fills *plot; returns the y below the panel's legend. */
static double bar_panel(rep_svg_t *svg, double top, const rep_bars_t *bars, rep_plot_t *plot)
{
  double y = top + (bars->heading ? 26 : 0) + bars->notes_height;
  double lo, hi;
  *plot = (rep_plot_t){.left = REP_CHART_LEFT, .top = y, .width = CHART_PLOT_W, .height = BAR_PLOT_H};
  rep_axis_bands(&plot->x, bars->names, bars->count);
  plot->x.label = bars->x_label;
  plot->y.label = bars->y_label;
  bar_extent(bars, &lo, &hi);
  rep_axis_range(&plot->y, lo, hi);
  rep_legend_item_t items[REP_CHART_STACKS];
  for (size_t s = 0; s < bars->nstacks && s < REP_CHART_STACKS; s++)
    items[s] = (rep_legend_item_t){bars->stacks[s].label, bars->stacks[s].colour, REP_KEY_BOX};
  double legend_top = y + BAR_PLOT_H + REP_CHART_BELOW + rep_svg_axis_extra(plot);
  if (svg) {
    if (bars->heading)
      rep_svg_text(svg, REP_CHART_LEFT - 70, top + 14, 14, REP_START, bars->heading);
    rep_svg_axes(svg, plot);
    draw_bars(svg, plot, bars);
  }
  return legend_top + rep_svg_legend(svg, REP_CHART_LEFT, legend_top, CHART_PLOT_W, items, bars->nstacks) + 10;
}

int rep_bar_picture(FILE *out, const char *title, const char *subtitle, const rep_bars_t *panels, size_t n,
                    rep_annotate_fn annotate, const void *arg)
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

int rep_labels_new(rep_labels_t *l, const double *values, size_t n)
{
  l->text = calloc(n, sizeof *l->text);
  l->names = calloc(n, sizeof *l->names);
  if (!l->text || !l->names)
    return BAS_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    snprintf(l->text[i], sizeof l->text[i], "%g", values[i]);
    l->names[i] = l->text[i];
  }
  return 0;
}

void rep_labels_free(rep_labels_t *l)
{
  free(l->text);
  free(l->names);
}
