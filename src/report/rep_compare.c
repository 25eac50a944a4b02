/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare's comparison and picture (rep_compare.h): points matched on the key columns two tables share, the
 * metrics they share compared value by value, and one metric of both drawn against p with rep_line_chart. */
#include "rep_compare.h"

#include "rep_chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_KEYS = 64 };

/* Columns of simrun's tables that are neither keys nor metrics: names, paths and provenance. */
static const char *const not_metrics[] = {"scenario",       "platform",        "skeleton", "platform_file",
                                          "simrun_version", "simgrid_version", "command",  "scenario_hash"};

static long column(const rep_table_t *t, const char *name)
{
  for (size_t j = 0; j < t->ncols; j++)
    if (strcmp(t->names[j], name) == 0)
      return (long)j;
  return -1;
}

static int is_name(const char *name)
{
  for (size_t i = 0; i < sizeof not_metrics / sizeof not_metrics[0]; i++)
    if (strcmp(name, not_metrics[i]) == 0)
      return 1;
  return 0;
}

size_t rep_compare_keys(const rep_table_t *t, size_t *keys, size_t max)
{
  long p = column(t, "p"), skeleton = column(t, "skeleton");
  size_t n = 0;
  for (long j = skeleton >= 0 && skeleton < p ? skeleton + 1 : 0; p >= 0 && j <= p && n < max; j++)
    if (!is_name(t->names[j]))
      keys[n++] = (size_t)j;
  return n;
}

static int is_key(const rep_table_t *t, size_t j)
{
  size_t keys[MAX_KEYS], n = rep_compare_keys(t, keys, MAX_KEYS);
  for (size_t k = 0; k < n; k++)
    if (keys[k] == j)
      return 1;
  return 0;
}

/* A field as a finite decimal number: 1 with *x set, else 0 (hexadecimal, inf and nan are text, as a reader of the
 * table would take them). */
static int number(const char *text, double *x)
{
  char *end;
  *x = strtod(text, &end);
  return *text && !*end && isfinite(*x) && !text[strspn(text, "0123456789.+-eE")];
}

/* Whether two fields hold the same value: the same text, or the same number ("4" and "4.0"). */
static int same_value(const char *x, const char *y)
{
  double a, b;
  return strcmp(x, y) == 0 || (number(x, &a) && number(y, &b) && a == b);
}

/* The columns the two tables share: keys and metrics, as (a's index, b's index) pairs. */
typedef struct pairing {
  size_t nkeys, ka[MAX_KEYS], kb[MAX_KEYS];
  size_t nmetrics, *ma, *mb;
} pairing_t;

static int pair_columns(const rep_table_t *a, const rep_table_t *b, pairing_t *pr, char *err, size_t errlen)
{
  size_t keys[MAX_KEYS], n = rep_compare_keys(a, keys, MAX_KEYS);
  *pr = (pairing_t){.ma = malloc((a->ncols + 1) * sizeof *pr->ma), .mb = malloc((a->ncols + 1) * sizeof *pr->mb)};
  if (!pr->ma || !pr->mb) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t k = 0; k < n; k++) {
    long jb = column(b, a->names[keys[k]]);
    if (jb >= 0 && is_key(b, (size_t)jb)) {
      pr->ka[pr->nkeys] = keys[k];
      pr->kb[pr->nkeys++] = (size_t)jb;
    }
  }
  for (size_t j = 0; j < a->ncols; j++) {
    long jb = column(b, a->names[j]);
    if (jb >= 0 && !is_key(a, j) && !is_key(b, (size_t)jb) && !is_name(a->names[j])) {
      pr->ma[pr->nmetrics] = j;
      pr->mb[pr->nmetrics++] = (size_t)jb;
    }
  }
  if (column(a, "p") < 0 || column(b, "p") < 0)
    snprintf(err, errlen,
             "%s:1: no column 'p'; a results table has the number of processes in a column p, after the "
             "parameters that tell its points apart",
             column(a, "p") < 0 ? a->label : b->label);
  else if (pr->nkeys == 0)
    snprintf(err, errlen, "%s and %s share no key column; name the parameters as simrun's columns", a->label, b->label);
  else if (pr->nmetrics == 0)
    snprintf(err, errlen, "%s and %s share no metric column (such as t_par_s); name the measured figures as simrun's",
             a->label, b->label);
  return pr->nkeys == 0 || pr->nmetrics == 0 || column(a, "p") < 0 || column(b, "p") < 0 ? -1 : 0;
}

static void pairing_free(pairing_t *pr)
{
  free(pr->ma);
  free(pr->mb);
}

/* The row of b with row `ra` of a's key values, or -1. */
static long match(const rep_table_t *a, const rep_table_t *b, const pairing_t *pr, size_t ra)
{
  for (size_t i = 0; i < b->nrows; i++) {
    size_t k = 0;
    while (k < pr->nkeys && same_value(a->rows[ra][pr->ka[k]], b->rows[i][pr->kb[k]]))
      k++;
    if (k == pr->nkeys)
      return (long)i;
  }
  return -1;
}

/* "n = 256, broadcast = neighbour, p = 4": the point's key values in a. */
static void print_point(FILE *out, const rep_table_t *a, const pairing_t *pr, size_t row)
{
  for (size_t k = 0; k < pr->nkeys; k++)
    fprintf(out, "%s%s = %s", k ? ", " : "", a->names[pr->ka[k]], a->rows[row][pr->ka[k]]);
  fputc('\n', out);
}

/* One metric's line; 1 when its difference exceeds the tolerance. */
static int print_metric(FILE *out, const char *name, double va, double vb, double tolerance)
{
  double diff = vb - va, rel = va != 0 ? diff / fabs(va) : (diff == 0 ? 0 : INFINITY);
  int exceeds = fabs(diff) > tolerance * fabs(va);
  fprintf(out, "  %-22s %15.9g %15.9g %+15.9g %+10.2f%%%s\n", name, va, vb, diff, 100 * rel,
          exceeds ? "  exceeds" : "");
  return exceeds;
}

int rep_compare_print(FILE *out, const rep_table_t *a, const rep_table_t *b, double tolerance, size_t *exceeding,
                      char *err, size_t errlen)
{
  pairing_t pr;
  if (pair_columns(a, b, &pr, err, errlen) != 0) {
    pairing_free(&pr);
    return -1;
  }
  size_t points = 0, missing = 0, values = 0;
  *exceeding = 0;
  fprintf(out, "Comparing B = %s against A = %s, point by point on", b->label, a->label);
  for (size_t k = 0; k < pr.nkeys; k++)
    fprintf(out, "%s %s", k ? "," : "", a->names[pr.ka[k]]);
  fprintf(out, "; a difference exceeds the tolerance when |B - A| > %g%% of |A|\n  %-22s %15s %15s %15s %11s\n",
          100 * tolerance, "metric", "A", "B", "B - A", "(B - A)/A");
  for (size_t i = 0; i < a->nrows; i++) {
    long j = match(a, b, &pr, i);
    missing += j < 0;
    if (j < 0)
      continue;
    points++;
    print_point(out, a, &pr, i);
    for (size_t m = 0; m < pr.nmetrics; m++) {
      double va, vb;
      if (number(a->rows[i][pr.ma[m]], &va) && number(b->rows[j][pr.mb[m]], &vb)) {
        values++;
        *exceeding += (size_t)print_metric(out, a->names[pr.ma[m]], va, vb, tolerance);
      }
    }
  }
  fprintf(out, "%zu points in both (%zu of A's not in B, %zu of B's), %zu values compared, %zu exceed the tolerance\n",
          points, missing, b->nrows - points, values, *exceeding);
  pairing_free(&pr);
  return ferror(out) ? -1 : 0;
}

/* The curves of one table: a group per distinct key values but p, its points in the table's order. Fills curves
 * (labels, x and y owned by the caller's arrays) from *n on; returns -1 when out of memory. */
static int table_curves(const rep_table_t *t, const char *tag, long metric, rep_curve_t *curves, size_t *n, size_t max,
                        char **labels, double *xs, double *ys, size_t *used)
{
  size_t keys[MAX_KEYS], nkeys = rep_compare_keys(t, keys, MAX_KEYS);
  long p = column(t, "p");
  char *done = calloc(t->nrows + 1, 1);
  if (!done)
    return -1;
  for (size_t i = 0; i < t->nrows && *n < max; i++) {
    if (done[i])
      continue;
    char label[512];
    int len = snprintf(label, sizeof label, "%s", tag);
    for (size_t k = 0; k < nkeys; k++)
      if ((long)keys[k] != p && len < (int)sizeof label)
        len += snprintf(label + len, sizeof label - (size_t)len, "%s%s = %s", len > (int)strlen(tag) ? ", " : ": ",
                        t->names[keys[k]], t->rows[i][keys[k]]);
    rep_curve_t *c = &curves[*n];
    *c = (rep_curve_t){.label = labels[*n] = strdup(label), .x = xs + *used, .y = ys + *used};
    for (size_t r = i; r < t->nrows; r++) {
      size_t k = 0;
      while (k < nkeys && ((long)keys[k] == p || strcmp(t->rows[r][keys[k]], t->rows[i][keys[k]]) == 0))
        k++;
      double x, y;
      if (k < nkeys || done[r])
        continue;
      done[r] = 1;
      if (number(t->rows[r][p], &x))
        xs[*used] = x, ys[*used] = number(t->rows[r][metric], &y) ? y : NAN, (*used)++, c->n++;
    }
    (*n)++;
  }
  free(done);
  return 0;
}

int rep_compare_svg(FILE *out, const rep_table_t *a, const rep_table_t *b, const char *metric, char *err, size_t errlen)
{
  long ma = column(a, metric), mb = column(b, metric);
  if (ma < 0 || mb < 0 || column(a, "p") < 0 || column(b, "p") < 0) {
    snprintf(err, errlen,
             "cannot draw '%s' against p: %s needs both columns 'p' and '%s'; choose a metric with --metric", metric,
             ma < 0 || column(a, "p") < 0 ? a->label : b->label, metric);
    return -1;
  }
  size_t max = a->nrows + b->nrows, n = 0, used = 0;
  rep_curve_t *curves = calloc(max + 1, sizeof *curves);
  char **labels = calloc(max + 1, sizeof *labels);
  double *xs = malloc((max + 1) * sizeof *xs), *ys = malloc((max + 1) * sizeof *ys);
  int rc = curves && labels && xs && ys ? 0 : -1;
  if (rc == 0)
    rc = table_curves(a, "A", ma, curves, &n, max, labels, xs, ys, &used);
  if (rc == 0)
    rc = table_curves(b, "B", mb, curves, &n, max, labels, xs, ys, &used);
  char title[512];
  snprintf(title, sizeof title, "%s: A = %s, B = %s", metric, a->label, b->label);
  rep_chart_t chart = {
      .title = title, .subtitle = "simrun compare", .x_label = "p", .y_label = metric, .var = "p", .log_span = 100};
  if (rc == 0)
    rc = rep_line_chart(out, &chart, curves, n);
  if (rc != 0)
    snprintf(err, errlen, "drawing the comparison failed (out of memory or a write error)");
  for (size_t i = 0; labels && i < n; i++)
    free(labels[i]);
  free(labels);
  free(curves);
  free(xs);
  free(ys);
  return rc;
}
