/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of rep_chart: a bar picture of 32 bars keeps its bar labels apart, whether they are short (level, thinned)
 * or long (turned 45 degrees): each label's extent is computed from the SVG written, with rep_svg_text_width's
 * estimate of a label's width, and the labels must not overlap each other, the axis label or the legend. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "rep_chart.h"
#include "tu.h"
#include "tu_svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BARS = 32, MAX_LABELS = 64 };

#define FONT 11.0 /* the tick labels' font size (rep_svg.c) */

/* A bar label as drawn: its anchor, whether it is turned, and its width. */
typedef struct label {
  double x, y, width;
  int turned;
} label_t;

/* A bar picture of BARS bars named by `name` (printf format with the bar's index), each of height 1. The SVG text is
 * returned; the caller frees it. */
static char *bar_picture(const char *name)
{
  static char names[BARS][64];
  static const char *pointers[BARS];
  static double values[BARS];
  for (int i = 0; i < BARS; i++) {
    snprintf(names[i], sizeof names[i], name, i);
    pointers[i] = names[i];
    values[i] = 1;
  }
  rep_stack_t stack = {"time", "#0072b2", values};
  rep_bars_t panel = {NULL, "bar names", "time (s)", pointers, BARS, &stack, 1, 0, NULL, NULL};
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_EQUAL(rep_bar_picture(out, "32 bars", NULL, &panel, 1, NULL, NULL), 0);
  fclose(out);
  CU_ASSERT(tu_svg_well_formed(text, len));
  return text;
}

/* The text of the element starting at `at` (after its '>'), into buf. */
static void element_text(const char *at, char *buf, size_t len)
{
  const char *start = strchr(at, '>') + 1;
  snprintf(buf, len, "%.*s", (int)strcspn(start, "<"), start);
}

/* The bar labels of `svg`: level ones are the 11 px texts centred on their tick; turned ones sit in a rotate(-45)
 * group. Returns how many. */
static int bar_labels(const char *svg, label_t *labels)
{
  int n = 0;
  char text[64];
  for (const char *at = strstr(svg, "<text "); at && n < MAX_LABELS; at = strstr(at + 1, "<text ")) {
    double x, y;
    int matched = 0; /* sscanf counts conversions, not the literal text after them */
    if (sscanf(at, "<text x=\"%lf\" y=\"%lf\" font-size=\"11\" text-anchor=\"middle\">%n", &x, &y, &matched) != 2 ||
        !matched)
      continue;
    element_text(at, text, sizeof text);
    labels[n++] = (label_t){x, y, rep_svg_text_width(text, FONT), 0};
  }
  for (const char *at = strstr(svg, "<g transform=\"rotate(-45 "); at && n < MAX_LABELS;
       at = strstr(at + 1, "<g transform=\"rotate(-45 ")) {
    double x, y;
    CU_ASSERT_EQUAL_FATAL(sscanf(at, "<g transform=\"rotate(-45 %lf %lf)\">", &x, &y), 2);
    element_text(strstr(at, "<text "), text, sizeof text);
    labels[n++] = (label_t){x, y, rep_svg_text_width(text, FONT), 1};
  }
  return n;
}

/* The y of the text `what` in svg (its baseline), or NAN. */
static double text_y(const char *svg, const char *what)
{
  char pattern[128];
  snprintf(pattern, sizeof pattern, ">%s</text>", what);
  const char *end = strstr(svg, pattern);
  const char *at = end;
  while (at && at > svg && strncmp(at, "<text ", 6) != 0)
    at--;
  double x, y;
  return at && sscanf(at, "<text x=\"%lf\" y=\"%lf\"", &x, &y) == 2 ? y : NAN;
}

/* Labels in order along x, all level or all turned, no two overlapping: level ones side by side (their extents
 * x +- width / 2 apart), turned ones a line's height apart across their parallel baselines (dx sin 45 >= FONT). Each
 * label's lowest point lies above the axis label's top, which lies above the legend. Returns how many labels. */
static int assert_apart(const char *svg, int turned)
{
  label_t labels[MAX_LABELS];
  int n = bar_labels(svg, labels);
  double lowest = 0;
  for (int i = 0; i < n; i++) {
    CU_ASSERT_EQUAL(labels[i].turned, turned);
    if (i > 0) {
      double dx = labels[i].x - labels[i - 1].x;
      double room = turned ? dx * sqrt(0.5) - FONT : dx - (labels[i].width + labels[i - 1].width) / 2;
      CU_ASSERT(room >= 0);
      if (room < 0)
        fprintf(stderr, "  labels %d and %d overlap by %.1f px\n", i - 1, i, -room);
    }
    lowest = fmax(lowest, labels[i].y + (turned ? (labels[i].width + FONT) * sqrt(0.5) : 0));
  }
  double axis = text_y(svg, "bar names");
  CU_ASSERT(axis - 13 >= lowest);        /* the axis label's 13 px line starts below the labels */
  CU_ASSERT(text_y(svg, "time") > axis); /* the legend comes after */
  return n;
}

/* 32 short labels ("p = 10" ... "p = 41", 40 px wide, bands of 24 px): level, every 2nd, none overlapping. */
static void test_chart_short_bar_labels_thinned(void)
{
  char *svg = bar_picture("p = %d");
  CU_ASSERT_EQUAL(assert_apart(svg, 0), BARS / 2);
  free(svg);
}

/* 32 long labels ("normalise CPWait page 7", 150 px or so): level at any stride they would overlap, or thin out to a
 * few; turned 45 degrees, one every band (24 px along x: 17 px across the baselines, more than a line), none
 * overlapping, and the axis label and legend pushed below them. */
static void test_chart_long_bar_labels_turned(void)
{
  char *svg = bar_picture("normalise CPWait page %d");
  CU_ASSERT_EQUAL(assert_apart(svg, 1), BARS);
  free(svg);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_chart_short_bar_labels_thinned", test_chart_short_bar_labels_thinned},
                                    {"test_chart_long_bar_labels_turned", test_chart_long_bar_labels_turned},

                                    {NULL, NULL}};
  int status = tu_run("rep_chart", cases);
  xmlCleanupParser();
  return status;
}
