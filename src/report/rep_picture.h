/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the report module: what the modules that draw the study's pictures (rep_curves, rep_views,
 * rep_carnival_views) share with rep_pictures.c, which runs them: the set of pictures being written, series of points
 * (equal values for every parameter but one), the pictures' files and titles. Implemented in rep_picture.c. */
#ifndef REP_PICTURE_H
#define REP_PICTURE_H

#include "rep_chart.h"
#include "rep_report.h"

#include <stddef.h>
#include <stdio.h>

/* The pictures of one study being written (everything borrowed). */
typedef struct rep_pictures {
  const stu_study_t *study;
  const char *dir;
  FILE *log;
  char *err;
  size_t errlen;
  size_t written;
  size_t p_index;
  int fits_shown;       /* the heading of the fits has been printed */
  int fits_only;        /* rep_print_fits: the fits on the log, no picture */
  rep_fit_sink_fn sink; /* rep_fits_each: each fit to sink instead of the log */
  void *sink_ctx;
} rep_pictures_t;

/* Points that share every parameter value but the one at x_index, in increasing order of that parameter. */
typedef struct rep_series {
  const stu_point_t **points;
  double *x; /* the x parameter's value at each point */
  size_t count;
  char title[256]; /* "broadcast = neighbour": the other swept parameters; "" when there are none */
  char file[128];  /* "neighbour" */
} rep_series_t;

/* The series of the study's points for x parameter `x_index` (stu_series_collect's, in its order, each described): a
 * new array of *count series, or NULL when out of memory. Free it with rep_series_free. */
rep_series_t *rep_series_collect(const stu_study_t *study, size_t x_index, size_t *count);
void rep_series_free(rep_series_t *series, size_t count);
/* Sets g's title and file name part from the swept parameters of `point` other than the one at `except` (g zeroed). */
void rep_series_describe(const stu_study_t *study, const stu_point_t *point, size_t except, rep_series_t *g);

/* What a curve or a bar shows of a point; `which` selects among related values. */
typedef double (*rep_point_value_fn)(const stu_point_t *point, int which);
/* Fills values[i] with get(point i of g, which). */
void rep_series_values(const rep_series_t *g, rep_point_value_fn get, int which, double *values);

/* Appends printf-style text to the NUL-terminated buf of size len, truncating. */
void rep_append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "<what>: <scenario>[, <series>]" */
void rep_picture_title(char *buf, size_t len, const char *what, const stu_study_t *study, const rep_series_t *g);
/* The skeleton, the parameters that are not swept and the platform, then `note`. */
void rep_picture_subtitle(char *buf, size_t len, const stu_study_t *study, const char *note);

/* Opens <dir>/<scenario>-<view>[-<suffix>].svg under a temporary name. NULL with pics->err filled. */
rep_file_t *rep_picture_open(rep_pictures_t *pics, const char *view, const char *suffix);
/* Commits the picture when drawing it succeeded (drawn == 0), else removes it; counts it written. Returns 0, or BAS_EIO
 * with pics->err filled. */
int rep_picture_close(rep_pictures_t *pics, rep_file_t *file, int drawn);

#endif
