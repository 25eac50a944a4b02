/* CARNIVAL's views of a DSM point (seed 002 Figs. 4-5; docs/pictures.md), from met_carnival's profiles and wait map,
 * drawn as stacked bars by rep_chart. */
#include "rep_carnival_views.h"
#include "met_carnival.h"
#include "rep_chart.h"

#include <stdlib.h>

enum { DSM_MAP_BARS = 12 };

/* Bars of a DSM point, one per item, stacked by `ncats` categories: values[cat * count + item] in ms. */
static int dsm_bars(rep_pictures_t *pics, const stu_point_t *point, const char *view, const char *what,
                    const char *note, const char *const *names, size_t count, const double *values,
                    const char *const *cats, int ncats)
{
  rep_stack_t stacks[MET_W_COUNT]; /* the 8 wait categories, or the 4 PP ones */
  for (int c = 0; c < ncats; c++)
    stacks[c] = (rep_stack_t){cats[c], rep_svg_series_colour((size_t)c), values + (size_t)c * count};
  rep_bars_t panel = {NULL, what, "time (ms), all nodes", names, count, stacks, (size_t)ncats, 0};
  rep_series_t g = {0};
  char title[300], subtitle[300];
  rep_series_describe(pics->study, point, (size_t)-1, &g);
  rep_picture_title(title, sizeof title, view, pics->study, &g);
  rep_picture_subtitle(subtitle, sizeof subtitle, pics->study, note);
  char file_view[64];
  snprintf(file_view, sizeof file_view, "dsm-%s", what);
  rep_file_t *file = rep_picture_open(pics, file_view, g.file);
  return file ? rep_picture_close(pics, file,
                                  rep_bar_picture(rep_file_stream(file), title, subtitle, &panel, 1, NULL, NULL))
              : -1;
}

/* Time by code scope, a bar per scope split by the PP's categories (CARNIVAL's scope view). */
static int dsm_scope_picture(rep_pictures_t *pics, const stu_point_t *point)
{
  const met_carnival_t *c = point->carnival;
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
  const met_ce_row_t *map = met_carnival_map(point->carnival, &rows);
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
    snprintf(labels[i], sizeof labels[i], "%s %s %s", met_carnival_scope_name(point->carnival, map[i].scope),
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

int rep_carnival_pictures(rep_pictures_t *pics, const stu_point_t *point)
{
  int rc = dsm_scope_picture(pics, point);
  return rc ? rc : dsm_map_picture(pics, point);
}
