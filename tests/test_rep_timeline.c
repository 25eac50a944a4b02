/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of rep_timeline: the timeline of hand-made traces (every message drawn once, from its sender to its receiver,
 * categories where they dominate, sub-pixel intervals aggregated so that 128 busy ranks stay small, the same bytes
 * every time). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "rep_svg.h"
#include "rep_timeline.h"
#include "tu.h"
#include "tu_svg.h"
#include "tu_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The timeline of `trace` as a new string (the caller frees it), drawn from its pixels (met_pixels.h). */
static char *timeline(const met_trace_t *trace, size_t *len)
{
  char *text = NULL;
  met_pixels_t *pixels = met_pixels_new(trace);
  CU_ASSERT_PTR_NOT_NULL_FATAL(pixels);
  FILE *out = open_memstream(&text, len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_EQUAL(rep_timeline(out, pixels, "a timeline"), 0);
  fclose(out);
  met_pixels_free(pixels);
  return text;
}

static size_t count_in_path(const char *d, char c)
{
  size_t n = 0;
  for (const char *s = d + 4; *s && *s != '"'; s++)
    n += *s == c;
  return n;
}

/* How many rectangles the timeline draws in `category` (-1: no path at all). */
static long rects(const char *text, met_category_t category)
{
  char opening[64];
  snprintf(opening, sizeof opening, "<path fill=\"%s\"", rep_svg_category_colour(category));
  const char *d = tu_svg_path_data(text, opening);
  return d ? (long)count_in_path(d, 'M') : -1;
}

/* How many message lines the timeline draws (-1: no message path). */
static long message_lines(const char *text)
{
  const char *d = tu_svg_path_data(text, "<path fill=\"none\" stroke=\"#000000\"");
  return d ? (long)count_in_path(d, 'M') : -1;
}

/* tu_trace_two_ranks: every category but ctrl shows; the message is one line. */
static void test_timeline_small(void)
{
  met_trace_t *trace = tu_trace_two_ranks();
  size_t len;
  char *text = timeline(trace, &len);
  CU_ASSERT(tu_svg_well_formed(text, len));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "T_par = 3 s, 1 message;"));
  CU_ASSERT_EQUAL(message_lines(text), 1);
  /* compute: one rectangle (rank 0); comm: two (both ranks); idle: rank 0's tail and rank 1's wait */
  CU_ASSERT_EQUAL(rects(text, MET_CAT_COMPUTE), 1);
  CU_ASSERT_EQUAL(rects(text, MET_CAT_COMM), 2);
  CU_ASSERT_EQUAL(rects(text, MET_CAT_IDLE), 2);
  CU_ASSERT_EQUAL(rects(text, MET_CAT_IO), 1);
  CU_ASSERT_EQUAL(rects(text, MET_CAT_CTRL), -1);
  free(text);
  met_trace_free(trace);
}

/* The message line goes from the sender's row to the receiver's, and its arrowhead's tip is at the receiver's end:
 * rows go down with the rank, so a message from rank 1 to rank 0 goes up. Without a recorded direction it goes from
 * the lower rank, as before. */
static void test_timeline_message_direction(void)
{
  for (int sender = 1; sender >= -1; sender--) {
    met_trace_t *trace = tu_trace_message(sender);
    size_t len;
    char *text = timeline(trace, &len);
    const char *line = tu_svg_path_data(text, "<path fill=\"none\" stroke=\"#000000\"");
    const char *head = tu_svg_path_data(text, "<path fill=\"#000000\"");
    double x0, y0, x1, y1, tip_x, tip_y;
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    CU_ASSERT_PTR_NOT_NULL_FATAL(head);
    CU_ASSERT_EQUAL_FATAL(sscanf(line, " d=\"M%lf %lfL%lf %lf", &x0, &y0, &x1, &y1), 4);
    CU_ASSERT_EQUAL_FATAL(sscanf(head, " d=\"M%lf %lf", &tip_x, &tip_y), 2);
    CU_ASSERT(sender == 1 ? y0 > y1 : y0 < y1);
    CU_ASSERT(x1 > x0); /* the message takes [1, 2) s of 3 */
    CU_ASSERT(tip_x == x1 && tip_y == y1);
    CU_ASSERT_EQUAL(count_in_path(head, 'z'), 1);
    free(text);
    met_trace_free(trace);
  }
}

/* 128 ranks, 1 s, each alternating 0.3 ms of compute and 0.2 ms of exchange with its neighbour rank ^ 1: 4000
 * intervals a rank, far narrower than a pixel column (1 s / 1100). Compute has at least 56% of every column, so each
 * row is one compute rectangle and comm never shows; the 128,000 messages are counted, but not drawn: merged once per
 * pair of ranks and pair of columns (first, last), of which a 0.2 ms message can only have (c, c) and (c, c + 1), they
 * are still about 128 x 1100 lines of 5 px (a row apart) at 0.5 px, about 350,000 px of ink on a plot of 1100 x 640:
 * half of it, which would hide the states (at most 15% is drawn). The file stays under 3 MB. */
static met_trace_t *busy_trace(void)
{
  met_trace_t *trace = met_trace_new(128);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  met_trace_phase_id(trace, "main");
  int failed = 0;
  for (int r = 0; r < 128; r++)
    for (int k = 0; k < 2000; k++) {
      met_interval_t work = {.start = k * 5e-4, .end = k * 5e-4 + 3e-4, .category = MET_CAT_COMPUTE, .peer = -1};
      met_interval_t comm = {.start = work.end, .end = (k + 1) * 5e-4, .category = MET_CAT_COMM, .peer = r ^ 1};
      failed |= met_trace_add(trace, r, &work) | met_trace_add(trace, r, &comm);
    }
  CU_ASSERT_EQUAL(failed, 0);
  return trace;
}

static void test_timeline_aggregates(void)
{
  met_trace_t *trace = busy_trace();
  size_t len;
  char *text = timeline(trace, &len);
  CU_ASSERT(tu_svg_well_formed(text, len));
  CU_ASSERT(len < 3 * 1024 * 1024);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "128000 messages"));
  CU_ASSERT_EQUAL(rects(text, MET_CAT_COMPUTE), 128);
  CU_ASSERT_EQUAL(rects(text, MET_CAT_COMM), -1);
  CU_ASSERT_EQUAL(message_lines(text), -1);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "128000 messages, not drawn: their lines would cover the states"));
  /* the same trace gives the same bytes */
  size_t again_len;
  char *again = timeline(trace, &again_len);
  CU_ASSERT(again_len == len && memcmp(again, text, len) == 0);
  free(again);
  free(text);
  met_trace_free(trace);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_timeline_small", test_timeline_small},
                                    {"test_timeline_aggregates", test_timeline_aggregates},
                                    {"test_timeline_message_direction", test_timeline_message_direction},
                                    {NULL, NULL}};
  int status = tu_run("rep_timeline", cases);
  xmlCleanupParser();
  return status;
}
