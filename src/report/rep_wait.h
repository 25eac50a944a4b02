/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The wait states of a study's points (met_wait.h) in every output: a table per point in the terminal report, the
 * "wait-states" CSV table, a "wait_states" member in JSON, and the values a bar picture per rank stacks (rep_pictures).
 * Only points whose timeline is kept (the per-process p) have them, and only when some rank lost time (stu_waits). */
#ifndef REP_WAIT_H
#define REP_WAIT_H

#include "rep_schema.h"
#include "stu_waits.h"

#include <stdio.h>

/* Whether some point of the study has wait states. */
int rep_wait_any(const stu_study_t *study);

/* The wait-state table (the -wait-states CSV): a row per rank of each point with wait states, the seconds lost per
 * Scalasca pattern and their total. */
extern const rep_schema_t rep_wait_states_schema;

/* Its rows, for every point with wait states (only `only` when not NULL), ranks in order, each point's totals' row
 * (rank -1, "all") after its ranks when `totals`; into *count, newly allocated (free()); NULL and 0 when none. */
rep_at_t *rep_wait_states_rows(const stu_study_t *study, const stu_point_t *only, int totals, size_t *count);

/* The terminal tables, one per point with wait states, within `width` columns: seconds per rank and pattern, and the
 * totals. */
void rep_wait_print(FILE *out, const stu_study_t *study, int width);

/* JSON: ",\n "wait_states": [...]", a point's rows of the table (an empty list for a point without). */
void rep_wait_json(FILE *out, const stu_study_t *study, const stu_point_t *point);

/* The colour of a pattern in pictures. */
const char *rep_wait_colour(met_wait_pattern_t pattern);

#endif
