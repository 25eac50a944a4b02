/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What every picture file shares (docs/pictures.md): the series of points a curve draws, titles and subtitles, and the
 * picture files themselves, opened under a temporary name and committed whole. rep_pictures decides which pictures a
 * study gets; rep_curves, rep_views and rep_carnival_views draw them with these helpers. */
#include "rep_picture.h"
#include "bas_error.h"
#include "stu_series.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- text helpers ---------- */

/* Appends printf-style text to the NUL-terminated buf of size len, truncating. */
void rep_append(char *buf, size_t len, const char *fmt, ...)
{
  size_t used = strlen(buf);
  if (used + 1 >= len)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}

/* Characters other than letters, digits, '.', '_' and '-' become '_', so that any name makes a file name. */
static void file_safe(char *name)
{
  for (char *c = name; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_' && *c != '-')
      *c = '_';
}

/* ---------- the study: groups of points ---------- */

/* The group's title and file name part from the swept parameters other than the one at `except`; a path is shown by
 * its last part. In file names a value that starts with a letter stands alone ("neighbour"), a number follows its
 * parameter's name ("n256"). */
void rep_series_describe(const stu_study_t *study, const stu_point_t *point, size_t except, rep_series_t *g)
{
  const scn_scenario_t *s = study->scenario;
  for (size_t j = 0; j < s->nparams; j++) {
    if (j == except || s->params[j].nvalues < 2)
      continue;
    const char *value = strrchr(point->values[j], '/') ? strrchr(point->values[j], '/') + 1 : point->values[j];
    rep_append(g->title, sizeof g->title, "%s%s = %s", g->title[0] ? ", " : "", s->params[j].name, value);
    rep_append(g->file, sizeof g->file, "%s%s%s", g->file[0] ? "-" : "",
               isalpha((unsigned char)value[0]) ? "" : s->params[j].name, value);
  }
  file_safe(g->file);
}

void rep_series_free(rep_series_t *series, size_t count)
{
  for (size_t i = 0; series && i < count; i++) {
    free(series[i].points);
    free(series[i].x);
  }
  free(series);
}

rep_series_t *rep_series_collect(const stu_study_t *study, size_t x_index, size_t *count)
{
  stu_series_list_t found;
  int rc = stu_series_collect(study, x_index, &found);
  rep_series_t *series = rc == 0 ? calloc(found.count ? found.count : 1, sizeof *series) : NULL;
  *count = series ? found.count : 0;
  for (size_t k = 0; k < *count; k++) {
    rep_series_t *g = &series[k];
    *g = (rep_series_t){.points = found.list[k].points, .x = found.list[k].x, .count = found.list[k].count};
    found.list[k] = (stu_series_t){0}; /* g owns them now */
    rep_series_describe(study, g->points[0], x_index, g);
  }
  stu_series_free(&found);
  return series;
}

void rep_series_values(const rep_series_t *g, rep_point_value_fn get, int which, double *values)
{
  for (size_t i = 0; i < g->count; i++)
    values[i] = get(g->points[i], which);
}

/* "gauss-jordan, n = 256 on t800-mesh-128.xml": the skeleton, the parameters that are not swept and the platform
 * (unless a parameter names it), for subtitles. */
static void describe_fixed(const stu_study_t *study, char *buf, size_t len)
{
  const scn_scenario_t *s = study->scenario;
  const char *base = strrchr(s->platform, '/');
  snprintf(buf, len, "%s", s->skeleton);
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].nvalues == 1)
      rep_append(buf, len, ", %s = %s", s->params[j].name, s->params[j].values[0]);
  if (!scn_role_param(s, SCN_ROLE_PLATFORM))
    rep_append(buf, len, " on %s", base ? base + 1 : s->platform);
}

/* "<what>: <scenario>[, <group>]" */
void rep_picture_title(char *buf, size_t len, const char *what, const stu_study_t *study, const rep_series_t *g)
{
  buf[0] = '\0';
  rep_append(buf, len, "%s: %s%s%s", what, study->scenario->name, g->title[0] ? ", " : "", g->title);
}

/* The fixed parameters, then `note`. */
void rep_picture_subtitle(char *buf, size_t len, const stu_study_t *study, const char *note)
{
  describe_fixed(study, buf, len);
  rep_append(buf, len, "%s", note);
}

/* ---------- files ---------- */

/* Opens <dir>/<scenario>-<view>[-<suffix>].svg under a temporary name. NULL with pics->err filled. */
rep_file_t *rep_picture_open(rep_pictures_t *pics, const char *view, const char *suffix)
{
  char name[512];
  snprintf(name, sizeof name, "%s-%s%s%s.svg", pics->study->scenario->name, view, suffix[0] ? "-" : "", suffix);
  file_safe(name);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", pics->dir, name);
  return rep_file_open(path, pics->err, pics->errlen);
}

/* Commits the picture when drawing it succeeded (drawn == 0), else removes it. Returns 0 or -1 with pics->err. */
int rep_picture_close(rep_pictures_t *pics, rep_file_t *file, int drawn)
{
  if (drawn != 0) {
    rep_file_abort(file);
    snprintf(pics->err, pics->errlen, "drawing a picture in '%s' failed: out of memory or a write error", pics->dir);
    return BAS_EIO;
  }
  if (rep_file_commit(file, pics->err, pics->errlen) != 0)
    return BAS_EIO;
  pics->written++;
  return 0;
}
