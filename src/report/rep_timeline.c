/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The timeline of a traced run (seed 000 Fig. 1.4; docs/pictures.md): each rank's pixel columns (met_pixels.h), a
 * column coloured by its dominant category, messages drawn once per pixel path with arrowheads. */
#include "rep_timeline.h"
#include "rep_chart.h"
#include "rep_svg.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define TL_WIDTH 1200.0
#define TL_LEFT  70.0
#define TL_COLS  MET_PIXELS_COLS /* pixel columns of the time axis: the resolution of the aggregation */
/* The messages' lines are drawn only when their ink (length x the line's 0.5 px) covers at most this share of the
 * plot: gj256's one-to-all run at p = 128 has 32,766 distinct lines whose ink is several times the plot, and they
 * turned it black, hiding the states they join. */
#define TL_INK_SHARE 0.15

typedef struct timeline {
  const met_pixels_t *pixels; /* the run's columns and message paths (met_pixels.h) */
  int nranks;
  double row_h;
  double unit;              /* seconds to axis units */
  rep_axis_t time;          /* from 0 to T_par in those units */
  const uint64_t *messages; /* distinct (column from, column to, rank, peer), packed; NULL: too many to draw */
  size_t nmessages;
  size_t count; /* all messages, before merging those drawn on the same pixels */
  int lines;    /* the messages' lines fit TL_INK_SHARE and are drawn */
} timeline_t;

/* The rows of one category as one path of rectangles, a rectangle per run of equal columns. */
static void draw_category(rep_svg_t *svg, const timeline_t *tl, const rep_plot_t *plot, int category)
{
  int started = 0;
  double gap = tl->row_h >= 8 ? 1 : 0;
  for (int r = 0; r < tl->nranks; r++) {
    const unsigned char *row = met_pixels_row(tl->pixels, r);
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

/* Whether the messages' lines leave the states visible: their ink is at most TL_INK_SHARE of the plot (never with more
 * paths than met_pixels.h keeps, MET_PIXELS_LINES a rank). */
static int lines_fit(const timeline_t *tl, const rep_plot_t *plot)
{
  double xy[4], ink = 0;
  if (!tl->messages)
    return 0;
  for (size_t i = 0; i < tl->nmessages; i++) {
    message_line(tl, plot, i, xy);
    ink += 0.5 * hypot(xy[2] - xy[0], xy[3] - xy[1]);
  }
  return ink <= TL_INK_SHARE * plot->width * plot->height;
}

/* The messages' lines, then their arrowheads at the receivers' ends, on lines at least three heads long (shorter
 * ones, between neighbouring rows within a column or two, would be all head). */
static void draw_messages(rep_svg_t *svg, const timeline_t *tl, const rep_plot_t *plot)
{
  enum { HEAD = 4 }; /* px */
  double xy[4];
  if (!tl->nmessages || !tl->lines)
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
  double t_par = met_pixels_end(tl->pixels);
  tl->unit = t_par >= 1 ? 1 : t_par >= 1e-3 ? 1e3 : 1e6;
  tl->time = (rep_axis_t){.scale = REP_LINEAR,
                          .label = t_par >= 1      ? "time (s)"
                                   : t_par >= 1e-3 ? "time (ms)"
                                                   : "time (µs)"};
  rep_axis_range(&tl->time, 0, t_par * tl->unit);
  if (t_par > 0)
    tl->time.hi = t_par * tl->unit;
}

static int draw_timeline(FILE *out, timeline_t *tl, const char *title, const char *const *rank_names)
{
  double t_par = met_pixels_end(tl->pixels);
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
  tl->lines = lines_fit(tl, &plot);
  size_t nitems = MET_CAT_COUNT + (tl->lines && tl->nmessages);
  double legend_top = plot.top + plot.height + REP_CHART_BELOW;
  double height = legend_top + rep_svg_legend(NULL, TL_LEFT, legend_top, TL_COLS, items, nitems) + 12;
  char subtitle[400];
  snprintf(
      subtitle, sizeof subtitle,
      "T_par = %.4g s, %zu message%s%s; a pixel column shows the category that took "
      "most of its time (seed 000 Fig. 1.4)",
      t_par, tl->count, tl->count == 1 ? "" : "s",
      tl->lines
          ? ""
          : ", not drawn: their lines would cover the states (Paje, OTF2 and the HTML page, zoomed in, show them)");
  rep_svg_t *svg = rep_svg_new(out, TL_WIDTH, height, title, subtitle);
  if (!svg)
    return -1;
  rep_svg_axes(svg, &plot);
  for (int k = 0; k < MET_CAT_COUNT; k++)
    draw_category(svg, tl, &plot, k);
  draw_messages(svg, tl, &plot);
  rep_svg_legend(svg, TL_LEFT, legend_top, TL_COLS, items, nitems);
  return rep_svg_end(svg);
}

int rep_timeline(FILE *out, const met_pixels_t *pixels, const char *title)
{
  timeline_t tl = {.pixels = pixels, .nranks = met_pixels_nranks(pixels), .count = met_pixels_messages(pixels)};
  tl.row_h = fmin(24, fmax(4, 640.0 / tl.nranks));
  tl.messages = met_pixels_paths(pixels, &tl.nmessages);
  time_axis(&tl);
  rep_labels_t names = {0};
  double *ranks = calloc((size_t)tl.nranks, sizeof *ranks);
  int rc = ranks ? 0 : -1;
  for (int r = 0; rc == 0 && r < tl.nranks; r++)
    ranks[r] = r;
  rc = rc ? rc : rep_labels_new(&names, ranks, (size_t)tl.nranks);
  rc = rc ? rc : draw_timeline(out, &tl, title, names.names);
  rep_labels_free(&names);
  free(ranks);
  return rc;
}
