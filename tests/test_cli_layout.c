/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The terminal report within its width, end to end (cli_layout.h): every shipped scenario's default report has no line
 * wider than 80 columns (not a terminal, no COLUMNS), none wider than 120 at --width 120 or than 100 with COLUMNS=100,
 * and a lost-cycle study's opens with its summary; simrun analyse's lines fit too; --width outside 40..1000 is refused
 * with exit status 2. */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "tu.h"
#include "tu_cli.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* Whether a line of `text` holds both `a` and `b`. */
static int same_line(const char *text, const char *a, const char *b)
{
  for (const char *c = strstr(text, a); c; c = strstr(c + 1, a)) {
    const char *end = strchr(c, '\n');
    const char *other = strstr(c, b);
    if (other && (!end || other < end))
      return 1;
  }
  return 0;
}

/* The widest line of `text`. */
static size_t widest(const char *text)
{
  size_t most = 0;
  for (const char *c = text; *c; c += strcspn(c, "\n") + (c[strcspn(c, "\n")] == '\n')) {
    size_t len = strcspn(c, "\n");
    most = len > most ? len : most;
  }
  return most;
}

/* Runs the shipped scenario `name` with `width` ("" for none) and checks its report's widest line against `limit`. */
static void check_scenario(const char *name, const char *width, size_t limit)
{
  char path[2048];
  snprintf(path, sizeof path, "%s/scenarios/%s", SIMRUN_SOURCE_DIR, name);
  const char *args[] = {"-q", path, *width ? "--width" : NULL, width, NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  if (widest(run.out) > limit)
    fprintf(stderr, "\n%s at %zu columns: a line of %zu\n", name, limit, widest(run.out));
  CU_ASSERT(widest(run.out) <= limit);
  /* a lost-cycle study (its table has "T_par (") opens with its summary, within its first 12 lines */
  const char *summary = strstr(run.out, "\nSummary (");
  const char *table = strstr(run.out, "T_par (");
  if (table && !strstr(run.out, "Message times")) {
    CU_ASSERT(summary && summary < table);
    size_t before = 0;
    for (const char *c = run.out; summary && c < summary; c++)
      before += *c == '\n';
    CU_ASSERT(before < 12);
  }
  run_free(&run);
}

static void each_scenario(const char *width, size_t limit)
{
  DIR *dir = opendir(SIMRUN_SOURCE_DIR "/scenarios");
  CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
  size_t count = 0;
  for (struct dirent *e; (e = readdir(dir));) {
    size_t len = strlen(e->d_name);
    if (len > 4 && strcmp(e->d_name + len - 4, ".xml") == 0) {
      check_scenario(e->d_name, width, limit);
      count++;
    }
  }
  closedir(dir);
  CU_ASSERT(count >= 15);
}

static void test_cli_layout_default_80(void)
{
  unsetenv("COLUMNS");
  each_scenario("", 80);
}

static void test_cli_layout_width_120(void)
{
  unsetenv("COLUMNS");
  each_scenario("120", 120);
}

/* COLUMNS=100 lays gj256 out in 100 columns: its lost-cycle table, 91 columns wide, is then one group (at 80 it is
 * two, the key column p repeated). --width wins over COLUMNS. */
static void test_cli_layout_columns(void)
{
  setenv("COLUMNS", "100", 1);
  const char *args[] = {"-q", SIMRUN_SOURCE_DIR "/scenarios/gj256.xml", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT(widest(run.out) <= 100 && widest(run.out) > 80);
  CU_ASSERT_TRUE(same_line(run.out, "T_par (", "granularity"));
  run_free(&run);
  const char *narrow[] = {"-q", "--width", "80", SIMRUN_SOURCE_DIR "/scenarios/gj256.xml", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", narrow, &run), 0);
  CU_ASSERT(widest(run.out) <= 80);
  CU_ASSERT_FALSE(same_line(run.out, "T_par (", "granularity"));
  run_free(&run);
  unsetenv("COLUMNS");
}

/* simrun analyse's own lines (each run's pairing, the clock condition, T_seq's source) within the report's width: 80
 * when not a terminal, or --width. Before they were wrapped, clock-condition's run line was 339 columns. */
static void test_cli_layout_analyse(void)
{
  static const char *const runs[] = {"two-ranks", "clock-condition"};
  static const char *const widths[][2] = {{"", "80"}, {"--width", "120"}};
  unsetenv("COLUMNS");
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
      char dir[2048];
      snprintf(dir, sizeof dir, "%s/tests/data/tracer/%s", SIMRUN_SOURCE_DIR, runs[r]);
      const char *args[] = {"analyse", dir, *widths[w][0] ? widths[w][0] : NULL, widths[w][1], NULL};
      cli_run_t run;
      CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
      CU_ASSERT_EQUAL(run.status, 0);
      CU_ASSERT(widest(run.out) <= strtoul(widths[w][1], NULL, 10));
      CU_ASSERT(widest(run.out) > 40);
      CU_ASSERT(strstr(run.out, "Measured runs of ") != NULL);
      run_free(&run);
    }
}

static void test_cli_layout_bad_width(void)
{
  EXPECT_FAILURE(.args = {"--width", "39", DATA "gj-small.xml"}, .bare = 1, .status = 2,
                 .prefix = "--width takes a number of columns from 40 to 1000, not '39'",
                 .phrases = {"see simrun --help"});
  EXPECT_FAILURE(.args = {"--width", "wide", DATA "gj-small.xml"}, .bare = 1, .status = 2,
                 .prefix = "--width takes a number of columns from 40 to 1000, not 'wide'");
  EXPECT_FAILURE(.args = {"analyse", SIMRUN_SOURCE_DIR "/tests/data/tracer/two-ranks", "--width", "2000"}, .bare = 1,
                 .status = 2, .prefix = "--width takes a number of columns from 40 to 1000, not '2000'");
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_cli_layout_default_80", test_cli_layout_default_80},
                                    {"test_cli_layout_width_120", test_cli_layout_width_120},
                                    {"test_cli_layout_columns", test_cli_layout_columns},
                                    {"test_cli_layout_analyse", test_cli_layout_analyse},
                                    {"test_cli_layout_bad_width", test_cli_layout_bad_width},
                                    {NULL, NULL}};
  return tu_run("cli_layout", cases);
}
