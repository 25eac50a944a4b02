/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The summary a lost-cycle study's report opens with (rep_summary.h): its figures drawn from the study's views, then
 * printed in at most 20 lines within the terminal's width. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "rep_summary.h"
#include "bas_error.h"

#include "rep_layout.h"
#include "rep_picture.h"
#include "rep_units.h"
#include "stu_model.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The ranges of p printed at most; the study summary table (--full) has every p. */
#define MAX_RANGES 6
/* The values of a swept parameter named at most (the first ones, "...", the last). */
#define MAX_VALUES 8
/* The summary's lines at most, the blank line before it aside: one screen. */
#define MAX_LINES 20

const char *rep_class_name(rep_class_t c)
{
  static const char *const names[] = {"work", "ctrl", "comm", "idle"};
  return names[c];
}

void rep_summary_extra(const stu_point_t *best, const stu_point_t *second, double extra[REP_CLASSES])
{
  static const met_overhead_t classes[] = {MET_OVH_CTRL, MET_OVH_COMM, MET_OVH_IDLE};
  extra[REP_CLASS_WORK] = (stu_eppa(second)->work - stu_eppa(best)->work) / best->p;
  for (int c = 0; c < 3; c++)
    extra[c + 1] = (stu_eppa(second)->ovh_time[classes[c]] - stu_eppa(best)->ovh_time[classes[c]]) / best->p;
  double scale = fabs(second->t_par) > fabs(best->t_par) ? fabs(second->t_par) : fabs(best->t_par);
  for (int c = 0; c < REP_CLASSES; c++) /* the sums' rounding residues are no difference */
    extra[c] = fabs(extra[c]) < REP_NOISE_FLOOR * scale ? 0.0 : extra[c];
}

static double margin(const stu_ranking_t *r)
{
  return r->best->t_par > 0 ? (r->second->t_par - r->best->t_par) / r->best->t_par : 0;
}

static int by_p(const void *a, const void *b)
{
  const stu_ranking_t *x = a;
  const stu_ranking_t *y = b;
  if (x->best->p != y->best->p)
    return (x->best->p > y->best->p) - (x->best->p < y->best->p);
  return (x->best > y->best) - (x->best < y->best); /* at one p, in the study's order (a scaled sweep's n) */
}

static int same_config(const stu_study_t *study, const stu_point_t *a, const stu_point_t *b)
{
  char x[256];
  char y[256];
  rep_point_label(study, a, x, sizeof x);
  rep_point_label(study, b, y, sizeof y);
  return strcmp(x, y) == 0;
}

/* The rankings with a runner-up, sorted by p, merged into ranges of the same best configuration. */
static int make_ranges(const stu_study_t *study, rep_summary_t *s)
{
  size_t count = 0;
  const stu_ranking_t *rankings = stu_rankings(study, &count);
  stu_ranking_t *sorted = malloc((count ? count : 1) * sizeof *sorted);
  s->ranges = malloc((count ? count : 1) * sizeof *s->ranges);
  if (!sorted || !s->ranges) {
    free(sorted);
    return -1;
  }
  size_t n = 0;
  for (size_t k = 0; k < count; k++)
    if (rankings[k].second)
      sorted[n++] = rankings[k];
  qsort(sorted, n, sizeof *sorted, by_p);
  for (size_t k = 0; k < n; k++) {
    rep_best_range_t *last = s->nranges ? &s->ranges[s->nranges - 1] : NULL;
    double m = margin(&sorted[k]);
    if (last && same_config(study, last->last, sorted[k].best)) {
      last->last = sorted[k].best;
      last->runner_up = sorted[k].second;
      last->margin_min = m < last->margin_min ? m : last->margin_min;
      last->margin_max = m > last->margin_max ? m : last->margin_max;
    } else
      s->ranges[s->nranges++] = (rep_best_range_t){sorted[k].best, sorted[k].best, sorted[k].second, m, m};
  }
  /* what separates the best from the rest: at the largest p with a runner-up */
  if (n > 0) {
    s->sep_best = sorted[n - 1].best;
    s->sep_second = sorted[n - 1].second;
  }
  free(sorted);
  return 0;
}

static void separate(rep_summary_t *s)
{
  if (!s->sep_best)
    return;
  rep_summary_extra(s->sep_best, s->sep_second, s->sep_class);
  s->sep_most = REP_CLASS_WORK;
  for (int c = 1; c < REP_CLASSES; c++)
    s->sep_most = s->sep_class[c] > s->sep_class[s->sep_most] ? (rep_class_t)c : s->sep_most;
  const met_breakdown_t *a = stu_breakdown(s->sep_best);
  const met_breakdown_t *b = stu_breakdown(s->sep_second);
  for (int k = 0; k < MET_SUB_COUNT; k++)
    if (b->sub[k] - a->sub[k] > s->sep_sub_seconds) {
      s->sep_sub = (met_sub_t)k;
      s->sep_sub_seconds = b->sub[k] - a->sub[k];
    }
}

static void p_range_and_speedup(const stu_study_t *study, rep_summary_t *s)
{
  s->p_min = s->p_max = study->npoints ? study->points[0].p : 0;
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *pt = &study->points[i];
    s->p_min = pt->p < s->p_min ? pt->p : s->p_min;
    s->p_max = pt->p > s->p_max ? pt->p : s->p_max;
    if (!s->top_speedup || stu_eppa(pt)->speedup > stu_eppa(s->top_speedup)->speedup)
      s->top_speedup = pt;
  }
  const scn_param_t *p = scn_role_param(study->scenario, SCN_ROLE_PROCESSES);
  s->np = p ? p->nvalues : 1;
}

static void verdict(const stu_study_t *study, rep_summary_t *s)
{
  const stu_bottleneck_t *b = s->top_speedup ? stu_bottleneck(study, s->top_speedup) : NULL;
  if (!b || study->facts.no_breakdown)
    return;
  s->has_verdict = 1;
  s->verdict = *b;
  s->verdict_ratio = stu_breakdown(s->top_speedup)->b_ratio[b->dominant];
}

static void agree(rep_agreement_t *a, const rep_ref_row_t *row, const stu_point_t *point)
{
  double d = fabs(row->difference);
  a->mean_abs = (a->count ? a->mean_abs * (double)a->count : 0) + d;
  if (a->count == 0 || d > a->max_abs) {
    a->max_abs = d;
    a->worst = *row;
    a->worst_point = point;
  }
  a->count++;
  a->mean_abs /= (double)a->count;
}

static void references(const stu_study_t *study, rep_summary_t *s)
{
  s->refs_t_par.mean_abs = s->refs_t_par.max_abs = s->refs_parts.mean_abs = s->refs_parts.max_abs = NAN;
  for (size_t r = 0; r < study->scenario->nrefs && !study->facts.no_breakdown; r++)
    for (size_t i = 0; i < study->npoints; i++) {
      rep_ref_row_t row;
      if (rep_reference_row(study, &study->points[i], &study->scenario->refs[r], &row) && !isnan(row.difference))
        agree(strcmp(row.quantity, "t_par") == 0 ? &s->refs_t_par : &s->refs_parts, &row, &study->points[i]);
    }
}

int rep_summary_make(const stu_study_t *study, rep_summary_t *summary)
{
  *summary = (rep_summary_t){.sep_sub = MET_SUB_CPU, .verdict_ratio = NAN};
  if (!stu_has_view(study, MET_VIEW_LOST_CYCLES) || study->npoints == 0)
    return BAS_EINVAL;
  p_range_and_speedup(study, summary);
  if (rep_sweeps_more_than_p(study) && make_ranges(study, summary) != 0)
    return BAS_ENOMEM;
  separate(summary);
  verdict(study, summary);
  references(study, summary);
  const stu_model_summary_t *m = stu_model_summary(study);
  if (study->facts.has_model && m->count > 0) {
    summary->model_count = m->count;
    summary->model_mean_abs = m->mean_abs;
    summary->model_max_abs = m->max_abs;
    summary->model_worst = m->worst;
  }
  return 0;
}

void rep_summary_free(rep_summary_t *summary)
{
  free(summary->ranges);
  summary->ranges = NULL;
  summary->nranges = 0;
}

/* One line of the summary, wrapped within `width` (continuations indented by 4). */
static void say(FILE *out, int width, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(FILE *out, int width, const char *fmt, ...)
{
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  rep_wrap(out, line, width, 4);
}

static void print_swept(FILE *out, const stu_study_t *study, const rep_summary_t *s, int width)
{
  char line[1024] = "Swept:";
  const scn_scenario_t *sc = study->scenario;
  for (size_t j = 0; j < sc->nparams; j++) {
    const scn_param_t *param = &sc->params[j];
    if (param->role == SCN_ROLE_PROCESSES || param->nvalues < 2)
      continue;
    size_t used = strlen(line);
    snprintf(line + used, sizeof line - used, " %s =", param->name);
    for (size_t v = 0; v < param->nvalues; v++) {
      if (param->nvalues > MAX_VALUES && v == MAX_VALUES - 2) { /* the first values, "...", the last */
        used = strlen(line);
        snprintf(line + used, sizeof line - used, " ...,");
        v = param->nvalues - 1;
      }
      int shown;
      const char *name = rep_value_shown(param->values[v], &shown);
      used = strlen(line);
      snprintf(line + used, sizeof line - used, " %.*s%s", shown, name, v + 1 < param->nvalues ? "," : ";");
    }
  }
  if (s->p_min == s->p_max) /* one p (a measured run, a study of other factors) */
    say(out, width, "%s p = %d", line, s->p_min);
  else
    say(out, width, "%s p = %d to %d (%zu values)", line, s->p_min, s->p_max, s->np);
}

static void print_range(FILE *out, const stu_study_t *study, const rep_best_range_t *r, int width)
{
  char best[256];
  char second[256];
  char ps[64];
  rep_point_label(study, r->first, best, sizeof best);
  rep_point_label(study, r->runner_up, second, sizeof second);
  int n = snprintf(ps, sizeof ps, "p = %d", r->first->p);
  if (r->last != r->first)
    snprintf(ps + n, sizeof ps - (size_t)n, " to %d", r->last->p);
  char by[64];
  if (r->margin_min == r->margin_max)
    snprintf(by, sizeof by, "%.2f%%", 100 * r->margin_max);
  else
    snprintf(by, sizeof by, "%.2f%% to %.2f%%", 100 * r->margin_min, 100 * r->margin_max);
  char within[32];
  snprintf(within, sizeof within, " (within %.0f%%)", 100 * REP_SUMMARY_WITHIN);
  if (r->margin_max <= REP_SUMMARY_TIE)
    say(out, width, "  %s: %s ties with %s", ps, best, second);
  else
    say(out, width, "  %s: %s, by %s over %s%s", ps, best, by, second,
        r->margin_min < REP_SUMMARY_WITHIN ? within : "");
}

void rep_summary_held(const stu_study_t *study, char *buf, size_t len)
{
  const scn_scenario_t *sc = study->scenario;
  buf[0] = '\0';
  for (size_t j = 0; j < sc->nparams; j++)
    if (scn_param_sets_problem(sc, j) && sc->params[j].nvalues > 1)
      rep_append(buf, len, "%s%s", buf[0] ? ", " : "", sc->params[j].name);
}

static void print_ranges(FILE *out, const stu_study_t *study, const rep_summary_t *s, size_t max_ranges, int width)
{
  char held[128];
  rep_summary_held(study, held, sizeof held);
  if (s->nranges == 0) {
    if (held[0]) /* a worksize or scaled sweep of p alone: its points at one p differ only in the problem's size */
      say(out, width, "Best per p: none compared (at each p the points differ in %s alone: different problems)", held);
    return;
  }
  say(out, width, "Best per p (lowest T_par%s%s), its lead over the runner-up, \"within %.0f%%\" below %.0f%%:",
      held[0] ? " among equal " : "", held, 100 * REP_SUMMARY_WITHIN, 100 * REP_SUMMARY_WITHIN);
  size_t shown = s->nranges > max_ranges ? max_ranges - 1 : s->nranges;
  for (size_t k = 0; k < shown; k++)
    print_range(out, study, &s->ranges[k], width);
  if (shown < s->nranges)
    say(out, width, "  and %zu more ranges of p: the study summary table (--full)", s->nranges - shown);
}

static void print_speedup(FILE *out, const stu_study_t *study, const rep_summary_t *s, int width)
{
  char label[256];
  char t_par[64];
  rep_point_label(study, s->top_speedup, label, sizeof label);
  rep_unit_seconds(t_par, sizeof t_par, s->top_speedup->t_par);
  double speedup = stu_eppa(s->top_speedup)->speedup; /* 3 significant digits: 1.30, 12.2, 128 */
  say(out, width, "Best speedup: %.*f at p = %d%s%s (T_par = %s, efficiency %.1f%%)",
      speedup >= 100  ? 0
      : speedup >= 10 ? 1
                      : 2,
      speedup, s->top_speedup->p, *label ? ", " : "", label, t_par, 100 * stu_eppa(s->top_speedup)->efficiency);
}

/* What separates the best from the runner-up at the largest p that has one: which configuration trails which, by how
 * much, and the class (then the component) whose per-process mean grows most; named so that a reader does not take
 * the per-process figure for the gap itself (a mean over processes may exceed the gap in T_par, a maximum). */
static void print_separation(FILE *out, const stu_study_t *study, const rep_summary_t *s, int width)
{
  if (!s->sep_best)
    return;
  char gap[64];
  char cls[64];
  rep_unit_seconds(gap, sizeof gap, s->sep_second->t_par - s->sep_best->t_par);
  rep_unit_seconds(cls, sizeof cls, s->sep_class[s->sep_most]);
  if (s->sep_class[s->sep_most] <= 0) {
    say(out, width, "At p = %d the best and the runner-up tie (%s apart)", s->sep_best->p, gap);
    return;
  }
  char sub[64] = "";
  if (s->sep_sub_seconds > 0) {
    char secs[48];
    rep_unit_seconds(secs, sizeof secs, s->sep_sub_seconds);
    snprintf(sub, sizeof sub, "; component: %s +%s", met_sub_name(s->sep_sub), secs);
  }
  char best[256];
  char second[256];
  rep_point_label(study, s->sep_best, best, sizeof best);
  rep_point_label(study, s->sep_second, second, sizeof second);
  say(out, width, "At p = %d the runner-up (%s) trails the best (%s) by %s: per process, %s +%s on average%s",
      s->sep_best->p, second, best, gap, rep_class_name(s->sep_most), cls, sub);
}

/* The bottleneck verdict at the best speedup's p; a run that never speeds up (its best speedup at most 1, as on a
 * machine whose communication costs more than it saves) has no such p worth one, and the line says so instead. */
static void print_verdict(FILE *out, const rep_summary_t *s, int width)
{
  if (s->top_speedup && stu_eppa(s->top_speedup)->speedup <= 1) {
    say(out, width, "Bottleneck: none at a best p, the run never speeds up (speedup at most %.2f)",
        stu_eppa(s->top_speedup)->speedup);
    return;
  }
  if (!s->has_verdict)
    return;
  char ratio[48] = "undefined: no other component";
  if (!isnan(s->verdict_ratio))
    snprintf(ratio, sizeof ratio, "%.2f", s->verdict_ratio);
  say(out, width, "Bottleneck at p = %d: %s %s (B-ratio %s), mostly %s", s->top_speedup->p,
      met_component_name(s->verdict.dominant),
      s->verdict.is_bottleneck ? "is a bottleneck" : "dominates, no bottleneck", ratio, met_sub_name(s->verdict.cause));
}

static void print_references(FILE *out, const char *what, const rep_agreement_t *a, int width)
{
  if (a->count > 0)
    say(out, width, "%s (%zu figures): mean |error| %.1f%%, max %.1f%% (%s at p = %d, %s)", what, a->count,
        100 * a->mean_abs, 100 * a->max_abs, a->worst.quantity, a->worst_point->p, a->worst.source);
}

static void print_agreement(FILE *out, const stu_study_t *study, const rep_summary_t *s, int width)
{
  print_references(out, "Reference T_par", &s->refs_t_par, width);
  print_references(out, "Reference Table 5 parts", &s->refs_parts, width);
  if (s->model_count > 0) {
    char label[256];
    rep_point_label(study, s->model_worst, label, sizeof label);
    say(out, width, "Analytic model (%zu points): mean |diff| %.1f%%, max %.1f%% (p = %d%s%s)", s->model_count,
        100 * s->model_mean_abs, 100 * s->model_max_abs, s->model_worst->p, *label ? ", " : "", label);
  }
}

static void print_all(FILE *out, const stu_study_t *study, const rep_summary_t *summary, size_t max_ranges, int width)
{
  say(out, width, "Summary (--full adds every table, fit and note; --csv FILE writes every figure)");
  print_swept(out, study, summary, width);
  print_ranges(out, study, summary, max_ranges, width);
  print_speedup(out, study, summary, width);
  print_separation(out, study, summary, width);
  print_verdict(out, summary, width);
  print_agreement(out, study, summary, width);
}

static size_t count_lines(const char *text)
{
  size_t n = 0;
  for (; *text; text++)
    n += *text == '\n';
  return n;
}

/* Drawn with fewer ranges of p (the rest named by a line) until its lines are MAX_LINES at most. */
void rep_summary_print(FILE *out, const stu_study_t *study, const rep_summary_t *summary, int width)
{
  char *text = NULL;
  size_t len = 0;
  for (size_t max_ranges = MAX_RANGES; max_ranges >= 2; max_ranges--) {
    free(text);
    text = NULL;
    FILE *buf = open_memstream(&text, &len);
    if (!buf)
      return;
    print_all(buf, study, summary, max_ranges, width);
    fclose(buf);
    if (count_lines(text) <= MAX_LINES)
      break;
  }
  fprintf(out, "\n%s", text);
  free(text);
}
