/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The terminal report: per group of points (the swept parameters other than p), a row per p with T_par, speedup,
 * efficiency, the overhead ratios of seed 000 eq. 1.13 and granularity (eq. 1.16); then the per-process table, and a
 * measured run's phases (seed 000 §1.2). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "rep_carnival.h"
#include "rep_factors.h"
#include "rep_group.h"
#include "rep_phases.h"
#include "rep_points.h"
#include "rep_processes.h"
#include "rep_report.h"
#include "rep_summary.h"
#include "rep_wait.h"
#include "stu_lost_cycles.h"
#include "rep_messages.h"
#include "stu_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the recorder kept: sums on the fly (memory independent of a run's length), and the timeline of the points
 * that keep theirs (--per-process P) only. A measured study (no skeleton) says which runs it read as sums in simrun
 * analyse's own lines, and analyse has no --per-process: nothing here. */
static void print_recording(FILE *out, const stu_study_t *study)
{
  if (!study->facts.skeleton)
    return;
  size_t kept = 0;
  int kept_p = 0;
  for (size_t i = 0; i < study->npoints; i++)
    if (study->points[i].pixels) {
      kept++;
      kept_p = study->points[i].p;
    }
  if (kept == study->npoints)
    return;
  fprintf(out, "Recorded: per-rank sums as the run goes (by category, phase and compute part; messages by size and "
               "distance); ");
  if (kept == 0)
    fprintf(out, "no timeline (--per-process P keeps the one at p = P).\n");
  else
    fprintf(out, "the timeline kept at p = %d only.\n", kept_p);
}

/* " (n = 256, ...)": the parameters every point shares, or nothing when none is fixed. */
static void print_fixed_params(FILE *out, const stu_study_t *study)
{
  char *params = NULL;
  size_t len = 0;
  FILE *line = open_memstream(&params, &len);
  if (!line)
    return;
  rep_print_params(line, study, &study->points[0], 0);
  if (fclose(line) == 0 && len > 0)
    fprintf(out, " (%s)", params);
  free(params);
}

static void print_title(FILE *out, const stu_study_t *study)
{
  const scn_scenario_t *s = study->scenario;
  const scn_param_t *swept = scn_role_param(s, SCN_ROLE_PLATFORM);
  /* the machine the points run on: a platform parameter's (--set platform=...) rather than <platform> */
  const char *platform = study->npoints ? stu_platform(study, &study->points[0]) : s->platform;
  const char *base = strrchr(platform, '/');
  fprintf(out, "%s: %s", s->name, s->skeleton);
  print_fixed_params(out, study);
  if (swept && swept->nvalues > 1)
    fprintf(out, " on the platforms its platform parameter sweeps\n");
  else
    fprintf(out, " on %s\n", base ? base + 1 : platform);
  if (s->description)
    fprintf(out, "%s\n", s->description);
  print_recording(out, study);
  if (stu_has_view(study, MET_VIEW_LOST_CYCLES))
    fprintf(out, "Overhead ratios Ovh_j = T_ovh^j / T_seq (Lemeire eq. 1.13): speedup = p / (1 + sum Ovh_j); "
                 "granularity = 1 / Ovh_comm.\n");
}

static void print_group(FILE *out, const stu_study_t *study, size_t first, int width)
{
  const stu_point_t *lead = &study->points[first];
  char *head = NULL;
  size_t len = 0;
  FILE *line = open_memstream(&head, &len);
  if (!line)
    return;
  int named = rep_print_params(line, study, lead, 1);
  char t_seq[64];
  rep_unit_seconds(t_seq, sizeof t_seq, stu_eppa(lead)->t_seq);
  fprintf(line, "%sT_seq = %s%s%s", named ? ", " : "", t_seq, *lead->t_seq_source ? ": " : "", lead->t_seq_source);
  fclose(line);
  fputc('\n', out);
  rep_wrap(out, head, width, 2);
  free(head);
  rep_at_t rows[study->npoints];
  size_t count = 0;
  for (size_t i = first; i < study->npoints; i++)
    if (rep_same_group(study, lead, &study->points[i]))
      rows[count++] = (rep_at_t){study, &study->points[i], -1, NULL};
  rep_schema_print(out, &rep_points_schema, rows, count, width);
}

/* The per-process table (rep_processes.h) of one point, its times in their unit; then what its anomaly's parts are
 * (met_eppa_proc_t): they add up to the anomaly column. */
static void print_processes(FILE *out, const stu_study_t *study, const stu_point_t *point, int width)
{
  fprintf(out, "\nPer process, p = %d, ", point->p);
  if (!rep_print_params(out, study, point, 1))
    fprintf(out, "%s", study->scenario->name);
  fprintf(out, " (overhead ratios T_ovh^{i,j} / T_seq; anomaly_i = work_i - T_seq / p)\n");
  size_t count;
  rep_at_t *rows = rep_processes_rows(study, point, &count);
  rep_schema_print(out, &rep_processes_schema, rows, count, width);
  free(rows);
  if (study->facts.no_anomaly_split)
    fprintf(out, "  (its anomaly column is not split into true anomaly and imbalance: %s)\n",
            study->facts.no_anomaly_split);
  else
    fprintf(out,
            "  The anomaly in parts (ratios to T_seq, adding up to it): %strue anomaly = work_i - the cost of the "
            "same operations on the rank's host as the sequential run does them; imbalance = their cost in the "
            "sequential run - T_seq / p\n",
            stu_hosts_differ(study) ? "host speed = the same operations on the rank's host - on rank 0's, where T_seq "
                                      "runs; "
                                    : "");
}

/* The message view (rep_messages.h): transfers and waits by size and distance, as the paper's Table 2 model is
 * written. */
static void print_messages(FILE *out, const stu_study_t *study, const stu_point_t *point, int width)
{
  fprintf(out, "\nMessage times, p = %d%s", point->p, study->npoints > 1 ? ", " : "");
  if (study->npoints > 1)
    rep_print_params(out, study, point, 1);
  fprintf(out,
          " (%zu messages, T_par = %.6f s; transfer: from the send's start to the receive's end; wait: the "
          "receiver's, in the call that completed it)\n",
          point->messages, point->t_par);
  size_t count;
  rep_at_t *rows = rep_messages_rows(study, point, &count);
  rep_schema_print(out, &rep_messages_schema, rows, count, width);
  free(rows);
}

/* The lost-cycle view: the summary, a table per group, the bottleneck verdicts; with --full the study summary table,
 * the models, the bottleneck tables and the processes. */
static void print_lost_cycles(FILE *out, const stu_study_t *study, const rep_print_options_t *options)
{
  rep_summary_t summary;
  if (rep_summary_make(study, &summary) == 0)
    rep_summary_print(out, study, &summary, options->width);
  rep_summary_free(&summary);
  for (size_t i = 0; i < study->npoints; i++)
    if (rep_opens_group(study, i))
      print_group(out, study, i, options->width);
  rep_print_scaled(out, study);
  rep_factors_print(out, study, options->width); /* the comparison view of every swept factor (issue 45 item 3) */
  if (options->full) {
    rep_print_study(out, study, options->width);
    rep_print_models(out, study);
  }
  rep_print_bottlenecks(out, study, options->width, options->full);
  for (size_t i = 0; options->full && i < study->npoints; i++)
    if (stu_procs(&study->points[i]))
      print_processes(out, study, &study->points[i], options->width);
}

static void print_views(FILE *out, const stu_study_t *study, const rep_print_options_t *options)
{
  print_title(out, study);
  if (stu_has_view(study, MET_VIEW_CAUSE_EFFECT)) {
    rep_carnival_print(out, study, options->width);
    return;
  }
  for (size_t i = 0; stu_has_view(study, MET_VIEW_MESSAGES) && i < study->npoints; i++)
    print_messages(out, study, &study->points[i], options->width);
  if (stu_has_view(study, MET_VIEW_LOST_CYCLES))
    print_lost_cycles(out, study, options);
  else if (*study->points[0].t_seq_source) /* a skeleton's lost-cycle view that could not be */
    fprintf(out, "\nNo lost-cycle view: %s.\n", study->points[0].t_seq_source);
  if (options->full)
    rep_wait_print(out, study, options->width);
  if (options->full && !stu_has_view(study, MET_VIEW_LOST_CYCLES))
    rep_print_machines(out, study); /* the lost-cycle view prints them with the models */
  if (options->full)
    rep_phases_print(out, study, options->width);
}

/* The report is drawn whole, then every line still wider than the width (a note, a machine's description) is
 * wrapped at word boundaries: the tables have split themselves into column groups by then. */
void rep_print_with(FILE *out, const stu_study_t *study, const rep_print_options_t *options)
{
  char *text = NULL;
  size_t len = 0;
  FILE *buf = open_memstream(&text, &len);
  if (!buf) {
    print_views(out, study, options);
    return;
  }
  print_views(buf, study, options);
  fclose(buf);
  rep_fit_lines(out, text, options->width);
  free(text);
}

void rep_print(FILE *out, const stu_study_t *study)
{
  const rep_print_options_t full = {.width = REP_WIDTH_MAX, .full = 1};
  rep_print_with(out, study, &full);
}
