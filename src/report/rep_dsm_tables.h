/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The DSM views' tables as schemas (rep_schema.h; CARNIVAL, seed 002 §4.3): the time profiles by node, code scope and
 * operation (Fig. 4), the wait map (Fig. 5) and every request with its 13 intervals (Figs. 1-3), each declared once and
 * walked by the terminal, CSV, JSON and HTML writers that show it. docs/results.md names every column
 * (tests/test_rep_schema.c). */
#ifndef REP_DSM_TABLES_H
#define REP_DSM_TABLES_H

#include "rep_schema.h"

/* The -profiles table: a row per (point, node and all / scope / operation), the seven categories in seconds. */
extern const rep_schema_t rep_profiles_schema;
/* The -waits table: a row per (point, wait-map line), longest first. */
extern const rep_schema_t rep_waits_schema;
/* The -requests table: a row per (point, request), in the trace's order. */
extern const rep_schema_t rep_requests_schema;

/* The rows of a DSM study's points (only `only` when not NULL) in the CSV's order, into *count; newly allocated, the
 * caller frees them with free() (the rows' items are in the same block). NULL and 0 when there are none or out of
 * memory. For the profiles, `by` picks "node", "scope" or "operation" (NULL: all three). */
rep_at_t *rep_profiles_rows(const stu_study_t *study, const stu_point_t *only, const char *by, size_t *count);
rep_at_t *rep_waits_rows(const stu_study_t *study, const stu_point_t *only, size_t *count);
rep_at_t *rep_requests_rows(const stu_study_t *study, size_t *count);

#endif
