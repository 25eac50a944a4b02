/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A view's table as data (rep_schema.h): the walkers on a crafted schema of two rows, whose CSV, JSON and terminal
 * texts are written out by hand below; and the shipped schemas against docs/results.md, which must name every column
 * the files have and no column they lack. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "rep_dsm_tables.h"
#include "rep_messages.h"
#include "rep_phases.h"
#include "rep_factors.h"
#include "rep_fits.h"
#include "rep_points.h"
#include "rep_processes.h"
#include "rep_references.h"
#include "rep_report.h"
#include "rep_schema.h"
#include "rep_wait.h"
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
static const rep_schema_t crafted_schema = {"crafted", crafted, sizeof crafted / sizeof crafted[0], NULL};

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

static rep_cell_t short_time_of(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(at->rank ? 5e-6 : 2.5e-6);
}

/* Two time columns that share one unit (rep_schema_t.same_unit): the second's values (2.5 and 5 us) alone would read
 * in us, beside the first's 12.5 ms; together both read in ms, the unit of the largest of all (the replay's times and
 * the measured ones beside them: before, "T_replay (us) 562, T_replay most (ms) 1.84"); a third column keeps its own.
 */
static void test_rep_schema_unit_group(void)
{
  static const rep_column_t grouped[] = {
      {"row", "row", "row", "", "the row", REP_FMT_INT, 1, REP_IN_ALL, 0, NULL, NULL, row_key},
      {"long_s", "long_s", "long", "s", "a time", REP_FMT_TIME, 0, REP_IN_ALL, 0, NULL, NULL, time_of},
      {"short_s", "short_s", "short", "s", "a time", REP_FMT_TIME, 0, REP_IN_ALL, 0, NULL, NULL, short_time_of},
      {"alone_s", "alone_s", "alone", "s", "a time", REP_FMT_TIME, 0, REP_IN_ALL, 0, NULL, NULL, short_time_of},
  };
  static const char *const together[] = {"long_s", "short_s", NULL};
  const rep_schema_t schema = {"grouped", grouped, sizeof grouped / sizeof grouped[0], together};
  const rep_at_t at[] = {{NULL, NULL, 0, NULL}, {NULL, NULL, 1, NULL}};
  rep_units_t *u = malloc(sizeof *u);
  CU_ASSERT_FATAL(u != NULL);
  rep_units_make(u, &schema, REP_IN_TERM, at, 2);
  CU_ASSERT_EQUAL_FATAL(u->n, 4);
  static const char *const heads[] = {"row", "long (ms)", "short (ms)", "alone (us)"};
  char text[64];
  for (size_t c = 0; c < 4; c++) {
    rep_units_head(u, c, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, heads[c]);
  }
  rep_units_cell(u, 2, &at[1], text, sizeof text);
  CU_ASSERT_STRING_EQUAL(text, "0.00500");
  free(u);
}

/* The page's cells: as the terminal's (test_rep_schema_terminal), and each rounded finite figure's CSV text for its
 * tooltip (a time's with " s"): none for the key (a count), for inf, nor for the text column (not on the page). */
static void test_rep_schema_page_cells(void)
{
  static const char *const shown[2][4] = {{"0", "12.50000", "0.2500", "0.0000"}, {"1", "0.00250", "-0.5000", "inf"}};
  static const char *const exact[2][4] = {{NULL, "0.0125 s", "0.25", "1e-07"}, {NULL, "2.5e-06 s", "-0.5", NULL}};
  const rep_at_t at[] = {{NULL, NULL, 0, NULL}, {NULL, NULL, 1, NULL}};
  rep_units_t *u = malloc(sizeof *u);
  CU_ASSERT_FATAL(u != NULL);
  rep_units_make(u, &crafted_schema, REP_IN_HTML, at, 2);
  CU_ASSERT_EQUAL_FATAL(u->n, 4);
  char text[64];
  for (int r = 0; r < 2; r++)
    for (size_t c = 0; c < 4; c++) {
      rep_units_cell(u, c, &at[r], text, sizeof text);
      CU_ASSERT_STRING_EQUAL(text, shown[r][c]);
      int has = rep_units_exact(u, c, &at[r], text, sizeof text);
      CU_ASSERT_EQUAL(has, exact[r][c] != NULL);
      if (has && exact[r][c])
        CU_ASSERT_STRING_EQUAL(text, exact[r][c]);
    }
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

/* docs/results.md's row of an extra table (`row`: "| `-processes` |") names every CSV column of its schema, `count`
 * of them. */
static void assert_row_documented(const char *row, const rep_schema_t *schema, size_t count)
{
  FILE *in = fopen(SIMRUN_SOURCE_DIR "/docs/results.md", "r");
  CU_ASSERT_FATAL(in != NULL);
  char line[8192];
  int found = 0;
  while (!found && fgets(line, sizeof line, in))
    found = strncmp(line, row, strlen(row)) == 0;
  fclose(in);
  CU_ASSERT_FATAL(found);
  rep_col_t cols[32];
  size_t n = rep_schema_columns(schema, NULL, REP_IN_CSV, cols, 32);
  CU_ASSERT_EQUAL(n, count);
  char word[80];
  for (size_t c = 0; c < n; c++) {
    snprintf(word, sizeof word, "`%s`", cols[c].csv);
    if (!strstr(line, word))
      fprintf(stderr, "docs/results.md's %s row lacks %s\n", row, word);
    CU_ASSERT(strstr(line, word) != NULL);
  }
}

static void test_rep_schema_processes_documented(void)
{
  assert_row_documented("| `-processes` |", &rep_processes_schema, 9); /* rank, work, 4 ratios, anomaly, imbalance,
                                                                          host speed */
}

/* The -messages table's too: bytes, hops, count, the transfers' mean, min and max, the waits'. */
static void test_rep_schema_messages_documented(void)
{
  assert_row_documented("| `-messages` |", &rep_messages_schema, 9);
}

static void test_rep_schema_references_documented(void)
{
  assert_row_documented("| `-references` |", &rep_references_schema, 5); /* quantity, source, both, difference */
}

static void test_rep_schema_factors_documented(void)
{
  assert_row_documented("| `-factors` |", &rep_factors_schema, 5); /* p, T_par, speedup, rank, best */
}

static void test_rep_schema_fits_documented(void)
{
  assert_row_documented("| `-fits` |", &rep_fits_schema,
                        14); /* metric ... formula, a b c, R^2 x2, range, shown, text */
}

/* The backticked names of docs/results.md's paragraph (or list item) that begins with `start`, after its text `after`,
 * as " name " words in order in one string. */
static char *paragraph_names(const char *start, const char *after)
{
  FILE *in = fopen(SIMRUN_SOURCE_DIR "/docs/results.md", "r");
  CU_ASSERT_FATAL(in != NULL);
  char line[4096], text[1 << 13] = "";
  int inside = 0;
  while (fgets(line, sizeof line, in) && !(inside && (line[0] == '\n' || strncmp(line, "- ", 2) == 0))) {
    inside = inside || strncmp(line, start, strlen(start)) == 0;
    if (inside && !text[0] && strncmp(line, "- ", 2) == 0) /* a list item: up to the next */
      line[0] = ' ';
    if (inside && strlen(text) + strlen(line) < sizeof text)
      strcat(text, line);
  }
  fclose(in);
  char *names = calloc(1, sizeof text), *from = strstr(text, after);
  size_t used = 0;
  CU_ASSERT_FATAL(names != NULL && from != NULL);
  for (char *tick = strchr(from, '`'); tick && strchr(tick + 1, '`'); tick = strchr(strchr(tick + 1, '`') + 1, '`'))
    used +=
        (size_t)snprintf(names + used, sizeof text - used, " %.*s ", (int)(strchr(tick + 1, '`') - tick - 1), tick + 1);
  return names;
}

/* docs/results.md's paragraph (or list item) that begins with `start` lists, after "holds this list to it", the
 * names (CSV's, or with `json` the JSON's) of the columns of `schema` that writer `in` shows, `count` of them, in
 * order. */
static void assert_paragraph_lists(const char *start, const rep_schema_t *schema, unsigned in, int json, size_t count)
{
  char *listed = paragraph_names(start, "holds this list to it");
  rep_col_t cols[64];
  size_t n = rep_schema_columns(schema, NULL, in, cols, 64);
  CU_ASSERT_EQUAL(n, count);
  char expected[2048] = "", word[80];
  for (size_t c = 0; c < n; c++) {
    snprintf(word, sizeof word, " %s ", json ? cols[c].json : cols[c].csv);
    strcat(expected, word);
  }
  if (strcmp(listed, expected) != 0)
    fprintf(stderr, "docs/results.md lists\n%s\nthe schema has\n%s\n", listed, expected);
  CU_ASSERT_STRING_EQUAL(listed, expected);
  free(listed);
}

/* The bottleneck view's table (REP_IN_BOTTLENECK: seed 001 Table 5) is the columns docs/results.md lists for it, in
 * its order, and each is a column of the main table's CSV. */
static void test_rep_schema_bottleneck_documented(void)
{
  /* T_par, 4 components, 11 sub-components, idle, 4 B-ratios, 2 ratios, U_p */
  assert_paragraph_lists("The bottleneck view's table", &rep_points_schema, REP_IN_BOTTLENECK, 0, 24);
  rep_col_t cols[64], files[96];
  size_t n = rep_schema_columns(&rep_points_schema, NULL, REP_IN_BOTTLENECK, cols, 64);
  size_t nfiles = rep_schema_columns(&rep_points_schema, NULL, REP_IN_CSV, files, 96);
  for (size_t c = 0; c < n; c++) {
    size_t f = 0;
    while (f < nfiles && strcmp(files[f].csv, cols[c].csv) != 0)
      f++;
    CU_ASSERT(f < nfiles);
  }
}

/* The JSON's model_summary is the model table's JSON keys docs/results.md lists. */
static void test_rep_schema_model_documented(void)
{
  assert_paragraph_lists("- after `points`, for a skeleton with an analytic model", &rep_model_schema, REP_IN_JSON, 1,
                         5);
}

/* The DSM tables' and the wait states' rows, their columns counted by hand: by, name and NCP2's 7 categories (seed 002
 * §4.3); scope, waiter, operation, requests, time, mean and the 8 wait categories of Table 1 (their capitals kept);
 * node, waiter, operation, scope, peer, item, start and the 13 intervals of Figs. 1-3; rank, Scalasca's 7 patterns and
 * their total. */
static void test_rep_schema_view_tables_documented(void)
{
  assert_row_documented("| `-profiles` |", &rep_profiles_schema, 2 + 7);
  assert_row_documented("| `-waits` |", &rep_waits_schema, 6 + 8);
  assert_row_documented("| `-requests` |", &rep_requests_schema, 7 + 13);
  assert_row_documented("| `-wait-states` |", &rep_wait_states_schema, 1 + 7 + 1);
}

/* docs/results.md names the phases' JSON keys (rep_phases.h): every key of the schema's columns, each part of a dotted
 * key in backticks (`seconds`, `compute`), 1 + 4 + 1 columns counted by hand (phase, the four categories, share). */
static void test_rep_schema_phases_documented(void)
{
  FILE *in = fopen(SIMRUN_SOURCE_DIR "/docs/results.md", "r");
  CU_ASSERT_FATAL(in != NULL);
  static char text[1 << 16];
  size_t len = fread(text, 1, sizeof text - 1, in);
  text[len] = '\0';
  fclose(in);
  const char *phases = strstr(text, "`phases` (a list");
  CU_ASSERT_FATAL(phases != NULL);
  rep_col_t cols[16];
  size_t n = rep_schema_columns(&rep_phases_schema, NULL, REP_IN_JSON, cols, 16);
  CU_ASSERT_EQUAL(n, 1 + 4 + 1);
  for (size_t c = 0; c < n; c++)
    for (char *part = strtok(cols[c].json, "."); part; part = strtok(NULL, ".")) {
      char word[80];
      snprintf(word, sizeof word, "`%s`", part);
      if (!strstr(phases, word))
        fprintf(stderr, "docs/results.md's phases lack %s\n", word);
      CU_ASSERT(strstr(phases, word) != NULL);
    }
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_rep_schema_files", test_rep_schema_files},
                                    {"test_rep_schema_terminal", test_rep_schema_terminal},
                                    {"test_rep_schema_unit_group", test_rep_schema_unit_group},
                                    {"test_rep_schema_page_cells", test_rep_schema_page_cells},
                                    {"test_rep_schema_documented", test_rep_schema_documented},
                                    {"test_rep_schema_processes_documented", test_rep_schema_processes_documented},
                                    {"test_rep_schema_messages_documented", test_rep_schema_messages_documented},
                                    {"test_rep_schema_view_tables_documented", test_rep_schema_view_tables_documented},
                                    {"test_rep_schema_references_documented", test_rep_schema_references_documented},
                                    {"test_rep_schema_bottleneck_documented", test_rep_schema_bottleneck_documented},
                                    {"test_rep_schema_model_documented", test_rep_schema_model_documented},
                                    {"test_rep_schema_factors_documented", test_rep_schema_factors_documented},
                                    {"test_rep_schema_fits_documented", test_rep_schema_fits_documented},
                                    {"test_rep_schema_phases_documented", test_rep_schema_phases_documented},
                                    {NULL, NULL}};
  return tu_run("rep_schema", cases);
}
