/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Scaled sweeps (scn_scenario.h, docs/scenarios.md): parameters paired value by value in a <zip>, and parameters given
 * as an expression of another (scn_expr.h), such as n from p for a constant work per process (Gustafson 1988). */
#include "scn_expr.h"
#include "bas_error.h"
#include "scn_scenario.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What an expression's lookups see: its own parameter, the swept one it follows and which of its values. */
typedef struct follow {
  const scn_scenario_t *s;
  const scn_param_t *self;
  const scn_param_t *driver; /* the swept parameter the expression names, or NULL so far */
  size_t k;                  /* the driver's value in use */
} follow_t;

/* The names an expression may use, for an error message. */
static void list_names(const scn_scenario_t *s, const scn_param_t *self, char *out, size_t len)
{
  size_t n = 0;
  out[0] = '\0';
  for (size_t j = 0; j < s->nparams && n < len; j++)
    if (&s->params[j] != self && !s->params[j].expr)
      n += (size_t)snprintf(out + n, len - n, "%s%s", n ? ", " : "", s->params[j].name);
}

static int lookup(void *ctx, const char *name, double *value, char *err, size_t len)
{
  follow_t *f = ctx;
  const scn_param_t *p = scn_param(f->s, name);
  char names[256];
  list_names(f->s, f->self, names, sizeof names);
  if (!p || p == f->self) {
    snprintf(err, len, "unknown name '%s'; name one of the scenario's parameters (%s)%s", name, names,
             strchr(name, '-') ? ", and put spaces around a minus sign between names" : "");
    return -1;
  }
  if (p->expr) {
    snprintf(err, len, "'%s' is itself an expression; write this one in terms of the parameters that one names", name);
    return -1;
  }
  if (p->nvalues > 1 && f->driver && f->driver != p) {
    snprintf(err, len, "it names two swept parameters, '%s' and '%s'; follow one, and <zip> the other with it",
             f->driver->name, name);
    return -1;
  }
  if (p->nvalues > 1)
    f->driver = p;
  const char *text = p->values[p == f->driver ? f->k : 0];
  char *end = NULL;
  *value = strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(*value)) {
    snprintf(err, len, "'%s' = '%s' is not a number; name numeric parameters only", name, text);
    return -1;
  }
  return 0;
}

/* The expression's value at the driver's value k, as a whole number within a C int, into `out`. */
static int value_at(follow_t *f, scn_param_t *self, char *out, size_t len, scn_error_t *err)
{
  const scn_scenario_t *s = f->s;
  char where[160] = "";
  char message[768];
  double value = 0;
  int rc = scn_expr_eval(self->expr, lookup, f, &value, message, sizeof message);
  if (f->driver)
    snprintf(where, sizeof where, " at %s = %s", f->driver->name, f->driver->values[f->k]);
  if (rc != 0)
    return scn_fail(err, s->path, self->line, "parameter '%s': expr=\"%s\"%s: %s", self->name, self->expr, where,
                    message);
  if (value != nearbyint(value))
    return scn_fail(err, s->path, self->line,
                    "parameter '%s': expr=\"%s\" gives %.6g%s, not a whole number; wrap it in round(), floor() or "
                    "ceil()",
                    self->name, self->expr, value, where);
  if (value < INT_MIN || value > INT_MAX)
    return scn_fail(err, s->path, self->line,
                    "parameter '%s': expr=\"%s\" gives %.6g%s, out of range (a C int: %d to %d); make it smaller",
                    self->name, self->expr, value, where, INT_MIN, INT_MAX);
  snprintf(out, len, "%.0f", value);
  return 0;
}

/* The expression parameter `self` gets one value per value of the swept parameter it names, and joins its zip. */
static int resolve_expr(scn_scenario_t *s, scn_param_t *self, scn_error_t *err)
{
  follow_t f = {.s = s, .self = self};
  char text[32];
  if (value_at(&f, self, text, sizeof text, err)) /* finds the driver */
    return -1;
  size_t count = f.driver ? f.driver->nvalues : 1;
  self->values = calloc(count, sizeof *self->values);
  if (!self->values)
    return scn_fail(err, s->path, self->line, "out of memory while reading the scenario");
  for (f.k = 0; f.k < count; f.k++) {
    if (value_at(&f, self, text, sizeof text, err))
      return -1;
    if (!(self->values[self->nvalues++] = strdup(text)))
      return scn_fail(err, s->path, self->line, "out of memory while reading the scenario");
  }
  if (!f.driver)
    return 0;
  scn_param_t *driver = &s->params[f.driver - s->params];
  if (!driver->zip)
    driver->zip = ++s->nzips;
  self->zip = driver->zip;
  return 0;
}

/* Each point of a zip once: its rows of values joined, sorted, compared. */
static int join_row(const scn_scenario_t *s, int zip, size_t k, char **out)
{
  size_t len = 1;
  for (size_t j = 0; j < s->nparams; j++)
    len += s->params[j].zip == zip ? strlen(s->params[j].values[k]) + 1 : 0;
  char *row = *out = malloc(len);
  if (!row)
    return -1;
  row[0] = '\0';
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].zip == zip)
      strcat(strcat(row, s->params[j].values[k]), "\x1f");
  return 0;
}

static int compare_rows(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int check_distinct_rows(const scn_scenario_t *s, const scn_param_t *leader, scn_error_t *err)
{
  size_t n = leader->nvalues;
  char **rows = calloc(n, sizeof *rows);
  int rc = rows ? 0 : -1;
  for (size_t k = 0; rc == 0 && k < n; k++)
    rc = join_row(s, leader->zip, k, &rows[k]);
  if (rc == 0) {
    qsort(rows, n, sizeof *rows, compare_rows);
    for (size_t k = 1; rc == 0 && k < n; k++)
      if (strcmp(rows[k - 1], rows[k]) == 0)
        rc = scn_fail(err, s->path, leader->line,
                      "the <zip> of '%s' gives the same point twice; give each point (each position of its lists) "
                      "once",
                      leader->name);
  } else
    scn_fail(err, s->path, leader->line, "out of memory while reading the scenario");
  for (size_t k = 0; rows && k < n; k++)
    free(rows[k]);
  free(rows);
  return rc;
}

/* The parameters of each zip have as many values as its first, and give each point once. */
static int check_zip(const scn_scenario_t *s, size_t leader, scn_error_t *err)
{
  const scn_param_t *first = &s->params[leader];
  for (size_t j = leader + 1; j < s->nparams; j++) {
    const scn_param_t *p = &s->params[j];
    if (p->zip == first->zip && p->nvalues != first->nvalues)
      return scn_fail(err, s->path, p->line,
                      "parameter '%s' has %zu values but '%s', zipped with it (line %d), has %zu; give the parameters "
                      "of a <zip> the same number of values",
                      p->name, p->nvalues, first->name, first->line, first->nvalues);
  }
  return check_distinct_rows(s, first, err);
}

int scn_zip_resolve(scn_scenario_t *s, scn_error_t *err)
{
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].expr && !s->params[j].values && resolve_expr(s, &s->params[j], err))
      return BAS_EINVAL;
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].zip && scn_zip_leader(s, j) == j && check_zip(s, j, err))
      return BAS_EINVAL;
  return 0;
}

void scn_zip_leave(scn_param_t *param)
{
  param->zip = 0;
  free(param->expr);
  param->expr = NULL;
}

size_t scn_zip_leader(const scn_scenario_t *s, size_t j)
{
  for (size_t i = 0; s->params[j].zip && i < j; i++)
    if (s->params[i].zip == s->params[j].zip)
      return i;
  return j;
}
