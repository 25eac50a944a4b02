/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The analytic model beside the simulation, as Caron & Suter set their FAST model beside measured times (seed 003
 * §5.1): per point the model's time and its difference from simrun's; per study the mean and largest difference,
 * the best and worst process grid of each p, and the skeleton's warnings (node memory, §5.2). It prints what the
 * model view drew (stu_model.h) and computes none of it. */
#include "rep_group.h"
#include "rep_report.h"
#include "rep_schema.h"
#include "stu_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rep_has_model(const stu_study_t *study)
{
  return stu_has_view(study, MET_VIEW_LOST_CYCLES) && study->facts.has_model;
}

static int has_grid(const stu_study_t *study)
{
  return study->facts.grid;
}

void rep_grid_label(const stu_point_t *point, char *label, size_t len)
{
  int rows = point->role.grid_rows;
  snprintf(label, len, "%dx%d", rows, point->p / rows);
}

/* Compact grids against elongated ones (seed 003 §5.1): per p with several grids, the best and the worst. */
static void print_grid_choice(FILE *out, const stu_study_t *study)
{
  const stu_model_summary_t *s = stu_model_summary(study);
  int platforms = 0; /* whether the rows are of several platforms: each then names its own */
  for (size_t k = 1; k < s->ngrids; k++)
    platforms |= strcmp(s->grids[k].platform, s->grids[0].platform) != 0;
  fprintf(out, "\nBest and worst grid per %s (T_par, simulated), and the grid the model would choose\n",
          platforms ? "platform and p" : "p");
  fprintf(out, "%6s %8s %11s %8s %11s %8s%s\n", "p", "best", "T_par (s)", "worst", "T_par (s)", "model's",
          platforms ? "  platform" : "");
  for (size_t k = 0; k < s->ngrids; k++) {
    const stu_grid_choice_t *g = &s->grids[k];
    char b[32];
    char w[32];
    char m[32] = "-";
    rep_grid_label(g->best, b, sizeof b);
    rep_grid_label(g->worst, w, sizeof w);
    if (rep_has_model(study))
      rep_grid_label(g->choice, m, sizeof m);
    const char *slash = strrchr(g->platform, '/');
    fprintf(out, "%6d %8s %11.3f %8s %11.3f %8s", g->p, b, g->best->t_par, w, g->worst->t_par, m);
    fprintf(out, platforms ? "  %s\n" : "\n", slash ? slash + 1 : g->platform);
  }
}

static void print_warnings(FILE *out, const stu_study_t *study)
{
  int first = 1;
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    if (!*stu_model_warning(point))
      continue;
    fprintf(out, "%s", first ? "\nWarnings\n" : "");
    first = 0;
    fprintf(out, "  p = %d%s", point->p, rep_sweeps_more_than_p(study) ? ", " : "");
    rep_print_params(out, study, point, 1);
    fprintf(out, ": %s\n", stu_model_warning(point));
  }
}

/* Whether a point before `i` has the same text(point) (its machine, or what its model lacks). */
static int said_before(const stu_study_t *study, size_t i, const char *(*text)(const stu_point_t *))
{
  for (size_t k = 0; k < i; k++)
    if (strcmp(text(&study->points[k]), text(&study->points[i])) == 0)
      return 1;
  return 0;
}

void rep_print_machines(FILE *out, const stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (*stu_model_machine(&study->points[i]) && !said_before(study, i, stu_model_machine))
      fprintf(out, "%s%s\n", i == 0 ? "\nMachine (rank 0's host; docs/machines.md): " : "  also: ",
              stu_model_machine(&study->points[i]));
  for (size_t i = 0; i < study->npoints; i++) /* what the models price messages with, once per distinct one */
    if (*stu_model_network(&study->points[i]) && !said_before(study, i, stu_model_network))
      fprintf(out, "Network model (SimGrid's, which the models follow; docs/machines.md): %s\n",
              stu_model_network(&study->points[i]));
  for (size_t i = 0; i < study->npoints; i++) /* Hockney and LogP, once per distinct route and p */
    if (*stu_model_p2p(&study->points[i]) && !said_before(study, i, stu_model_p2p))
      fprintf(out, "%s\n", stu_model_p2p(&study->points[i]));
}

/* One line per distinct reason why the model printed "-". */
static void print_missing(FILE *out, const stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (!isfinite(stu_model_time(&study->points[i])) && *stu_model_missing(&study->points[i]) &&
        !said_before(study, i, stu_model_missing))
      fprintf(out, "Model \"-\" where %s.\n", stu_model_missing(&study->points[i]));
}

/* ---------- the model's summary as a table (rep_model_schema): one row, the study's ---------- */

static rep_cell_t model_name(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(at->study->facts.model_name);
}

static rep_cell_t points(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num((double)stu_model_summary(at->study)->count);
}

/* The mean (i = 0) or the largest (1) |diff|, or the p of the largest (2): none without a point. */
static rep_cell_t summary_figure(const rep_at_t *at, int i)
{
  const stu_model_summary_t *s = stu_model_summary(at->study);
  if (!s->count)
    return rep_cell_num(NAN);
  return rep_cell_num(i == 0 ? s->mean_abs : i == 1 ? s->max_abs : s->worst->p);
}

static rep_cell_t mean_abs(const rep_at_t *at, int i)
{
  (void)i;
  return summary_figure(at, 0);
}

static rep_cell_t max_abs(const rep_at_t *at, int i)
{
  (void)i;
  return summary_figure(at, 1);
}

static rep_cell_t worst_p(const rep_at_t *at, int i)
{
  (void)i;
  return summary_figure(at, 2);
}

enum { SHOWN = REP_IN_JSON | REP_IN_HTML };

/* csv, json, head, unit, meaning, format, key, in, each, label, has, get */
static const rep_column_t columns[] = {
    {"model", "model", "model", "", "the skeleton's analytic model", REP_FMT_TEXT, 0, SHOWN, 0, NULL, NULL, model_name},
    {"points", "points", "points", "", "the points with a model time", REP_FMT_INT, 0, SHOWN, 0, NULL, NULL, points},
    {"mean_abs_diff", "mean_abs_diff", "mean |diff|", "", "the mean of their |model_diff|", REP_FMT_RATIO, 0, SHOWN, 0,
     NULL, NULL, mean_abs},
    {"max_abs_diff", "max_abs_diff", "max |diff|", "", "the largest |model_diff|", REP_FMT_RATIO, 0, SHOWN, 0, NULL,
     NULL, max_abs},
    {"worst_p", "worst_p", "at p", "", "the p of the largest", REP_FMT_INT, 0, SHOWN, 0, NULL, NULL, worst_p},
};

const rep_schema_t rep_model_schema = {"model", columns, sizeof columns / sizeof columns[0], NULL};

void rep_print_models(FILE *out, const stu_study_t *study)
{
  if (rep_has_model(study)) {
    const stu_model_summary_t *s = stu_model_summary(study);
    fprintf(out,
            "\nModel: %s.\ndiff = (T_model - T_par) / T_par. The model adds up communication and computation with "
            "no waiting: where it is low, look at the comm and idle columns (contention, pipeline idle time, "
            "load imbalance).\n",
            study->facts.model_name);
    if (s->count > 0) {
      const stu_point_t *worst = s->worst;
      fprintf(out, "Over %zu points: mean |diff| = %.2f%%, max |diff| = %.2f%% (p = %d%s", s->count, 100 * s->mean_abs,
              100 * s->max_abs, worst->p, rep_sweeps_more_than_p(study) ? ", " : "");
      rep_print_params(out, study, worst, 1);
      fprintf(out, ")\n");
    }
    print_missing(out, study);
  }
  if (has_grid(study))
    print_grid_choice(out, study);
  print_warnings(out, study);
  rep_print_machines(out, study);
}
