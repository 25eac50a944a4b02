/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The reference table (docs/results.md "-references"): a row per (point, <reference> figure that applies there and
 * gives a value at its p), the paper's figure beside simrun's and their relative difference (seed 001 Tables 3-5), as
 * a table declaration (rep_schema.h) that the CSV, the JSON and the page walk; the terminal shows the same rows under
 * their quantity in the bottleneck table (rep_bottleneck.c). */
#ifndef REP_REFERENCES_H
#define REP_REFERENCES_H

#include "rep_group.h"
#include "rep_schema.h"

extern const rep_schema_t rep_references_schema;

/* The table's rows, each a rep_at_t whose item is its rep_ref_row_t: the study's, point by point in the study's order
 * and reference by reference in the scenario's, or point `only`'s when it is not NULL. */
typedef struct rep_references {
  rep_at_t *at;
  rep_ref_row_t *rows;
  size_t count;
} rep_references_t;
/* Fills r (count 0 when there is none). Returns 0, or BAS_ENOMEM with r empty. rep_references_free accepts an empty
 * r. */
int rep_references_make(const stu_study_t *study, const stu_point_t *only, rep_references_t *r);
void rep_references_free(rep_references_t *r);

#endif
