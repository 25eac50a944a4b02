/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The two chart builders of the study's pictures, on rep_svg: curves against one x variable (with their regression
 * fits, met_fit) and panels of stacked bars; and names for bars made from numbers. */
#ifndef REP_CHART_H
#define REP_CHART_H

#include "met_fit.h"
#include "rep_svg.h"

#include <stddef.h>
#include <stdio.h>

#define REP_CHART_LEFT     90.0 /* the plot area's left edge: room for the y axis's labels */
#define REP_CHART_BELOW    52.0 /* below a plot: its tick labels and the x axis label */
#define REP_CHART_NOTE_ROW 15.0 /* a row of notes over the bars, such as each p's speedup */
#define REP_CHART_STACKS   16   /* at most this many stacks in a bar panel's legend */

/* One curve: n points (x[i], y[i]) (borrowed; y may be NaN: not drawn), with its fit when `fitted`. */
typedef struct rep_curve {
  const char *label;
  const double *x;
  const double *y;
  size_t n;
  int fitted; /* fit holds a regression fit */
  met_fit_t fit;
} rep_curve_t;

typedef struct rep_chart {
  const char *title;
  const char *subtitle;
  const char *x_label;
  const char *y_label;
  const char *var;   /* the variable in fitted formulas */
  int reference_one; /* a dashed line at y = 1: a ratio above it marks a bottleneck */
  double log_span;   /* the y axis is logarithmic when the positive values span this factor or more */
} rep_chart_t;

/* A chart of the n curves on `out`, each with its fit when it has one; x on a log2 axis when every x is positive and
 * they span a factor of 4 or more. Returns 0, BAS_EIO on a write error or BAS_ENOMEM. */
int rep_line_chart(FILE *out, const rep_chart_t *chart, const rep_curve_t *curves, size_t n);

/* "fit 1.02 + 12.3/p (amdahl), R² = 0.9981, adjusted 0.9975, p from 1 to 128", with `r2` naming R². */
void rep_fit_text(const met_fit_t *fit, const char *var, const char *r2, char *buf, size_t len);

/* One stack of a bar panel: its values one per bar (borrowed). */
typedef struct rep_stack {
  const char *label;
  const char *colour;
  const double *values;
} rep_stack_t;

/* A panel of stacked bars: positive values stack up from 0, negative ones down. Everything borrowed. */
typedef struct rep_bars {
  const char *heading; /* a bold line above the plot, or NULL */
  const char *x_label;
  const char *y_label;
  const char *const *names; /* one per bar */
  size_t count;
  const rep_stack_t *stacks;
  size_t nstacks;
  double notes_height; /* room between the heading and the plot, for notes over the bars */
  const char *tip;     /* NULL, or each segment's tooltip starts "<tip> <bar name>: <stack label> <value>" */
  const char *unit;    /* after the value in tooltips, such as " ms" */
} rep_bars_t;

/* Draws over panel `panel` once it is drawn, in the panel's plot area; arg is rep_bar_picture's. */
typedef void (*rep_annotate_fn)(rep_svg_t *svg, size_t panel, const rep_plot_t *plot, const void *arg);

/* A picture of n bar panels, one under the other, on `out`; `annotate` may be NULL. Returns 0 or -1 as
 * rep_line_chart. */
int rep_bar_picture(FILE *out, const char *title, const char *subtitle, const rep_bars_t *panels, size_t n,
                    rep_annotate_fn annotate, const void *arg);

/* Names for n bars or rows: the values printed with %g. rep_labels_new returns 0, or -1 when out of memory (then
 * rep_labels_free still frees what was made). */
typedef struct rep_labels {
  char (*text)[16];
  const char **names;
} rep_labels_t;
int rep_labels_new(rep_labels_t *l, const double *values, size_t n);
void rep_labels_free(rep_labels_t *l);

/* One fit as rep_fits_each hands it over: the metric ("efficiency"), the swept parameter it is against ("p", "n",
 * "grid-rows"), the group of points ("broadcast = neighbour", or ""), the best form's fit, whether it is shown
 * (honest: met_fit_honest), and the report's line for it (the fit, or why no simple form fits). Borrowed. */
typedef struct rep_fit_row {
  const char *metric;
  const char *axis;
  const char *group;
  const met_fit_t *fit;
  int shown;
  const char *text;
} rep_fit_row_t;
typedef void (*rep_fit_sink_fn)(void *ctx, const rep_fit_row_t *row);

#endif
