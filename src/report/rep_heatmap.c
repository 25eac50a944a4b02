/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The process-grid study as heat maps, the view of Caron & Suter's Fig. 4 (seed 003 §5.1): process rows down,
 * process columns across, one cell per grid; the simulated time, the model's time on the same colour scale, and their
 * difference. Drawn with the shared SVG writer (rep_svg.h). */
#include "rep_report.h"
#include "bas_error.h"
#include "rep_svg.h"
#include "stu_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELL       13.0 /* pixels per grid cell */
#define MARGIN     70.0 /* left of the first map, room for the y axis */
#define GAP        80.0 /* between maps */
#define BAR_HEIGHT 10.0 /* the colour bar under a map */
#define MAX_SIDE   64   /* the largest process-grid side drawn */

typedef struct heatmap {
  const stu_study_t *study;
  int rows, cols;                              /* the largest grid side in each direction */
  const stu_point_t *cell[MAX_SIDE][MAX_SIDE]; /* [P - 1][Q - 1], the first point of each grid */
  double t_lo, t_hi;                           /* the time scale, over simulated and model times */
  double d_max;                                /* the largest |difference| */
} heatmap_t;

/* What a map shows of a point. */
typedef double (*cell_value_fn)(const stu_point_t *point);

static double simulated(const stu_point_t *point)
{
  return point->t_par;
}

static double modelled(const stu_point_t *point)
{
  return stu_model_time(point);
}

/* Viridis at five stops, interpolated in RGB: dark for small values, light for large; x in [0, 1]. */
static void viridis(double x, char *colour, size_t len)
{
  static const int stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  x = fmin(fmax(x, 0), 1) * 4;
  int i = x >= 4 ? 3 : (int)x;
  double f = x - i;
  int rgb[3];
  for (int c = 0; c < 3; c++)
    rgb[c] = (int)lround(stops[i][c] + f * (stops[i + 1][c] - stops[i][c]));
  snprintf(colour, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* Blue for the model below the simulation, red above, white for equal; d in [-1, 1]. */
static void diverging(double d, char *colour, size_t len)
{
  d = fmin(fmax(d, -1), 1);
  int shade = (int)lround(255 * (1 - fabs(d)));
  if (d < 0)
    snprintf(colour, len, "#%02x%02xff", shade, shade);
  else
    snprintf(colour, len, "#ff%02x%02x", shade, shade);
}

static void time_colour(const heatmap_t *h, double t, char *colour, size_t len)
{
  double span = log(h->t_hi / h->t_lo);
  viridis(span > 0 ? log(t / h->t_lo) / span : 0.5, colour, len);
}

/* Places every point of the study on its grid and finds the colour scales. Returns 0, or -1 when there is no grid. */
static int heatmap_fill(heatmap_t *h, const stu_study_t *study)
{
  memset(h, 0, sizeof *h);
  h->study = study;
  h->t_lo = INFINITY;
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    int p_rows = point->role.grid_rows;
    int q_cols = point->p / p_rows;
    if (p_rows > MAX_SIDE || q_cols > MAX_SIDE || h->cell[p_rows - 1][q_cols - 1])
      continue;
    h->cell[p_rows - 1][q_cols - 1] = point;
    h->rows = p_rows > h->rows ? p_rows : h->rows;
    h->cols = q_cols > h->cols ? q_cols : h->cols;
    double times[] = {point->t_par, stu_model_time(point)};
    for (size_t k = 0; k < 2; k++)
      if (isfinite(times[k]) && times[k] > 0) {
        h->t_lo = fmin(h->t_lo, times[k]);
        h->t_hi = fmax(h->t_hi, times[k]);
      }
    double d = fabs(stu_model_diff(point));
    h->d_max = isfinite(d) ? fmax(h->d_max, d) : h->d_max;
  }
  return h->rows > 0 ? 0 : -1;
}

/* Band names "1", "2", ... for the axes; `names` holds `count` strings of 12 characters. */
static void band_names(char (*names)[12], const char **ptrs, int count)
{
  for (int i = 0; i < count; i++) {
    snprintf(names[i], sizeof names[i], "%d", i + 1);
    ptrs[i] = names[i];
  }
}

/* The frame of one map at `left`: axes with process rows down and columns across. */
static void map_plot(const heatmap_t *h, double left, rep_plot_t *plot, const char **row_names, const char **col_names)
{
  memset(plot, 0, sizeof *plot);
  plot->left = left;
  plot->top = REP_SVG_HEADING + 40;
  plot->width = CELL * h->cols;
  plot->height = CELL * h->rows;
  rep_axis_bands(&plot->x, col_names, (size_t)h->cols);
  rep_axis_bands(&plot->y, row_names, (size_t)h->rows);
  plot->x.label = "process columns Q";
  plot->y.label = "process rows P";
  plot->y.reversed = 1;
}

static void draw_cells(rep_svg_t *svg, const heatmap_t *h, const rep_plot_t *plot, cell_value_fn value, int diff)
{
  char colour[16];
  for (int r = 0; r < h->rows; r++)
    for (int c = 0; c < h->cols; c++) {
      const stu_point_t *point = h->cell[r][c];
      double v = point ? (diff ? stu_model_diff(point) : value(point)) : NAN;
      if (!isfinite(v))
        continue;
      if (diff)
        diverging(h->d_max > 0 ? v / h->d_max : 0, colour, sizeof colour);
      else
        time_colour(h, v, colour, sizeof colour);
      rep_svg_rect(svg, rep_plot_x(plot, c) - CELL / 2, rep_plot_y(plot, r) - CELL / 2, CELL, CELL, colour);
    }
}

/* A colour bar of `steps` swatches under the map, labelled at both ends. */
static void draw_bar(rep_svg_t *svg, const heatmap_t *h, const rep_plot_t *plot, int diff, const char *lo,
                     const char *hi)
{
  const int steps = 32;
  double y = plot->top + plot->height + 52;
  char colour[16];
  for (int i = 0; i < steps; i++) {
    double x = (double)i / (steps - 1);
    if (diff)
      diverging(2 * x - 1, colour, sizeof colour);
    else
      viridis(x, colour, sizeof colour);
    rep_svg_rect(svg, plot->left + plot->width * i / steps, y, plot->width / steps + 0.5, BAR_HEIGHT, colour);
  }
  rep_svg_text(svg, plot->left, y + BAR_HEIGHT + 12, 10, REP_START, lo);
  rep_svg_text(svg, plot->left + plot->width, y + BAR_HEIGHT + 12, 10, REP_END, hi);
}

static void draw_map(rep_svg_t *svg, const heatmap_t *h, double left, const char *title, cell_value_fn value, int diff,
                     const char **row_names, const char **col_names)
{
  rep_plot_t plot;
  map_plot(h, left, &plot, row_names, col_names);
  rep_svg_axes(svg, &plot);
  rep_svg_text(svg, plot.left + plot.width / 2, plot.top - 10, 12, REP_MIDDLE, title);
  draw_cells(svg, h, &plot, value, diff);
  char lo[48];
  char hi[48];
  if (diff) {
    snprintf(lo, sizeof lo, "model %.1f%% below", 100 * h->d_max);
    snprintf(hi, sizeof hi, "%.1f%% above", 100 * h->d_max);
  } else {
    snprintf(lo, sizeof lo, "%.2f s", h->t_lo);
    snprintf(hi, sizeof hi, "%.2f s (log scale)", h->t_hi);
  }
  draw_bar(svg, h, &plot, diff, lo, hi);
}

int rep_grid_heatmap(FILE *out, const stu_study_t *study)
{
  heatmap_t *h = calloc(1, sizeof *h);
  if (!h || !study->facts.grid || heatmap_fill(h, study) != 0) {
    free(h);
    return BAS_EINVAL;
  }
  char row_text[MAX_SIDE][12];
  char col_text[MAX_SIDE][12];
  const char *row_names[MAX_SIDE];
  const char *col_names[MAX_SIDE];
  band_names(row_text, row_names, h->rows);
  band_names(col_text, col_names, h->cols);
  int maps = rep_has_model(study) ? 3 : 1;
  double map_width = CELL * h->cols;
  double width = MARGIN + maps * map_width + (maps - 1) * GAP + 30;
  double height = REP_SVG_HEADING + 40 + CELL * h->rows + 90;
  char title[256];
  snprintf(title, sizeof title, "%s: run time by process grid (P rows x Q columns)", study->scenario->name);
  rep_svg_t *svg = rep_svg_new(out, fmax(width, 640), height, title,
                               rep_has_model(study) ? study->facts.model_name : study->scenario->description);
  if (!svg) {
    free(h);
    return BAS_ENOMEM;
  }
  draw_map(svg, h, MARGIN, "simulated T_par", simulated, 0, row_names, col_names);
  if (maps == 3) {
    draw_map(svg, h, MARGIN + map_width + GAP, "model", modelled, 0, row_names, col_names);
    draw_map(svg, h, MARGIN + 2 * (map_width + GAP), "(model - simulated) / simulated", NULL, 1, row_names, col_names);
  }
  free(h);
  return rep_svg_end(svg);
}

int rep_grid_picture(const stu_study_t *study, const char *dir, char *err, size_t errlen)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s-grids.svg", dir, study->scenario->name);
  rep_file_t *file = rep_file_open(path, err, errlen);
  if (!file)
    return BAS_EIO;
  if (rep_grid_heatmap(rep_file_stream(file), study) != 0) {
    rep_file_abort(file);
    snprintf(err, errlen, "could not draw %s (no process grid in the study, or out of memory)", path);
    return BAS_EINVAL;
  }
  return rep_file_commit(file, err, errlen);
}
