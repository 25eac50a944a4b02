/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare's comparison and picture (rep_compare.h): the metrics two tables share, those chosen compared value
 * by value on the points rep_pairing pairs, a summary that fits one screen, every point on request, and one metric of
 * both drawn against p with rep_line_chart. */
#include "rep_compare.h"
#include "bas_error.h"

#include "rep_chart.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The summary's bounds: 20 lines at most (8 of them always there, 2 for each largest difference, a title and the cells
 * of each list, and a line for the keys of one table only), 80 columns. */
enum { WIDTH = 80, MAX_BEYOND_SHOWN = 4, MAX_NOTES_SHOWN = 2 };

/* Columns of simrun's tables that are neither keys nor metrics: names, paths and provenance. */
static const char *const not_metrics[] = {"scenario",       "platform",        "skeleton", "platform_file",
                                          "simrun_version", "simgrid_version", "command",  "scenario_hash"};

/* The metrics compared when --metric does not choose. */
static const char *const default_metrics[] = {"t_par_s", "speedup"};

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

/* The metrics compared: a's and b's column of each, and how many both tables have. */
typedef struct metrics {
  size_t n, *ja, *jb;
  size_t shared;
  int fallback; /* neither default metric in both: every metric both have */
} metrics_t;

/* b's column of a's column j when it is a metric of both, else -1. */
static long shared_metric(const rep_table_t *a, const rep_table_t *b, size_t j)
{
  long jb = column(b, a->names[j]);
  return jb >= 0 && !rep_pairing_is_key(a, j) && !rep_pairing_is_key(b, (size_t)jb) && !is_name(a->names[j]) ? jb : -1;
}

static void add_metric(metrics_t *m, size_t ja, long jb)
{
  m->ja[m->n] = ja;
  m->jb[m->n++] = (size_t)jb;
}

/* The --metric names into m. 0, or BAS_EINVAL with the message when one is not a metric of both tables. */
static int named_metrics(const rep_table_t *a, const rep_table_t *b, const rep_compare_opts_t *o, metrics_t *m,
                         char *err, size_t errlen)
{
  for (size_t k = 0; k < o->nmetrics; k++) {
    long ja = column(a, o->metrics[k]), jb = ja >= 0 ? shared_metric(a, b, (size_t)ja) : -1;
    if (jb < 0) {
      const char *lacks = ja < 0 ? a->label : column(b, o->metrics[k]) < 0 ? b->label : NULL;
      snprintf(err, errlen, "--metric %s: %s%s; name a column of both tables that is not a key (or all)", o->metrics[k],
               lacks ? lacks : "a key or a name, not a metric", lacks ? " has no such column" : "");
      return BAS_EINVAL;
    }
    add_metric(m, (size_t)ja, jb);
  }
  return 0;
}

/* Chooses the metrics compared into m. 0, BAS_EINVAL with the message (a wrong --metric, no metric in common),
 * BAS_ENOMEM with it when out of memory. */
static int choose_metrics(const rep_table_t *a, const rep_table_t *b, const rep_compare_opts_t *o, metrics_t *m,
                          char *err, size_t errlen)
{
  *m = (metrics_t){.ja = malloc((a->ncols + o->nmetrics + 1) * sizeof *m->ja),
                   .jb = malloc((a->ncols + o->nmetrics + 1) * sizeof *m->jb)};
  if (!m->ja || !m->jb) {
    snprintf(err, errlen, "out of memory");
    return BAS_ENOMEM;
  }
  for (size_t j = 0; j < a->ncols; j++)
    m->shared += shared_metric(a, b, j) >= 0;
  if (m->shared == 0) {
    snprintf(err, errlen, "%s and %s share no metric column (such as t_par_s); name the measured figures as simrun's",
             a->label, b->label);
    return BAS_EINVAL;
  }
  if (o->nmetrics > 0 && !o->all)
    return named_metrics(a, b, o, m, err, errlen);
  for (size_t d = 0; !o->all && d < sizeof default_metrics / sizeof default_metrics[0]; d++) {
    long ja = column(a, default_metrics[d]), jb = ja >= 0 ? shared_metric(a, b, (size_t)ja) : -1;
    if (jb >= 0)
      add_metric(m, (size_t)ja, jb);
  }
  m->fallback = !o->all && m->n == 0;
  for (size_t j = 0; (o->all || m->fallback) && j < a->ncols; j++)
    if (shared_metric(a, b, j) >= 0)
      add_metric(m, j, shared_metric(a, b, j));
  return 0;
}

static void metrics_free(metrics_t *m)
{
  free(m->ja);
  free(m->jb);
}

/* A cell of a's (row i) against b's (row j) for metric k. */
typedef struct cell {
  size_t i, j, k;
  double va, vb;
} cell_t;

/* What the comparison found, for the summary. */
typedef struct found {
  rep_compare_result_t r;
  cell_t largest_rel, largest_abs, beyond[MAX_BEYOND_SHOWN], notes[MAX_NOTES_SHOWN];
  double rel, abs; /* the largest |relative| and |absolute| differences so far, -1 for none */
} found_t;

/* Whether a cell holds no finite value: empty (JSON's null), inf or nan, as simrun writes an undefined figure (the
 * granularity at p = 1 is inf in the CSV and null in the JSON). */
static int undefined(const char *text)
{
  static const char *const words[] = {"", "inf", "+inf", "-inf", "nan", "-nan"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strcmp(text, words[i]) == 0)
      return 1;
  return 0;
}

/* (B - A) / |A|, infinite when A is 0 and B is not. */
static double relative(double va, double vb)
{
  return va != 0 ? (vb - va) / fabs(va) : vb == va ? 0 : copysign(INFINITY, vb - va);
}

static int beyond(const rep_compare_opts_t *o, double va, double vb)
{
  return fabs(vb - va) > o->atol + o->rtol * fmax(fabs(va), fabs(vb));
}

/* Compares one cell pair into f; 1 when it is beyond the tolerance or not comparable. */
static int compare_cell(const rep_table_t *a, const rep_table_t *b, const metrics_t *m, const rep_compare_opts_t *o,
                        cell_t c, found_t *f)
{
  const char *ta = a->rows[c.i][m->ja[c.k]], *tb = b->rows[c.j][m->jb[c.k]];
  if (!rep_pairing_number(ta, &c.va) || !rep_pairing_number(tb, &c.vb)) {
    if (strcmp(ta, tb) == 0 || (undefined(ta) && undefined(tb)))
      return 0;
    if (f->r.not_numbers < MAX_NOTES_SHOWN)
      f->notes[f->r.not_numbers] = c;
    f->r.not_numbers++;
    return 1;
  }
  f->r.values++;
  double d = fabs(c.vb - c.va), rel = fabs(relative(c.va, c.vb));
  if (d > f->abs)
    f->abs = d, f->largest_abs = c;
  if (d > o->atol && rel > f->rel)
    f->rel = rel, f->largest_rel = c;
  if (!beyond(o, c.va, c.vb))
    return 0;
  if (f->r.beyond < MAX_BEYOND_SHOWN)
    f->beyond[f->r.beyond] = c;
  f->r.beyond++;
  return 1;
}

/* One line of the summary, cut to WIDTH columns with "..." where longer. */
static void line(FILE *out, const char *fmt, ...)
{
  char text[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (strlen(text) > WIDTH)
    strcpy(text + WIDTH - 3, "...");
  fprintf(out, "%s\n", text);
}

/* "-5.00%", "+inf (A = 0)": a relative difference as printed. */
static void percent(double rel, char *buf, size_t len)
{
  if (isinf(rel))
    snprintf(buf, len, "from 0");
  else
    snprintf(buf, len, "%+.2f%%", 100 * rel);
}

/* "t_par_s 6 -> 5.7 (-5.00%) at broadcast = neighbour, p = 2", the point on a line of its own after a `lead` that
 * ends with ':'. */
static void print_cell(FILE *out, const char *lead, const rep_table_t *a, const rep_pairing_t *pr, const metrics_t *m,
                       const cell_t *c)
{
  char point[2048], rel[64];
  rep_pairing_point(a, pr->ka, pr->nkeys, c->i, point, sizeof point);
  percent(relative(c->va, c->vb), rel, sizeof rel);
  int apart = lead[0] && lead[strlen(lead) - 1] == ':';
  line(out, "%s %s %.6g -> %.6g (%s)%s%s", lead, a->names[m->ja[c->k]], c->va, c->vb, rel, apart ? "" : " at ",
       apart ? "" : point);
  if (apart)
    line(out, "  at %s", point);
}

/* The file name of a table's path, for the summary's lines (the first two give the paths). */
static const char *base(const rep_table_t *t)
{
  const char *slash = strrchr(t->label, '/');
  return slash && slash[1] ? slash + 1 : t->label;
}

/* "B.csv:14 (B): speedup 'abc' is not a number (A: '1.5')": a cell that is not a number. */
static void print_note(FILE *out, const rep_table_t *a, const rep_table_t *b, const metrics_t *m, const cell_t *c)
{
  const char *ta = a->rows[c->i][m->ja[c->k]], *tb = b->rows[c->j][m->jb[c->k]];
  double x;
  int a_bad = !rep_pairing_number(ta, &x);
  const rep_table_t *t = a_bad ? a : b;
  size_t row = a_bad ? c->i : c->j;
  char at[64] = "";
  if (t->lines)
    snprintf(at, sizeof at, ":%zu", t->lines[row]);
  else
    snprintf(at, sizeof at, ", point %zu", row + 1);
  line(out, "  %s%s (%c): %s '%s' is not a number (%c: '%s')", base(t), at, a_bad ? 'A' : 'B', a->names[m->ja[c->k]],
       a_bad ? ta : tb, a_bad ? 'B' : 'A', a_bad ? tb : ta);
}

/* "t_par_s, speedup": the metrics compared. */
static void metric_names(const rep_table_t *a, const metrics_t *m, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < m->n && used < len; k++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? ", " : "", a->names[m->ja[k]]);
}

/* The keys of t that are not paired, into buf ("" for none). */
static void unpaired_keys(const rep_table_t *t, const size_t *paired, size_t npaired, char *buf, size_t len)
{
  size_t keys[64], n = rep_pairing_keys(t, keys, 64), used = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < n && used < len; k++) {
    size_t q = 0;
    while (q < npaired && paired[q] != keys[k])
      q++;
    if (q == npaired)
      used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", t->names[keys[k]]);
  }
}

static void print_head(FILE *out, const rep_table_t *a, const rep_table_t *b, const rep_pairing_t *pr,
                       const metrics_t *m, const rep_compare_opts_t *o)
{
  char names[4096], only_a[1024], only_b[1024];
  for (int k = 0; k < 2; k++) { /* the file's end shown, where its name is */
    const char *label = (k ? b : a)->label;
    size_t len = strlen(label);
    line(out, "%c: %s%s", k ? 'B' : 'A', len > WIDTH - 3 ? "..." : "",
         len > WIDTH - 3 ? label + len - (WIDTH - 6) : label);
  }
  size_t used = 0;
  names[0] = '\0';
  for (size_t k = 0; k < pr->nkeys; k++)
    used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", k ? ", " : "", a->names[pr->ka[k]]);
  line(out, "Points: %zu paired on %s; %zu only in A, %zu only in B", pr->points, names, a->nrows - pr->points,
       b->nrows - pr->points);
  unpaired_keys(a, pr->ka, pr->nkeys, only_a, sizeof only_a);
  unpaired_keys(b, pr->kb, pr->nkeys, only_b, sizeof only_b);
  if (only_a[0] || only_b[0])
    line(out, "Not paired on (a key of one table only): %s%s%s", only_a, only_a[0] && only_b[0] ? ", " : "", only_b);
  metric_names(a, m, names, sizeof names);
  if (m->fallback)
    line(out, "Metrics (all %zu, no t_par_s or speedup in both): %s", m->n, names);
  else if (m->shared == m->n)
    line(out, "Metrics (all %zu both have): %s", m->n, names);
  else
    line(out, "Metrics (%zu of the %zu both have; --metric to choose): %s", m->n, m->shared, names);
  line(out, "Equal when |B - A| <= atol + rtol max(|A|, |B|); rtol = %g, atol = %g", o->rtol, o->atol);
}

static void print_summary(FILE *out, const rep_table_t *a, const rep_table_t *b, const rep_pairing_t *pr,
                          const metrics_t *m, const rep_compare_opts_t *o, const found_t *f)
{
  print_head(out, a, b, pr, m, o);
  line(out, "Compared: %zu values, %zu beyond the tolerance; %zu cells not numbers", f->r.values, f->r.beyond,
       f->r.not_numbers);
  if (f->rel >= 0)
    print_cell(out, "Largest relative difference:", a, pr, m, &f->largest_rel);
  if (f->abs > 0)
    print_cell(out, "Largest absolute difference:", a, pr, m, &f->largest_abs);
  else
    line(out, "Largest difference: none, every value compared is equal");
  if (f->r.beyond > 0)
    line(out, "Beyond the tolerance (%s%zu):", f->r.beyond > MAX_BEYOND_SHOWN ? "the first 4 of " : "", f->r.beyond);
  for (size_t i = 0; i < f->r.beyond && i < MAX_BEYOND_SHOWN; i++)
    print_cell(out, " ", a, pr, m, &f->beyond[i]);
  if (f->r.not_numbers > 0)
    line(out,
         "Not numbers, counted as differences (%s%zu):", f->r.not_numbers > MAX_NOTES_SHOWN ? "the first 2 of " : "",
         f->r.not_numbers);
  for (size_t i = 0; i < f->r.not_numbers && i < MAX_NOTES_SHOWN; i++)
    print_note(out, a, b, m, &f->notes[i]);
  size_t differ = f->r.beyond + f->r.not_numbers;
  if (differ == 0)
    line(out, "Verdict: equal within the tolerance (exit status 0)");
  else
    line(out, "Verdict: %zu difference%s (exit status 1)%s", differ, differ == 1 ? "" : "s",
         o->full ? "" : "; --full lists every point");
}

/* One metric's line of --full. */
static void print_value(FILE *out, const char *name, const char *ta, const char *tb, const rep_compare_opts_t *o)
{
  double va, vb;
  if (!rep_pairing_number(ta, &va) || !rep_pairing_number(tb, &vb)) {
    fprintf(out, "  %-16s %13s %13s%s\n", name, ta, tb, strcmp(ta, tb) == 0 ? "" : "  not numbers");
    return;
  }
  char rel[64] = "-";
  if (va != 0)
    percent(relative(va, vb), rel, sizeof rel);
  fprintf(out, "  %-16s %13.9g %13.9g %+13.9g %9s%s\n", name, va, vb, vb - va, rel,
          beyond(o, va, vb) ? "  beyond" : "");
}

/* --full: every paired point's values in a's order, then the points of one table only. */
static void print_full(FILE *out, const rep_table_t *a, const rep_table_t *b, const rep_pairing_t *pr,
                       const metrics_t *m, const rep_compare_opts_t *o)
{
  char point[4096];
  fprintf(out, "\nEvery point (--full)\n  %-16s %13s %13s %13s %9s\n", "metric", "A", "B", "B - A", "(B-A)/|A|");
  for (size_t i = 0; i < a->nrows; i++) {
    long j = pr->partner[i];
    if (j < 0)
      continue;
    rep_pairing_point(a, pr->ka, pr->nkeys, i, point, sizeof point);
    fprintf(out, "%s\n", point);
    for (size_t k = 0; k < m->n; k++)
      print_value(out, a->names[m->ja[k]], a->rows[i][m->ja[k]], b->rows[j][m->jb[k]], o);
  }
  for (size_t i = 0; i < a->nrows; i++)
    if (pr->partner[i] < 0) {
      rep_pairing_point(a, pr->ka, pr->nkeys, i, point, sizeof point);
      fprintf(out, "Only in A: %s\n", point);
    }
  char *paired = calloc(b->nrows + 1, 1);
  for (size_t i = 0; paired && i < a->nrows; i++)
    if (pr->partner[i] >= 0)
      paired[pr->partner[i]] = 1;
  for (size_t j = 0; paired && j < b->nrows; j++)
    if (!paired[j]) {
      rep_pairing_point(b, pr->kb, pr->nkeys, j, point, sizeof point);
      fprintf(out, "Only in B: %s\n", point);
    }
  if (!paired)
    fprintf(out, "(the points only in B: out of memory)\n");
  free(paired);
}

int rep_compare_print(FILE *out, const rep_table_t *a, const rep_table_t *b, const rep_compare_opts_t *opts,
                      rep_compare_result_t *result, char *err, size_t errlen)
{
  rep_pairing_t pr;
  metrics_t m = {0};
  int rc = rep_pairing_make(a, b, &pr, err, errlen);
  rc = rc == 0 ? choose_metrics(a, b, opts, &m, err, errlen) : rc;
  found_t f = {.rel = -1, .abs = -1};
  for (size_t i = 0; rc == 0 && i < a->nrows; i++)
    for (size_t k = 0; pr.partner[i] >= 0 && k < m.n; k++)
      compare_cell(a, b, &m, opts, (cell_t){.i = i, .j = (size_t)pr.partner[i], .k = k}, &f);
  if (rc == 0) {
    print_summary(out, a, b, &pr, &m, opts, &f);
    if (opts->full)
      print_full(out, a, b, &pr, &m, opts);
    *result = f.r;
  }
  rep_pairing_free(&pr);
  metrics_free(&m);
  return rc == 0 && ferror(out) ? BAS_EIO : rc;
}

/* What the picture draws of a table read from anywhere: a p that can be a process count, a value within what a time
 * or ratio can be (10^15 s is 30 million years); others are left out (the chart's axes are drawn for simrun's
 * ranges). */
#define MAX_P 1e9
#define MAX_Y 1e15

/* The curves of one table: a group per distinct key values but p, its points in the table's order. Fills curves
 * (labels, x and y owned by the caller's arrays) from *n on; returns 0, or BAS_ENOMEM. */
static int table_curves(const rep_table_t *t, const char *tag, long metric, rep_curve_t *curves, size_t *n, size_t max,
                        char **labels, double *xs, double *ys, size_t *used)
{
  size_t keys[64], nkeys = rep_pairing_keys(t, keys, 64);
  long p = column(t, "p");
  char *done = calloc(t->nrows + 1, 1);
  if (!done)
    return BAS_ENOMEM;
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
      if (rep_pairing_number(t->rows[r][p], &x) && x == floor(x) && x >= 1 && x <= MAX_P)
        xs[*used] = x, ys[*used] = rep_pairing_number(t->rows[r][metric], &y) && fabs(y) <= MAX_Y ? y : NAN, (*used)++,
        c->n++;
    }
    (*n)++;
  }
  free(done);
  return 0;
}

int rep_compare_svg(FILE *out, const rep_table_t *a, const rep_table_t *b, const rep_compare_opts_t *opts, char *err,
                    size_t errlen)
{
  metrics_t m;
  int rc = choose_metrics(a, b, opts, &m, err, errlen);
  if (rc != 0) {
    metrics_free(&m);
    return rc;
  }
  long ma = (long)m.ja[0], mb = (long)m.jb[0];
  const char *metric = a->names[ma];
  metrics_free(&m);
  size_t max = a->nrows + b->nrows, n = 0, used = 0;
  rep_curve_t *curves = calloc(max + 1, sizeof *curves);
  char **labels = calloc(max + 1, sizeof *labels);
  double *xs = malloc((max + 1) * sizeof *xs), *ys = malloc((max + 1) * sizeof *ys);
  rc = curves && labels && xs && ys ? 0 : BAS_ENOMEM;
  if (rc == 0)
    rc = table_curves(a, "A", ma, curves, &n, max, labels, xs, ys, &used);
  if (rc == 0)
    rc = table_curves(b, "B", mb, curves, &n, max, labels, xs, ys, &used);
  char title[512];
  snprintf(title, sizeof title, "%s: A = %s, B = %s", metric, a->label, b->label);
  rep_chart_t chart = {
      .title = title, .subtitle = "simrun compare", .x_label = "p", .y_label = metric, .var = "p", .log_span = 100};
  size_t drawn = 0; /* points with a number in both p and the metric */
  for (size_t i = 0; rc == 0 && i < used; i++)
    drawn += isfinite(ys[i]);
  if (rc == 0 && drawn == 0) {
    snprintf(err, errlen,
             "--svg: nothing to draw, no row of %s or %s has both a p from 1 to 10^9 and a %s within "
             "+-10^15; choose another metric with --metric",
             a->label, b->label, metric);
    rc = BAS_EINVAL;
  }
  if (rc == 0)
    rc = rep_line_chart(out, &chart, curves, n);
  if (rc != 0 && rc != BAS_EINVAL)
    snprintf(err, errlen, "drawing the comparison failed: %s", bas_strerror(rc));
  for (size_t i = 0; labels && i < n; i++)
    free(labels[i]);
  free(labels);
  free(curves);
  free(xs);
  free(ys);
  return rc;
}
