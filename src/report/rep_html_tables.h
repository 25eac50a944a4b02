/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The --html page's tables (rep_html.h): the study's figures as real HTML tables, times in their column's unit
 * (rep_units.h) and other numbers as the terminal shows them, each rounded figure whole in its tooltip, and the
 * escaping every part of the page uses. */
#ifndef REP_HTML_TABLES_H
#define REP_HTML_TABLES_H

#include "rep_schema.h"
#include "stu_study.h"

#include <stddef.h>
#include <stdio.h>

/* `len` bytes of `text` with &, < and > escaped. */
void rep_html_escaped(FILE *out, const char *text, size_t len);

/* A table of a view's schema (rep_schema.h) over the `count` rows `at` (count > 0): the swept parameters and p, then
 * the columns writer `in` shows (REP_IN_HTML, or a view's own bit such as REP_IN_BOTTLENECK), times in their column's
 * unit and other numbers as rep_units_cell writes them, a rounded cell's CSV figure in its title (rep_units_exact);
 * each head's data-column names its CSV column. */
void rep_html_schema_table(FILE *out, const rep_schema_t *schema, unsigned in, const rep_at_t *at, size_t count);

/* One row per point: the swept parameters and p, T_par, and by view the lost-cycle figures (speedup, efficiency, the
 * four overhead ratios, granularity, the model's time and difference) and the message count; with a measured run's
 * replay, its figures, then a paragraph per run that others disturbed and per run whose replay placed its ranks (the
 * report's "Disturbed:" and "Placement:" lines). */
void rep_html_points(FILE *out, const stu_study_t *study);
/* Whether the study has per-process figures, and their tables: per point with them, a row per rank; without the split
 * of the anomaly into true anomaly and imbalance where the study cannot give it (a measurement:
 * stu_facts_t.no_anomaly_split), which a line under the table explains, as the terminal's does. */
int rep_html_has_processes(const stu_study_t *study);
void rep_html_processes(FILE *out, const stu_study_t *study);
/* The message-time table (rep_messages.h), for a study with the message view: a row per (point, size, distance). */
void rep_html_messages(FILE *out, const stu_study_t *study);
/* Whether the scenario's reference figures apply to some point, and their table: a row per (point, reference). */
int rep_html_has_references(const stu_study_t *study);
void rep_html_references(FILE *out, const stu_study_t *study);
/* Whether the study has the bottleneck view (seed 001 Table 5), and its table: a row per point with T_par, the
 * components, the sub-components the program declares or has time in, idle, the B-ratios and the other ratios. */
int rep_html_has_bottlenecks(const stu_study_t *study);
void rep_html_bottlenecks(FILE *out, const stu_study_t *study);
/* The analytic model's summary (rep_has_model): its name, the points it covers, the mean and largest |diff| and the p
 * of the largest; the per-point times and differences are in the points' table. */
void rep_html_model(FILE *out, const stu_study_t *study);

#endif
