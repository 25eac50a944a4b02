/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The --html page's tables (rep_html_tables.h): the figures of the CSV's main, per-process, reference and bottleneck
 * tables and the model's summary (docs/results.md), times in their column's unit (rep_units.h) and other figures as the
 * terminal shows them, each rounded figure whole in its tooltip as in the CSV, as <table> elements a reader can sort by
 * eye and copy. */
#include "rep_html_tables.h"
#include "stu_lost_cycles.h"
#include "stu_model.h"
#include "stu_replay.h"

#include "rep_group.h"
#include "rep_messages.h"
#include "rep_points.h"
#include "rep_processes.h"
#include "rep_references.h"
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

static void head_text(FILE *out, const char *text)
{
  fputs("<th>", out);
  rep_html_escaped(out, text, strlen(text));
  fputs("</th>", out);
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

void rep_html_schema_table(FILE *out, const rep_schema_t *schema, unsigned in, const rep_at_t *at, size_t count)
{
  rep_units_t *u = malloc(sizeof *u);
  if (!u)
    return;
  rep_units_make(u, schema, in, at, count);
  fputs("<table>\n<tr>", out);
  if (at[0].point) /* a study's own row (the model's summary) has no key */
    key_heads(out, at[0].study);
  for (size_t c = 0; c < u->n; c++)
    schema_head(out, u, c);
  fputs("</tr>\n", out);
  char text[1024]; /* a text cell whole: a model's name is 280 characters */
  for (size_t r = 0; r < count; r++) {
    fputs("<tr>", out);
    if (at[r].point)
      key_cells(out, at[r].study, at[r].point);
    for (size_t c = 0; c < u->n; c++) {
      char exact[32];
      if (rep_units_exact(u, c, &at[r], exact, sizeof exact))
        fprintf(out, "<td class=\"n\" title=\"%s\">", exact); /* a number's own text: nothing to escape */
      else
        fputs(u->cols[c].decl->format == REP_FMT_TEXT ? "<td>" : "<td class=\"n\">", out);
      rep_units_cell(u, c, &at[r], text, sizeof text);
      rep_html_escaped(out, text, strlen(text));
      fputs("</td>", out);
    }
    fputs("</tr>\n", out);
  }
  fputs("</table>\n", out);
  free(u);
}

/* The main table's columns that writer `in` shows, a row per point. */
static void points_table(FILE *out, const stu_study_t *study, unsigned in)
{
  rep_at_t *at = malloc(study->npoints * sizeof *at);
  for (size_t i = 0; at && i < study->npoints; i++)
    at[i] = (rep_at_t){study, &study->points[i], -1, NULL};
  if (at && study->npoints)
    rep_html_schema_table(out, &rep_points_schema, in, at, study->npoints);
  free(at);
}

/* A paragraph "LABEL: TEXT." where TEXT is not empty. */
static void labelled_paragraph(FILE *out, const char *label, const char *text)
{
  if (!*text)
    return;
  fprintf(out, "<p>%s: ", label);
  rep_html_escaped(out, text, strlen(text));
  fputs(".</p>\n", out);
}

/* The labelled paragraph of `line` (stu_replay_lines) of each point's replay that has one. */
static void replay_paragraphs(FILE *out, const stu_study_t *study, const stu_replay_line_t *line)
{
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_replay_t *r = stu_replay(&study->points[i]);
    if (r)
      labelled_paragraph(out, line->label, stu_replay_text(r, line));
  }
}

void rep_html_points(FILE *out, const stu_study_t *study)
{
  points_table(out, study, REP_IN_HTML);
  /* simrun analyse --replay-on: how far to trust each comparison, the lines its report gives under its table */
  for (int k = 0; k < STU_REPLAY_LINES; k++)
    replay_paragraphs(out, study, &stu_replay_lines[k]);
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
    rep_html_schema_table(out, &rep_processes_schema, REP_IN_HTML, rows, count);
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
    rep_html_schema_table(out, &rep_messages_schema, REP_IN_HTML, rows, count);
  free(rows);
}

int rep_html_has_references(const stu_study_t *study)
{
  rep_references_t refs;
  int has = rep_references_make(study, NULL, &refs) == 0 && refs.count > 0;
  rep_references_free(&refs);
  return has;
}

void rep_html_references(FILE *out, const stu_study_t *study)
{
  rep_references_t refs;
  if (rep_references_make(study, NULL, &refs) == 0 && refs.count > 0)
    rep_html_schema_table(out, &rep_references_schema, REP_IN_HTML, refs.at, refs.count);
  rep_references_free(&refs);
}

int rep_html_has_bottlenecks(const stu_study_t *study)
{
  return stu_has_view(study, MET_VIEW_LOST_CYCLES) && !study->facts.no_breakdown;
}

void rep_html_bottlenecks(FILE *out, const stu_study_t *study)
{
  points_table(out, study, REP_IN_BOTTLENECK);
}

void rep_html_model(FILE *out, const stu_study_t *study)
{
  const rep_at_t at = {study, NULL, -1, NULL};
  rep_html_schema_table(out, &rep_model_schema, REP_IN_HTML, &at, 1);
}
