/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pictures of a study (seed 000 §1.2, Figs 1.4-1.8; seed 001 Figs 5-9; seed 002 Figs 4-5): which views each
 * point, series and study gets, the series of points they draw, their files and titles. The views are drawn by
 * rep_curves, rep_views, rep_carnival_views and rep_timeline, on rep_chart and rep_svg. docs/pictures.md shows them. */
#include "rep_pictures.h"
#include "bas_error.h"
#include "rep_carnival_views.h"
#include "rep_curves.h"
#include "rep_factors.h"
#include "rep_picture.h"
#include "rep_ref_picture.h"
#include "rep_timeline.h"
#include "rep_views.h"
#include "stu_cause_effect.h"
#include "stu_lost_cycles.h"
#include "stu_series.h"
#include "stu_waits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int group_pictures(rep_pictures_t *pics)
{
  size_t ngroups = 0;
  rep_series_t *groups = rep_series_collect(pics->study, pics->p_index, &ngroups);
  int rc = groups ? 0 : -1;
  for (size_t k = 0; rc == 0 && k < ngroups; k++) {
    rep_labels_t p_names = {0};
    rc = rep_labels_new(&p_names, groups[k].x, groups[k].count);
    rc = rc ? rc : rep_overall_picture(pics, &groups[k], &p_names);
    if (groups[k].count > 1 && !pics->study->facts.no_breakdown) /* curves against p need two p at least */
      rc = rc ? rc : rep_bottleneck_pictures(pics, &groups[k], &p_names);
    rc = rc ? rc : rep_reference_picture(pics, &groups[k]);
    rc = rc ? rc : rep_replay_picture(pics, &groups[k]);
    rep_labels_free(&p_names);
  }
  rep_series_free(groups, ngroups);
  return rc;
}

static int point_pictures(rep_pictures_t *pics)
{
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < pics->study->npoints; i++) {
    const stu_point_t *point = &pics->study->points[i];
    rep_series_t g = {0};
    rep_series_describe(pics->study, point, pics->p_index, &g);
    if (stu_procs(point))
      rc = rep_processes_picture(pics, point, &g);
    if (rc == 0 && stu_carnival(point))
      rc = rep_carnival_pictures(pics, point);
    if (rc == 0 && point->pixels) {
      char title[300];
      rep_picture_title(title, sizeof title, "Timeline", pics->study, &g);
      rep_append(title, sizeof title, ", p = %d", point->p);
      rep_file_t *file = rep_picture_open(pics, "timeline", g.file);
      rc = file ? rep_picture_close(pics, file, rep_timeline(rep_file_stream(file), point->pixels, title)) : -1;
    }
    if (rc == 0 && stu_waits(point))
      rc = rep_wait_states_picture(pics, point, &g, stu_waits(point));
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
    return BAS_EINVAL;
  }
  for (char *c = path + 1;; c++) {
    if (*c != '/' && *c != '\0')
      continue;
    char kept = *c;
    *c = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      snprintf(err, errlen, "cannot create folder '%s': %s; check the path and its permissions", path, strerror(errno));
      return BAS_EIO;
    }
    *c = kept;
    if (!kept)
      break;
  }
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "'%s' is not a folder; give a folder for the pictures", dir);
    return BAS_EINVAL;
  }
  return 0;
}

/* Every metric against p and against each numeric swept parameter (lost-cycle studies). */
static int every_metric(rep_pictures_t *pics)
{
  const scn_scenario_t *s = pics->study->scenario;
  int rc = 0;
  for (size_t j = 0; rc == 0 && stu_has_view(pics->study, MET_VIEW_LOST_CYCLES) && j < s->nparams; j++)
    if (stu_numeric_sweep(&s->params[j]))
      rc = rep_metric_pictures(pics, j);
  return rc;
}

int rep_print_fits(FILE *out, const stu_study_t *study)
{
  rep_pictures_t pics = {.study = study, .log = out, .fits_only = 1};
  return every_metric(&pics);
}

int rep_fits_each(const stu_study_t *study, rep_fit_sink_fn sink, void *ctx)
{
  rep_pictures_t pics = {.study = study, .fits_only = 1, .sink = sink, .sink_ctx = ctx};
  return every_metric(&pics);
}

int rep_pictures(const stu_study_t *study, const char *dir, FILE *log, char *err, size_t errlen)
{
  rep_pictures_t pics = {.study = study, .dir = dir, .log = log, .err = err, .errlen = errlen};
  const scn_scenario_t *s = study->scenario;
  snprintf(err, errlen, "out of memory while drawing the pictures"); /* unless a file names what failed */
  pics.p_index = scn_role_index(s, SCN_ROLE_PROCESSES);
  int rc = point_pictures(&pics);
  rc = rc ? rc : every_metric(&pics);
  if (rc == 0 && stu_has_view(study, MET_VIEW_LOST_CYCLES))
    rc = group_pictures(&pics);
  rc = rc ? rc : rep_factors_picture(&pics);
  if (rc == 0 && study->facts.grid) {
    rc = rep_grid_picture(study, dir, err, errlen);
    pics.written += rc == 0;
  }
  if (log)
    fprintf(log, "\nPictures: %zu SVG file%s in %s (docs/pictures.md)\n", pics.written, pics.written == 1 ? "" : "s",
            dir);
  return rc;
}
