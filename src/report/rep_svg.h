/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One small SVG writer for every picture of simrun: a document with a heading; rectangles, lines, polylines, markers
 * and text; paths batching thousands of rectangles or segments; plot areas with axes (linear, logarithmic or named
 * bands; ticks, tick labels, axis labels with units, grid lines); legends; the colours of trace categories and chart
 * series. Coordinates are pixels, y pointing down. */
#ifndef REP_SVG_H
#define REP_SVG_H

#include "met_trace.h"

#include <stddef.h>
#include <stdio.h>

/* The height taken by the heading of rep_svg_new: a title line and a subtitle line. */
#define REP_SVG_HEADING 56.0

typedef struct rep_svg rep_svg_t;

/* Starts a width x height document on `out` (borrowed, not closed) whose <title> and heading are `title`, with
 * `subtitle` (or NULL) in smaller type under it. NULL when out of memory. */
rep_svg_t *rep_svg_new(FILE *out, double width, double height, const char *title, const char *subtitle);
/* Closes the document and frees `svg`. Returns 0, or BAS_EIO when a write failed or svg is NULL. */
int rep_svg_end(rep_svg_t *svg);

/* Shapes. Colours are CSS colours such as "#0072b2"; widths are in pixels. */
void rep_svg_rect(rep_svg_t *svg, double x, double y, double w, double h, const char *fill);
/* The same rectangle with `title` (escaped) as its tooltip: the figure it stands for, which a reader (or a test) can
 * read exactly where the drawing is rounded to a tenth of a pixel. */
void rep_svg_rect_titled(rep_svg_t *svg, double x, double y, double w, double h, const char *fill, const char *title);
void rep_svg_line(rep_svg_t *svg, double x1, double y1, double x2, double y2, const char *stroke, double width,
                  int dashed);
/* A polyline through the n points (x[i], y[i]); NaN coordinates break it into pieces. */
/* dashed: 0 solid, 1 dashed (fits, reference lines), more: rep_svg_series_style's patterns. */
void rep_svg_polyline(rep_svg_t *svg, const double *x, const double *y, size_t n, const char *stroke, double width,
                      int dashed);
/* A point marker at (x, y) in pixels: a circle of radius 3.5 filled with colour `fill` (borrowed), outlined white. */
void rep_svg_marker(rep_svg_t *svg, double x, double y, const char *fill);

typedef enum rep_anchor { REP_START = 0, REP_MIDDLE, REP_END } rep_anchor_t;
/* Text with its baseline at y, `size` pixels high, escaped for XML. */
void rep_svg_text(rep_svg_t *svg, double x, double y, double size, rep_anchor_t anchor, const char *text);
/* An estimate of the width of `text` at `size` in a sans-serif font, for layout. */
double rep_svg_text_width(const char *text, double size);
/* The font size at most `size` at which `text` fits in `room` px (by rep_svg_text_width), but not below 0.6 size: a
 * title or subtitle too long for the picture is set smaller rather than cut off at its edge. */
double rep_svg_fitting_size(const char *text, double size, double room);

/* Many rectangles or segments in one colour as a single <path>: begin, add any number, end. fill or stroke may be
 * NULL (none); opacity applies to both. */
void rep_svg_path_begin(rep_svg_t *svg, const char *fill, const char *stroke, double width, double opacity);
void rep_svg_path_rect(rep_svg_t *svg, double x, double y, double w, double h);
void rep_svg_path_segment(rep_svg_t *svg, double x1, double y1, double x2, double y2);
/* A filled triangle `length` long and half as wide, its tip at (x2, y2), pointing along (x1, y1) -> (x2, y2); nothing
 * when the two points coincide. In a path with a fill. */
void rep_svg_path_arrowhead(rep_svg_t *svg, double x1, double y1, double x2, double y2, double length);
void rep_svg_path_end(rep_svg_t *svg);

/* How an axis maps values: linearly, by powers of two or ten (values > 0), or as named bands 0..count-1 of equal
 * width (bars, ranks). */
typedef enum rep_scale { REP_LINEAR = 0, REP_LOG2, REP_LOG10, REP_BANDS } rep_scale_t;

typedef struct rep_axis {
  rep_scale_t scale;
  double lo, hi;            /* the range shown; set by rep_axis_range or rep_axis_bands */
  double step;              /* LINEAR: distance between ticks; LOG2, LOG10: powers between labelled ticks */
  const char *label;        /* the quantity and its unit, such as "time (ms)"; borrowed */
  const char *const *names; /* BANDS: one name per band; borrowed */
  size_t count;             /* BANDS: how many bands */
  int reversed;             /* the first band (or lo) at the top of a y axis, or the right of an x axis */
} rep_axis_t;

/* Sets `axis` (its scale already chosen) to show [lo, hi] with round ends: multiples of a 1-2-5 step (LINEAR) or powers
 * of two or ten (LOG2, LOG10: lo > 0). An empty range is widened around its value. */
void rep_axis_range(rep_axis_t *axis, double lo, double hi);
/* Makes `axis` show `count` bands named `names` (borrowed). */
void rep_axis_bands(rep_axis_t *axis, const char *const *names, size_t count);

/* A plot area in pixels and its two axes. */
typedef struct rep_plot {
  double left, top, width, height;
  rep_axis_t x, y;
} rep_plot_t;

/* Where value v falls, in pixels (for BANDS: the band's centre for v = its index). NaN for v <= 0 on a log axis. */
double rep_plot_x(const rep_plot_t *plot, double v);
double rep_plot_y(const rep_plot_t *plot, double v);
/* The width in pixels of one band of a BANDS axis along x (or y). */
double rep_plot_band(const rep_plot_t *plot, int along_y);

/* Grid lines, the frame, ticks, tick labels and both axis labels. Draw it before the data. Named bands along x are
 * labelled every band, or every 2nd, 5th, ... so that level labels fit between their neighbours; where even then
 * they would not, they are turned 45 degrees (as many as fit a line's height apart), reaching further down. */
void rep_svg_axes(rep_svg_t *svg, const rep_plot_t *plot);
/* How much further down than level tick labels the x axis's turned band labels reach, in px (0 when they are level):
 * a picture leaves that much more room under its plot. */
double rep_svg_axis_extra(const rep_plot_t *plot);
/* What is drawn between begin and end is clipped to the plot area. */
void rep_svg_clip_begin(rep_svg_t *svg, const rep_plot_t *plot);
void rep_svg_clip_end(rep_svg_t *svg);

typedef enum rep_key { REP_KEY_BOX = 0, REP_KEY_LINE, REP_KEY_DASHED } rep_key_t;

typedef struct rep_legend_item {
  const char *label; /* borrowed */
  const char *colour;
  rep_key_t key; /* a filled box (bars, categories), a solid or a dashed line (curves, fits), or a line in the style
                  * of a series beyond the 8th (REP_KEY_LINE + its rep_svg_series_style, rep_svg_series_key) */
} rep_legend_item_t;

/* The legend key of series i's line: REP_KEY_LINE, or past it for the dash patterns of later rounds of colours. */
rep_key_t rep_svg_series_key(size_t i);

/* Lays the n items out in rows from (x, y), left to right, wrapping before x + width; draws them unless svg is NULL.
 * Returns the height taken, so that a picture can be sized before it is drawn. */
double rep_svg_legend(rep_svg_t *svg, double x, double y, double width, const rep_legend_item_t *items, size_t n);

/* The colour of a trace category (idle is a light grey), and of chart series i (8 colours distinguishable also by
 * readers with a colour vision deficiency, Okabe & Ito, then repeating). "#rrggbb". */
const char *rep_svg_category_colour(met_category_t category);
const char *rep_svg_series_colour(size_t i);
/* The line style of series i, for the `dashed` argument of lines: solid for the first 8 series, then a different
 * dash pattern for each round of the 8 colours, so that 32 curves stay apart. (dashed = 1 is the fits' dashes.) */
int rep_svg_series_style(size_t i);

#endif
