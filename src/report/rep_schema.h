/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A view's table as data (issue 49 item 1): the view declares its columns once (name in each format, unit, meaning,
 * format, key or value, which study has it and where its figure comes from), and the terminal, CSV, JSON and HTML
 * writers walk that one declaration over the table's rows. Adding a column to a view is one line of its schema. */
#ifndef REP_SCHEMA_H
#define REP_SCHEMA_H

#include "rep_layout.h"
#include "rep_units.h"
#include "stu_study.h"

#include <stddef.h>
#include <stdio.h>

/* Where a row is: a point, for a per-rank table its rank (-1 otherwise), and for a view whose rows are its own (a
 * bottleneck's resources, a point's messages, a DSM profile's categories) that row, which the view's getters cast
 * back (NULL for the points' and processes' tables). */
typedef struct rep_at {
  const stu_study_t *study;
  const stu_point_t *point;
  int rank;
  const void *item;
} rep_at_t;

/* A cell: a number (NAN where there is none), or a text when `text` is not NULL ("" where there is none) or `made`. */
typedef struct rep_cell {
  double num;
  const char *text;
  int made; /* the text is buf's, made for the cell (a grid's "4x8") */
  char buf[32];
} rep_cell_t;

/* How a value is written: files keep SI units at full precision (%.9g) whatever the format; the terminal and the HTML
 * page show it as the format says. */
typedef enum rep_format {
  REP_FMT_INT,     /* a count or an index: "12" everywhere */
  REP_FMT_TIME,    /* seconds: scaled to the column's magnitude (rep_units.h), the unit in the head */
  REP_FMT_FIXED3,  /* "%.3f", "inf" for infinite (speedup, granularity) */
  REP_FMT_PERCENT, /* a fraction shown as "%.1f%%" of it (efficiency) */
  REP_FMT_RATIO,   /* "%.4f", noise under 5e-5 as 0.0000 (overhead ratios) */
  REP_FMT_DIFF,    /* a relative difference shown as "%+.1f%%", noise under 0.05% as +0.0%, "-" where none */
  REP_FMT_BOOL,    /* 1 or 0: yes/no in CSV and on screens, true/false in JSON */
  REP_FMT_FLAG,    /* 1 or 0: so in CSV and on screens, true/false in JSON */
  REP_FMT_TEXT,    /* a string; empty is null in JSON */
} rep_format_t;

/* The writers that show a column. A view whose figures are columns of another's table (the bottleneck view's, of the
 * main table's) declares them there once, with its own bit: its table on a screen (the terminal's, the page's) is the
 * columns with that bit, walked as rep_units_make(u, schema, REP_IN_BOTTLENECK, ...) (a page's cells), and the same
 * figures stay in the other table's files. */
enum {
  REP_IN_TERM = 1,
  REP_IN_CSV = 2,
  REP_IN_JSON = 4,
  REP_IN_HTML = 8,
  REP_IN_FILES = 6,
  REP_IN_ALL = 15,
  REP_IN_BOTTLENECK = 16 /* the bottleneck view's table: seed 001 Table 5 in the terminal, its section of the page */
};
/* A flag beside the writers in a column's `in`: its family's CSV names keep the label's capitals (NCP2's CPLWait_s). */
enum { REP_CSV_AS_IS = 32 };

/* A column of a view's table, or with `each` > 0 a family of `each` columns, one per index i, whose names are the
 * patterns' "%s" filled with label(i) (made lower case with '-' as '_' in CSV unless REP_CSV_AS_IS, snake_case in JSON:
 * rep_json_key). */
typedef struct rep_column {
  const char *csv;     /* CSV column name ("t_par_s", "ovh_%s") */
  const char *json;    /* JSON key, dotted inside the point's or row's objects ("overhead_ratios.%s") */
  const char *head;    /* terminal and HTML head, without its unit ("T_par", "%s") */
  const char *unit;    /* "s" or "" */
  const char *meaning; /* one line, for docs/results.md and the page's header tooltips */
  rep_format_t format;
  int key;     /* 1: a key column naming the row (rank), 0: a value */
  unsigned in; /* REP_IN_*: the writers that show it */
  int each;    /* 0: one column; n: n columns, i = 0 .. n-1 */
  const char *(*label)(int i);
  int (*has)(const stu_study_t *study, unsigned in); /* whether the study's table has it in writer `in` (NULL:
                                                        always) */
  rep_cell_t (*get)(const rep_at_t *at, int i);      /* its value at a row; i is the index in the family */
} rep_column_t;

/* A view's table: its columns in order, what one row is. */
typedef struct rep_schema {
  const char *name; /* "points", "processes": the HTML section and the docs' table */
  const rep_column_t *columns;
  size_t ncolumns;
  const char *const *same_unit; /* NULL, or the CSV names of time columns that read in one unit on screens, picked from
                                 * all their values (figures compared side by side), NULL-terminated */
} rep_schema_t;

/* Cells for getters. */
rep_cell_t rep_cell_num(double x);
rep_cell_t rep_cell_text(const char *text);
/* The cell's text, or NULL for a number. */
const char *rep_cell_string(const rep_cell_t *cell);

/* One column of a schema as the study's table has it, family expanded: its names made for index i. */
typedef struct rep_col {
  const rep_column_t *decl;
  int i;
  char csv[64], json[64], head[64];
} rep_col_t;
/* The columns of `schema` that the study's table has and writer `in` shows, expanded, into cols (at most max).
 * Returns how many. With a NULL study every column is counted (for the docs' check). */
size_t rep_schema_columns(const rep_schema_t *schema, const stu_study_t *study, unsigned in, rep_col_t *cols,
                          size_t max);
/* The cell of a column at a row. */
rep_cell_t rep_col_get(const rep_col_t *col, const rep_at_t *at);

/* A CSV text field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
void rep_csv_field(FILE *out, const char *text);
/* CSV: ",name" per column, then ",value" per column of a row (empty where none, "inf" for an infinite number). */
void rep_schema_csv_head(FILE *out, const rep_schema_t *schema, const stu_study_t *study);
void rep_schema_csv_row(FILE *out, const rep_schema_t *schema, const rep_at_t *at);
/* JSON: ", "key": value" per column of a row (without the first ", " when `first`), the dotted keys as nested
 * objects. */
void rep_schema_json_row(FILE *out, const rep_schema_t *schema, const rep_at_t *at, int first);
/* JSON: ",\n     "key": [{...}, ...]", an object per row (an empty list without rows), as a point's lists. */
void rep_schema_json_rows(FILE *out, const char *key, const rep_schema_t *schema, const rep_at_t *at, size_t count);

/* The columns' units on a screen (terminal, HTML) over a set of rows: a time column's unit picked from its values. */
typedef struct rep_units {
  unsigned in; /* REP_IN_TERM, or a page's table: REP_IN_HTML, REP_IN_BOTTLENECK */
  size_t n;
  rep_col_t cols[96];
  rep_unit_t unit[96];
} rep_units_t;
/* Fills u with the columns writer `in` shows and their units over the `count` rows `at`. */
void rep_units_make(rep_units_t *u, const rep_schema_t *schema, unsigned in, const rep_at_t *at, size_t count);
/* A column's head as a screen shows it: "T_par (ms)", "work (s)", "speedup". */
void rep_units_head(const rep_units_t *u, size_t c, char *buf, size_t len);
/* A cell as a screen shows it in the column's format and unit (a page's empty where the CSV's is, the terminal's "-").
 */
void rep_units_cell(const rep_units_t *u, size_t c, const rep_at_t *at, char *buf, size_t len);
/* The CSV's figure of a cell that rep_units_cell rounds (a finite time, speedup, share, ratio or difference), for a
 * page's tooltip: 1 and "%.9g" in buf (a time's in seconds, " s" after it), else 0. */
int rep_units_exact(const rep_units_t *u, size_t c, const rep_at_t *at, char *buf, size_t len);

/* The terminal: the rows `at` as a table of the columns it shows, times in their unit, split into column groups
 * within `width` that repeat the key columns (rep_cols_print). Nothing when out of memory. */
void rep_schema_print(FILE *out, const rep_schema_t *schema, const rep_at_t *at, size_t count, int width);

#endif
