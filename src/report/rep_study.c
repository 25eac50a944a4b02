/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The study summary: for each p, the best point of the sweep (lowest T_par: the lost-cycle view's ranking,
 * stu_rankings) and why, as the runner-up's extra time per process in each class of the trace, which add up to the
 * difference in T_par (p T_par = work + ctrl + comm + idle). */
#include "rep_group.h"
#include "rep_report.h"
#include "stu_lost_cycles.h"

#include <math.h>
#include <string.h>

/* The point's values of the compared parameters, such as "mesh" or "t800-torus-16x8.xml, binomial" (file names
 * without their folder). */
static void label(const stu_study_t *study, const stu_point_t *point, char *buf, size_t len)
{
  const scn_scenario_t *s = study->scenario;
  buf[0] = '\0';
  for (size_t j = 0; j < s->nparams; j++) {
    if (s->params[j].role == SCN_ROLE_PROCESSES || s->params[j].nvalues < 2)
      continue;
    const char *slash = strrchr(point->values[j], '/');
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", used ? ", " : "", slash ? slash + 1 : point->values[j]);
  }
}

/* Seconds per process the runner-up spends more than the best in each class: work, ctrl, comm, idle. Rounding noise
 * of either sign is shown as 0. */
static void extra_time(const stu_point_t *best, const stu_point_t *second, double extra[4])
{
  static const met_overhead_t classes[] = {MET_OVH_CTRL, MET_OVH_COMM, MET_OVH_IDLE};
  extra[0] = (stu_eppa(second)->work - stu_eppa(best)->work) / best->p;
  for (int c = 0; c < 3; c++)
    extra[c + 1] = (stu_eppa(second)->ovh_time[classes[c]] - stu_eppa(best)->ovh_time[classes[c]]) / best->p;
  for (int c = 0; c < 4; c++)
    extra[c] = fabs(extra[c]) < 5e-4 ? 0.0 : extra[c];
}

static void print_row(FILE *out, const stu_study_t *study, int width, const stu_point_t *best,
                      const stu_point_t *second)
{
  static const char *const names[] = {"work", "ctrl", "comm", "idle"};
  char a[160];
  char b[160];
  double extra[4];
  label(study, best, a, sizeof a);
  label(study, second, b, sizeof b);
  extra_time(best, second, extra);
  int most = 0;
  for (int c = 1; c < 4; c++)
    most = extra[c] > extra[most] ? c : most;
  int tie = second->t_par - best->t_par <= 1e-9 * best->t_par;
  fprintf(out, "%6d  %-*s %9.3f  %-*s %9.3f %8.3f %8.3f %8.3f %8.3f  %s\n", best->p, width, a, best->t_par, width, b,
          second->t_par, extra[0], extra[1], extra[2], extra[3], tie ? "(a tie)" : names[most]);
}

/* The width of the longest label. */
static int label_width(const stu_study_t *study)
{
  char buf[160];
  size_t width = strlen("runner-up");
  for (size_t i = 0; i < study->npoints; i++) {
    label(study, &study->points[i], buf, sizeof buf);
    width = strlen(buf) > width ? strlen(buf) : width;
  }
  return (int)width;
}

void rep_print_study(FILE *out, const stu_study_t *study)
{
  if (!stu_has_view(study, MET_VIEW_LOST_CYCLES) || !rep_sweeps_more_than_p(study))
    return;
  int width = label_width(study);
  fprintf(out, "\nStudy summary: the best point for each p (lowest T_par), and why: the runner-up's extra seconds per "
               "process in each\nclass of the trace (they add up to the difference in T_par), and the class that "
               "makes most of it\n");
  fprintf(out, "%6s  %-*s %9s  %-*s %9s %8s %8s %8s %8s  %s\n", "p", width, "best", "T_par (s)", width, "runner-up",
          "T_par (s)", "work", "ctrl", "comm", "idle", "mostly");
  size_t count = 0;
  const stu_ranking_t *rankings = stu_rankings(study, &count);
  for (size_t k = 0; k < count; k++)
    if (rankings[k].second)
      print_row(out, study, width, rankings[k].best, rankings[k].second);
}
