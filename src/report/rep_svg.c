/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The SVG writer behind every picture (docs/pictures.md): plain SVG 1.1 text, numbers rounded to a tenth of a pixel,
 * so that the same picture is the same bytes on every machine. */
#include "rep_svg.h"
#include "bas_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TICK_MAX   64
#define TICK_LEN   5.0
#define TICK_FONT  11.0
#define LABEL_FONT 13.0
#define TURNED_GAP 20.0 /* px along x between turned labels: (TICK_FONT + 3) / sin 45 degrees */
#define LEGEND_ROW 18.0
#define LEGEND_KEY 22.0

struct rep_svg {
  FILE *out;
  int clips; /* clip paths made so far, for unique ids */
};

typedef struct tick {
  double v;
  char label[64];
} tick_t;

static const char *const category_colours[MET_CAT_COUNT] = {"#4e79a7", "#59a14f", "#f28e2b", "#e15759", "#d4d4d4"};
static const char *const series_colours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                             "#e69f00", "#56b4e9", "#000000", "#f0e442"};

const char *rep_svg_category_colour(met_category_t category)
{
  return (unsigned)category < MET_CAT_COUNT ? category_colours[category] : "#000000";
}

/* Line styles: solid, the dashes of fits and reference lines, then those that tell apart series of the same colour. */
static const char *const dash_styles[] = {NULL, "6 4", "1 3", "8 3 2 3", "12 4"};
enum { SERIES_COLOURS = sizeof series_colours / sizeof series_colours[0], DASH_STYLES = 5 };

const char *rep_svg_series_colour(size_t i)
{
  return series_colours[i % SERIES_COLOURS];
}

int rep_svg_series_style(size_t i)
{
  static const int styles[] = {0, 2, 3, 4}; /* the fits' dashes (1) are left to the fits */
  return styles[i / SERIES_COLOURS % 4];
}

rep_key_t rep_svg_series_key(size_t i)
{
  return (rep_key_t)(REP_KEY_LINE + rep_svg_series_style(i));
}

/* A coordinate rounded to 0.1 px, without trailing zeros: "12", "12.5", "-3.1". */
static void num(FILE *out, double v)
{
  long t = lround(v * 10);
  if (t < 0) {
    fputc('-', out);
    t = -t;
  }
  fprintf(out, "%ld", t / 10);
  if (t % 10)
    fprintf(out, ".%ld", t % 10);
}

/* A point in path data: "12.5 3". */
static void point(FILE *out, double x, double y)
{
  num(out, x);
  fputc(' ', out);
  num(out, y);
}

/* A named attribute with a coordinate value: ` name="12.5"`. */
static void attr(FILE *out, const char *name, double v)
{
  fprintf(out, " %s=\"", name);
  num(out, v);
  fputc('"', out);
}

static void escaped(FILE *out, const char *text)
{
  for (const char *c = text; *c; c++) {
    if (*c == '&')
      fputs("&amp;", out);
    else if (*c == '<')
      fputs("&lt;", out);
    else if (*c == '>')
      fputs("&gt;", out);
    else if (*c == '"')
      fputs("&quot;", out);
    else
      fputc(*c, out);
  }
}

rep_svg_t *rep_svg_new(FILE *out, double width, double height, const char *title, const char *subtitle)
{
  rep_svg_t *svg = calloc(1, sizeof *svg);
  if (!svg)
    return NULL;
  svg->out = out;
  fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"");
  attr(out, "width", width);
  attr(out, "height", height);
  fprintf(out, " viewBox=\"0 0 ");
  point(out, width, height);
  fprintf(out, "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" fill=\"#222222\">\n<title>");
  escaped(out, title);
  fprintf(out, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
  fprintf(out, "<g font-weight=\"bold\">");
  rep_svg_text(svg, 20, 26, rep_svg_fitting_size(title, 17, width - 40), REP_START, title);
  fprintf(out, "</g>\n");
  if (subtitle)
    rep_svg_text(svg, 20, 45, rep_svg_fitting_size(subtitle, 12, width - 40), REP_START, subtitle);
  return svg;
}

double rep_svg_fitting_size(const char *text, double size, double room)
{
  double width = rep_svg_text_width(text, size);
  double fitting = width > room && room > 0 ? size * room / width : size;
  return fitting < 0.6 * size ? 0.6 * size : fitting;
}

int rep_svg_end(rep_svg_t *svg)
{
  if (!svg)
    return BAS_EIO;
  fprintf(svg->out, "</svg>\n");
  int failed = ferror(svg->out);
  free(svg);
  return failed ? BAS_EIO : 0;
}

void rep_svg_rect(rep_svg_t *svg, double x, double y, double w, double h, const char *fill)
{
  rep_svg_rect_titled(svg, x, y, w, h, fill, NULL);
}

void rep_svg_rect_titled(rep_svg_t *svg, double x, double y, double w, double h, const char *fill, const char *title)
{
  fprintf(svg->out, "<rect");
  attr(svg->out, "x", x);
  attr(svg->out, "y", y);
  attr(svg->out, "width", w);
  attr(svg->out, "height", h);
  fprintf(svg->out, " fill=\"%s\"", fill);
  if (!title) {
    fprintf(svg->out, "/>\n");
    return;
  }
  fprintf(svg->out, "><title>");
  escaped(svg->out, title);
  fprintf(svg->out, "</title></rect>\n");
}

static void stroke_style(FILE *out, const char *stroke, double width, int dashed)
{
  fprintf(out, " fill=\"none\" stroke=\"%s\"", stroke);
  attr(out, "stroke-width", width);
  if (dashed > 0)
    fprintf(out, " stroke-dasharray=\"%s\"", dash_styles[dashed % DASH_STYLES ? dashed % DASH_STYLES : 1]);
}

void rep_svg_line(rep_svg_t *svg, double x1, double y1, double x2, double y2, const char *stroke, double width,
                  int dashed)
{
  fprintf(svg->out, "<line");
  attr(svg->out, "x1", x1);
  attr(svg->out, "y1", y1);
  attr(svg->out, "x2", x2);
  attr(svg->out, "y2", y2);
  stroke_style(svg->out, stroke, width, dashed);
  fprintf(svg->out, "/>\n");
}

void rep_svg_polyline(rep_svg_t *svg, const double *x, const double *y, size_t n, const char *stroke, double width,
                      int dashed)
{
  fprintf(svg->out, "<path d=\"");
  int pen_down = 0;
  for (size_t i = 0; i < n; i++) {
    if (isnan(x[i]) || isnan(y[i])) {
      pen_down = 0;
      continue;
    }
    fputc(pen_down ? 'L' : 'M', svg->out);
    point(svg->out, x[i], y[i]);
    pen_down = 1;
  }
  fputc('"', svg->out);
  stroke_style(svg->out, stroke, width, dashed);
  fprintf(svg->out, " stroke-linejoin=\"round\"/>\n");
}

void rep_svg_marker(rep_svg_t *svg, double x, double y, const char *fill)
{
  fprintf(svg->out, "<circle");
  attr(svg->out, "cx", x);
  attr(svg->out, "cy", y);
  fprintf(svg->out, " r=\"3.5\" fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"1\"/>\n", fill);
}

static const char *const anchors[] = {"start", "middle", "end"};

void rep_svg_text(rep_svg_t *svg, double x, double y, double size, rep_anchor_t anchor, const char *text)
{
  fprintf(svg->out, "<text");
  attr(svg->out, "x", x);
  attr(svg->out, "y", y);
  attr(svg->out, "font-size", size);
  if (anchor != REP_START)
    fprintf(svg->out, " text-anchor=\"%s\"", anchors[anchor]);
  fputc('>', svg->out);
  escaped(svg->out, text);
  fprintf(svg->out, "</text>\n");
}

/* Text turned a quarter left around (x, y), for a y axis label. */
static void vertical_text(rep_svg_t *svg, double x, double y, double size, const char *text)
{
  fprintf(svg->out, "<g transform=\"translate(");
  point(svg->out, x, y);
  fprintf(svg->out, ") rotate(-90)\">");
  rep_svg_text(svg, 0, 0, size, REP_MIDDLE, text);
  fprintf(svg->out, "</g>\n");
}

double rep_svg_text_width(const char *text, double size)
{
  size_t chars = 0;
  for (const char *c = text; *c; c++)
    chars += ((unsigned char)*c & 0xC0) != 0x80; /* UTF-8: count characters, not bytes */
  return 0.6 * size * (double)chars;
}

void rep_svg_path_begin(rep_svg_t *svg, const char *fill, const char *stroke, double width, double opacity)
{
  fprintf(svg->out, "<path fill=\"%s\"", fill ? fill : "none");
  if (stroke) {
    fprintf(svg->out, " stroke=\"%s\"", stroke);
    attr(svg->out, "stroke-width", width);
  }
  if (opacity < 1)
    fprintf(svg->out, " opacity=\"%.2f\"", opacity);
  fprintf(svg->out, " d=\"");
}

void rep_svg_path_rect(rep_svg_t *svg, double x, double y, double w, double h)
{
  fputc('M', svg->out);
  point(svg->out, x, y);
  fputc('h', svg->out);
  num(svg->out, w);
  fputc('v', svg->out);
  num(svg->out, h);
  fputc('h', svg->out);
  num(svg->out, -w);
  fputc('z', svg->out);
}

void rep_svg_path_segment(rep_svg_t *svg, double x1, double y1, double x2, double y2)
{
  fputc('M', svg->out);
  point(svg->out, x1, y1);
  fputc('L', svg->out);
  point(svg->out, x2, y2);
}

void rep_svg_path_arrowhead(rep_svg_t *svg, double x1, double y1, double x2, double y2, double length)
{
  double dx = x2 - x1, dy = y2 - y1, norm = hypot(dx, dy);
  if (norm <= 0)
    return;
  double ux = dx / norm * length, uy = dy / norm * length; /* back along the line, then a quarter across */
  fputc('M', svg->out);
  point(svg->out, x2, y2);
  fputc('L', svg->out);
  point(svg->out, x2 - ux - uy / 4, y2 - uy + ux / 4);
  fputc('L', svg->out);
  point(svg->out, x2 - ux + uy / 4, y2 - uy - ux / 4);
  fputc('z', svg->out);
}

void rep_svg_path_end(rep_svg_t *svg)
{
  fprintf(svg->out, "\"/>\n");
}

/* The smallest of 1, 2, 5 times a power of ten that is >= x (> 0). */
static double nice_step(double x)
{
  double power = pow(10, floor(log10(x)));
  double f = x / power;
  return power * (f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10);
}

static void log_range(rep_axis_t *axis, double base, double lo, double hi)
{
  double e_lo = floor(log(lo) / log(base) + 1e-9);
  double e_hi = ceil(log(hi) / log(base) - 1e-9);
  if (e_hi <= e_lo)
    e_hi = e_lo + 1;
  axis->lo = pow(base, e_lo);
  axis->hi = pow(base, e_hi);
  axis->step = ceil((e_hi - e_lo) / 10);
}

void rep_axis_range(rep_axis_t *axis, double lo, double hi)
{
  if (axis->scale == REP_LOG2 || axis->scale == REP_LOG10) {
    log_range(axis, axis->scale == REP_LOG2 ? 2 : 10, lo, hi);
    return;
  }
  if (!(hi - lo > 1e-12 * fmax(fabs(lo), fabs(hi)))) {
    double pad = lo == 0 ? 1 : 0.1 * fabs(lo);
    lo -= lo == 0 ? 0 : pad;
    hi += pad;
  }
  axis->step = nice_step((hi - lo) / 5);
  axis->lo = floor(lo / axis->step + 1e-9) * axis->step;
  axis->hi = ceil(hi / axis->step - 1e-9) * axis->step;
}

void rep_axis_bands(rep_axis_t *axis, const char *const *names, size_t count)
{
  axis->scale = REP_BANDS;
  axis->names = names;
  axis->count = count;
  axis->lo = -0.5;
  axis->hi = (double)count - 0.5;
  axis->step = 1;
}

/* Where v falls along the axis, from 0 (lo) to 1 (hi); NaN for v <= 0 on a log axis. */
static double fraction(const rep_axis_t *axis, double v)
{
  double t;
  if (axis->scale == REP_LOG2 || axis->scale == REP_LOG10)
    t = v > 0 ? log(v / axis->lo) / log(axis->hi / axis->lo) : NAN;
  else
    t = (v - axis->lo) / (axis->hi - axis->lo);
  return axis->reversed ? 1 - t : t;
}

double rep_plot_x(const rep_plot_t *plot, double v)
{
  return plot->left + fraction(&plot->x, v) * plot->width;
}

double rep_plot_y(const rep_plot_t *plot, double v)
{
  return plot->top + (1 - fraction(&plot->y, v)) * plot->height;
}

double rep_plot_band(const rep_plot_t *plot, int along_y)
{
  const rep_axis_t *axis = along_y ? &plot->y : &plot->x;
  return (along_y ? plot->height : plot->width) / (axis->hi - axis->lo);
}

static void tick_label(tick_t *tick, double v, double step)
{
  tick->v = v;
  snprintf(tick->label, sizeof tick->label, "%.6g", fabs(v) < 1e-9 * step ? 0.0 : v);
}

/* Ticks at powers of `base`, every `stride`-th one; with 2x and 5x between powers of ten over two decades or less. */
static size_t log_ticks(const rep_axis_t *axis, double base, tick_t *ticks)
{
  size_t n = 0;
  double e_lo = round(log(axis->lo) / log(base));
  double e_hi = round(log(axis->hi) / log(base));
  int minor = base == 10 && e_hi - e_lo <= 2;
  for (double e = e_lo; e <= e_hi && n < TICK_MAX - 3; e += axis->step) {
    tick_label(&ticks[n++], pow(base, e), 1);
    for (int m = 2; minor && e < e_hi && m <= 5; m += 3)
      tick_label(&ticks[n++], m * pow(base, e), 1);
  }
  return n;
}

/* Every band, or every 2nd, 5th, 10th... so that labels stay at least `gap` px apart. */
static size_t band_stride(double band_px, double gap)
{
  return (size_t)nice_step(fmax(1, gap / band_px));
}

/* The widest of every stride-th name of a BANDS axis at the tick font, in px. */
static double widest_band(const rep_axis_t *axis, size_t stride)
{
  double widest = 0;
  for (size_t i = 0; i < axis->count; i += stride)
    widest = fmax(widest, rep_svg_text_width(axis->names[i], TICK_FONT));
  return widest;
}

/* How the x axis's band labels are set: level, every stride-th at least 28 px apart, when each fits between its
 * neighbours with 4 px to spare; otherwise turned 45 degrees, where neighbouring baselines need only a line's height
 * and a little between them (TURNED_GAP apart along x). *widest: the widest label shown. */
static int turned_labels(const rep_axis_t *axis, double band_px, size_t *stride, double *widest)
{
  *stride = band_stride(band_px, 28);
  *widest = widest_band(axis, *stride);
  if (axis->scale != REP_BANDS || *widest + 4 <= (double)*stride * band_px)
    return 0;
  *stride = band_stride(band_px, TURNED_GAP);
  *widest = widest_band(axis, *stride);
  return 1;
}

double rep_svg_axis_extra(const rep_plot_t *plot)
{
  size_t stride;
  double widest;
  if (!turned_labels(&plot->x, rep_plot_band(plot, 0), &stride, &widest))
    return 0;
  return (widest + TICK_FONT) * sqrt(0.5) - TICK_FONT; /* the turned label's height beyond a level one's */
}

static size_t band_ticks(const rep_axis_t *axis, size_t stride, tick_t *ticks)
{
  size_t n = 0;
  for (size_t i = 0; i < axis->count && n < TICK_MAX; i += stride) {
    ticks[n].v = (double)i;
    snprintf(ticks[n++].label, sizeof ticks[0].label, "%s", axis->names[i]);
  }
  return n;
}

static size_t axis_ticks(const rep_axis_t *axis, size_t stride, tick_t *ticks)
{
  if (axis->scale == REP_BANDS)
    return band_ticks(axis, stride, ticks);
  if (axis->scale != REP_LINEAR)
    return log_ticks(axis, axis->scale == REP_LOG2 ? 2 : 10, ticks);
  size_t n = 0;
  long first = lround(ceil(axis->lo / axis->step - 1e-9));
  long last = lround(floor(axis->hi / axis->step + 1e-9));
  for (long k = first; k <= last && n < TICK_MAX; k++)
    tick_label(&ticks[n++], (double)k * axis->step, axis->step);
  return n;
}

/* A tick label turned 45 degrees up to the right, ending just under the tick at x. */
static void turned_text(rep_svg_t *svg, double x, double bottom, const char *text)
{
  double y = bottom + TICK_LEN + 0.7 * TICK_FONT;
  fprintf(svg->out, "<g transform=\"rotate(-45 ");
  point(svg->out, x, y);
  fprintf(svg->out, ")\">");
  rep_svg_text(svg, x + 0.35 * TICK_FONT, y, TICK_FONT, REP_END, text);
  fprintf(svg->out, "</g>\n");
}

static void x_axis(rep_svg_t *svg, const rep_plot_t *plot)
{
  tick_t ticks[TICK_MAX];
  size_t stride;
  double widest;
  int turned = turned_labels(&plot->x, rep_plot_band(plot, 0), &stride, &widest);
  size_t n = axis_ticks(&plot->x, stride, ticks);
  double bottom = plot->top + plot->height;
  for (size_t i = 0; i < n; i++) {
    double x = rep_plot_x(plot, ticks[i].v);
    if (plot->x.scale != REP_BANDS)
      rep_svg_line(svg, x, plot->top, x, bottom, "#e6e6e6", 1, 0);
    rep_svg_line(svg, x, bottom, x, bottom + TICK_LEN, "#444444", 1, 0);
    if (turned)
      turned_text(svg, x, bottom, ticks[i].label);
    else
      rep_svg_text(svg, x, bottom + TICK_LEN + TICK_FONT + 2, TICK_FONT, REP_MIDDLE, ticks[i].label);
  }
  if (plot->x.label)
    rep_svg_text(svg, plot->left + plot->width / 2, bottom + 40 + rep_svg_axis_extra(plot), LABEL_FONT, REP_MIDDLE,
                 plot->x.label);
}

static void y_axis(rep_svg_t *svg, const rep_plot_t *plot)
{
  tick_t ticks[TICK_MAX];
  size_t n = axis_ticks(&plot->y, band_stride(rep_plot_band(plot, 1), 28), ticks);
  double widest = 0;
  for (size_t i = 0; i < n; i++) {
    double y = rep_plot_y(plot, ticks[i].v);
    if (plot->y.scale != REP_BANDS)
      rep_svg_line(svg, plot->left, y, plot->left + plot->width, y, "#e6e6e6", 1, 0);
    rep_svg_line(svg, plot->left - TICK_LEN, y, plot->left, y, "#444444", 1, 0);
    rep_svg_text(svg, plot->left - TICK_LEN - 3, y + TICK_FONT / 3, TICK_FONT, REP_END, ticks[i].label);
    widest = fmax(widest, rep_svg_text_width(ticks[i].label, TICK_FONT));
  }
  if (plot->y.label)
    vertical_text(svg, plot->left - TICK_LEN - widest - 12, plot->top + plot->height / 2, LABEL_FONT, plot->y.label);
}

void rep_svg_axes(rep_svg_t *svg, const rep_plot_t *plot)
{
  x_axis(svg, plot);
  y_axis(svg, plot);
  fprintf(svg->out, "<rect");
  attr(svg->out, "x", plot->left);
  attr(svg->out, "y", plot->top);
  attr(svg->out, "width", plot->width);
  attr(svg->out, "height", plot->height);
  fprintf(svg->out, " fill=\"none\" stroke=\"#444444\"/>\n");
}

void rep_svg_clip_begin(rep_svg_t *svg, const rep_plot_t *plot)
{
  int id = ++svg->clips;
  fprintf(svg->out, "<clipPath id=\"clip%d\"><rect", id);
  attr(svg->out, "x", plot->left);
  attr(svg->out, "y", plot->top);
  attr(svg->out, "width", plot->width);
  attr(svg->out, "height", plot->height);
  fprintf(svg->out, "/></clipPath>\n<g clip-path=\"url(#clip%d)\">\n", id);
}

void rep_svg_clip_end(rep_svg_t *svg)
{
  fprintf(svg->out, "</g>\n");
}

static void legend_key(rep_svg_t *svg, double x, double y, const rep_legend_item_t *item)
{
  if (item->key == REP_KEY_BOX)
    rep_svg_rect(svg, x, y - 10, 14, 12, item->colour);
  else
    rep_svg_line(svg, x, y - 4, x + 18, y - 4, item->colour, 2.5,
                 item->key == REP_KEY_DASHED  ? 1
                 : item->key > REP_KEY_DASHED ? item->key - REP_KEY_LINE
                                              : 0);
}

double rep_svg_legend(rep_svg_t *svg, double x, double y, double width, const rep_legend_item_t *items, size_t n)
{
  double at = x;
  double row = y + LEGEND_ROW - 4;
  for (size_t i = 0; i < n; i++) {
    double w = LEGEND_KEY + rep_svg_text_width(items[i].label, 12) + 18;
    if (at > x && at + w > x + width) {
      at = x;
      row += LEGEND_ROW;
    }
    if (svg) {
      legend_key(svg, at, row, &items[i]);
      rep_svg_text(svg, at + LEGEND_KEY, row, 12, REP_START, items[i].label);
    }
    at += w;
  }
  return n ? row - y + 4 : 0;
}
