/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cause-effect report of a DSM study (CARNIVAL, seed 002 §4.3): profiles by node, code scope and operation, the
 * wait map, what dominates the waiting, one page request followed through its 13 intervals, and the comparison of the
 * runs with and without protocol controllers. Part of the report module (rep_report.h); for MET_VIEW_CAUSE_EFFECT. */
#ifndef REP_CARNIVAL_H
#define REP_CARNIVAL_H

#include "stu_study.h"

#include <stdio.h>

/* The terminal report, after the title. */
void rep_carnival_print(FILE *out, const stu_study_t *study);

/* CSV: the column names after the parameters, and the rows of a point (one per wait-map line), each after the point's
 * leading fields, which `lead` writes. */
void rep_carnival_csv_head(FILE *out);
void rep_carnival_csv_rows(FILE *out, const stu_study_t *study, const stu_point_t *point,
                           void (*lead)(FILE *, const stu_study_t *, const stu_point_t *));

/* CSV of every request: the column names after the key, and a point's rows (each after its key, which `lead`
 * writes): node, waiter (Wait: the PP, CPWait: the CP), operation, scope, peer (empty when none), item (page or barrier
 * number), start_s and the 13 interval lengths of seed 002 Figs. 1-3 in seconds. */
void rep_carnival_csv_requests_head(FILE *out);
void rep_carnival_csv_requests(FILE *out, const stu_study_t *study, const stu_point_t *point,
                               void (*lead)(FILE *, const stu_study_t *, const stu_point_t *));

/* JSON: the point's members after its parameters (",\n ..." up to its closing brace, excluded); `string` writes a
 * JSON string. */
void rep_carnival_json(FILE *out, const stu_point_t *point, void (*string)(FILE *, const char *));

#endif
