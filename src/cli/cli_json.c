/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun's results JSON as a table (cli_json.h): a small recursive-descent reader (RFC 8259, nesting at most 32 deep)
 * that keeps the scalars of each point under the CSV's column names and skips lists. */
#include "cli_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 32, MAX_TEXT = 4096, MAX_COLUMNS = 1024 };

typedef struct reader {
  const char *at, *end;
  int line, depth;
  const char *why; /* the first error, or NULL */
} reader_t;

/* One point's columns: name and value pairs (malloc'd), keys first. */
typedef struct pairs {
  char *name[MAX_COLUMNS], *value[MAX_COLUMNS];
  char param[MAX_COLUMNS]; /* a member of "params": a key column */
  size_t n;
} pairs_t;

static int failed(reader_t *r, const char *why)
{
  if (!r->why)
    r->why = why;
  return -1;
}

static void skip_space(reader_t *r)
{
  for (; r->at < r->end && strchr(" \t\r\n", *r->at); r->at++)
    r->line += *r->at == '\n';
}

static int expect(reader_t *r, char c)
{
  skip_space(r);
  if (r->at < r->end && *r->at == c) {
    r->at++;
    return 0;
  }
  static char why[64];
  snprintf(why, sizeof why, "'%c' expected", c);
  return failed(r, why);
}

/* A string into buf (escapes decoded; \u as '?' beyond ASCII). */
static int read_string(reader_t *r, char *buf, size_t cap)
{
  size_t n = 0;
  if (expect(r, '"') != 0)
    return -1;
  while (r->at < r->end && *r->at != '"') {
    char c = *r->at++;
    if (c == '\n' || (unsigned char)c < 0x20)
      return failed(r, "a control character inside a string; escape it");
    if (c == '\\' && r->at < r->end) {
      char e = *r->at++;
      const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *k = strchr(from, e);
      if (e == 'u' && r->end - r->at >= 4) {
        unsigned code = 0;
        if (sscanf(r->at, "%4x", &code) != 1)
          return failed(r, "a bad \\u escape");
        r->at += 4;
        c = code < 0x80 ? (char)code : '?';
      } else if (k && e)
        c = to[k - from];
      else
        return failed(r, "a bad escape in a string");
    }
    if (n + 1 >= cap)
      return failed(r, "a string longer than 4096 characters");
    buf[n++] = c;
  }
  buf[n] = '\0';
  return expect(r, '"');
}

/* A number, true, false or null as the CSV writes it (the number's text; yes, no; empty). */
static int read_word(reader_t *r, char *buf, size_t cap)
{
  static const char *const words[][2] = {{"true", "yes"}, {"false", "no"}, {"null", ""}};
  for (size_t i = 0; i < 3; i++)
    if ((size_t)(r->end - r->at) >= strlen(words[i][0]) && strncmp(r->at, words[i][0], strlen(words[i][0])) == 0) {
      r->at += strlen(words[i][0]);
      snprintf(buf, cap, "%s", words[i][1]);
      return 0;
    }
  size_t n = strspn(r->at, "0123456789+-.eE");
  if (n == 0 || n >= cap || r->at + n > r->end)
    return failed(r, "a value expected (a string, number, object, list, true, false or null)");
  memcpy(buf, r->at, n);
  buf[n] = '\0';
  r->at += n;
  return 0;
}

static int skip_value(reader_t *r);

/* The members of an object or list (the opening character read), each by `member`. */
static int read_members(reader_t *r, char close, int (*member)(reader_t *, void *), void *ctx)
{
  if (++r->depth > MAX_DEPTH)
    return failed(r, "nested more than 32 deep");
  skip_space(r);
  if (r->at < r->end && *r->at == close) {
    r->at++;
    r->depth--;
    return 0;
  }
  for (;;) {
    if (member(r, ctx) != 0)
      return -1;
    skip_space(r);
    if (r->at < r->end && *r->at == ',') {
      r->at++;
      continue;
    }
    r->depth--;
    return expect(r, close);
  }
}

static int skip_member(reader_t *r, void *ctx)
{
  char key[MAX_TEXT];
  return read_string(r, key, sizeof key) != 0 || expect(r, ':') != 0 ? -1 : skip_value(r);
}

static int skip_element(reader_t *r, void *ctx)
{
  return skip_value(r);
}

static int skip_value(reader_t *r)
{
  char text[MAX_TEXT];
  skip_space(r);
  if (r->at >= r->end)
    return failed(r, "the file ends inside a value");
  if (*r->at == '{' || *r->at == '[') {
    char open = *r->at++;
    return read_members(r, open == '{' ? '}' : ']', open == '{' ? skip_member : skip_element, NULL);
  }
  return *r->at == '"' ? read_string(r, text, sizeof text) : read_word(r, text, sizeof text);
}

static int add_pair(reader_t *r, pairs_t *p, const char *name, const char *value, int param)
{
  if (p->n >= MAX_COLUMNS)
    return failed(r, "a point with more than 1024 members");
  p->param[p->n] = (char)param;
  p->name[p->n] = strdup(name);
  p->value[p->n] = strdup(value);
  if (!p->name[p->n] || !p->value[p->n]) {
    free(p->name[p->n]);
    free(p->value[p->n]);
    return failed(r, "out of memory");
  }
  p->n++;
  return 0;
}

/* An object's members as columns named prefix + member + suffix (objects within, by the CSV's names). */
typedef struct scope {
  pairs_t *pairs;
  char prefix[256], suffix[8];
  int params; /* the point's "params" */
} scope_t;

static void inner_scope(const scope_t *outer, const char *key, scope_t *inner)
{
  static const char *const names[][3] = {
      {"params", "", ""},       {"bottleneck", "", ""},      {"overhead_ratios", "ovh_", ""},
      {"components", "", "_s"}, {"subcomponents", "", "_s"}, {"b_ratios", "b_", ""}};
  inner->pairs = outer->pairs;
  inner->params = strcmp(key, "params") == 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(key, names[i][0]) == 0) {
      snprintf(inner->prefix, sizeof inner->prefix, "%.120s%s", outer->prefix, names[i][1]);
      snprintf(inner->suffix, sizeof inner->suffix, "%s", names[i][2]);
      return;
    }
  snprintf(inner->prefix, sizeof inner->prefix, "%.120s%.60s_", outer->prefix, key);
  inner->suffix[0] = '\0';
}

static int point_member(reader_t *r, void *ctx)
{
  const scope_t *s = ctx;
  char key[MAX_TEXT], value[MAX_TEXT], name[MAX_TEXT + 300];
  if (read_string(r, key, sizeof key) != 0 || expect(r, ':') != 0)
    return -1;
  skip_space(r);
  if (r->at < r->end && *r->at == '{') {
    scope_t inner;
    inner_scope(s, key, &inner);
    r->at++;
    return read_members(r, '}', point_member, &inner);
  }
  if (r->at < r->end && *r->at == '[')
    return skip_value(r);
  if ((r->at < r->end && *r->at == '"' ? read_string(r, value, sizeof value) : read_word(r, value, sizeof value)) != 0)
    return -1;
  snprintf(name, sizeof name, "%s%s%s", s->prefix, key, s->suffix);
  return add_pair(r, s->pairs, name, value, s->params);
}

static void pairs_free(pairs_t *p)
{
  for (size_t i = 0; i < p->n; i++) {
    free(p->name[i]);
    free(p->value[i]);
  }
  p->n = 0;
}

/* The whole file: the run's names and the points, gathered into `t` as they come. */
typedef struct file {
  rep_table_t *t;
  char names[3][MAX_TEXT]; /* scenario, platform, skeleton */
  pairs_t point;
  size_t line; /* where the point read starts */
} file_t;

static long find(const pairs_t *p, const char *name)
{
  for (size_t i = 0; i < p->n; i++)
    if (strcmp(p->name[i], name) == 0)
      return (long)i;
  return -1;
}

/* The row of a point in the CSV's order: scenario, platform, skeleton, the parameters but p, p, the rest. */
static int order_row(reader_t *r, const file_t *f, pairs_t *row)
{
  static const char *const run_names[] = {"scenario", "platform", "skeleton"};
  const pairs_t *p = &f->point;
  long at_p = find(p, "p");
  if (at_p < 0)
    return failed(r, "a point without \"p\"");
  int rc = 0;
  for (size_t k = 0; k < 3 && rc == 0; k++) {
    long own = find(p, run_names[k]); /* a point's own platform */
    rc = add_pair(r, row, run_names[k], own >= 0 ? p->value[own] : f->names[k], 0);
  }
  for (size_t i = 0; i < p->n && rc == 0; i++)
    if (p->param[i] && strcmp(p->name[i], "p") != 0)
      rc = add_pair(r, row, p->name[i], p->value[i], 1);
  rc = rc ? rc : add_pair(r, row, "p", p->value[at_p], 1);
  for (size_t i = 0; i < p->n && rc == 0; i++)
    if (find(row, p->name[i]) < 0)
      rc = add_pair(r, row, p->name[i], p->value[i], 0);
  return rc;
}

/* Appends a point as a row; the first point's names are the table's. */
static int add_row(reader_t *r, file_t *f)
{
  pairs_t *row = calloc(1, sizeof *row);
  int rc = row ? order_row(r, f, row) : failed(r, "out of memory");
  rep_table_t *t = f->t;
  if (rc == 0 && !t->names) {
    t->names = calloc(row->n, sizeof *t->names);
    for (size_t j = 0; t->names && j < row->n; j++)
      t->names[j] = row->name[j], row->name[j] = strdup(t->names[j]);
    t->ncols = row->n;
  }
  char **fields = rc == 0 && t->names ? calloc(t->ncols, sizeof *fields) : NULL;
  char ***grown = fields ? realloc(t->rows, (t->nrows + 1) * sizeof *grown) : NULL;
  if (grown)
    t->rows = grown;
  size_t *lines = grown ? realloc(t->lines, (t->nrows + 1) * sizeof *lines) : NULL;
  if (lines)
    t->lines = lines;
  else
    grown = NULL;
  for (size_t j = 0; grown && j < t->ncols; j++) {
    long at = find(row, t->names[j]);
    fields[j] = strdup(at >= 0 ? row->value[at] : "");
    rc = fields[j] ? rc : -1;
  }
  if (grown) {
    t->lines[t->nrows] = f->line;
    t->rows[t->nrows++] = fields;
  } else
    free(fields);
  if (row)
    pairs_free(row);
  free(row);
  return rc == 0 && grown ? 0 : failed(r, "out of memory");
}

static int point(reader_t *r, void *ctx)
{
  file_t *f = ctx;
  scope_t s = {.pairs = &f->point};
  skip_space(r);
  if (r->at >= r->end || *r->at != '{')
    return failed(r, "a point that is not an object");
  r->at++;
  f->line = (size_t)r->line;
  int rc = read_members(r, '}', point_member, &s);
  rc = rc == 0 ? add_row(r, f) : rc;
  pairs_free(&f->point);
  return rc;
}

static int top_member(reader_t *r, void *ctx)
{
  static const char *const run_names[] = {"scenario", "platform", "skeleton"};
  file_t *f = ctx;
  char key[MAX_TEXT];
  if (read_string(r, key, sizeof key) != 0 || expect(r, ':') != 0)
    return -1;
  skip_space(r);
  for (size_t k = 0; k < 3; k++)
    if (strcmp(key, run_names[k]) == 0 && r->at < r->end && *r->at == '"')
      return read_string(r, f->names[k], sizeof f->names[k]);
  if (strcmp(key, "points") != 0)
    return skip_value(r);
  if (expect(r, '[') != 0)
    return -1;
  return read_members(r, ']', point, f);
}

static void table_clear(rep_table_t *t)
{
  for (size_t i = 0; i < t->nrows; i++) {
    for (size_t j = 0; j < t->ncols; j++)
      free(t->rows[i][j]);
    free(t->rows[i]);
  }
  for (size_t j = 0; t->names && j < t->ncols; j++)
    free(t->names[j]);
  free(t->names);
  free(t->rows);
  free(t->lines);
  t->names = NULL;
  t->rows = NULL;
  t->lines = NULL;
  t->ncols = t->nrows = 0;
}

int cli_json_table(const char *text, size_t len, rep_table_t *t, int *line, char *err, size_t errlen)
{
  reader_t r = {.at = text, .end = text + len, .line = 1};
  file_t *f = calloc(1, sizeof *f);
  if (!f) {
    snprintf(err, errlen, "out of memory");
    *line = 0;
    return -1;
  }
  f->t = t;
  t->names = NULL, t->rows = NULL, t->lines = NULL, t->ncols = t->nrows = 0;
  int rc = expect(&r, '{') == 0 ? read_members(&r, '}', top_member, f) : -1;
  skip_space(&r);
  rc = rc == 0 && r.at < r.end ? failed(&r, "more after the end of the JSON value") : rc;
  if (rc == 0 && t->nrows == 0) { /* said of the file, at its first line */
    r.line = 1;
    rc = failed(&r, "no points; give a results file of simrun --json");
  }
  pairs_free(&f->point);
  free(f);
  if (rc == 0)
    return 0;
  const char *why = r.why ? r.why : "out of memory";
  snprintf(err, errlen, "%s%s", why, strstr(why, "give") ? "" : "; give a results file of simrun --json");
  *line = r.line;
  table_clear(t);
  return -1;
}

void cli_json_table_free(rep_table_t *t)
{
  table_clear(t);
}
