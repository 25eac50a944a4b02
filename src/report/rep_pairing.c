/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare's pairing of points (rep_pairing.h): each table's key values read once (numbers as numbers, a
 * platform file by its name), its rows sorted on them, a key twice refused, then the two sorted lists merged. */
#define _GNU_SOURCE /* qsort_r */
#include "rep_pairing.h"
#include "bas_error.h"
#include "rep_points.h"
#include "rep_processes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_KEYS = 64 };

/* Columns of simrun's tables before p that are names, not keys: the runs compared may differ in them. */
static const char *const run_names[] = {"scenario", "platform", "skeleton"};

/* Columns right after p that name a row of simrun's tables not yet declared as data (rep_schema.h): per node, per DSM
 * scope and operation, per message size, per reference (docs/results.md). */
static const char *const row_names[] = {"node",      "by",    "name", "scope",    "waiter",
                                        "operation", "bytes", "hops", "quantity", "source"};

/* The tables declared as data, whose key columns after p (the per-process table's rank) name their rows. */
static const rep_schema_t *const schemas[] = {&rep_points_schema, &rep_processes_schema};

static int listed(const char *name, const char *const *list, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp(name, list[i]) == 0)
      return 1;
  return 0;
}

/* Whether `name` is a column after p that names a row: a declared table's key column, or one of row_names. */
static int names_row(const char *name)
{
  for (size_t k = 0; k < sizeof schemas / sizeof schemas[0]; k++)
    for (size_t c = 0; c < schemas[k]->ncolumns; c++)
      if (schemas[k]->columns[c].key && schemas[k]->columns[c].csv && strcmp(schemas[k]->columns[c].csv, name) == 0)
        return 1;
  return listed(name, row_names, sizeof row_names / sizeof row_names[0]);
}

static long column(const rep_table_t *t, const char *name)
{
  for (size_t j = 0; j < t->ncols; j++)
    if (strcmp(t->names[j], name) == 0)
      return (long)j;
  return -1;
}

size_t rep_pairing_keys(const rep_table_t *t, size_t *keys, size_t max)
{
  long p = column(t, "p"), skeleton = column(t, "skeleton");
  size_t n = 0;
  for (long j = skeleton >= 0 && skeleton < p ? skeleton + 1 : 0; p >= 0 && j <= p && n < max; j++)
    if (!listed(t->names[j], run_names, 3))
      keys[n++] = (size_t)j;
  for (size_t j = (size_t)p + 1; p >= 0 && j < t->ncols && n < max && names_row(t->names[j]); j++)
    keys[n++] = j;
  return n;
}

int rep_pairing_is_key(const rep_table_t *t, size_t j)
{
  size_t keys[MAX_KEYS], n = rep_pairing_keys(t, keys, MAX_KEYS);
  for (size_t k = 0; k < n; k++)
    if (keys[k] == j)
      return 1;
  return 0;
}

int rep_pairing_number(const char *text, double *x)
{
  char *end;
  *x = strtod(text, &end);
  return *text && !*end && isfinite(*x) && !text[strspn(text, "0123456789.+-eE")];
}

/* One key value of a row: its number, or NAN and its text. */
typedef struct keyval {
  double num;
  const char *text;
} keyval_t;

static int keyval_cmp(const keyval_t *x, const keyval_t *y, size_t n)
{
  for (size_t k = 0; k < n; k++) {
    int xn = !isnan(x[k].num), yn = !isnan(y[k].num);
    int c = xn && yn   ? (x[k].num > y[k].num) - (x[k].num < y[k].num)
            : xn != yn ? yn - xn /* numbers before text */
                       : strcmp(x[k].text, y[k].text);
    if (c)
      return c;
  }
  return 0;
}

/* One table's rows in the order of their keys. */
typedef struct sorted {
  keyval_t *vals; /* nrows x nkeys */
  size_t nkeys, *order;
} sorted_t;

static int order_cmp(const void *x, const void *y, void *ctx)
{
  const sorted_t *s = ctx;
  size_t i = *(const size_t *)x, j = *(const size_t *)y;
  int c = keyval_cmp(s->vals + i * s->nkeys, s->vals + j * s->nkeys, s->nkeys);
  return c ? c : (i > j) - (i < j); /* the file's order among equals: the first of two is named first */
}

/* Reads t's values of `keys` and sorts its rows on them. 0, or -1 out of memory. */
static int sort_rows(const rep_table_t *t, const size_t *keys, size_t nkeys, sorted_t *s)
{
  *s = (sorted_t){.vals = malloc((t->nrows * nkeys + 1) * sizeof *s->vals),
                  .nkeys = nkeys,
                  .order = malloc((t->nrows + 1) * sizeof *s->order)};
  if (!s->vals || !s->order)
    return -1;
  for (size_t i = 0; i < t->nrows; i++) {
    s->order[i] = i;
    for (size_t k = 0; k < nkeys; k++) {
      keyval_t *v = &s->vals[i * nkeys + k];
      const char *text = t->rows[i][keys[k]], *base = strrchr(text, '/');
      v->text = base && strcmp(t->names[keys[k]], "platform_file") == 0 ? base + 1 : text; /* run from elsewhere */
      if (!rep_pairing_number(v->text, &v->num))
        v->num = NAN;
    }
  }
  qsort_r(s->order, t->nrows, sizeof *s->order, order_cmp, s);
  return 0;
}

void rep_pairing_point(const rep_table_t *t, const size_t *keys, size_t nkeys, size_t row, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < nkeys && used < len; k++)
    used +=
        (size_t)snprintf(buf + used, len - used, "%s%s = %s", k ? ", " : "", t->names[keys[k]], t->rows[row][keys[k]]);
}

/* "n, broadcast, p": the names of the paired keys. */
static void key_names(const rep_table_t *t, const size_t *keys, size_t nkeys, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < nkeys && used < len; k++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? ", " : "", t->names[keys[k]]);
}

/* Where row i of t is: "FILE:LINE", or "FILE" with the point's number when the lines are not known. */
static void where(const rep_table_t *t, size_t i, char *buf, size_t len)
{
  if (t->lines)
    snprintf(buf, len, "%s:%zu", t->label, t->lines[i]);
  else
    snprintf(buf, len, "%s: point %zu", t->label, i + 1);
}

/* -1 with the message when two rows of t have the same keys, else 0. */
static int refuse_twice(const rep_table_t *t, const size_t *keys, const sorted_t *s, char *err, size_t errlen)
{
  for (size_t i = 1; i < t->nrows; i++) {
    const keyval_t *x = s->vals + s->order[i - 1] * s->nkeys, *y = s->vals + s->order[i] * s->nkeys;
    if (keyval_cmp(x, y, s->nkeys) != 0)
      continue;
    char point[2048], names[1024], first[1200], second[1200];
    rep_pairing_point(t, keys, s->nkeys, s->order[i], point, sizeof point);
    key_names(t, keys, s->nkeys, names, sizeof names);
    where(t, s->order[i - 1], first, sizeof first);
    where(t, s->order[i], second, sizeof second);
    snprintf(err, errlen,
             "%s: the point %s is there twice (first at %s); a table holds each point once on the keys both tables "
             "have (%s): remove one, or add the column that tells them apart to both",
             second, point, first, names);
    return -1;
  }
  return 0;
}

/* The key columns a and b share into pr. 0, or -1 with the message. */
static int shared_keys(const rep_table_t *a, const rep_table_t *b, rep_pairing_t *pr, char *err, size_t errlen)
{
  size_t keys[MAX_KEYS], n = rep_pairing_keys(a, keys, MAX_KEYS);
  if (column(a, "p") < 0 || column(b, "p") < 0) {
    snprintf(err, errlen,
             "%s:1: no column 'p'; a results table has the number of processes in a column p, after the "
             "parameters that tell its points apart",
             column(a, "p") < 0 ? a->label : b->label);
    return -1;
  }
  for (size_t k = 0; k < n; k++) {
    long jb = column(b, a->names[keys[k]]);
    if (jb >= 0 && rep_pairing_is_key(b, (size_t)jb)) {
      pr->ka[pr->nkeys] = keys[k];
      pr->kb[pr->nkeys++] = (size_t)jb;
    }
  }
  return 0; /* p is a key of both */
}

/* Merges the sorted rows of a and b into pr->partner. */
static void merge(const rep_table_t *a, const rep_table_t *b, const sorted_t *sa, const sorted_t *sb, rep_pairing_t *pr)
{
  for (size_t i = 0; i < a->nrows; i++)
    pr->partner[i] = -1;
  for (size_t i = 0, j = 0; i < a->nrows && j < b->nrows;) {
    int c = keyval_cmp(sa->vals + sa->order[i] * pr->nkeys, sb->vals + sb->order[j] * pr->nkeys, pr->nkeys);
    if (c == 0) {
      pr->partner[sa->order[i]] = (long)sb->order[j];
      pr->points++;
    }
    i += c <= 0;
    j += c >= 0;
  }
}

int rep_pairing_make(const rep_table_t *a, const rep_table_t *b, rep_pairing_t *pr, char *err, size_t errlen)
{
  *pr = (rep_pairing_t){.ka = malloc(MAX_KEYS * sizeof *pr->ka),
                        .kb = malloc(MAX_KEYS * sizeof *pr->kb),
                        .partner = malloc((a->nrows + 1) * sizeof *pr->partner)};
  sorted_t sa = {0}, sb = {0};
  int rc = pr->ka && pr->kb && pr->partner ? (shared_keys(a, b, pr, err, errlen) == 0 ? 0 : BAS_EINVAL) : BAS_ENOMEM;
  if (rc == 0 && (sort_rows(a, pr->ka, pr->nkeys, &sa) != 0 || sort_rows(b, pr->kb, pr->nkeys, &sb) != 0))
    rc = BAS_ENOMEM;
  if (rc == 0 && (refuse_twice(a, pr->ka, &sa, err, errlen) != 0 || refuse_twice(b, pr->kb, &sb, err, errlen) != 0))
    rc = BAS_EINVAL;
  if (rc == 0)
    merge(a, b, &sa, &sb, pr);
  if (rc == 0 && pr->points == 0) {
    char names[1024];
    key_names(a, pr->ka, pr->nkeys, names, sizeof names);
    snprintf(err, errlen, "%s and %s have no point in common on %s; compare two tables of the same points", a->label,
             b->label, names);
    rc = BAS_EINVAL;
  }
  if (rc == BAS_ENOMEM)
    snprintf(err, errlen, "out of memory");
  free(sa.vals);
  free(sa.order);
  free(sb.vals);
  free(sb.order);
  return rc;
}

void rep_pairing_free(rep_pairing_t *pr)
{
  free(pr->ka);
  free(pr->kb);
  free(pr->partner);
}
