/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The reference table's declaration (rep_references.h): each column once, with where its figure comes from
 * (rep_ref_row_t). docs/results.md's -references row must name every CSV column (tests/test_rep_schema.c). */
#include "rep_references.h"
#include "bas_error.h"

#include <stdlib.h>

static const rep_ref_row_t *row(const rep_at_t *at)
{
  return at->item;
}

static rep_cell_t quantity(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(row(at)->quantity);
}

static rep_cell_t source(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(row(at)->source);
}

static rep_cell_t reference(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(row(at)->reference);
}

static rep_cell_t simrun(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(row(at)->simrun);
}

static rep_cell_t difference(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(row(at)->difference);
}

enum { ALL = REP_IN_ALL };

/* csv, json, head, unit, meaning, format, key, in, each, label, has, get */
static const rep_column_t columns[] = {
    {"quantity", "quantity", "quantity", "", "t_par, or a component or sub-component of seed 001 Table 5", REP_FMT_TEXT,
     1, ALL, 0, NULL, NULL, quantity},
    {"source", "source", "source", "", "where the reference's figure comes from", REP_FMT_TEXT, 1, ALL, 0, NULL, NULL,
     source},
    {"reference_s", "reference_s", "reference", "s", "the reference's figure", REP_FMT_TIME, 0, ALL, 0, NULL, NULL,
     reference},
    {"simrun_s", "simrun_s", "simrun", "s", "simrun's figure of the quantity", REP_FMT_TIME, 0, ALL, 0, NULL, NULL,
     simrun},
    {"rel_diff", "rel_diff", "simrun difference", "", "(simrun - reference) / reference; none for a reference of 0",
     REP_FMT_DIFF, 0, ALL, 0, NULL, NULL, difference},
};

const rep_schema_t rep_references_schema = {"references", columns, sizeof columns / sizeof columns[0], NULL};

int rep_references_make(const stu_study_t *study, const stu_point_t *only, rep_references_t *r)
{
  size_t max = study->npoints * study->scenario->nrefs;
  *r = (rep_references_t){.at = malloc((max + 1) * sizeof *r->at), .rows = malloc((max + 1) * sizeof *r->rows)};
  if (!r->at || !r->rows) {
    rep_references_free(r);
    return BAS_ENOMEM;
  }
  for (size_t i = 0; i < study->npoints; i++)
    for (size_t k = 0; (!only || only == &study->points[i]) && k < study->scenario->nrefs; k++)
      if (rep_reference_row(study, &study->points[i], &study->scenario->refs[k], &r->rows[r->count])) {
        r->at[r->count] = (rep_at_t){study, &study->points[i], -1, &r->rows[r->count]};
        r->count++;
      }
  return 0;
}

void rep_references_free(rep_references_t *r)
{
  free(r->at);
  free(r->rows);
  *r = (rep_references_t){NULL, NULL, 0};
}
