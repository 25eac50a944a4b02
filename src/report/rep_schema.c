/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The walkers of a view's table declaration (rep_schema.h): its columns expanded for a study, written as CSV fields,
 * JSON members, and cells of the terminal's and the HTML page's tables, each format from the one declaration. */
#include "rep_schema.h"
#include "rep_json.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

rep_cell_t rep_cell_num(double x)
{
  return (rep_cell_t){.num = x};
}

rep_cell_t rep_cell_text(const char *text)
{
  return (rep_cell_t){.num = NAN, .text = text ? text : ""};
}

const char *rep_cell_string(const rep_cell_t *cell)
{
  return cell->made ? cell->buf : cell->text;
}

/* pattern with its "%s" filled by label, made lower case with '-' as '_' when `lower`. */
static void expand(char *buf, size_t len, const char *pattern, const char *label, int lower)
{
  char name[64];
  snprintf(name, sizeof name, "%s", label ? label : "");
  for (char *c = name; lower && *c; c++)
    *c = *c == '-' ? '_' : (char)tolower((unsigned char)*c);
  snprintf(buf, len, pattern ? pattern : "", name); /* NOLINT: the patterns are the schemas' own, one %s at most */
}

static void make_col(rep_col_t *col, const rep_column_t *decl, int i)
{
  const char *label = decl->each ? decl->label(i) : NULL;
  char json_label[64];
  col->decl = decl;
  col->i = i;
  expand(col->csv, sizeof col->csv, decl->csv, label, !(decl->in & REP_CSV_AS_IS));
  if (label)
    rep_json_snake(json_label, sizeof json_label, label);
  expand(col->json, sizeof col->json, decl->json, label ? json_label : NULL, 0);
  expand(col->head, sizeof col->head, decl->head, label, 0);
}

size_t rep_schema_columns(const rep_schema_t *schema, const stu_study_t *study, unsigned in, rep_col_t *cols,
                          size_t max)
{
  size_t n = 0;
  for (const rep_column_t *c = schema->columns; c < schema->columns + schema->ncolumns; c++) {
    if (!(c->in & in) || (study && c->has && !c->has(study, in)))
      continue;
    for (int i = 0; i < (c->each ? c->each : 1) && n < max; i++)
      make_col(&cols[n++], c, i);
  }
  return n;
}

rep_cell_t rep_col_get(const rep_col_t *col, const rep_at_t *at)
{
  return col->decl->get(at, col->i);
}

enum { MAX_COLS = 96 };

void rep_schema_csv_head(FILE *out, const rep_schema_t *schema, const stu_study_t *study)
{
  rep_col_t cols[MAX_COLS];
  size_t n = rep_schema_columns(schema, study, REP_IN_CSV, cols, MAX_COLS);
  for (size_t c = 0; c < n; c++)
    fprintf(out, ",%s", cols[c].csv);
}

void rep_csv_field(FILE *out, const char *text)
{
  if (!strpbrk(text, ",\"\r\n")) {
    fputs(text, out);
    return;
  }
  fputc('"', out);
  for (const char *c = text; *c; c++)
    fprintf(out, *c == '"' ? "\"\"" : "%c", *c);
  fputc('"', out);
}

static void csv_cell(FILE *out, const rep_col_t *col, const rep_cell_t *cell)
{
  fputc(',', out);
  if (rep_cell_string(cell))
    rep_csv_field(out, rep_cell_string(cell));
  else if (isnan(cell->num))
    return;
  else if (col->decl->format == REP_FMT_BOOL)
    fputs(cell->num != 0 ? "yes" : "no", out);
  else if (isinf(cell->num))
    fputs(cell->num < 0 ? "-inf" : "inf", out);
  else
    fprintf(out, col->decl->format == REP_FMT_INT || col->decl->format == REP_FMT_FLAG ? "%.0f" : "%.9g", cell->num);
}

void rep_schema_csv_row(FILE *out, const rep_schema_t *schema, const rep_at_t *at)
{
  rep_col_t cols[MAX_COLS];
  size_t n = rep_schema_columns(schema, at->study, REP_IN_CSV, cols, MAX_COLS);
  for (size_t c = 0; c < n; c++) {
    rep_cell_t cell = rep_col_get(&cols[c], at);
    csv_cell(out, &cols[c], &cell);
  }
}

static void json_cell(FILE *out, const rep_col_t *col, const rep_cell_t *cell)
{
  const char *text = rep_cell_string(cell);
  if (text && *text)
    rep_json_string(out, text);
  else if (text || isnan(cell->num))
    fputs("null", out);
  else if (col->decl->format == REP_FMT_BOOL || col->decl->format == REP_FMT_FLAG)
    fputs(cell->num != 0 ? "true" : "false", out);
  else if (col->decl->format == REP_FMT_INT && isfinite(cell->num))
    fprintf(out, "%.0f", cell->num);
  else
    rep_json_number(out, cell->num);
}

/* How many leading dotted segments two JSON paths' parents share ("a.b.x" and "a.b.y": 2; "a.x" and "b": 0). */
static int shared_parents(const char *a, const char *b)
{
  int shared = 0;
  for (size_t k = 0;; k++) {
    const char *da = strchr(a + k, '.'), *db = strchr(b + k, '.');
    if (!da || !db || da - a != db - b || strncmp(a, b, (size_t)(da - a)) != 0)
      return shared;
    shared++;
    k = (size_t)(da - a);
  }
}

static int depth(const char *path)
{
  int n = 0;
  for (const char *c = path; *c; c++)
    n += *c == '.';
  return n;
}

/* Opens the objects of `path`'s parents below the first `from`, then writes its own key. */
static void json_open(FILE *out, const char *path, int from)
{
  const char *seg = path;
  for (int d = 0; d < depth(path); d++) {
    const char *dot = strchr(seg, '.');
    if (d >= from) {
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)(dot - seg), seg);
      rep_json_key(out, name);
      fputc('{', out);
    }
    seg = dot + 1;
  }
  rep_json_key(out, seg);
}

void rep_schema_json_row(FILE *out, const rep_schema_t *schema, const rep_at_t *at, int first)
{
  rep_col_t cols[MAX_COLS];
  size_t n = rep_schema_columns(schema, at->study, REP_IN_JSON, cols, MAX_COLS);
  const char *open = ""; /* the last path written: its parents are the objects open */
  for (size_t c = 0; c < n; c++) {
    int keep = shared_parents(open, cols[c].json);
    for (int d = depth(open); d > keep; d--)
      fputc('}', out);
    fputs(first && c == 0 ? "" : ", ", out);
    json_open(out, cols[c].json, keep);
    rep_cell_t cell = rep_col_get(&cols[c], at);
    json_cell(out, &cols[c], &cell);
    open = cols[c].json;
  }
  for (int d = depth(open); d > 0; d--)
    fputc('}', out);
}

void rep_schema_json_rows(FILE *out, const char *key, const rep_schema_t *schema, const rep_at_t *at, size_t count)
{
  fprintf(out, ",\n     ");
  rep_json_key(out, key);
  fputc('[', out);
  for (size_t r = 0; r < count; r++) {
    fprintf(out, "%s\n       {", r ? "," : "");
    rep_schema_json_row(out, schema, &at[r], 1);
    fputc('}', out);
  }
  fputc(']', out);
}

/* Whether column `c` of `u` is one of the schema's time columns that share one unit (rep_schema_t.same_unit). */
static int shares_unit(const rep_units_t *u, const rep_schema_t *schema, size_t c)
{
  for (const char *const *name = schema->same_unit; name && *name; name++)
    if (u->cols[c].decl->format == REP_FMT_TIME && strcmp(u->cols[c].decl->csv, *name) == 0)
      return 1;
  return 0;
}

/* The schema's time columns that share one unit read in the unit picked from all their values; each keeps its own
 * when out of memory. */
static void share_unit(rep_units_t *u, const rep_schema_t *schema, const rep_at_t *at, size_t count)
{
  double *values = schema->same_unit ? malloc(u->n * (count ? count : 1) * sizeof *values) : NULL;
  size_t k = 0;
  for (size_t c = 0; values && c < u->n; c++)
    for (size_t r = 0; shares_unit(u, schema, c) && r < count; r++)
      values[k++] = rep_col_get(&u->cols[c], &at[r]).num;
  rep_unit_t unit = rep_unit_pick(values, values ? k : 0);
  for (size_t c = 0; values && c < u->n; c++)
    if (shares_unit(u, schema, c))
      u->unit[c] = unit;
  free(values);
}

void rep_units_make(rep_units_t *u, const rep_schema_t *schema, unsigned in, const rep_at_t *at, size_t count)
{
  u->in = in;
  u->n = rep_schema_columns(schema, count ? at[0].study : NULL, in, u->cols, MAX_COLS);
  for (size_t c = 0; c < u->n; c++) {
    double values[count ? count : 1];
    for (size_t r = 0; r < count; r++)
      values[r] = rep_col_get(&u->cols[c], &at[r]).num;
    u->unit[c] = rep_unit_pick(values, u->cols[c].decl->format == REP_FMT_TIME ? count : 0);
  }
  share_unit(u, schema, at, count);
}

void rep_units_head(const rep_units_t *u, size_t c, char *buf, size_t len)
{
  const rep_column_t *d = u->cols[c].decl;
  if (d->format == REP_FMT_TIME)
    snprintf(buf, len, "%s (%s)", u->cols[c].head, u->unit[c].name);
  else if (*d->unit)
    snprintf(buf, len, "%s (%s)", u->cols[c].head, d->unit);
  else
    snprintf(buf, len, "%s", u->cols[c].head);
}

/* A number as the terminal shows it in format f. */
static void term_number(char *buf, size_t len, double x, rep_format_t f)
{
  if (f == REP_FMT_DIFF && !isfinite(x))
    snprintf(buf, len, "-");
  else if (isinf(x))
    snprintf(buf, len, "%sinf", x < 0 ? "-" : "");
  else if (f == REP_FMT_FIXED3)
    snprintf(buf, len, "%.3f", x);
  else if (f == REP_FMT_PERCENT)
    snprintf(buf, len, "%.1f%%", 100 * x);
  else if (f == REP_FMT_RATIO) /* rounding noise of either sign shows as 0.0000, never -0.0000 */
    snprintf(buf, len, "%.4f", fabs(x) < 5e-5 ? 0.0 : x);
  else
    snprintf(buf, len, "%+.1f%%", fabs(100 * x) < 0.05 ? 0.0 : 100 * x);
}

void rep_units_cell(const rep_units_t *u, size_t c, const rep_at_t *at, char *buf, size_t len)
{
  rep_format_t f = u->cols[c].decl->format;
  rep_cell_t cell = rep_col_get(&u->cols[c], at);
  if (rep_cell_string(&cell))
    snprintf(buf, len, "%s", rep_cell_string(&cell));
  else if (isnan(cell.num) && u->in != REP_IN_TERM) /* the page's empty cell, as the CSV's */
    snprintf(buf, len, "%s", "");
  else if (f == REP_FMT_TIME)
    rep_unit_format(buf, len, cell.num, &u->unit[c]);
  else if (f == REP_FMT_BOOL && !isnan(cell.num))
    snprintf(buf, len, "%s", cell.num != 0 ? "yes" : "no");
  else if (isnan(cell.num) && f != REP_FMT_DIFF)
    snprintf(buf, len, "-");
  else if (f == REP_FMT_INT || f == REP_FMT_FLAG)
    snprintf(buf, len, "%.0f", cell.num);
  else
    term_number(buf, len, cell.num, f);
}

int rep_units_exact(const rep_units_t *u, size_t c, const rep_at_t *at, char *buf, size_t len)
{
  rep_format_t f = u->cols[c].decl->format;
  rep_cell_t cell = rep_col_get(&u->cols[c], at);
  if (rep_cell_string(&cell) || !isfinite(cell.num) || f == REP_FMT_INT || f == REP_FMT_FLAG || f == REP_FMT_BOOL ||
      f == REP_FMT_TEXT)
    return 0;
  snprintf(buf, len, f == REP_FMT_TIME ? "%.9g s" : "%.9g", cell.num);
  return 1;
}

/* The heads and the rows `at` as a rep_cols table, columns in u's order, the leading key columns repeated in each
 * group. NULL when out of memory. */
static rep_cols_t *schema_cols(const rep_units_t *u, const rep_at_t *at, size_t count)
{
  size_t keys = 0;
  while (keys < u->n && u->cols[keys].decl->key)
    keys++;
  rep_cols_t *cols = rep_cols_new(u->n, keys);
  char text[96];
  for (size_t c = 0; cols && c < u->n; c++) {
    rep_units_head(u, c, text, sizeof text);
    rep_cols_add(cols, "%s", text);
  }
  for (size_t r = 0; cols && r < count; r++)
    for (size_t c = 0; c < u->n; c++) {
      rep_units_cell(u, c, &at[r], text, sizeof text);
      rep_cols_add(cols, "%s", text);
    }
  return cols;
}

void rep_schema_print(FILE *out, const rep_schema_t *schema, const rep_at_t *at, size_t count, int width)
{
  rep_units_t *u = count ? malloc(sizeof *u) : NULL;
  if (!u)
    return;
  rep_units_make(u, schema, REP_IN_TERM, at, count);
  rep_cols_t *cols = schema_cols(u, at, count);
  free(u);
  if (cols)
    rep_cols_print(out, cols, "", width);
  rep_cols_free(cols);
}
