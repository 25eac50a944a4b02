/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The wait states of a study's points (met_wait.h) in every output: a table per point in the terminal report, the
 * "wait-states" CSV table, a "wait_states" member in JSON, and the values a bar picture per rank stacks (rep_pictures).
 * Only points whose timeline is kept (the per-process p) have them, and only when some rank lost time (stu_waits). */
#ifndef REP_WAIT_H
#define REP_WAIT_H

#include "stu_waits.h"

#include <stdio.h>

/* Whether some point of the study has wait states. */
int rep_wait_any(const stu_study_t *study);

/* The terminal tables, one per point with wait states: seconds per rank and pattern, and the totals. */
void rep_wait_print(FILE *out, const stu_study_t *study);

/* CSV: the column names after the key ones, and one row per rank of each point with wait states, each after the
 * point's key fields, which `lead` writes. */
void rep_wait_csv_head(FILE *out);
void rep_wait_csv_rows(FILE *out, const stu_study_t *study, const stu_point_t *point,
                       void (*lead)(FILE *, const stu_study_t *, const stu_point_t *));

/* JSON: ",\n "wait_states": {...}" for a point with wait states (per pattern, the total and the per-rank seconds);
 * nothing otherwise. */
void rep_wait_json(FILE *out, const stu_point_t *point);

/* The colour of a pattern in pictures. */
const char *rep_wait_colour(met_wait_pattern_t pattern);

#endif
