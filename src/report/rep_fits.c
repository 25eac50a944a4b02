/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fits table's declaration (rep_fits.h): each column once, with where its figure comes from (met_fit_t).
 * docs/results.md's -fits row must name every CSV column (tests/test_rep_schema.c). */
#include "rep_fits.h"

#include <math.h>

static const rep_fit_item_t *item(const rep_at_t *at)
{
  return at->item;
}

static const met_fit_t *fit(const rep_at_t *at)
{
  return item(at)->row->fit;
}

static rep_cell_t metric(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(item(at)->row->metric);
}

static rep_cell_t axis(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(item(at)->row->axis);
}

static rep_cell_t group(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(item(at)->row->group);
}

static rep_cell_t form(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(met_fit_name(fit(at)->form));
}

static rep_cell_t formula(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(item(at)->formula);
}

/* Coefficient c of the form, none past its count. */
static rep_cell_t coefficient(const rep_at_t *at, int c)
{
  return rep_cell_num(c < fit(at)->ncoefs ? fit(at)->coef[c] : NAN);
}

/* The fit's quality and range: R^2 (i = 0), adjusted R^2 (1), x_min (2), x_max (3). */
static rep_cell_t figure(const rep_at_t *at, int i)
{
  const met_fit_t *f = fit(at);
  return rep_cell_num(i == 0 ? f->r2 : i == 1 ? f->adj_r2 : i == 2 ? f->x_min : f->x_max);
}

static rep_cell_t shown(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(item(at)->row->shown);
}

static rep_cell_t text(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(item(at)->row->text);
}

static const char *coefficient_label(int c)
{
  static const char *const names[] = {"a", "b", "c"};
  return names[c];
}

static const char *figure_label(int i)
{
  static const char *const names[] = {"r2", "adj_r2", "x_min", "x_max"};
  return names[i];
}

enum { FILES = REP_IN_FILES };

/* csv, json, head, unit, meaning, format, key, in, each, label, has, get */
static const rep_column_t columns[] = {
    {"metric", "metric", "metric", "", "what is fitted: time, speedup, efficiency, ovh-ctrl ...", REP_FMT_TEXT, 1,
     FILES, 0, NULL, NULL, metric},
    {"axis", "axis", "axis", "", "the swept parameter it is against", REP_FMT_TEXT, 1, FILES, 0, NULL, NULL, axis},
    {"group", "group", "group", "", "the other swept parameters, as the report names the curve", REP_FMT_TEXT, 1, FILES,
     0, NULL, NULL, group},
    {"form", "form", "form", "", "the best form", REP_FMT_TEXT, 0, FILES, 0, NULL, NULL, form},
    {"formula", "formula", "formula", "", "the fitted function", REP_FMT_TEXT, 0, FILES, 0, NULL, NULL, formula},
    {"%s", "coefficients.%s", "%s", "", "a coefficient, in the formula's order; none past the form's", REP_FMT_RATIO, 0,
     FILES, MET_FIT_MAX_COEFS, coefficient_label, NULL, coefficient},
    {"%s", "%s", "%s", "", "R^2, adjusted R^2, and the data's range of the swept parameter", REP_FMT_RATIO, 0, FILES, 4,
     figure_label, NULL, figure},
    {"shown", "shown", "shown", "", "honest: adjusted R^2 at least 0.90 and within the metric's range", REP_FMT_BOOL, 0,
     FILES, 0, NULL, NULL, shown},
    {"text", "text", "text", "", "the report's line", REP_FMT_TEXT, 0, FILES, 0, NULL, NULL, text},
};

const rep_schema_t rep_fits_schema = {"fits", columns, sizeof columns / sizeof columns[0], NULL};

rep_at_t rep_fits_at(const stu_study_t *study, const rep_fit_row_t *row, rep_fit_item_t *it)
{
  it->row = row;
  met_fit_format(row->fit, row->axis, it->formula, sizeof it->formula);
  return (rep_at_t){study, NULL, -1, it};
}
