/* The pictures of a study (seed 000 §1.2, Figs 1.4-1.8; seed 001 Figs 5-9; seed 002 Figs 4-5): which views each
 * point, series and study gets, the series of points they draw, their files and titles. The views are drawn by
 * rep_curves, rep_views, rep_carnival_views and rep_timeline, on rep_chart and rep_svg. docs/pictures.md shows them. */
#include "rep_pictures.h"
#include "rep_carnival_views.h"
#include "rep_curves.h"
#include "rep_picture.h"
#include "rep_timeline.h"
#include "rep_views.h"
#include "rep_wait.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

void rep_series_free(rep_series_list_t *groups)
{
  for (size_t i = 0; groups->list && i < groups->count; i++) {
    free(groups->list[i].points);
    free(groups->list[i].x);
  }
  free(groups->list);
}

/* Inserts the point into its group, keeping the group sorted by x. */
static void group_insert(rep_series_t *g, const stu_point_t *point, double x)
{
  size_t at = g->count++;
  for (; at > 0 && g->x[at - 1] > x; at--) {
    g->points[at] = g->points[at - 1];
    g->x[at] = g->x[at - 1];
  }
  g->points[at] = point;
  g->x[at] = x;
}

/* The groups of the study's points for x parameter `x_index`. Returns 0, or -1 when out of memory. */
int rep_series_collect(const stu_study_t *study, size_t x_index, rep_series_list_t *out)
{
  size_t n = study->npoints;
  *out = (rep_series_list_t){.list = calloc(n, sizeof *out->list)};
  if (!out->list)
    return -1;
  for (size_t i = 0; i < n; i++) {
    const stu_point_t *point = &study->points[i];
    size_t k = 0;
    while (k < out->count && !stu_same_except(study, out->list[k].points[0], point, x_index))
      k++;
    rep_series_t *g = &out->list[k];
    if (k == out->count) {
      out->count++;
      g->points = calloc(n, sizeof *g->points);
      g->x = calloc(n, sizeof *g->x);
      if (!g->points || !g->x)
        return -1;
      rep_series_describe(study, point, x_index, g);
    }
    group_insert(g, point, strtod(point->values[x_index], NULL));
  }
  return 0;
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
  if (!scn_param(s, "platform"))
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
    return -1;
  }
  if (rep_file_commit(file, pics->err, pics->errlen) != 0)
    return -1;
  pics->written++;
  return 0;
}

/* Whether parameter j is swept over numbers: a work size W (or p) that curves can be drawn against. */
static int numeric_sweep(const scn_param_t *param)
{
  if (param->nvalues < 2)
    return 0;
  for (size_t i = 0; i < param->nvalues; i++) {
    char *end = NULL;
    strtod(param->values[i], &end);
    if (end == param->values[i] || *end)
      return 0;
  }
  return 1;
}

static int group_pictures(rep_pictures_t *pics)
{
  rep_series_list_t groups;
  int rc = rep_series_collect(pics->study, pics->p_index, &groups);
  for (size_t k = 0; rc == 0 && k < groups.count; k++) {
    rep_labels_t p_names = {0};
    rc = rep_labels_new(&p_names, groups.list[k].x, groups.list[k].count);
    rc = rc ? rc : rep_overall_picture(pics, &groups.list[k], &p_names);
    if (groups.list[k].count > 1 && !pics->study->facts.no_breakdown) /* curves against p need two p at least */
      rc = rc ? rc : rep_bottleneck_pictures(pics, &groups.list[k], &p_names);
    rep_labels_free(&p_names);
  }
  rep_series_free(&groups);
  return rc;
}

static int point_pictures(rep_pictures_t *pics)
{
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < pics->study->npoints; i++) {
    const stu_point_t *point = &pics->study->points[i];
    rep_series_t g = {0};
    rep_series_describe(pics->study, point, pics->p_index, &g);
    if (point->procs)
      rc = rep_processes_picture(pics, point, &g);
    if (rc == 0 && point->carnival)
      rc = rep_carnival_pictures(pics, point);
    if (rc == 0 && point->trace) {
      char title[300];
      rep_picture_title(title, sizeof title, "Timeline", pics->study, &g);
      rep_append(title, sizeof title, ", p = %d", point->p);
      rep_file_t *file = rep_picture_open(pics, "timeline", g.file);
      rc = file ? rep_picture_close(pics, file, rep_timeline(rep_file_stream(file), point->trace, title)) : -1;
    }
    met_waits_t w = {0};
    int waits = rc == 0 ? rep_wait_of(point, &w) : 0;
    rc = waits < 0 ? -1 : waits ? rep_wait_states_picture(pics, point, &g, &w) : rc;
    met_wait_free(&w);
  }
  return rc;
}

/* ---------- the whole study ---------- */

int rep_pictures_folder(const char *dir, char *err, size_t errlen)
{
  char path[4096];
  struct stat st;
  if (!dir[0] || snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
    snprintf(err, errlen, "--svg '%s': give a folder name of at most 4095 characters", dir);
    return -1;
  }
  for (char *c = path + 1;; c++) {
    if (*c != '/' && *c != '\0')
      continue;
    char kept = *c;
    *c = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      snprintf(err, errlen, "cannot create folder '%s': %s; check the path and its permissions", path, strerror(errno));
      return -1;
    }
    *c = kept;
    if (!kept)
      break;
  }
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "'%s' is not a folder; give a folder for the pictures", dir);
    return -1;
  }
  return 0;
}

/* Every metric against p and against each numeric swept parameter (lost-cycle studies). */
static int every_metric(rep_pictures_t *pics)
{
  const scn_scenario_t *s = pics->study->scenario;
  int rc = 0;
  for (size_t j = 0; rc == 0 && stu_has_view(pics->study, STU_VIEW_LOST_CYCLES) && j < s->nparams; j++)
    if (numeric_sweep(&s->params[j]))
      rc = rep_metric_pictures(pics, j);
  return rc;
}

int rep_print_fits(FILE *out, const stu_study_t *study)
{
  rep_pictures_t pics = {.study = study, .log = out, .fits_only = 1};
  return every_metric(&pics);
}

int rep_pictures(const stu_study_t *study, const char *dir, FILE *log, char *err, size_t errlen)
{
  rep_pictures_t pics = {.study = study, .dir = dir, .log = log, .err = err, .errlen = errlen};
  const scn_scenario_t *s = study->scenario;
  snprintf(err, errlen, "out of memory while drawing the pictures"); /* unless a file names what failed */
  while (pics.p_index < s->nparams && strcmp(s->params[pics.p_index].name, "p") != 0)
    pics.p_index++;
  int rc = point_pictures(&pics);
  rc = rc ? rc : every_metric(&pics);
  if (rc == 0 && stu_has_view(study, STU_VIEW_LOST_CYCLES))
    rc = group_pictures(&pics);
  if (rc == 0 && study->facts.grid_param) {
    rc = rep_grid_picture(study, dir, err, errlen);
    pics.written += rc == 0;
  }
  if (log)
    fprintf(log, "\nPictures: %zu SVG file%s in %s (docs/pictures.md)\n", pics.written, pics.written == 1 ? "" : "s",
            dir);
  return rc;
}
