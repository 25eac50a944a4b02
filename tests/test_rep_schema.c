/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A view's table as data (rep_schema.h): the walkers on a crafted schema of two rows, whose CSV, JSON and terminal
 * texts are written out by hand below; and the shipped schemas against docs/results.md, which must name every column
 * the files have and no column they lack. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "rep_points.h"
#include "rep_processes.h"
#include "rep_messages.h"
#include "rep_schema.h"
#include "tu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The crafted table's figures, row by row (the row is at->rank). */
static const double times[] = {0.0125, 2.5e-6};
static const double ratios[2][2] = {{0.25, 1e-7}, {-0.5, INFINITY}};

static rep_cell_t row_key(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(at->rank);
}

static rep_cell_t time_of(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(times[at->rank]);
}

static rep_cell_t ratio_of(const rep_at_t *at, int i)
{
  return rep_cell_num(ratios[at->rank][i]);
}

static rep_cell_t name_of(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(at->rank ? "b,c" : "");
}

static const char *part(int i)
{
  return i ? "Second-Part" : "first";
}

static const rep_column_t crafted[] = {
    {"row", "row", "row", "", "the row", REP_FMT_INT, 1, REP_IN_ALL, 0, NULL, NULL, row_key},
    {"time_s", "time_s", "time", "s", "a time", REP_FMT_TIME, 0, REP_IN_ALL, 0, NULL, NULL, time_of},
    {"r_%s", "ratios.%s", "%s", "", "a ratio", REP_FMT_RATIO, 0, REP_IN_ALL, 2, part, NULL, ratio_of},
    {"name", "name", "name", "", "a name", REP_FMT_TEXT, 0, REP_IN_FILES, 0, NULL, NULL, name_of},
};
static const rep_schema_t crafted_schema = {"crafted", crafted, sizeof crafted / sizeof crafted[0]};

static char *capture_rows(void (*row)(FILE *, const rep_schema_t *, const rep_at_t *))
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CU_ASSERT_FATAL(f != NULL);
  for (int r = 0; r < 2; r++) {
    const rep_at_t at = {NULL, NULL, r, NULL};
    row(f, &crafted_schema, &at);
    fputc('\n', f);
  }
  fclose(f);
  return text;
}

static void json_row(FILE *out, const rep_schema_t *schema, const rep_at_t *at)
{
  rep_schema_json_row(out, schema, at, 0);
}

/* CSV: the family's names made lower case with '-' as '_'; numbers at %.9g, an infinite one "inf", an empty text an
 * empty field, a comma quoted. JSON: the dotted keys as one nested object, snake_case, the empty text null and the
 * infinite number null. */
static void test_rep_schema_files(void)
{
  char *head = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&head, &len);
  CU_ASSERT_FATAL(f != NULL);
  rep_col_t cols[8];
  CU_ASSERT_EQUAL(rep_schema_columns(&crafted_schema, NULL, REP_IN_CSV, cols, 8), 5);
  for (size_t c = 0; c < 5; c++)
    fprintf(f, ",%s", cols[c].csv);
  fclose(f);
  CU_ASSERT_STRING_EQUAL(head, ",row,time_s,r_first,r_second_part,name");
  char *csv = capture_rows(rep_schema_csv_row);
  CU_ASSERT_STRING_EQUAL(csv, ",0,0.0125,0.25,1e-07,\n,1,2.5e-06,-0.5,inf,\"b,c\"\n");
  char *json = capture_rows(json_row);
  CU_ASSERT_STRING_EQUAL(json,
                         ", \"row\": 0, \"time_s\": 0.0125, \"ratios\": {\"first\": 0.25, \"second_part\": 1e-07}, "
                         "\"name\": null\n"
                         ", \"row\": 1, \"time_s\": 2.5e-06, \"ratios\": {\"first\": -0.5, \"second_part\": null}, "
                         "\"name\": \"b,c\"\n");
  free(head);
  free(csv);
  free(json);
}

/* The terminal: the time column in the unit of its largest value (12.5 ms: ms), 3 significant digits for its
 * smallest (0.0025 ms, first digit at 1e-3: 5 decimals, "0.00250"); ratios to 4 decimals with 1e-7 as 0.0000; the text
 * column left out (files only); the key column repeated. */
static void test_rep_schema_terminal(void)
{
  const rep_at_t at[] = {{NULL, NULL, 0, NULL}, {NULL, NULL, 1, NULL}};
  rep_units_t *u = malloc(sizeof *u);
  CU_ASSERT_FATAL(u != NULL);
  rep_units_make(u, &crafted_schema, REP_IN_TERM, at, 2);
  CU_ASSERT_EQUAL(u->n, 4);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CU_ASSERT_FATAL(f != NULL);
  rep_schema_print(f, &crafted_schema, at, 2, 80);
  fclose(f);
  CU_ASSERT_STRING_EQUAL(text, "row  time (ms)   first Second-Part\n"
                               "  0   12.50000  0.2500      0.0000\n"
                               "  1    0.00250 -0.5000         inf\n");
  free(text);
  free(u);
}

/* The backticked names of the first cells of the table rows of docs/results.md's section `title` (up to the next
 * "## "), as " name " words in one string. */
static char *doc_names(const char *title)
{
  FILE *in = fopen(SIMRUN_SOURCE_DIR "/docs/results.md", "r");
  CU_ASSERT_FATAL(in != NULL);
  char line[4096];
  size_t size = 1 << 14, used = 0;
  char *names = calloc(1, size);
  int inside = 0;
  while (names && fgets(line, sizeof line, in)) {
    if (strncmp(line, "## ", 3) == 0)
      inside = strncmp(line + 3, title, strlen(title)) == 0;
    char *end = strchr(line + 1, '|');
    if (!inside || line[0] != '|' || !end)
      continue;
    *end = '\0';
    for (char *tick = strchr(line, '`'); tick && strchr(tick + 1, '`'); tick = strchr(strchr(tick + 1, '`') + 1, '`'))
      used += (size_t)snprintf(names + used, size - used, " %.*s ", (int)(strchr(tick + 1, '`') - tick - 1), tick + 1);
  }
  fclose(in);
  return names;
}

/* Every column of the main table's CSV is in docs/results.md's list, and every name listed there is a column. */
static void test_rep_schema_documented(void)
{
  char *listed = doc_names("The main table");
  CU_ASSERT_FATAL(listed != NULL);
  rep_col_t cols[96];
  size_t n = rep_schema_columns(&rep_points_schema, NULL, REP_IN_CSV, cols, 96);
  CU_ASSERT(n > 40);
  char word[80];
  for (size_t c = 0; c < n; c++) {
    snprintf(word, sizeof word, " %s ", cols[c].csv);
    if (!strstr(listed, word))
      fprintf(stderr, "docs/results.md's main table lacks the column %s\n", cols[c].csv);
    CU_ASSERT(strstr(listed, word) != NULL);
  }
  for (char *at = strtok(listed, " "); at; at = strtok(NULL, " ")) {
    size_t c = 0;
    while (c < n && strcmp(cols[c].csv, at) != 0)
      c++;
    if (c == n)
      fprintf(stderr, "docs/results.md's main table lists %s, which is no column\n", at);
    CU_ASSERT(c < n);
  }
  free(listed);
}

/* docs/results.md's row of table `name` ("| `-processes` |") names every one of the `expected` columns of `schema`'s
 * CSV. */
static void check_row_documented(const char *name, const rep_schema_t *schema, size_t expected)
{
  FILE *in = fopen(SIMRUN_SOURCE_DIR "/docs/results.md", "r");
  CU_ASSERT_FATAL(in != NULL);
  char line[8192];
  int found = 0;
  while (!found && fgets(line, sizeof line, in))
    found = strncmp(line, name, strlen(name)) == 0;
  fclose(in);
  CU_ASSERT_FATAL(found);
  rep_col_t cols[32];
  size_t n = rep_schema_columns(schema, NULL, REP_IN_CSV, cols, 32);
  CU_ASSERT_EQUAL(n, expected);
  char word[80];
  for (size_t c = 0; c < n; c++) {
    snprintf(word, sizeof word, "`%s`", cols[c].csv);
    if (!strstr(line, word))
      fprintf(stderr, "docs/results.md's %s row lacks the column %s\n", name, cols[c].csv);
    CU_ASSERT(strstr(line, word) != NULL);
  }
}

/* docs/results.md's row of the -processes table names every column of its CSV: rank, work, 4 ratios, anomaly,
 * imbalance, host speed. */
static void test_rep_schema_processes_documented(void)
{
  check_row_documented("| `-processes` |", &rep_processes_schema, 9);
}

/* The -messages table's too: bytes, hops, count, the transfers' mean, min and max, the waits'. */
static void test_rep_schema_messages_documented(void)
{
  check_row_documented("| `-messages` |", &rep_messages_schema, 9);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_rep_schema_files", test_rep_schema_files},
                                    {"test_rep_schema_terminal", test_rep_schema_terminal},
                                    {"test_rep_schema_messages_documented", test_rep_schema_messages_documented},
                                    {"test_rep_schema_documented", test_rep_schema_documented},
                                    {"test_rep_schema_processes_documented", test_rep_schema_processes_documented},
                                    {NULL, NULL}};
  return tu_run("rep_schema", cases);
}
