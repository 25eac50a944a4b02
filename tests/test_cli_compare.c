/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare: two hand-made tables (tests/data/compare: a run's main CSV and a measurement's, as CSV and as JSON,
 * figures chosen so that the differences are known by hand), a run's CSV against its JSON, the exit status by
 * tolerance, the side-by-side picture, and bad input. */
#include "tu.h"
#include "tu_cli.h"

#define SIMULATED     SIMRUN_SOURCE_DIR "/tests/data/compare/simulated.csv"
#define MEASURED      SIMRUN_SOURCE_DIR "/tests/data/compare/measured.csv"
#define MEASURED_JSON SIMRUN_SOURCE_DIR "/tests/data/compare/measured.json"

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

/* Runs simrun compare with `args` in folder `dir`: exit 0, and its output holds every one of `says` (NULL-ended). */
static void compare_says(const char *dir, const char *const *args, const char *const *says)
{
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  for (size_t i = 0; says[i]; i++)
    if (!strstr(run.out, says[i])) {
      fprintf(stderr, "simrun compare's output lacks '%s'\n", says[i]);
      CU_FAIL("a figure missing from simrun compare's output");
    }
  run_free(&run);
}

/* measured.json holds measured.csv's figures in the shape of simrun's JSON (params, nested objects, lists, null, a
 * \u escape): against the run's CSV it gives the same hand figures as measured.csv; against measured.csv every value is
 * equal; and its nested members are read under the CSV's names (ovh_comm, processing_s). */
static void test_compare_json(void)
{
  char dir[1024];
  const char *args[] = {"compare", SIMULATED, MEASURED_JSON, NULL};
  const char *const hand[] = {
      "+0.4      +4.00%\n", "-0.3      -5.00%\n", "broadcast = one,to,all, p = 2\n",
      "3 points in both (0 of A's not in B, 1 of B's), 3 values compared, 0 exceed the tolerance\n", NULL};
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  compare_says(dir, args, hand);
  const char *both[] = {"compare", MEASURED, MEASURED_JSON, "--tolerance", "0", NULL};
  const char *const equal[] = {"4 points in both (0 of A's not in B, 0 of B's), 4 values compared, 0 exceed", NULL};
  compare_says(dir, both, equal);
  const char *self[] = {"compare", MEASURED_JSON, MEASURED_JSON, NULL};
  const char *const named[] = {"  ovh_comm                          0.25            0.25",
                               "  processing_s                       2.5             2.5",
                               "4 points in both (0 of A's not in B, 0 of B's), 16 values compared", NULL};
  compare_says(dir, self, named);
  remove_folder(dir);
}

/* One run's --csv and --json hold the same figures: compared, every point matches and no value differs. */
static void test_compare_run_csv_json(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"-q", "--no-cache", DATA "gj-small.xml", "--csv", "r.csv", "--json", "r.json", NULL};
  run_ok(dir, sizeof dir, args, &run);
  run_free(&run);
  const char *both[] = {"compare", "r.csv", "r.json", "--tolerance", "0", NULL};
  const char *const same[] = {"6 points in both (0 of A's not in B, 0 of B's)", "  t_par_s ", "  b_memory ",
                              ", 0 exceed the tolerance\n", NULL};
  compare_says(dir, both, same);
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
                 .status = 2, .prefix = SIMRUN_SOURCE_DIR "/tests/data/compare/run.json:1: no points",
                 .phrases = {"--json", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, DATA "bad.json", NULL}, .bare = 1, .status = 2,
                 .prefix = DATA "bad.json:", .phrases = {NULL});
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
                                    {"test_compare_json", test_compare_json},
                                    {"test_compare_run_csv_json", test_compare_run_csv_json},
                                    {"test_compare_bad_input", test_compare_bad_input},
                                    {NULL, NULL}};
  return tu_run("cli_compare", cases);
}
