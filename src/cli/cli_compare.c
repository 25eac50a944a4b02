/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare (cli_compare.h): reads two CSV tables (RFC 4180: quoted fields may hold commas, quotes and line
 * breaks) or results JSON files (cli_json.h), hands them to rep_compare, and writes the --svg picture whole or not at
 * all. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "cli_compare.h"
#include "cli_exit.h"

#include "cli_json.h"
#include "rep_compare.h"
#include "rep_report.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Bounds of a table compare reads (docs/results.md): a results table of simrun's is far smaller. */
enum { MAX_FIELD = 4096 };
#define MAX_TABLE_BYTES (1L << 30)

static void usage(FILE *out)
{
  fprintf(
      out,
      "Usage: simrun compare A.csv|A.json B.csv|B.json [OPTIONS]\n"
      "\n"
      "Compares two results tables point by point: the main CSV tables or the JSON of two runs (two platforms,\n"
      "two versions of simrun, two settings), a simulation's and a measured run's (simrun analyse --csv or\n"
      "--json), or a run's and a measurement's (a CSV with a column p, the parameters that tell its points\n"
      "apart, and the measured figures named as simrun's, such as t_par_s). A JSON file's points are read under\n"
      "the CSV's column names (docs/results.md), so a CSV and a JSON compare too. Points match on the key\n"
      "columns both have (the parameters and p); every metric column both have is printed with both values, B - A,\n"
      "(B - A) / A and whether the difference exceeds the tolerance.\n"
      "\n"
      "Options:\n"
      "  --tolerance R       a difference exceeds it when |B - A| > R |A| (default 0.05, 5%%)\n"
      "  --svg FILE          also draw one metric of A and B against p, side by side, as SVG to FILE\n"
      "  --metric NAME       the metric --svg draws (default t_par_s)\n"
      "  -h, --help          show this help and exit\n"
      "\n"
      "Exit status: 0 no difference exceeds the tolerance, 1 some does, 2 bad input or usage. See docs/results.md.\n");
}

/* The one error line: "FILE:LINE: message", "FILE: message" (line 0) or "message" (no file); returns 2. */
static int fail(const char *file, int line, const char *message)
{
  char where[4200] = "";
  if (file)
    snprintf(where, sizeof where, line > 0 ? "%s:%d: " : "%s: ", file, line);
  fprintf(stderr, "simrun: error: %s%s\n", where, message);
  return EXIT_INPUT;
}

/* A table being read: its rows, each a growing list of fields. */
typedef struct reader {
  rep_table_t table;
  char **fields; /* the current row's */
  size_t nfields;
  char *field; /* the current field's text */
  size_t len, cap;
} reader_t;

/* 0, -1 out of memory, -5 a field too long. */
static int push_char(reader_t *r, char c)
{
  if (r->len >= MAX_FIELD)
    return -5;
  if (r->len + 1 >= r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 64;
    char *grown = realloc(r->field, cap);
    if (!grown)
      return -1;
    r->field = grown;
    r->cap = cap;
  }
  r->field[r->len++] = c;
  r->field[r->len] = '\0';
  return 0;
}

static int end_field(reader_t *r)
{
  char **grown = realloc(r->fields, (r->nfields + 1) * sizeof *grown);
  char *text = strdup(r->field ? r->field : "");
  if (!grown || !text) {
    free(text);
    if (grown)
      r->fields = grown;
    return -1;
  }
  r->fields = grown;
  r->fields[r->nfields++] = text;
  r->len = 0;
  if (r->field)
    r->field[0] = '\0';
  return 0;
}

/* Ends a row: the header's names, or a data row with as many fields. 0, -1 out of memory, -2 a ragged row. */
static int end_row(reader_t *r)
{
  rep_table_t *t = &r->table;
  if (!t->names) {
    t->names = r->fields;
    t->ncols = r->nfields;
  } else if (r->nfields != t->ncols) {
    return -2;
  } else {
    char ***grown = realloc(t->rows, (t->nrows + 1) * sizeof *grown);
    if (!grown)
      return -1;
    t->rows = grown;
    t->rows[t->nrows++] = r->fields;
  }
  r->fields = NULL;
  r->nfields = 0;
  return 0;
}

static void free_row(char **fields, size_t n)
{
  for (size_t j = 0; fields && j < n; j++)
    free(fields[j]);
  free(fields);
}

static void table_free(rep_table_t *t)
{
  for (size_t i = 0; i < t->nrows; i++)
    free_row(t->rows[i], t->ncols);
  free(t->rows);
  free_row(t->names, t->ncols);
}

/* Reads the rest of JSON file `in` (its first character read) into *t (cli_json.h), closing it. Returns 0, or the
 * exit status after printing the error. */
static int read_json(FILE *in, const char *path, rep_table_t *t)
{
  char *text = NULL, message[1200];
  size_t len = 0;
  FILE *buffer = open_memstream(&text, &len);
  int c = '{', line = 0;
  rewind(in);
  while (buffer && (c = getc(in)) != EOF)
    putc(c, buffer);
  fclose(in);
  if (!buffer || fclose(buffer) != 0) {
    free(text);
    return fail(path, 0, "out of memory");
  }
  *t = (rep_table_t){.label = path};
  int rc = cli_json_table(text, len, t, &line, message, sizeof message);
  free(text);
  return rc == 0 ? 0 : fail(path, line, message);
}

/* Reads CSV file `path` into *t (free with table_free). Returns 0, or the exit status after printing the error. */
static int read_table(const char *path, rep_table_t *t)
{
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return fail(path, 0, "not a regular file (a folder, a device or a pipe, which may never end); give a CSV file");
  if (stat(path, &st) == 0 && st.st_size > MAX_TABLE_BYTES)
    return fail(path, 0, "larger than 1 GiB, the most compare reads; give a results table");
  FILE *in = fopen(path, "r");
  if (!in) {
    char message[512];
    snprintf(message, sizeof message, "cannot read it: %s; give a CSV file written by simrun --csv or a measurement's",
             strerror(errno));
    return fail(path, 0, message);
  }
  int first = getc(in);
  if (first == '{' || first == '[')
    return read_json(in, path, t);
  if (first != EOF)
    ungetc(first, in);
  reader_t r = {.table = {.label = path}};
  int line = 1, quoted = 0, opened = 0, rc = 0, c; /* opened: the line of the last opening quote */
  while (rc == 0 && (c = getc(in)) != EOF) {
    if (quoted && c == '"') {
      int next = getc(in);
      quoted = next == '"';
      rc = quoted ? push_char(&r, '"') : 0;
      if (!quoted && next != EOF)
        ungetc(next, in);
    } else if (quoted || (c != ',' && c != '\n' && c != '\r' && c != '"'))
      rc = push_char(&r, (char)c);
    else if (c == '"')
      quoted = 1, opened = line;
    else if (c == ',')
      rc = end_field(&r);
    else if (c == '\n' && (rc = end_field(&r)) == 0)
      rc = end_row(&r);
    line += c == '\n' && rc == 0;
  }
  if (rc == 0 && quoted)
    rc = -3;
  if (rc == 0 && (r.len > 0 || r.nfields > 0) && (rc = end_field(&r)) == 0)
    rc = end_row(&r);
  fclose(in);
  free(r.field);
  free_row(r.fields, r.nfields);
  *t = r.table;
  if (rc == 0 && (!t->names || t->nrows == 0))
    rc = -4;
  if (rc == 0)
    return 0;
  static const char *const why[] = {"",
                                    "out of memory",
                                    "a row with another number of fields than the header; quote "
                                    "fields that hold commas",
                                    "a quoted field never closed; close it with '\"'",
                                    "no rows after a header; give "
                                    "a results table",
                                    "a field longer than 4096 characters; give a results table"};
  table_free(t);
  return fail(path, rc == -4 ? 1 : rc == -3 ? opened : line, why[-rc]);
}

/* Writes the --svg picture to `path`, whole or not at all. */
static int write_svg(const rep_table_t *a, const rep_table_t *b, const char *metric, const char *path)
{
  char message[1200] = "";
  rep_file_t *file = rep_file_open(path, message, sizeof message);
  if (!file)
    return fail(NULL, 0, message);
  if (rep_compare_svg(rep_file_stream(file), a, b, metric, message, sizeof message) != 0) {
    rep_file_abort(file);
    return fail(NULL, 0, message);
  }
  return rep_file_commit(file, message, sizeof message) == 0 ? 0 : (fail(NULL, 0, message), 1);
}

typedef struct options {
  const char *files[2];
  double tolerance;
  const char *svg, *metric;
} options_t;

/* -1 to go on, or the exit status. */
static int parse(int argc, char **argv, options_t *o)
{
  static const struct option longopts[] = {{"tolerance", required_argument, NULL, 't'},
                                           {"svg", required_argument, NULL, 's'},
                                           {"metric", required_argument, NULL, 'm'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  int n = 0, c;
  char *end;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    if (c == 'h') {
      usage(stdout);
      return 0;
    } else if (c == 't' && (o->tolerance = strtod(optarg, &end), *end || !(o->tolerance >= 0) || isinf(o->tolerance)))
      return fail(NULL, 0, "--tolerance takes a relative difference >= 0, such as 0.05 for 5%");
    else if (c == 's')
      o->svg = optarg;
    else if (c == 'm')
      o->metric = optarg;
    else if (c == '?' || c == ':')
      return fail(NULL, 0,
                  c == ':' ? "an option needs a value; see simrun compare --help"
                           : "unknown option; see simrun compare --help");
  }
  for (; optind < argc; optind++)
    if (n++ < 2)
      o->files[n - 1] = argv[optind];
  return n == 2 ? -1 : fail(NULL, 0, "compare takes two results files, A and B; see simrun compare --help");
}

int cli_compare_main(int argc, char **argv)
{
  options_t o = {.tolerance = 0.05, .metric = "t_par_s"};
  int status = parse(argc, argv, &o);
  if (status >= 0)
    return status;
  rep_table_t a, b;
  if ((status = read_table(o.files[0], &a)) != 0)
    return status;
  if ((status = read_table(o.files[1], &b)) != 0) {
    table_free(&a);
    return status;
  }
  char message[1200] = "", *text = NULL;
  size_t exceeding = 0, len = 0;
  FILE *buffer = open_memstream(&text, &len); /* printed once the picture is drawn: nothing on stdout on a failure */
  if (!buffer || rep_compare_print(buffer, &a, &b, o.tolerance, &exceeding, message, sizeof message) != 0)
    status = fail(NULL, 0, buffer ? message : "out of memory");
  if (buffer && fclose(buffer) != 0 && status == 0)
    status = fail(NULL, 0, "out of memory");
  if (status == 0 && o.svg)
    status = write_svg(&a, &b, o.metric, o.svg);
  if (status == 0 && (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0))
    status = fail(NULL, 0, "cannot write the comparison on the standard output");
  if (status == 0 && exceeding > 0)
    status = 1;
  free(text);
  table_free(&a);
  table_free(&b);
  return status;
}
