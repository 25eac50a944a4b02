/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The bottleneck report (seed 001 §3.5, §4.3): per group of points, the run broken into components and
 * sub-components in the layout of the paper's Table 5, with the scenario's reference figures beside simrun's, the
 * bottleneck ratios, and the verdict (the dominant component and its cause per p, where ratios cross 1). */
#include "rep_group.h"
#include "rep_points.h"
#include "rep_report.h"
#include "stu_lost_cycles.h"
#include "stu_series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ROWS = 64 }; /* the bottleneck view's columns: 36 today */

/* The paper's names of the table's rows (seed 001 Table 5), by the main table's CSV column (rep_points.c declares the
 * rows, in the paper's order, and their figures); a row not named here shows its head. */
static const struct label {
  const char *column;
  const char *text;
} labels[] = {{"t_par_s", "T_par (Txp)"},
              {"processing_s", "processing (Tproc)"},
              {"memory_s", "memory (Tmem)"},
              {"io_s", "io (Ti/o)"},
              {"communication_s", "communication (Tcom)"},
              {"fpu_s", "  fpu (Tfpu)"},
              {"cpu_s", "  cpu (Tcpu)"},
              {"extmem_s", "  extmem (Texm)"},
              {"intmem_s", "  intmem (Tinm)"},
              {"input_s", "  input (Tinp)"},
              {"output_s", "  output (Tout)"},
              {"link_init_s", "  link-init (Tcni)"},
              {"distribution_s", "  distribution (Tdist)"},
              {"broadcast_s", "  broadcast (Tbroad)"},
              {"collection_s", "  collection (Tcol)"},
              {"other_comm_s", "  other-comm"},
              {"idle_s", "idle (in no component)"},
              {"utilisation", "utilisation U_p (eq. 8)"}};

static const char *row_label(const rep_col_t *col)
{
  for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++)
    if (strcmp(labels[k].column, col->csv) == 0)
      return labels[k].text;
  return col->head;
}

/* Whether a <reference quantity> ("t_par", "link-init") is the figure of the column ("t_par_s", "link_init_s"). */
static int refers_to(const char *quantity, const rep_col_t *col)
{
  char name[64];
  snprintf(name, sizeof name, "%s_s", quantity);
  for (char *c = name; *c; c++)
    *c = *c == '-' ? '_' : *c;
  return strcmp(name, col->csv) == 0;
}

/* A row of the table: its label and one cell per p, "-" for NAN; times in the table's unit (unit NULL: `format`). */
static void add_cells(rep_cols_t *cols, const char *label, const double *cells, size_t count, const rep_unit_t *unit,
                      const char *format)
{
  rep_cols_add(cols, "<  %s", label);
  for (size_t i = 0; i < count; i++) {
    char cell[64];
    if (unit)
      rep_unit_format(cell, sizeof cell, cells[i], unit);
    else if (isnan(cells[i]))
      snprintf(cell, sizeof cell, "-");
    else
      snprintf(cell, sizeof cell, format, cells[i]);
    rep_cols_add(cols, "%s", cell);
  }
}

/* A reference row under simrun's, then the relative difference of simrun from it. */
static void add_reference(rep_cols_t *cols, const scn_reference_t *ref, const double *simrun,
                          const stu_point_t **points, size_t count, const rep_unit_t *unit)
{
  double theirs[count];
  double diff[count];
  for (size_t i = 0; i < count; i++) {
    theirs[i] = rep_reference_at(ref, points[i]->p);
    diff[i] = theirs[i] != 0 ? 100 * (simrun[i] - theirs[i]) / theirs[i] : NAN;
  }
  char label[64];
  snprintf(label, sizeof label, "  %.26s", ref->source);
  add_cells(cols, label, theirs, count, unit, NULL);
  add_cells(cols, "    simrun difference", diff, count, NULL, "%+.1f%%");
}

/* Whether a time row is one the study has: a component, a sub-component the program declares (stu_facts_t.subs), or
 * one that some point of the group has time in (other-comm, output: what no phase claims). */
static int row_shown(const stu_study_t *study, const rep_col_t *col, const double *mine, size_t count)
{
  for (int s = 0; s < MET_SUB_COUNT; s++)
    if (refers_to(met_sub_name(s), col) && !(study->facts.subs & 1u << s)) {
      for (size_t i = 0; i < count; i++)
        if (mine[i] != 0)
          return 1;
      return 0;
    }
  return 1;
}

/* The row of a column of the bottleneck view: a time in the table's unit, with the scenario's reference figures for
 * it under it, or a ratio. */
static void add_row(rep_cols_t *cols, const stu_study_t *study, const rep_col_t *col, const rep_at_t *at,
                    const stu_point_t **points, size_t count, const rep_unit_t *unit)
{
  double mine[count];
  for (size_t i = 0; i < count; i++)
    mine[i] = rep_col_get(col, &at[i]).num;
  if (col->decl->format != REP_FMT_TIME) {
    add_cells(cols, row_label(col), mine, count, NULL, "%.3f");
    return;
  }
  if (!row_shown(study, col, mine, count))
    return;
  add_cells(cols, row_label(col), mine, count, unit, NULL);
  for (size_t r = 0; r < study->scenario->nrefs; r++) {
    const scn_reference_t *ref = &study->scenario->refs[r];
    if (refers_to(ref->quantity, col) && rep_reference_applies(study, ref, points[0]))
      add_reference(cols, ref, mine, points, count, unit);
  }
}

/* "    p = 4" or "    p = 4 to 16": the p of a run of consecutive points. */
static void print_p_range(FILE *out, const stu_point_t *first, const stu_point_t *last)
{
  fprintf(out, "    p = %d", first->p);
  if (last != first)
    fprintf(out, " to %d", last->p);
}

/* One verdict line per run of consecutive p with the same dominant component, flag and cause. */
static void print_verdict(FILE *out, const met_verdict_t *v, const stu_point_t **points)
{
  fprintf(out, "  Verdict (the largest B-ratio names the dominant component; above 1 it is a bottleneck):\n");
  for (size_t i = 0; i < v->npoints;) {
    size_t j = i;
    while (j + 1 < v->npoints && v->dominant[j + 1] == v->dominant[i] &&
           v->is_bottleneck[j + 1] == v->is_bottleneck[i] && v->cause[j + 1] == v->cause[i])
      j++;
    double ratio = stu_breakdown(points[j])->b_ratio[v->dominant[i]];
    char shown[64];
    snprintf(shown, sizeof shown, isnan(ratio) ? "undefined: no other component" : "%.2f", ratio);
    print_p_range(out, points[i], points[j]);
    fprintf(out, ": %s %s (B-ratio %s at p = %d), mostly %s\n", met_component_name(v->dominant[i]),
            v->is_bottleneck[i] ? "is a bottleneck" : "dominates, no bottleneck", shown, points[j]->p,
            met_sub_name(v->cause[i]));
    i = j + 1;
  }
  for (size_t c = 0; c < v->ncrossings; c++) /* between the two swept p the table shows, then where, estimated */
    fprintf(out, "    %s %s 1 between p = %d and %d (at about p = %.3g, interpolated in log2 p)\n",
            v->crossings[c].ratio, v->crossings[c].rising ? "rises above" : "falls below", v->crossings[c].p_from,
            v->crossings[c].p_to, v->crossings[c].p);
}

/* The two largest sub-components of a point (seed 001 Fig. 9: which part of the time leads). */
static void leaders(const met_breakdown_t *b, met_sub_t *first, met_sub_t *second)
{
  *first = *second = MET_SUB_CPU;
  for (int s = 1; s < MET_SUB_COUNT; s++)
    if (b->sub[s] > b->sub[*first]) {
      *second = *first;
      *first = (met_sub_t)s;
    } else if (b->sub[s] > b->sub[*second] || *second == *first) {
      *second = (met_sub_t)s;
    }
}

/* One line per run of consecutive p with the same two largest sub-components. */
static void print_leaders(FILE *out, const stu_point_t **points, size_t count)
{
  for (size_t i = 0; i < count;) {
    met_sub_t a, b, c, d;
    leaders(stu_breakdown(points[i]), &a, &b);
    size_t j = i;
    while (j + 1 < count && (leaders(stu_breakdown(points[j + 1]), &c, &d), c == a && d == b))
      j++;
    print_p_range(out, points[i], points[j]);
    fprintf(out, ": the largest sub-component is %s, then %s\n", met_sub_name(a), met_sub_name(b));
    i = j + 1;
  }
}

static void print_notes(FILE *out, const stu_study_t *study, const stu_point_t *lead)
{
  for (size_t r = 0; r < study->scenario->nrefs; r++) {
    const scn_reference_t *ref = &study->scenario->refs[r];
    if (ref->note && rep_reference_applies(study, ref, lead))
      fprintf(out, "  Note on %s (%s): %s\n", ref->source, ref->quantity, ref->note);
  }
}

/* The unit of a group's table: from T_par and every component, sub-component and idle time of its points. */
static rep_unit_t table_unit(const stu_point_t **points, size_t count)
{
  double times[count * (MET_SUB_COUNT + 2)];
  size_t n = 0;
  for (size_t i = 0; i < count; i++) {
    const met_breakdown_t *b = stu_breakdown(points[i]);
    times[n++] = b->t_par;
    times[n++] = b->idle;
    for (int k = 0; k < MET_SUB_COUNT; k++)
      times[n++] = b->sub[k];
  }
  return rep_unit_pick(times, n);
}

/* Table 5 of one group: the main table's columns of the bottleneck view (REP_IN_BOTTLENECK) as rows, a column per
 * p, split into groups of p within the width. */
static void print_breakdown(FILE *out, const stu_study_t *study, const stu_point_t **points, size_t count, int width)
{
  rep_unit_t unit = table_unit(points, count);
  rep_col_t *rows = malloc(MAX_ROWS * sizeof *rows);
  rep_cols_t *cols = rows ? rep_cols_new(1 + count, 1) : NULL;
  if (cols) {
    rep_at_t at[count];
    for (size_t i = 0; i < count; i++)
      at[i] = (rep_at_t){study, points[i], -1, NULL};
    fprintf(out, "  (%s, each the busiest process's)\n", unit.name);
    rep_cols_add(cols, "<  p");
    for (size_t i = 0; i < count; i++)
      rep_cols_add(cols, "%d", points[i]->p);
    size_t n = rep_schema_columns(&rep_points_schema, study, REP_IN_BOTTLENECK, rows, MAX_ROWS);
    for (size_t r = 0; r < n; r++)
      add_row(cols, study, &rows[r], at, points, count, &unit);
    rep_cols_print(out, cols, "", width);
  }
  rep_cols_free(cols);
  free(rows);
}

/* The table of one group, its points sorted by p, and its verdict from the study's summary (stu_verdict); without
 * `full`, the verdict only. */
static void print_table(FILE *out, const stu_study_t *study, const stu_point_t **points, size_t count,
                        const met_verdict_t *verdict, int width, int full)
{
  const stu_point_t *lead = points[0];
  fprintf(out, "\nBottleneck analysis%s", study->npoints > count ? ", " : "");
  rep_print_params(out, study, lead, 1);
  fprintf(out, full ? " (seed 001 Table 5 layout)\n" : " (the tables: --full)\n");
  if (full)
    print_breakdown(out, study, points, count, width);
  if (verdict)
    print_verdict(out, verdict, points);
  if (!full)
    return;
  print_leaders(out, points, count);
  print_notes(out, study, lead);
}

void rep_print_bottlenecks(FILE *out, const stu_study_t *study, int width, int full)
{
  if (study->facts.no_breakdown) { /* measured runs (simrun analyse): no machine components to weigh */
    fprintf(out, "\nNo bottleneck view: %s\n", study->facts.no_breakdown);
    return;
  }
  stu_series_list_t groups; /* the groups against p, in the order of the study's verdicts */
  if (stu_series_collect(study, scn_role_index(study->scenario, SCN_ROLE_PROCESSES), &groups) != 0)
    fprintf(out, "\n(bottleneck analysis skipped: out of memory)\n");
  else
    for (size_t k = 0; k < groups.count; k++)
      print_table(out, study, groups.list[k].points, groups.list[k].count, stu_verdict(study, k), width, full);
  stu_series_free(&groups);
}
