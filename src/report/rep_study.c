/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The study summary: for each p, the best point of the sweep (lowest T_par: the lost-cycle view's ranking,
 * stu_rankings) and why, as the runner-up's extra time per process in each class of the trace, which add up to the
 * difference in T_par (p T_par = work + ctrl + comm + idle). */
#include "rep_group.h"
#include "rep_report.h"
#include "rep_summary.h"
#include "stu_lost_cycles.h"

#include <math.h>
#include <string.h>

static void add_row(rep_cols_t *cols, const stu_study_t *study, const stu_point_t *best, const stu_point_t *second,
                    const rep_unit_t *unit)
{
  char a[160];
  char b[160];
  char t_best[64];
  char t_second[64];
  double extra[REP_CLASSES];
  rep_point_label(study, best, a, sizeof a);
  rep_point_label(study, second, b, sizeof b);
  rep_unit_format(t_best, sizeof t_best, best->t_par, unit);
  rep_unit_format(t_second, sizeof t_second, second->t_par, unit);
  rep_summary_extra(best, second, extra);
  int most = 0;
  for (int c = 1; c < REP_CLASSES; c++)
    most = extra[c] > extra[most] ? c : most;
  int tie = second->t_par - best->t_par <= REP_SUMMARY_TIE * best->t_par;
  rep_cols_add(cols, "%d", best->p);
  rep_cols_add(cols, "<%s", a);
  rep_cols_add(cols, "%s", t_best);
  rep_cols_add(cols, "<%s", b);
  rep_cols_add(cols, "%s", t_second);
  for (int c = 0; c < REP_CLASSES; c++) {
    char cell[64];
    rep_unit_format(cell, sizeof cell, extra[c], unit);
    rep_cols_add(cols, "%s", cell);
  }
  rep_cols_add(cols, "<%s", tie ? "(a tie)" : rep_class_name(most));
}

/* One unit for every time of the table, from the T_par of the best points and the runner-ups' extra times. */
static rep_unit_t table_unit(const stu_ranking_t *rankings, size_t count)
{
  double times[(REP_CLASSES + 1) * count + 1];
  size_t n = 0;
  for (size_t k = 0; k < count; k++) {
    times[n++] = rankings[k].best->t_par;
    if (rankings[k].second)
      rep_summary_extra(rankings[k].best, rankings[k].second, &times[n]);
    n += rankings[k].second ? REP_CLASSES : 0;
  }
  return rep_unit_pick(times, n);
}

void rep_print_study(FILE *out, const stu_study_t *study, int width)
{
  if (!stu_has_view(study, MET_VIEW_LOST_CYCLES) || !rep_sweeps_more_than_p(study))
    return;
  size_t count = 0, rivals = 0;
  const stu_ranking_t *rankings = stu_rankings(study, &count);
  for (size_t k = 0; k < count; k++)
    rivals += rankings[k].second != NULL;
  if (rivals == 0) /* a worksize or scaled sweep of p alone: the summary says that nothing was compared */
    return;
  rep_unit_t unit = table_unit(rankings, count);
  char held[128], title[512];
  rep_summary_held(study, held, sizeof held);
  snprintf(title, sizeof title,
           "Study summary: the best point for each p (lowest T_par%s%s), and why: the runner-up's extra time per "
           "process in each class of the trace (they add up to the difference in T_par), and the class that makes most "
           "of it",
           held[0] ? " among equal " : "", held);
  fputc('\n', out);
  rep_wrap(out, title, width, 0);
  rep_cols_t *cols = rep_cols_new(10, 1);
  if (!cols)
    return;
  static const char *const heads[] = {"<best", "T_par", "<runner-up", "T_par", "work", "ctrl", "comm", "idle"};
  rep_cols_add(cols, "p");
  for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++)
    rep_cols_add(cols, "%s%s%s%s", heads[h], *heads[h] == '<' ? "" : " (", *heads[h] == '<' ? "" : unit.name,
                 *heads[h] == '<' ? "" : ")");
  rep_cols_add(cols, "<mostly");
  for (size_t k = 0; k < count; k++)
    if (rankings[k].second)
      add_row(cols, study, rankings[k].best, rankings[k].second, &unit);
  rep_cols_print(out, cols, "", width);
  rep_cols_free(cols);
}
