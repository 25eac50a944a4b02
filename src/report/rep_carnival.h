/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cause-effect report of a DSM study (CARNIVAL, seed 002 §4.3): profiles by node, code scope and operation, the
 * wait map, what dominates the waiting, one page request followed through its 13 intervals, and the comparison of the
 * runs with and without protocol controllers. Part of the report module (rep_report.h); for MET_VIEW_CAUSE_EFFECT. */
#ifndef REP_CARNIVAL_H
#define REP_CARNIVAL_H

#include "stu_study.h"

#include <stdio.h>

/* The terminal report, after the title, its tables within `width` columns. */
void rep_carnival_print(FILE *out, const stu_study_t *study, int width);

/* JSON: the point's members after its parameters (",\n ..." up to its closing brace, excluded): T_par, whether it
 * has controllers, its "profiles" and "wait_map" (rep_dsm_tables.h's rows), the PPs' waits by operation and the
 * first page request's 13 intervals. */
void rep_carnival_json(FILE *out, const stu_study_t *study, const stu_point_t *point);

#endif
