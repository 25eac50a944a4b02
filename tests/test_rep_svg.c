/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of rep_svg: documents are well-formed XML (parsed back with libxml2), text is escaped, coordinates rounded to
 * 0.1 px; axis ranges and ticks by hand; where values fall on linear, log and band axes; legends wrap. */
#include "bas_error.h"
#include "rep_svg.h"
#include "tu.h"

#include <libxml/parser.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Runs `draw` on a fresh document in memory; returns the text (the caller frees it). */
static char *render(void (*draw)(rep_svg_t *svg))
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  rep_svg_t *svg = rep_svg_new(out, 200, 100, "a <title> & \"quotes\"", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
  draw(svg);
  CU_ASSERT_EQUAL(rep_svg_end(svg), 0);
  fclose(out);
  return text;
}

static int well_formed(const char *text)
{
  xmlDocPtr doc = xmlReadMemory(text, (int)strlen(text), "test.svg", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
  xmlFreeDoc(doc);
  return doc != NULL;
}

static void shapes(rep_svg_t *svg)
{
  rep_svg_rect(svg, 1.04, 2.25, 10, 20.96, "#ff0000");
  rep_svg_text(svg, 5, 5, 12, REP_MIDDLE, "x < y && z > 0");
  double x[] = {0, 1, NAN, 3};
  double y[] = {0, 1, 2, 3};
  rep_svg_polyline(svg, x, y, 4, "#000000", 1, 1);
  rep_svg_path_begin(svg, "#00ff00", NULL, 0, 1);
  rep_svg_path_rect(svg, 0, 0, 2.5, 3);
  rep_svg_path_end(svg);
}

static void test_rep_svg_document(void)
{
  char *text = render(shapes);
  CU_ASSERT(well_formed(text));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "<title>a &lt;title&gt; &amp; &quot;quotes&quot;</title>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, ">x &lt; y &amp;&amp; z &gt; 0</text>"));
  /* 1.04 -> 1, 2.25 -> 2.3 (half away from zero), 20.96 -> 21 */
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "<rect x=\"1\" y=\"2.3\" width=\"10\" height=\"21\" fill=\"#ff0000\"/>"));
  /* NaN lifts the pen: a new M after the gap */
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "d=\"M0 0L1 1M3 3\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "d=\"M0 0h2.5v3h-2.5z\""));
  free(text);
}

static void test_rep_svg_end_reports_failure(void)
{
  CU_ASSERT_EQUAL(rep_svg_end(NULL), BAS_EIO);
  FILE *full = fopen("/dev/full", "w");
  if (!full)
    return; /* no /dev/full here: nothing to check */
  setvbuf(full, NULL, _IONBF, 0);
  rep_svg_t *svg = rep_svg_new(full, 10, 10, "t", NULL);
  CU_ASSERT_EQUAL(rep_svg_end(svg), BAS_EIO);
  fclose(full);
}

/* By hand: 0..9.3 over about 5 steps: 1.86 -> step 2, range [0, 10]; 0.3..11 -> step 5 would be coarse: 10.7 / 5 =
 * 2.14 -> 5, range [0, 15]; log2 3..100 -> [2, 128]; log10 0.3..40 -> [0.1, 100]. */
static void test_rep_svg_axis_range(void)
{
  rep_axis_t a = {.scale = REP_LINEAR};
  rep_axis_range(&a, 0, 9.3);
  TU_ASSERT_CLOSE(a.lo, 0, 1e-12);
  TU_ASSERT_CLOSE(a.hi, 10, 1e-12);
  TU_ASSERT_CLOSE(a.step, 2, 1e-12);
  rep_axis_range(&a, 0.3, 11);
  TU_ASSERT_CLOSE(a.lo, 0, 1e-12);
  TU_ASSERT_CLOSE(a.hi, 15, 1e-12);
  TU_ASSERT_CLOSE(a.step, 5, 1e-12);
  rep_axis_range(&a, -0.0016, 0.19); /* a negative anomaly under positive bars */
  TU_ASSERT_CLOSE(a.lo, -0.05, 1e-12);
  TU_ASSERT_CLOSE(a.hi, 0.2, 1e-12);
  rep_axis_range(&a, 5, 5); /* an empty range is widened around its value */
  CU_ASSERT(a.lo < 5 && a.hi > 5);
  rep_axis_t l2 = {.scale = REP_LOG2};
  rep_axis_range(&l2, 3, 100);
  TU_ASSERT_CLOSE(l2.lo, 2, 1e-12);
  TU_ASSERT_CLOSE(l2.hi, 128, 1e-9);
  rep_axis_t l10 = {.scale = REP_LOG10};
  rep_axis_range(&l10, 0.3, 40);
  TU_ASSERT_CLOSE(l10.lo, 0.1, 1e-12);
  TU_ASSERT_CLOSE(l10.hi, 100, 1e-9);
}

static void test_rep_svg_plot_mapping(void)
{
  rep_plot_t plot = {.left = 10, .top = 20, .width = 100, .height = 50};
  plot.x.scale = REP_LOG2;
  rep_axis_range(&plot.x, 1, 128);
  TU_ASSERT_CLOSE(rep_plot_x(&plot, 8), 10 + 100 * 3.0 / 7, 1e-9); /* 2^3 of 2^7 */
  CU_ASSERT(isnan(rep_plot_x(&plot, 0)));
  plot.y.scale = REP_LINEAR;
  rep_axis_range(&plot.y, 0, 10);
  TU_ASSERT_CLOSE(rep_plot_y(&plot, 0), 70, 1e-9); /* y grows upwards */
  TU_ASSERT_CLOSE(rep_plot_y(&plot, 10), 20, 1e-9);
  static const char *const names[] = {"a", "b", "c", "d"};
  rep_axis_bands(&plot.y, names, 4);
  plot.y.reversed = 1; /* the first band on top, as ranks in a timeline */
  TU_ASSERT_CLOSE(rep_plot_y(&plot, 0), 20 + 50 / 8.0, 1e-9);
  TU_ASSERT_CLOSE(rep_plot_y(&plot, 3), 70 - 50 / 8.0, 1e-9);
  TU_ASSERT_CLOSE(rep_plot_band(&plot, 1), 12.5, 1e-9);
}

static void axes(rep_svg_t *svg)
{
  rep_plot_t plot = {.left = 40, .top = 10, .width = 120, .height = 60};
  plot.x.scale = REP_LOG2;
  plot.x.label = "p (processors)";
  rep_axis_range(&plot.x, 1, 128);
  plot.y.label = "time (s)";
  rep_axis_range(&plot.y, 0, 9.3);
  rep_svg_axes(svg, &plot);
}

/* Tick labels: 1, 2, ... 128 on the log2 axis; 0, 2, ... 10 on the linear one; both axis labels. */
static void test_rep_svg_axes_ticks(void)
{
  char *text = render(axes);
  CU_ASSERT(well_formed(text));
  static const char *const labels[] = {">1<",       ">2<",   ">4<", ">8<", ">16<", ">32<",
                                       ">64<",      ">128<", ">0<", ">6<", ">10<", ">p (processors)<",
                                       ">time (s)<"};
  for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
    CU_ASSERT_PTR_NOT_NULL(strstr(text, labels[i]));
  CU_ASSERT_PTR_NULL(strstr(text, ">12<"));
  free(text);
}

static void test_rep_svg_legend_wraps(void)
{
  rep_legend_item_t items[] = {{"first item", "#000000", REP_KEY_BOX}, {"second item", "#000000", REP_KEY_LINE}};
  double one_row = rep_svg_legend(NULL, 0, 0, 1000, items, 2);
  double two_rows = rep_svg_legend(NULL, 0, 0, 120, items, 2); /* each item is about 22 + 79 + 18 px wide */
  TU_ASSERT_CLOSE(two_rows - one_row, 18, 1e-9);
  TU_ASSERT_CLOSE(rep_svg_legend(NULL, 0, 0, 100, items, 0), 0, 1e-9);
  TU_ASSERT_CLOSE(rep_svg_text_width("abc", 10), 18, 1e-9);
  TU_ASSERT_CLOSE(rep_svg_text_width("R²", 10), 12, 1e-9); /* characters, not bytes */
}

/* A subtitle too long for the picture is set smaller so that it ends inside it (at 0.6 em a character: 100
 * characters at 12 px take 720 px; in 560 px of room they fit at 560 / 720 x 12 = 9.33 px), never below 0.6 of the
 * size; a short one keeps its size. */
static void test_rep_svg_long_subtitle_fits(void)
{
  char subtitle[101];
  memset(subtitle, 'x', 100);
  subtitle[100] = '\0';
  TU_ASSERT_CLOSE(rep_svg_fitting_size(subtitle, 12, 560), 12 * 560.0 / 720, 1e-9);
  TU_ASSERT_CLOSE(rep_svg_fitting_size(subtitle, 12, 100), 0.6 * 12, 1e-9);
  TU_ASSERT_CLOSE(rep_svg_fitting_size("short", 12, 560), 12, 1e-12);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  rep_svg_t *svg = rep_svg_new(out, 600, 400, "title", subtitle);
  CU_ASSERT_EQUAL(rep_svg_end(svg), 0);
  fclose(out);
  const char *at = strstr(text, "y=\"45\" font-size=\"");
  CU_ASSERT_PTR_NOT_NULL_FATAL(at);
  double size = strtod(at + strlen("y=\"45\" font-size=\""), NULL);
  /* the size prints to 0.1 px: at most 0.05 px more, 3 px over 100 characters */
  CU_ASSERT(size < 12 && 20 + rep_svg_text_width(subtitle, size) <= 580 + 3);
  free(text);
}

/* 32 series on 8 colours: each round of the colours has its own line style, so that no two of the 32 curves share
 * both colour and style; the first 8 are solid, and a style's dashes reach the SVG. */
static void test_rep_svg_series_styles(void)
{
  for (size_t i = 0; i < 32; i++)
    for (size_t j = 0; j < i; j++)
      CU_ASSERT(strcmp(rep_svg_series_colour(i), rep_svg_series_colour(j)) != 0 ||
                rep_svg_series_style(i) != rep_svg_series_style(j));
  CU_ASSERT_EQUAL(rep_svg_series_style(7), 0);
  CU_ASSERT(rep_svg_series_style(8) > 1); /* not the fits' dashes */
  CU_ASSERT_EQUAL(rep_svg_series_key(0), REP_KEY_LINE);
  CU_ASSERT(rep_svg_series_key(8) != REP_KEY_LINE && rep_svg_series_key(8) != REP_KEY_DASHED);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  rep_svg_t *svg = rep_svg_new(out, 200, 100, "t", NULL);
  const double x[] = {0, 10}, y[] = {0, 10};
  rep_svg_polyline(svg, x, y, 2, "#000000", 1, rep_svg_series_style(8));
  rep_svg_polyline(svg, x, y, 2, "#000000", 1, rep_svg_series_style(0));
  rep_legend_item_t item = {"curve 9", rep_svg_series_colour(8), rep_svg_series_key(8)};
  rep_svg_legend(svg, 0, 50, 200, &item, 1);
  CU_ASSERT_EQUAL(rep_svg_end(svg), 0);
  fclose(out);
  size_t dashes = 0;
  for (const char *at = text; (at = strstr(at, "stroke-dasharray=\"1 3\"")); at++)
    dashes++;
  CU_ASSERT_EQUAL(dashes, 2); /* the 9th curve and its legend key; not the 1st curve */
  free(text);
}

static void test_rep_svg_colours(void)
{
  CU_ASSERT_STRING_NOT_EQUAL(rep_svg_category_colour(MET_CAT_COMPUTE), rep_svg_category_colour(MET_CAT_COMM));
  CU_ASSERT_STRING_EQUAL(rep_svg_series_colour(0), rep_svg_series_colour(8)); /* eight, then again */
  CU_ASSERT_STRING_NOT_EQUAL(rep_svg_series_colour(0), rep_svg_series_colour(1));
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_rep_svg_document", test_rep_svg_document},
                                    {"test_rep_svg_end_reports_failure", test_rep_svg_end_reports_failure},
                                    {"test_rep_svg_axis_range", test_rep_svg_axis_range},
                                    {"test_rep_svg_plot_mapping", test_rep_svg_plot_mapping},
                                    {"test_rep_svg_axes_ticks", test_rep_svg_axes_ticks},
                                    {"test_rep_svg_legend_wraps", test_rep_svg_legend_wraps},
                                    {"test_rep_svg_long_subtitle_fits", test_rep_svg_long_subtitle_fits},
                                    {"test_rep_svg_series_styles", test_rep_svg_series_styles},
                                    {"test_rep_svg_colours", test_rep_svg_colours},
                                    {NULL, NULL}};
  int status = tu_run("rep_svg", cases);
  xmlCleanupParser();
  return status;
}
