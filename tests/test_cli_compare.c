/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare: two hand-made tables (tests/data/compare: a run's main CSV and a measurement's, figures chosen so
 * that the differences are known by hand), the exit status by tolerance, the side-by-side picture, and bad input. */
#include "tu.h"
#include "tu_cli.h"

#define SIMULATED SIMRUN_SOURCE_DIR "/tests/data/compare/simulated.csv"
#define MEASURED  SIMRUN_SOURCE_DIR "/tests/data/compare/measured.csv"

/* Runs simrun compare with `args` in a fresh folder (its path in dir). */
static void compare(char *dir, size_t size, const char *const *extra, cli_run_t *run)
{
  const char *args[MAX_ARGS + 1] = {"compare", SIMULATED, MEASURED};
  size_t n = 3;
  for (size_t i = 0; extra[i]; i++)
    args[n++] = extra[i];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, size), 0);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, run), 0);
}

/* The keys both share are broadcast and p (n only in the run's, so not a key); the metric both share is t_par_s.
 * Three points match (p = 8 is only measured): 10 against 10.4 (+0.4, +4%), 6 against 5.7 (-0.3, -5%), 7 against 7
 * (a quoted key with commas). With the default tolerance of 5% none exceeds (|-0.3| is not above 0.3): exit 0. */
static void test_compare_by_hand(void)
{
  char dir[1024];
  cli_run_t run;
  const char *none[] = {NULL};
  compare(dir, sizeof dir, none, &run);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_STRING_EQUAL(run.err, "");
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "point by point on broadcast, p;"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "broadcast = neighbour, p = 1\n  t_par_s "));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "+0.4      +4.00%\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "-0.3      -5.00%\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "broadcast = one,to,all, p = 2\n"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "speedup")); /* only in the run's table */
  CU_ASSERT_PTR_NOT_NULL(
      strstr(run.out, "3 points in both (0 of A's not in B, 1 of B's), 3 values compared, 0 exceed the tolerance\n"));
  run_free(&run);
  remove_folder(dir);
}

/* A tolerance of 4.5% flags the -5% difference only (4% is within): exit 1, as diff does; --svg draws t_par_s of both
 * against p: a curve per table and group (A: n = 16 and each broadcast, B: each broadcast), whole. */
static void test_compare_tolerance_and_picture(void)
{
  char dir[1024];
  cli_run_t run;
  const char *extra[] = {"--tolerance", "0.045", "--svg", "both.svg", NULL};
  compare(dir, sizeof dir, extra, &run);
  CU_ASSERT_EQUAL(run.status, 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "-5.00%  exceeds\n"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "+4.00%  exceeds"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, ", 1 exceed the tolerance\n"));
  char *svg = read_output(dir, "both.svg");
  CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, "</svg>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, "A: n = 16, broadcast = neighbour"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, "B: broadcast = one,to,all"));
  free(svg);
  run_free(&run);
  remove_folder(dir);
}

/* Bad input: one line each, exit 2, nothing written. */
static void test_compare_bad_input(void)
{
  EXPECT_FAILURE(.args = {"compare", SIMULATED, NULL}, .bare = 1, .status = 2, .prefix = "compare takes two results",
                 .phrases = {"--help", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, "missing.csv", NULL}, .bare = 1, .status = 2,
                 .prefix = "missing.csv: cannot read it", .phrases = {"CSV", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, DATA "gj-small.xml", NULL}, .bare = 1, .status = 2,
                 .prefix = DATA "gj-small.xml:", .phrases = {NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, SIMRUN_SOURCE_DIR "/tests/data/compare/run.json", NULL}, .bare = 1,
                 .status = 2, .prefix = SIMRUN_SOURCE_DIR "/tests/data/compare/run.json:1: a JSON file",
                 .phrases = {"--csv", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, SIMRUN_SOURCE_DIR "/tests/data/compare/unclosed.csv", NULL}, .bare = 1,
                 .status = 2, .prefix = SIMRUN_SOURCE_DIR "/tests/data/compare/unclosed.csv:2: a quoted field never",
                 .phrases = {"close it", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, MEASURED, "--tolerance", "-1", NULL}, .bare = 1, .status = 2,
                 .prefix = "--tolerance takes", .phrases = {"0.05", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, MEASURED, "--svg=x.svg", "--metric=speedup", NULL}, .bare = 1,
                 .status = 2, .prefix = "cannot draw 'speedup'", .phrases = {"--metric", NULL});
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_compare_by_hand", test_compare_by_hand},
                                    {"test_compare_tolerance_and_picture", test_compare_tolerance_and_picture},
                                    {"test_compare_bad_input", test_compare_bad_input},
                                    {NULL, NULL}};
  return tu_run("cli_compare", cases);
}
