/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The phases view's table as a schema (rep_schema.h): a measured run's phases (stu_phases.h, EPPA's phases, seed 000
 * §1.2), each label's seconds per category summed over the ranks and its share of p T_par, walked by the terminal
 * (--full), the JSON (each point's "phases") and the page of `simrun analyse` (whose CSV is the main table alone).
 * docs/results.md names its columns (tests/test_rep_schema.c). */
#ifndef REP_PHASES_H
#define REP_PHASES_H

#include "rep_schema.h"

/* A row per phase of each point with the view, in the trace's order of labels, then the point's end-of-run wait (a
 * rank that reached MPI_Finalize before the last one: idle in no phase); rep_at_t.rank is the phase's index. */
extern const rep_schema_t rep_phases_schema;

/* Whether a point of the study has the phases view. */
int rep_phases_any(const stu_study_t *study);
/* The rows of the study's points with phases (only `only` when not NULL), into *count; newly allocated (free()); NULL
 * and 0 when none or out of memory. */
rep_at_t *rep_phases_rows(const stu_study_t *study, const stu_point_t *only, size_t *count);
/* The terminal's phases tables (--full): one per point with the view, its columns within `width`. */
void rep_phases_print(FILE *out, const stu_study_t *study, int width);
/* The point's "phases" list in its JSON object. */
void rep_phases_json(FILE *out, const stu_study_t *study, const stu_point_t *point);

#endif
