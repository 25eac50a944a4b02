/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reading back the SVG that simrun writes, for the tests of its pictures: well-formedness, path data, and the numbers a
 * reader sees in a chart (rep_chart.c writes one element per line: a frame rect, tick labels, bars, points, legend). */
#ifndef TU_SVG_H
#define TU_SVG_H

#include <libxml/parser.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the len bytes of text parse as XML (libxml2, no network). */
static inline int tu_svg_well_formed(const char *text, size_t len)
{
  xmlDocPtr doc = xmlReadMemory(text, (int)len, "t.svg", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_HUGE);
  xmlFreeDoc(doc);
  return doc != NULL;
}

/* The d attribute of the first path that starts with `opening` (such as `<path fill="#4e79a7"`), or NULL. */
static inline const char *tu_svg_path_data(const char *text, const char *opening)
{
  const char *at = strstr(text, opening);
  return at ? strstr(at, " d=\"") : NULL;
}

/* The value of attribute `name` on the element at the start of `line` (one element per line), or NAN. */
static inline double tu_svg_attr(const char *line, const char *name)
{
  char key[32];
  snprintf(key, sizeof key, " %s=\"", name);
  const char *at = strstr(line, key);
  const char *end = strchr(line, '\n');
  return at && (!end || at < end) ? strtod(at + strlen(key), NULL) : NAN;
}

/* Whether the element at `line` has attribute text `text` (such as `fill="#e15759"`) before its line ends. */
static inline int tu_svg_has(const char *line, const char *text)
{
  const char *at = strstr(line, text);
  const char *end = strchr(line, '\n');
  return at && (!end || at < end);
}

/* One panel of a chart: its frame and its axes as a reader reads them, from the tick labels. */
typedef struct tu_chart {
  double x, y, w, h;     /* the frame */
  double ya, va, yb, vb; /* two y ticks far apart: pixel and value */
  int log;               /* the y axis is logarithmic (the ticks are not evenly spaced in value) */
  double tick_x[64], tick_v[64];
  int nticks; /* x ticks */
} tu_chart_t;

/* Panel `panel` (0 the first) of the chart in svg. Returns 0, or -1 when there is no such frame or too few y ticks (x
 * ticks may be none: labels drawn at a slant, tu_svg_slanted). */
static inline int tu_svg_chart(const char *svg, int panel, tu_chart_t *c)
{
  memset(c, 0, sizeof *c);
  const char *line = svg;
  for (int seen = -1; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
    if (strncmp(line, "<rect ", 6) == 0 && tu_svg_has(line, "fill=\"none\" stroke=\"#444444\"") && ++seen == panel)
      break;
  if (!line)
    return -1;
  c->x = tu_svg_attr(line, "x"), c->y = tu_svg_attr(line, "y");
  c->w = tu_svg_attr(line, "width"), c->h = tu_svg_attr(line, "height");
  double ys[64], vs[64];
  int ny = 0;
  for (const char *l = svg; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    if (strncmp(l, "<text ", 6) != 0 || !tu_svg_has(l, "font-size=\"11\""))
      continue;
    double x = tu_svg_attr(l, "x"), y = tu_svg_attr(l, "y"), v = strtod(strchr(l, '>') + 1, NULL);
    if (tu_svg_has(l, "text-anchor=\"end\"") && x < c->x && y - 3.7 >= c->y - 1 && y - 3.7 <= c->y + c->h + 1 &&
        ny < 64)
      ys[ny] = y - 3.7, vs[ny++] = v;
    else if (tu_svg_has(l, "text-anchor=\"middle\"") && y > c->y + c->h && y < c->y + c->h + 25 && c->nticks < 64)
      c->tick_x[c->nticks] = x, c->tick_v[c->nticks++] = v;
  }
  if (ny < 3)
    return -1;
  c->ya = ys[0], c->va = vs[0], c->yb = ys[ny - 1], c->vb = vs[ny - 1];
  double linear = c->va + (ys[1] - c->ya) / (c->yb - c->ya) * (c->vb - c->va);
  c->log = fabs(linear - vs[1]) > fabs(c->vb - c->va) / fabs(c->yb - c->ya); /* off by more than a pixel */
  return 0;
}

/* The value at pixel height y on the panel's y axis. */
static inline double tu_svg_value(const tu_chart_t *c, double y)
{
  double t = (y - c->ya) / (c->yb - c->ya);
  return c->log ? pow(10, log10(c->va) + t * (log10(c->vb) - log10(c->va))) : c->va + t * (c->vb - c->va);
}

/* The value that 0.1 pixel (the SVG's resolution) spans around v, for tolerances. */
static inline double tu_svg_step(const tu_chart_t *c, double v)
{
  double per_px = fabs(c->vb - c->va) / fabs(c->yb - c->ya);
  return c->log ? 0.1 * fabs(v) * log(10) * fabs(log10(c->vb) - log10(c->va)) / fabs(c->yb - c->ya) : 0.1 * per_px;
}

/* The pixel x of x tick `value`, or NAN. */
static inline double tu_svg_tick(const tu_chart_t *c, double value)
{
  for (int i = 0; i < c->nticks; i++)
    if (fabs(c->tick_v[i] - value) < 1e-9 * (fabs(value) + 1))
      return c->tick_x[i];
  return NAN;
}

/* The fill (a swatch rect) or stroke (a line) colour of the legend entry whose text starts with `label`, in color
 * (8 bytes: "#rrggbb"). Returns 0, or -1 when there is no such entry. */
static inline int tu_svg_legend(const char *svg, const char *label, char color[8])
{
  const char *prev = NULL;
  for (const char *l = svg; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    const char *gt = strchr(l, '>');
    if (strncmp(l, "<text ", 6) == 0 && gt && strncmp(gt + 1, label, strlen(label)) == 0 && prev) {
      const char *at = strncmp(prev, "<rect ", 6) == 0 ? strstr(prev, " fill=\"") : strstr(prev, " stroke=\"");
      if (!at || !(at = strchr(at, '#')))
        return -1;
      snprintf(color, 8, "%.7s", at);
      return 0;
    }
    if ((strncmp(l, "<rect ", 6) == 0 && tu_svg_attr(l, "width") == 14) || strncmp(l, "<line ", 6) == 0)
      prev = l;
  }
  return -1;
}

/* The bar of `color` drawn across pixel x `at` on the panel: its bottom and top as values. Returns 0, or -1. */
static inline int tu_svg_bar_at(const char *svg, const tu_chart_t *c, const char *color, double at, double *lo,
                                double *hi)
{
  char fill[32];
  snprintf(fill, sizeof fill, "fill=\"%s\"", color);
  for (const char *l = svg; l && !isnan(at); l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    if (strncmp(l, "<rect ", 6) != 0 || !tu_svg_has(l, fill))
      continue;
    double x = tu_svg_attr(l, "x"), y = tu_svg_attr(l, "y"), w = tu_svg_attr(l, "width"), h = tu_svg_attr(l, "height");
    if (x <= at && at <= x + w && y >= c->y - 0.5 && y + h <= c->y + c->h + 0.5 && w != 14) {
      *lo = tu_svg_value(c, y + h), *hi = tu_svg_value(c, y);
      return 0;
    }
  }
  return -1;
}

/* The bar of `color` drawn at x tick `x_value` on the panel: its bottom and top as values. Returns 0, or -1. */
static inline int tu_svg_bar(const char *svg, const tu_chart_t *c, const char *color, double x_value, double *lo,
                             double *hi)
{
  return tu_svg_bar_at(svg, c, color, tu_svg_tick(c, x_value), lo, hi);
}

/* The pixel x of the slanted x label `label` (written under a rotate(-45 X Y)), or NAN. */
static inline double tu_svg_slanted(const char *svg, const char *label)
{
  char text[200];
  snprintf(text, sizeof text, "text-anchor=\"end\">%s</text>", label);
  for (const char *l = svg; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (strncmp(l, "<g transform=\"rotate(-45 ", 25) == 0 && tu_svg_has(l, text))
      return strtod(l + 25, NULL);
  return NAN;
}

/* The pixel x of the x tick labelled `label` (a word, such as a code scope) on the panel, or NAN. */
static inline double tu_svg_tick_named(const char *svg, const tu_chart_t *c, const char *label)
{
  char text[96];
  snprintf(text, sizeof text, "text-anchor=\"middle\">%s</text>", label);
  for (const char *l = svg; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (strncmp(l, "<text ", 6) == 0 && tu_svg_has(l, text) && tu_svg_attr(l, "y") > c->y + c->h &&
        tu_svg_attr(l, "y") < c->y + c->h + 25)
      return tu_svg_attr(l, "x");
  return NAN;
}

/* The value of the point (a circle) of `color` at x tick `x_value` on the panel, or NAN. */
static inline double tu_svg_point(const char *svg, const tu_chart_t *c, const char *color, double x_value)
{
  char fill[32];
  snprintf(fill, sizeof fill, "fill=\"%s\"", color);
  double at = tu_svg_tick(c, x_value);
  for (const char *l = svg; l && !isnan(at); l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (strncmp(l, "<circle ", 8) == 0 && tu_svg_has(l, fill) && fabs(tu_svg_attr(l, "cx") - at) < 0.06 &&
        tu_svg_attr(l, "cy") >= c->y - 0.5 && tu_svg_attr(l, "cy") <= c->y + c->h + 0.5)
      return tu_svg_value(c, tu_svg_attr(l, "cy"));
  return NAN;
}

#endif
