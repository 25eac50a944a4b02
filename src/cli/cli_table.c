/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare's reader of results tables (cli_table.h): a CSV read byte by byte into a row buffer, each complete
 * row's text moved into the current block and its field pointers appended to one array; a JSON file handed to
 * cli_json_table. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, getc_unlocked */
#include "cli_table.h"

#include "cli_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Bounds of a table compare reads (docs/compare.md): a results table of simrun's is far smaller. */
enum { MAX_FIELD = 4096, MAX_COLUMNS = 4096 };
#define MAX_TABLE_BYTES (1L << 30)
#define MAX_CELLS       50000000UL
#define BLOCK_BYTES     (1UL << 20)

typedef struct block {
  struct block *next;
  size_t used, cap;
  char text[];
} block_t;

/* The reasons a CSV is refused, by the negative code the reader returns. */
enum { E_MEMORY = 1, E_RAGGED, E_UNCLOSED, E_EMPTY, E_LONG, E_NUL, E_CELLS, E_COLUMNS };
static const char *const why[] = {
    "",
    "out of memory",
    "a row with another number of fields than the header; quote fields that hold commas",
    "a quoted field never closed; close it with '\"'",
    "no rows after a header; give a results table",
    "a field longer than 4096 characters; give a results table",
    ("a NUL byte, which no text table holds (a binary or damaged file, or a number cut short); give the table as "
     "simrun wrote it"),
    "more than 5 x 10^7 cells (rows x columns); compare a smaller table, or fewer columns",
    "more than 4096 columns; give a results table"};

/* A CSV being read. */
typedef struct reader {
  cli_table_t *table;
  char *row; /* the current row's fields, each ended by '\0' */
  size_t len, cap;
  size_t *starts; /* starts[i]: where field i begins in row; starts[nfields]: the current field */
  size_t nfields, fcap;
  size_t cells_cap, lines_cap;
} reader_t;

static void *grow(void *array, size_t *cap, size_t need, size_t size)
{
  if (need <= *cap)
    return array;
  size_t cap2 = *cap ? *cap : 16;
  while (cap2 < need)
    cap2 *= 2;
  void *grown = realloc(array, cap2 * size);
  if (grown)
    *cap = cap2;
  return grown;
}

/* Appends c to the current field. 0, or -E_*. */
static int push_char(reader_t *r, char c)
{
  if (r->len - r->starts[r->nfields] >= MAX_FIELD)
    return -E_LONG;
  char *row = grow(r->row, &r->cap, r->len + 2, 1);
  if (!row)
    return -E_MEMORY;
  r->row = row;
  r->row[r->len++] = c;
  return 0;
}

/* Ends the current field. 0, or -E_*: a data row cannot have more fields than the header. */
static int end_field(reader_t *r)
{
  const rep_table_t *t = &r->table->t;
  if (t->names ? r->nfields + 1 > t->ncols : r->nfields + 1 > MAX_COLUMNS)
    return t->names ? -E_RAGGED : -E_COLUMNS;
  char *row = grow(r->row, &r->cap, r->len + 1, 1);
  size_t *starts = grow(r->starts, &r->fcap, r->nfields + 2, sizeof *starts);
  if (row)
    r->row = row;
  if (starts)
    r->starts = starts;
  if (!row || !starts)
    return -E_MEMORY;
  r->row[r->len++] = '\0';
  r->starts[++r->nfields] = r->len;
  return 0;
}

/* The header's names, each its own string. 0, or -E_MEMORY. */
static int keep_names(reader_t *r)
{
  rep_table_t *t = &r->table->t;
  t->names = calloc(r->nfields + 1, sizeof *t->names);
  if (!t->names)
    return -E_MEMORY;
  t->ncols = r->nfields;
  for (size_t j = 0; j < r->nfields; j++)
    if (!(t->names[j] = strdup(r->row + r->starts[j])))
      return -E_MEMORY;
  return 0;
}

/* Room for `bytes` in the newest block, a new one when it is full; NULL when out of memory. */
static char *room(cli_table_t *table, size_t bytes)
{
  block_t *b = table->block;
  if (!b || b->cap - b->used < bytes) {
    size_t cap = bytes > BLOCK_BYTES ? bytes : BLOCK_BYTES;
    if (!(b = malloc(sizeof *b + cap)))
      return NULL;
    *b = (block_t){.next = table->block, .cap = cap};
    table->block = b;
  }
  b->used += bytes;
  return b->text + b->used - bytes;
}

/* Ends a row that began at line `line`: the header's names, or a data row with as many fields. 0, or -E_*. */
static int end_row(reader_t *r, size_t line)
{
  cli_table_t *table = r->table;
  rep_table_t *t = &table->t;
  int rc = 0;
  if (!t->names)
    rc = keep_names(r);
  else if (r->nfields != t->ncols)
    rc = -E_RAGGED;
  else if ((t->nrows + 1) * t->ncols > MAX_CELLS)
    rc = -E_CELLS;
  else {
    char **cells = grow(table->cells, &r->cells_cap, (t->nrows + 1) * t->ncols, sizeof *cells);
    size_t *lines = grow(t->lines, &r->lines_cap, t->nrows + 1, sizeof *lines);
    char *text = room(table, r->len);
    table->cells = cells ? cells : table->cells;
    t->lines = lines ? lines : t->lines;
    if (!cells || !lines || !text)
      return -E_MEMORY;
    memcpy(text, r->row, r->len);
    for (size_t j = 0; j < t->ncols; j++)
      table->cells[t->nrows * t->ncols + j] = text + r->starts[j];
    t->lines[t->nrows++] = line;
  }
  r->len = 0;
  r->nfields = 0;
  return rc;
}

/* The quoting state of the CSV being read. */
typedef struct scan {
  int quoted;
  size_t line, row_line, opened; /* the current line, where the row began, the line of the last opening quote */
} scan_t;

/* One byte of the CSV. 0, or -E_*. */
static int take(reader_t *r, FILE *in, scan_t *s, int c)
{
  if (c == '\0')
    return -E_NUL;
  if (s->quoted && c == '"') {
    int next = getc_unlocked(in);
    s->quoted = next == '"';
    if (!s->quoted && next != EOF)
      ungetc(next, in);
    return s->quoted ? push_char(r, '"') : 0;
  }
  if (s->quoted || (c != ',' && c != '\n' && c != '\r' && c != '"'))
    return push_char(r, (char)c);
  if (c == '"')
    s->quoted = 1, s->opened = s->line;
  else if (c == ',')
    return end_field(r);
  else if (c == '\n') {
    int rc = end_field(r);
    return rc ? rc : end_row(r, s->row_line);
  }
  return 0;
}

/* Reads the CSV `in` into r's table. 0, or -E_* with *line where it went wrong. */
static int read_csv(FILE *in, reader_t *r, size_t *line)
{
  scan_t s = {.line = 1, .row_line = 1};
  int rc = 0;
  for (int c; rc == 0 && (c = getc_unlocked(in)) != EOF;) {
    rc = take(r, in, &s, c);
    if (rc == 0 && c == '\n') {
      s.line++;
      s.row_line = s.quoted ? s.row_line : s.line;
    }
  }
  if (rc == 0 && s.quoted)
    rc = -E_UNCLOSED;
  if (rc == 0 && (r->len > 0 || r->nfields > 0) && (rc = end_field(r)) == 0)
    rc = end_row(r, s.row_line);
  if (rc == 0 && (!r->table->t.names || r->table->t.nrows == 0))
    rc = -E_EMPTY;
  *line = rc == -E_EMPTY ? 1 : rc == -E_UNCLOSED ? s.opened : s.line;
  return rc;
}

/* The rows of a CSV read: pointers into its cells. 0, or -E_MEMORY. */
static int point_rows(cli_table_t *table)
{
  rep_table_t *t = &table->t;
  t->rows = malloc((t->nrows + 1) * sizeof *t->rows);
  for (size_t i = 0; t->rows && i < t->nrows; i++)
    t->rows[i] = table->cells + i * t->ncols;
  return t->rows ? 0 : -E_MEMORY;
}

/* Reads the rest of JSON file `in` (its first byte read). 0, -1 or -2 with the message in err. */
static int read_json(FILE *in, cli_table_t *table, char *err, size_t errlen)
{
  char *text = NULL, message[1200];
  size_t len = 0;
  FILE *buffer = open_memstream(&text, &len);
  rewind(in);
  for (int c; buffer && (c = getc_unlocked(in)) != EOF;)
    putc(c, buffer);
  if (!buffer || fclose(buffer) != 0) {
    free(text);
    snprintf(err, errlen, "out of memory");
    return -2;
  }
  int line = 0;
  table->json = 1;
  const char *nul = memchr(text, '\0', len);
  if (nul) { /* named as in a CSV, not as the JSON syntax error it would be */
    for (const char *c = text; c < nul; c++)
      line += *c == '\n';
    snprintf(err, errlen, "%s:%d: %s", table->t.label, line + 1, why[E_NUL]);
    free(text);
    return -1;
  }
  int rc = cli_json_table(text, len, &table->t, &line, message, sizeof message);
  free(text);
  if (rc != 0 && line > 0)
    snprintf(err, errlen, "%s:%d: %s", table->t.label, line, message);
  else if (rc != 0)
    snprintf(err, errlen, "%s: %s", table->t.label, message);
  return rc == 0 ? 0 : -1;
}

/* Opens `path` for reading when it is a regular file within bounds. The stream, or NULL with the message in err. */
static FILE *open_table(const char *path, char *err, size_t errlen)
{
  struct stat st;
  int special = stat(path, &st) == 0 && !S_ISREG(st.st_mode); /* opening a FIFO would wait for a writer */
  FILE *in = special ? NULL : fopen(path, "r");
  if (special)
    snprintf(err, errlen, "%s: not a regular file (a folder, a device or a pipe, which may never end); give a CSV file",
             path);
  else if (!in)
    snprintf(err, errlen, "%s: cannot read it: %s; give a CSV file written by simrun --csv or a measurement's", path,
             strerror(errno));
  else if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode))
    snprintf(err, errlen, "%s: not a regular file (a folder, a device or a pipe, which may never end); give a CSV file",
             path);
  else if (st.st_size > MAX_TABLE_BYTES)
    snprintf(err, errlen, "%s: larger than 1 GiB, the most compare reads; give a results table", path);
  else
    return in;
  if (in)
    fclose(in);
  return NULL;
}

int cli_table_read(const char *path, cli_table_t *table, char *err, size_t errlen)
{
  *table = (cli_table_t){.t = {.label = path}};
  FILE *in = open_table(path, err, errlen);
  if (!in)
    return -1;
  int first = getc_unlocked(in);
  if (first == '{' || first == '[') {
    int rc = read_json(in, table, err, errlen);
    fclose(in);
    return rc;
  }
  if (first != EOF)
    ungetc(first, in);
  reader_t r = {.table = table, .starts = calloc(1, sizeof *r.starts), .fcap = 1};
  size_t line = 0;
  int rc = r.starts ? read_csv(in, &r, &line) : -E_MEMORY;
  rc = rc == 0 ? point_rows(table) : rc;
  fclose(in);
  free(r.row);
  free(r.starts);
  if (rc == -E_MEMORY)
    snprintf(err, errlen, "out of memory");
  else if (rc != 0)
    snprintf(err, errlen, "%s:%zu: %s", path, line, why[-rc]);
  return rc == 0 ? 0 : rc == -E_MEMORY ? -2 : -1;
}

void cli_table_free(cli_table_t *table)
{
  if (table->json) {
    cli_json_table_free(&table->t);
    return;
  }
  rep_table_t *t = &table->t;
  for (size_t j = 0; t->names && j < t->ncols; j++)
    free(t->names[j]);
  free(t->names);
  free(t->rows);
  free(t->lines);
  free(table->cells);
  while (table->block) {
    block_t *next = table->block->next;
    free(table->block);
    table->block = next;
  }
  *t = (rep_table_t){0};
}
