/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CARNIVAL's views of a DSM point (seed 002 Figs. 4-5; docs/pictures.md), from met_carnival's profiles and wait map,
 * drawn as stacked bars by rep_chart. */
#include "rep_carnival_views.h"
#include "met_carnival.h"
#include "rep_chart.h"
#include "stu_cause_effect.h"

#include <stdio.h>
#include <stdlib.h>

enum { DSM_MAP_BARS = 12 };

/* Writes DSM point `point`'s picture <scenario>-dsm-<what>[-<series>].svg: the n panels, headed `view` and the note
 * after the subtitle. Returns 0 or -1. */
static int dsm_picture(rep_pictures_t *pics, const stu_point_t *point, const char *view, const char *what,
                       const char *note, const rep_bars_t *panels, size_t n, rep_annotate_fn annotate, const void *arg)
{
  rep_series_t g = {0};
  char title[300], subtitle[300];
  rep_series_describe(pics->study, point, (size_t)-1, &g);
  rep_picture_title(title, sizeof title, view, pics->study, &g);
  rep_picture_subtitle(subtitle, sizeof subtitle, pics->study, note);
  char file_view[64];
  snprintf(file_view, sizeof file_view, "dsm-%s", what);
  rep_file_t *file = rep_picture_open(pics, file_view, g.file);
  return file ? rep_picture_close(pics, file,
                                  rep_bar_picture(rep_file_stream(file), title, subtitle, panels, n, annotate, arg))
              : -1;
}

/* Bars of a DSM point, one per item, stacked by `ncats` categories: values[cat * count + item] in ms. */
static int dsm_bars(rep_pictures_t *pics, const stu_point_t *point, const char *view, const char *what,
                    const char *note, const char *const *names, size_t count, const double *values,
                    const char *const *cats, int ncats)
{
  rep_stack_t stacks[MET_W_COUNT]; /* the 8 wait categories, or the 4 PP ones */
  for (int c = 0; c < ncats; c++)
    stacks[c] = (rep_stack_t){cats[c], rep_svg_series_colour((size_t)c), values + (size_t)c * count};
  rep_bars_t panel = {NULL, what, "time (ms), all nodes", names, count, stacks, (size_t)ncats, 0, NULL, NULL};
  return dsm_picture(pics, point, view, what, note, &panel, 1, NULL, NULL);
}

/* Time by code scope, a bar per scope split by the PP's categories (CARNIVAL's scope view). */
static int dsm_scope_picture(rep_pictures_t *pics, const stu_point_t *point)
{
  const met_carnival_t *c = stu_carnival(point);
  size_t n = (size_t)met_carnival_scope_count(c);
  const char **names = calloc(n, sizeof *names);
  double *values = calloc(n * (MET_CE_PRSTE + 1), sizeof *values);
  const char *cats[MET_CE_PRSTE + 1];
  for (int cat = 0; cat <= MET_CE_PRSTE; cat++)
    cats[cat] = met_ce_cat_name(cat);
  for (size_t s = 0; names && values && s < n; s++) {
    names[s] = met_carnival_scope_name(c, (int)s);
    for (int cat = 0; cat <= MET_CE_PRSTE; cat++)
      values[(size_t)cat * n + s] = 1e3 * met_carnival_time(c, -1, (int)s, cat, -1);
  }
  int rc = names && values ? dsm_bars(pics, point, "Time by code scope (PP)", "scopes",
                                      "; seed 002 Fig. 4: the PPs' time in each scope, by category", names, n, values,
                                      cats, MET_CE_PRSTE + 1)
                           : -1;
  free(names);
  free(values);
  return rc;
}

/* The wait map's longest lines, a bar each split by the 8 categories of Table 1 (CARNIVAL's CPWait map, Fig. 5). */
static int dsm_map_picture(rep_pictures_t *pics, const stu_point_t *point)
{
  size_t rows = 0;
  const met_ce_row_t *map = met_carnival_map(stu_carnival(point), &rows);
  size_t n = rows < DSM_MAP_BARS ? rows : DSM_MAP_BARS;
  if (n == 0)
    return 0;
  char(*labels)[64] = calloc(n, sizeof *labels);
  const char **names = calloc(n, sizeof *names);
  double *values = calloc(n * MET_W_COUNT, sizeof *values);
  const char *cats[MET_W_COUNT];
  for (int k = 0; k < MET_W_COUNT; k++)
    cats[k] = met_wait_cat_name(k);
  for (size_t i = 0; labels && names && values && i < n; i++) {
    snprintf(labels[i], sizeof labels[i], "%s %s %s", met_carnival_scope_name(stu_carnival(point), map[i].scope),
             map[i].unit == MET_UNIT_PP ? "Wait" : "CPWait", met_ce_op_name(map[i].op));
    names[i] = labels[i];
    for (int k = 0; k < MET_W_COUNT; k++)
      values[(size_t)k * n + i] = 1e3 * map[i].wait.cat[k];
  }
  int rc = labels && names && values ? dsm_bars(pics, point, "Wait map", "waits",
                                                "; seed 002 Fig. 5: the longest waits (scope, waiter, operation), by "
                                                "the categories of Table 1",
                                                names, n, values, cats, MET_W_COUNT)
                                     : -1;
  free(labels);
  free(names);
  free(values);
  return rc;
}

/* Each bar's total over it, from the panel's stacks: the node's time in the scope. */
static void annotate_totals(rep_svg_t *svg, size_t panel, const rep_plot_t *plot, const void *arg)
{
  const rep_bars_t *bars = (const rep_bars_t *)arg + panel;
  for (size_t i = 0; i < bars->count; i++) {
    char text[32];
    double total = 0;
    for (size_t s = 0; s < bars->nstacks; s++)
      total += bars->stacks[s].values[i];
    snprintf(text, sizeof text, "%.4g", total);
    rep_svg_text(svg, rep_plot_x(plot, (double)i), rep_plot_y(plot, total) - 4, 11, REP_MIDDLE, text);
  }
}

/* The processors' profile of each scope (CARNIVAL's Fig. 4 d, what a click on a scope's bar shows): a panel per scope
 * where the PPs spent time, a bar per node split by the PP's categories, each segment's figure in its tooltip and
 * each bar's total over it. A node's bars over all panels add up to the run time (met_carnival_new). */
static int dsm_processors_picture(rep_pictures_t *pics, const stu_point_t *point)
{
  enum { CATS = MET_CE_PRSTE + 1 };
  const met_carnival_t *c = stu_carnival(point);
  size_t nodes = (size_t)met_carnival_nodes(c), nscopes = (size_t)met_carnival_scope_count(c), n = 0;
  if (nodes == 0 || nscopes == 0)
    return 0; /* nothing to draw, and calloc(0) may give NULL */
  double *values = calloc(nscopes * CATS * nodes, sizeof *values), *ids = calloc(nodes, sizeof *ids);
  rep_stack_t *stacks = calloc(nscopes * CATS, sizeof *stacks);
  rep_bars_t *panels = calloc(nscopes, sizeof *panels);
  char(*heads)[160] = calloc(nscopes, sizeof *heads), (*tips)[96] = calloc(nscopes, sizeof *tips);
  rep_labels_t names = {0};
  int rc = values && ids && stacks && panels && heads && tips ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < nodes; i++)
    ids[i] = (double)i;
  rc = rc ? rc : rep_labels_new(&names, ids, nodes);
  for (size_t s = 0; rc == 0 && s < nscopes; s++) {
    double total = 0, *v = values + s * CATS * nodes;
    for (int cat = 0; cat < CATS; cat++) {
      for (size_t i = 0; i < nodes; i++)
        total += v[cat * nodes + i] = 1e3 * met_carnival_time(c, (int)i, (int)s, cat, -1);
      stacks[s * CATS + cat] = (rep_stack_t){met_ce_cat_name(cat), rep_svg_series_colour((size_t)cat), v + cat * nodes};
    }
    if (total <= 0)
      continue;
    const char *scope = met_carnival_scope_name(c, (int)s);
    snprintf(heads[n], sizeof heads[n], "Scope %s: %.4g ms of the PPs' time, all nodes", scope, total);
    snprintf(tips[n], sizeof tips[n], "scope %s, node", scope);
    panels[n] = (rep_bars_t){heads[n], "node (processor)", "time (ms)", names.names, nodes, stacks + s * CATS,
                             CATS,     REP_CHART_NOTE_ROW, tips[n],     " ms"};
    n++;
  }
  if (rc == 0 && n > 0)
    rc = dsm_picture(pics, point, "Processors' profile of each scope (PP)", "processors",
                     "; seed 002 Fig. 4 d: a scope's time by node and category, each bar's total over it", panels, n,
                     annotate_totals, panels);
  rep_labels_free(&names);
  free(values);
  free(ids);
  free(stacks);
  free(panels);
  free(heads);
  free(tips);
  return rc;
}

int rep_carnival_pictures(rep_pictures_t *pics, const stu_point_t *point)
{
  int rc = dsm_scope_picture(pics, point);
  rc = rc ? rc : dsm_processors_picture(pics, point);
  return rc ? rc : dsm_map_picture(pics, point);
}
