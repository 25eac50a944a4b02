/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The --html page's tables (rep_html_tables.h): the figures of the CSV's main, per-process, reference and bottleneck
 * tables and the model's summary (docs/results.md), times in their column's unit (rep_units.h) and other figures to 9
 * significant digits like the CSV, as <table> elements a reader can sort by eye and copy. */
#include "rep_html_tables.h"
#include "stu_lost_cycles.h"
#include "stu_model.h"

#include "rep_group.h"
#include "rep_messages.h"
#include "rep_points.h"
#include "rep_processes.h"
#include "rep_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rep_html_escaped(FILE *out, const char *text, size_t len)
{
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '&')
      fputs("&amp;", out);
    else if (text[i] == '<')
      fputs("&lt;", out);
    else if (text[i] == '>')
      fputs("&gt;", out);
    else
      fputc(text[i], out);
  }
}

static void cell_text(FILE *out, const char *text)
{
  fputs("<td>", out);
  rep_html_escaped(out, text, strlen(text));
  fputs("</td>", out);
}

/* A number cell to 9 significant digits; empty where there is none, "inf" for an infinite one. */
static void cell_number(FILE *out, double x)
{
  if (isnan(x))
    fputs("<td></td>", out);
  else if (isinf(x))
    fputs("<td class=\"n\">inf</td>", out);
  else
    fprintf(out, "<td class=\"n\">%.9g</td>", x);
}

/* A time cell in its column's unit: empty where there is none, as the CSV's. */
static void cell_time(FILE *out, double seconds, const rep_unit_t *unit)
{
  char text[64];
  if (isnan(seconds)) {
    fputs("<td></td>", out);
    return;
  }
  rep_unit_format(text, sizeof text, seconds, unit);
  fprintf(out, "<td class=\"n\">%s</td>", text);
}

static void head_text(FILE *out, const char *text)
{
  fputs("<th>", out);
  rep_html_escaped(out, text, strlen(text));
  fputs("</th>", out);
}

/* A time column's head, its name and unit: "T_par (ms)". */
static void head_time(FILE *out, const char *name, const rep_unit_t *unit)
{
  char head[96];
  snprintf(head, sizeof head, "%s (%s)", name, unit->name);
  head_text(out, head);
}

/* The header cells of the swept parameters and p. */
static void key_heads(FILE *out, const stu_study_t *study)
{
  const scn_scenario_t *s = study->scenario;
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].swept && s->params[j].role != SCN_ROLE_PROCESSES)
      head_text(out, s->params[j].name);
  head_text(out, "p");
}

static void key_cells(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  const scn_scenario_t *s = study->scenario;
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].swept && s->params[j].role != SCN_ROLE_PROCESSES)
      cell_text(out, point->values[j]);
  fprintf(out, "<td class=\"n\">%d</td>", point->p);
}

/* A schema's head cell: the column's head with its unit, its meaning as a tooltip, its CSV name in data-column (what a
 * reader's script and tests/check_formats.py pair it with). */
static void schema_head(FILE *out, const rep_units_t *u, size_t c)
{
  char head[96];
  rep_units_head(u, c, head, sizeof head);
  fputs("<th title=\"", out);
  rep_html_escaped(out, u->cols[c].decl->meaning, strlen(u->cols[c].decl->meaning));
  fprintf(out, "\" data-column=\"%s\">", u->cols[c].csv);
  rep_html_escaped(out, head, strlen(head));
  fputs("</th>", out);
}

/* A table of a view's schema (rep_schema.h) over the rows `at`: the swept parameters and p, then the columns the page
 * shows, times in their column's unit. */
static void schema_table(FILE *out, const rep_schema_t *schema, const rep_at_t *at, size_t count)
{
  rep_units_t *u = malloc(sizeof *u);
  if (!u)
    return;
  rep_units_make(u, schema, REP_IN_HTML, at, count);
  fputs("<table>\n<tr>", out);
  key_heads(out, at[0].study);
  for (size_t c = 0; c < u->n; c++)
    schema_head(out, u, c);
  fputs("</tr>\n", out);
  char text[96];
  for (size_t r = 0; r < count; r++) {
    fputs("<tr>", out);
    key_cells(out, at[r].study, at[r].point);
    for (size_t c = 0; c < u->n; c++) {
      rep_units_cell(u, c, &at[r], text, sizeof text);
      fputs(u->cols[c].decl->format == REP_FMT_TEXT ? "<td>" : "<td class=\"n\">", out);
      rep_html_escaped(out, text, strlen(text));
      fputs("</td>", out);
    }
    fputs("</tr>\n", out);
  }
  fputs("</table>\n", out);
  free(u);
}

void rep_html_points(FILE *out, const stu_study_t *study)
{
  rep_at_t *at = malloc(study->npoints * sizeof *at);
  for (size_t i = 0; at && i < study->npoints; i++)
    at[i] = (rep_at_t){study, &study->points[i], -1, NULL};
  if (at && study->npoints)
    schema_table(out, &rep_points_schema, at, study->npoints);
  free(at);
}

int rep_html_has_processes(const stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (stu_procs(&study->points[i]))
      return 1;
  return 0;
}

void rep_html_processes(FILE *out, const stu_study_t *study)
{
  const char *unsplit = study->facts.no_anomaly_split;
  size_t count;
  rep_at_t *rows = rep_processes_rows(study, NULL, &count);
  if (rows)
    schema_table(out, &rep_processes_schema, rows, count);
  free(rows);
  if (!unsplit)
    return;
  fputs("<p>The rank's anomaly is not split into true anomaly and imbalance: ", out);
  rep_html_escaped(out, unsplit, strlen(unsplit));
  fputs(".</p>\n", out);
}

void rep_html_messages(FILE *out, const stu_study_t *study)
{
  size_t count;
  rep_at_t *rows = rep_messages_rows(study, NULL, &count);
  if (rows)
    schema_table(out, &rep_messages_schema, rows, count);
  free(rows);
}

int rep_html_has_references(const stu_study_t *study)
{
  rep_ref_row_t row;
  for (size_t i = 0; i < study->npoints; i++)
    for (size_t r = 0; r < study->scenario->nrefs; r++)
      if (rep_reference_row(study, &study->points[i], &study->scenario->refs[r], &row))
        return 1;
  return 0;
}

/* The reference table's rows and their points, in the page's order (point, then reference); how many. */
static size_t reference_rows(const stu_study_t *study, rep_ref_row_t *rows, const stu_point_t **at)
{
  size_t n = 0;
  for (size_t i = 0; i < study->npoints; i++)
    for (size_t r = 0; r < study->scenario->nrefs; r++)
      if (rep_reference_row(study, &study->points[i], &study->scenario->refs[r], &rows[n]))
        at[n++] = &study->points[i];
  return n;
}

void rep_html_references(FILE *out, const stu_study_t *study)
{
  size_t max = study->npoints * study->scenario->nrefs;
  rep_ref_row_t *rows = malloc((max + 1) * sizeof *rows);
  const stu_point_t **at = malloc((max + 1) * sizeof *at);
  double *times = malloc(2 * (max + 1) * sizeof *times); /* the reference column, then simrun's */
  size_t n = rows && at && times ? reference_rows(study, rows, at) : 0;
  for (size_t k = 0; k < n; k++) {
    times[k] = rows[k].reference;
    times[n + k] = rows[k].simrun;
  }
  rep_unit_t reference = rep_unit_pick(times, n), simrun = rep_unit_pick(times + n, n);
  fputs("<table>\n<tr>", out);
  key_heads(out, study);
  head_text(out, "quantity");
  head_text(out, "source");
  head_time(out, "reference", &reference);
  head_time(out, "simrun", &simrun);
  head_text(out, "simrun difference");
  fputs("</tr>\n", out);
  for (size_t k = 0; k < n; k++) {
    fputs("<tr>", out);
    key_cells(out, study, at[k]);
    cell_text(out, rows[k].quantity);
    cell_text(out, rows[k].source);
    cell_time(out, rows[k].reference, &reference);
    cell_time(out, rows[k].simrun, &simrun);
    if (isnan(rows[k].difference))
      fputs("<td></td>", out);
    else
      fprintf(out, "<td class=\"n\">%+.1f%%</td>", 100 * rows[k].difference);
    fputs("</tr>\n", out);
  }
  fputs("</table>\n", out);
  free(rows);
  free(at);
  free(times);
}

int rep_html_has_bottlenecks(const stu_study_t *study)
{
  return stu_has_view(study, MET_VIEW_LOST_CYCLES) && !study->facts.no_breakdown;
}

/* Whether sub-component `s` has a column: the program declares it, or some point has time in it (stu_study_t.subs). */
static int sub_shown(const stu_study_t *study, int s)
{
  for (size_t i = 0; !(study->facts.subs & 1u << s) && i < study->npoints; i++)
    if (stu_breakdown(&study->points[i])->sub[s] != 0)
      return 1;
  return (study->facts.subs & 1u << s) != 0;
}

/* The bottleneck table's time columns: T_par, the components, the sub-components, idle. */
enum { TIME_TPAR, TIME_COMP, TIME_SUB = TIME_COMP + MET_COMP_COUNT, TIME_IDLE = TIME_SUB + MET_SUB_COUNT, TIME_COLS };

/* Time column k at `point`, its name into *name. */
static double bottleneck_time(const stu_point_t *point, int k, const char **name)
{
  const met_breakdown_t *b = stu_breakdown(point);
  if (k == TIME_TPAR) {
    *name = "T_par";
    return point->t_par;
  }
  if (k < TIME_SUB) {
    *name = met_component_name((met_component_t)(k - TIME_COMP));
    return b->component[k - TIME_COMP];
  }
  if (k < TIME_IDLE) {
    *name = met_sub_name((met_sub_t)(k - TIME_SUB));
    return b->sub[k - TIME_SUB];
  }
  *name = "idle";
  return b->idle;
}

static int bottleneck_shown(const stu_study_t *study, int k)
{
  return k < TIME_SUB || k >= TIME_IDLE || sub_shown(study, k - TIME_SUB);
}

static void bottleneck_heads(FILE *out, const stu_study_t *study, const rep_unit_t *units)
{
  char head[80];
  const char *name;
  fputs("<table>\n<tr>", out);
  key_heads(out, study);
  for (int k = 0; k < TIME_COLS; k++)
    if (bottleneck_shown(study, k) && study->npoints) {
      bottleneck_time(&study->points[0], k, &name);
      head_time(out, name, &units[k]);
    }
  for (int c = 0; c < MET_COMP_COUNT; c++) {
    snprintf(head, sizeof head, "B-ratio %s", met_component_name(c));
    head_text(out, head);
  }
  head_text(out, "communication/computation");
  head_text(out, "memory/processing");
  head_text(out, "utilisation U_p");
  fputs("</tr>\n", out);
}

/* Each time column's unit over the study's points. */
static void bottleneck_units(const stu_study_t *study, rep_unit_t units[TIME_COLS])
{
  const char *name;
  double *times = malloc((study->npoints + 1) * sizeof *times);
  for (int k = 0; k < TIME_COLS; k++) {
    for (size_t i = 0; times && i < study->npoints; i++)
      times[i] = bottleneck_time(&study->points[i], k, &name);
    units[k] = rep_unit_pick(times, times ? study->npoints : 0);
  }
  free(times);
}

void rep_html_bottlenecks(FILE *out, const stu_study_t *study)
{
  rep_unit_t units[TIME_COLS];
  const char *name;
  bottleneck_units(study, units);
  bottleneck_heads(out, study, units);
  for (size_t i = 0; i < study->npoints; i++) {
    const met_breakdown_t *b = stu_breakdown(&study->points[i]);
    fputs("<tr>", out);
    key_cells(out, study, &study->points[i]);
    for (int k = 0; k < TIME_COLS; k++)
      if (bottleneck_shown(study, k))
        cell_time(out, bottleneck_time(&study->points[i], k, &name), &units[k]);
    for (int c = 0; c < MET_COMP_COUNT; c++)
      cell_number(out, b->b_ratio[c]);
    cell_number(out, b->comm_comp_ratio);
    cell_number(out, b->mem_proc_ratio);
    cell_number(out, b->utilisation);
    fputs("</tr>\n", out);
  }
  fputs("</table>\n", out);
}

void rep_html_model(FILE *out, const stu_study_t *study)
{
  static const char *const heads[] = {"model", "points", "mean |diff|", "max |diff|", "at p"};
  const stu_model_summary_t *s = stu_model_summary(study);
  fputs("<table>\n<tr>", out);
  for (size_t k = 0; k < sizeof heads / sizeof heads[0]; k++)
    head_text(out, heads[k]);
  fputs("</tr>\n<tr>", out);
  cell_text(out, study->facts.model_name);
  fprintf(out, "<td class=\"n\">%zu</td>", s->count);
  cell_number(out, s->count ? s->mean_abs : NAN);
  cell_number(out, s->count ? s->max_abs : NAN);
  if (s->count)
    fprintf(out, "<td class=\"n\">%d</td>", s->worst->p);
  else
    fputs("<td></td>", out);
  fputs("</tr>\n</table>\n", out);
}
