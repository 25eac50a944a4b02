/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare on hand-made tables (tests/data/compare), figures chosen so that the differences are known by hand:
 * a run's main CSV against a measurement's (as CSV and as JSON), a study against a copy with noise only and against
 * one with one real change, per-rank tables in another order, tables with nothing in common, a point twice, cells
 * that are not numbers, a NUL byte (nul.csv); the exit statuses, the summary's bounds (20 lines, 80 columns), the
 * tolerances, the side-by-side picture and bad input. */
#include "tu.h"
#include "tu_cli.h"
#include "tu_svg.h"

#define COMPARE       SIMRUN_SOURCE_DIR "/tests/data/compare/"
#define SIMULATED     COMPARE "simulated.csv"
#define MEASURED      COMPARE "measured.csv"
#define MEASURED_JSON COMPARE "measured.json"

/* The summary (what comes before --full's part) has at most 20 lines, none wider than 80 columns. */
static void assert_summary_fits(const char *out)
{
  const char *end = strstr(out, "\nEvery point (--full)");
  size_t lines = 0;
  for (const char *at = out; *at && (!end || at <= end); lines++) {
    const char *nl = strchr(at, '\n');
    size_t width = nl ? (size_t)(nl - at) : strlen(at);
    if (width > 80)
      fprintf(stderr, "a line of %zu columns: %.*s\n", width, (int)width, at);
    CU_ASSERT(width <= 80);
    at = nl ? nl + 1 : at + width;
  }
  CU_ASSERT(lines <= 20);
}

/* Runs simrun compare `args` (NULL-ended) in folder `dir`: the exit status `status`, a summary that fits, nothing on
 * the standard error, and every one of `says` (NULL-ended) in the output. */
static void compare_says(const char *dir, const char *const *args, int status, const char *const *says)
{
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, status);
  CU_ASSERT_STRING_EQUAL(run.err, "");
  assert_summary_fits(run.out);
  for (size_t i = 0; says[i]; i++)
    if (!strstr(run.out, says[i])) {
      fprintf(stderr, "simrun compare's output lacks '%s' in:\n%s", says[i], run.out);
      CU_FAIL("a figure missing from simrun compare's output");
    }
  run_free(&run);
}

/* compare_says in a fresh folder of its own. */
static void expect_compare(const char *const *args, int status, const char *const *expected)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  compare_says(dir, args, status, expected);
  remove_folder(dir);
}

/* The keys both share are broadcast and p (n only in the run's, so not a key); the metric both share is t_par_s.
 * Three points pair (p = 8 is only measured): 10 against 10.4 (+0.4, +4%), 6 against 5.7 (-0.3, -5%), 7 against 7
 * (a quoted key with commas). With rtol = 5%, -0.3 is within 0.05 x 6 = 0.3 and +0.4 within 0.05 x 10.4 = 0.52:
 * exit 0. The largest relative difference is -5% at p = 2, the largest absolute +0.4 at p = 1. */
static void test_compare_by_hand(void)
{
  const char *args[] = {"compare", SIMULATED, MEASURED, NULL};
  const char *const says[] = {
      "Points: 3 paired on broadcast, p; 0 only in A, 1 only in B\n",
      "Not paired on (a key of one table only): n\n",
      "Metrics (all 1 both have): t_par_s\n",
      "rtol = 0.05, atol = 1e-09\n",
      "Compared: 3 values, 0 beyond the tolerance; 0 cells not numbers\n",
      "Largest relative difference: t_par_s 6 -> 5.7 (-5.00%)\n  at broadcast = neighbour, p = 2\n",
      "Largest absolute difference: t_par_s 10 -> 10.4 (+4.00%)\n  at broadcast = neighbour, "
      "p = 1\n",
      "Verdict: equal within the tolerance (exit status 0)\n",
      NULL};
  expect_compare(args, 0, says);
}

/* rtol = 4.5% flags -5% (0.3 > 0.045 x 6 = 0.27) but not +4% (0.4 <= 0.045 x 10.4 = 0.468): exit 1, as diff does;
 * --tolerance is --rtol; --full lists every point and the one only in B; --svg draws t_par_s of both against p: a
 * curve per table and group (A: n = 16 and each broadcast, B: each broadcast), whole. */
static void test_compare_tolerance_and_picture(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  const char *const flagged[] = {
      "Beyond the tolerance (1):\n  t_par_s 6 -> 5.7 (-5.00%) at broadcast = neighbour, p = 2\n",
      "Verdict: 1 difference (exit status 1)", NULL};
  const char *rtol[] = {"compare", SIMULATED, MEASURED, "--rtol", "0.045", "--svg", "both.svg", NULL};
  compare_says(dir, rtol, 1, flagged);
  char *svg = read_output(dir, "both.svg");
  CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, "</svg>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, "A: n = 16, broadcast = neighbour"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, "B: broadcast = one,to,all"));
  free(svg);
  const char *alias[] = {"compare", SIMULATED, MEASURED, "--tolerance", "0.045", "--full", NULL};
  const char *const full[] = {"Beyond the tolerance (1):\n",
                              "broadcast = neighbour, p = 2\n  t_par_s                      6           5.7          "
                              "-0.3    -5.00%  beyond\n",
                              "  t_par_s                     10          10.4          +0.4    +4.00%\n",
                              "Only in B: broadcast = neighbour, p = 8\n", NULL};
  compare_says(dir, alias, 1, full);
  remove_folder(dir);
}

/* measured.json holds measured.csv's figures in the shape of simrun's JSON (params, nested objects, lists, null, a
 * \u escape): against the run's CSV it gives the same hand figures as measured.csv; against measured.csv every value is
 * equal at no tolerance; and its nested members are read under the CSV's names (ovh_comm, processing_s). */
static void test_compare_json(void)
{
  const char *args[] = {"compare", SIMULATED, MEASURED_JSON, NULL};
  const char *const hand[] = {"Points: 3 paired on broadcast, p; 0 only in A, 1 only in B\n",
                              "Largest relative difference: t_par_s 6 -> 5.7 (-5.00%)\n", NULL};
  expect_compare(args, 0, hand);
  const char *both[] = {"compare", MEASURED, MEASURED_JSON, "--rtol", "0", "--atol", "0", NULL};
  const char *const equal[] = {"Points: 4 paired on broadcast, p; 0 only in A, 0 only in B\n",
                               "Compared: 4 values, 0 beyond", NULL};
  expect_compare(both, 0, equal);
  const char *self[] = {"compare", MEASURED_JSON, MEASURED_JSON, "--metric", "ovh_comm,processing_s", "--full", NULL};
  const char *const named[] = {"  ovh_comm                  0.25          0.25            +0    +0.00%\n",
                               "  processing_s               2.5           2.5            +0    +0.00%\n",
                               "Compared: 8 values", NULL};
  expect_compare(self, 0, named);
}

/* One run's --csv and --json hold the same figures: compared on every metric, each point pairs and no value differs at
 * no tolerance (the granularity at p = 1, inf in the CSV and null in the JSON, is no finite value in either: equal). */
static void test_compare_run_csv_json(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"-q", "--no-cache", DATA "gj-small.xml", "--csv", "r.csv", "--json", "r.json", NULL};
  run_ok(dir, sizeof dir, args, &run);
  run_free(&run);
  const char *both[] = {"compare", "r.csv", "r.json", "--metric", "all", "--rtol", "0", "--atol", "0", NULL};
  const char *const same[] = {"Points: 6 paired on ", "; 0 only in A, 0 only in B\n", "t_par_s, t_seq_s, speedup",
                              " 0 beyond the tolerance; 0 cells not numbers\n", NULL};
  compare_says(dir, both, 0, same);
  remove_folder(dir);
}

/* study-noise.csv is study-a.csv with T_par moved by +0.36% (2.8 -> 2.81 at one-to-all, p = 4) and -0.36% (1.4 ->
 * 1.395 at neighbour, p = 8), speedup = 10 / T_par moved with it, model_diff 0 -> 1e-13 at p = 1 and 0.0101 -> 0.0123
 * (+21.78%) at p = 2. By default only T_par and speedup count: exit 0, the largest difference the speedup's at p = 8,
 * 7.14285714 -> 7.16845878 (+0.36%, +0.0256). Every metric: model_diff's +21.78% twice, exit 1; 1e-13 against 0 stays
 * equal under atol's 1e-9, and differs with --atol 0. */
static void test_compare_noise_only(void)
{
  const char *args[] = {"compare", COMPARE "study-a.csv", COMPARE "study-noise.csv", NULL};
  const char *const noise[] = {"Metrics (2 of the 4 both have; --metric to choose): t_par_s, speedup\n",
                               "Compared: 16 values, 0 beyond the tolerance; 0 cells not numbers\n",
                               "Largest relative difference: speedup 7.14286 -> 7.16846 (+0.36%)\n"
                               "  at n = 64, broadcast = neighbour, p = 8\n",
                               "Verdict: equal within the tolerance (exit status 0)\n", NULL};
  expect_compare(args, 0, noise);
  const char *all[] = {"compare", COMPARE "study-a.csv", COMPARE "study-noise.csv", "--metric", "all", NULL};
  const char *const model[] = {"Compared: 32 values, 2 beyond the tolerance",
                               "  model_diff 0.0101 -> 0.0123 (+21.78%) at n = 64, broadcast = one-to-all, p = 2\n",
                               "  model_diff 0.0101 -> 0.0123 (+21.78%) at n = 64, broadcast = neighbour, p = 2\n",
                               NULL};
  expect_compare(all, 1, model);
  const char *floor[] = {
      "compare", COMPARE "study-a.csv", COMPARE "study-noise.csv", "--metric", "model_diff", "--rtol", "0.25", NULL};
  const char *const equal[] = {"Metrics (1 of the 4 both have; --metric to choose): model_diff\n",
                               "Compared: 8 values, 0 beyond", NULL};
  expect_compare(floor, 0, equal);
  const char *no_floor[] = {"compare",
                            COMPARE "study-a.csv",
                            COMPARE "study-noise.csv",
                            "--metric",
                            "model_diff",
                            "--rtol",
                            "0.25",
                            "--atol",
                            "0",
                            NULL};
  const char *const zero[] = {"  model_diff 0 -> 1e-13 (from 0) at n = 64, broadcast = one-to-all, p = 1\n", NULL};
  expect_compare(no_floor, 1, zero);
}

/* study-change.csv is study-a.csv with one real change: T_par 2.8 -> 3 (+7.14%) at one-to-all, p = 4, so speedup
 * 3.57142857 -> 3.33333333 (-6.67%): two differences, both named with their point, exit 1. */
static void test_compare_one_change(void)
{
  const char *args[] = {"compare", COMPARE "study-a.csv", COMPARE "study-change.csv", NULL};
  const char *const change[] = {"Compared: 16 values, 2 beyond the tolerance; 0 cells not numbers\n",
                                "Largest relative difference: t_par_s 2.8 -> 3 (+7.14%)\n",
                                "  t_par_s 2.8 -> 3 (+7.14%) at n = 64, broadcast = one-to-all, p = 4\n",
                                "  speedup 3.57143 -> 3.33333 (-6.67%) at n = 64, broadcast = one-to-all, p = 4\n",
                                "Verdict: 2 differences (exit status 1); --full lists every point\n",
                                NULL};
  expect_compare(args, 1, change);
}

/* Per-rank tables whose ranks differ by up to 5 times, B's rows in reverse order, B's rank 3 at p = 4 +0.30% (0.8 ->
 * 0.8024) and rank 1's idling at p = 2 +0.27% (0.6 -> 0.6016): paired on rank, every value within 5% (paired with rank
 * 0 each would be 2 against 0.8), and neither T_par nor speedup there, so every metric both have is compared. */
static void test_compare_per_rank(void)
{
  const char *args[] = {"compare", COMPARE "ranks-a.csv", COMPARE "ranks-b.csv", NULL};
  const char *const ranks[] = {"Points: 6 paired on n, p, rank; 0 only in A, 0 only in B\n",
                               "Metrics (all 2, no t_par_s or speedup in both): rank_work_s, rank_ovh_idle\n",
                               "Compared: 12 values, 0 beyond the tolerance",
                               "Largest relative difference: rank_work_s 0.8 -> 0.8024 (+0.30%)\n  at n = 64, p = 4, "
                               "rank = 3\n",
                               "Verdict: equal within the tolerance (exit status 0)\n",
                               NULL};
  expect_compare(args, 0, ranks);
}

/* Cells that are not numbers in a compared column (abc, nan, inf, empty) are differences, counted and named with the
 * file, line and column, the first two of them; the same word in both (inf against inf) is equal. mixed.csv has no
 * column n, 8 values beyond 5% and 3 such cells: the summary's longest form, 20 lines. */
static void test_compare_not_numbers(void)
{
  const char *args[] = {"compare", COMPARE "study-a.csv", COMPARE "words.csv", NULL};
  const char *const words[] = {"Compared: 6 values, 0 beyond the tolerance; 4 cells not numbers\n",
                               "Not numbers, counted as differences (the first 2 of 4):\n",
                               "  words.csv:3 (B): t_par_s 'abc' is not a number (A: '5.2')\n",
                               "  words.csv:4 (B): speedup 'nan' is not a number (A: '3.57142857')\n",
                               "Verdict: 4 differences (exit status 1)",
                               NULL};
  expect_compare(args, 1, words);
  const char *self[] = {"compare", COMPARE "words.csv", COMPARE "words.csv", NULL};
  const char *const same[] = {"Compared: 6 values, 0 beyond the tolerance; 0 cells not numbers\n", NULL};
  expect_compare(self, 0, same);
  const char *mixed[] = {"compare", "study-a.csv", "mixed.csv", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_program(COMPARE, SIMRUN_BINARY, mixed, &run), 0);
  CU_ASSERT_EQUAL(run.status, 1);
  CU_ASSERT_EQUAL(count_lines(run.out), 20);
  assert_summary_fits(run.out);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Beyond the tolerance (the first 4 of 8):\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Not numbers, counted as differences (the first 2 of 3):\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Verdict: 11 differences (exit status 1)"));
  run_free(&run);
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
  EXPECT_FAILURE(.args = {"compare", SIMULATED, COMPARE "run.json", NULL}, .bare = 1, .status = 2,
                 .prefix = COMPARE "run.json:1: no points", .phrases = {"--json", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, DATA "bad.json", NULL}, .bare = 1, .status = 2,
                 .prefix = DATA "bad.json:", .phrases = {NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, COMPARE "unclosed.csv", NULL}, .bare = 1, .status = 2,
                 .prefix = COMPARE "unclosed.csv:2: a quoted field never", .phrases = {"close it", NULL});
  EXPECT_FAILURE(.args = {"compare", COMPARE "study-a.csv", COMPARE "study-other.csv", NULL}, .bare = 1, .status = 2,
                 .prefix = COMPARE "study-a.csv and " COMPARE "study-other.csv have no point in common on n, "
                                   "broadcast, p",
                 .phrases = {NULL});
  EXPECT_FAILURE(.args = {"compare", COMPARE "study-a.csv", COMPARE "twice.csv", NULL}, .bare = 1, .status = 2,
                 .prefix = COMPARE "twice.csv:4: the point n = 64, broadcast = one-to-all, p = 2.0 is there twice "
                                   "(first at " COMPARE "twice.csv:3)",
                 .phrases = {NULL});
  /* nul.csv: a number cut by a NUL byte ("5." NUL "2"), refused at its line, never read as 5 */
  EXPECT_FAILURE(.args = {"compare", MEASURED, COMPARE "nul.csv", NULL}, .bare = 1, .status = 2,
                 .prefix = COMPARE "nul.csv:3: a NUL byte", .phrases = {"give the table", NULL});
  /* nul.json: measured.json with its 10.4 cut by a NUL byte ("10" NUL ".4") on line 6 */
  EXPECT_FAILURE(.args = {"compare", COMPARE "nul.json", MEASURED, NULL}, .bare = 1, .status = 2,
                 .prefix = COMPARE "nul.json:6: a NUL byte", .phrases = {NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, MEASURED, "--rtol", "-1", NULL}, .bare = 1, .status = 2,
                 .prefix = "--rtol -1: give a decimal number >= 0", .phrases = {"0.05", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, MEASURED, "--atol", "nan", NULL}, .bare = 1, .status = 2,
                 .prefix = "--atol nan: give a decimal number >= 0", .phrases = {"1e-9", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, MEASURED, "--svg=x.svg", "--metric=speedup", NULL}, .bare = 1,
                 .status = 2, .prefix = "--metric speedup: " MEASURED " has no such column", .phrases = {NULL});
  /* fuzz-text-p.csv (found by fuzz_compare): no p is a number, so --svg has nothing to draw (the chart's axes were
   * drawn from an empty range: an overflow in rep_svg) */
  EXPECT_FAILURE(.args = {"compare", COMPARE "fuzz-text-p.csv", COMPARE "fuzz-text-p.csv", "--svg", "x.svg", NULL},
                 .bare = 1, .status = 2, .prefix = "--svg: nothing to draw", .phrases = {"--metric", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, MEASURED, "--svg", "/dev/null", NULL}, .bare = 1, .status = 2,
                 .prefix = "cannot write '/dev/null': not a regular file", .phrases = {"give a file name", NULL});
  EXPECT_FAILURE(.args = {"compare", SIMULATED, MEASURED, "--metric", "p", NULL}, .bare = 1, .status = 2,
                 .prefix = "--metric p: a key or a name, not a metric", .phrases = {NULL});
}

/* --svg naming table A (through a link, or the link itself) is refused before anything is read, the link and its
 * table left as they were. */
static void test_compare_svg_replaces_input(void)
{
  char dir[1024], path[1200], target[1200];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(path, sizeof path, "%s/a.csv", dir);
  CU_ASSERT_EQUAL_FATAL(symlink(SIMULATED, path), 0);
  const char *const tables[] = {"a.csv", SIMULATED};
  for (size_t i = 0; i < 2; i++) {
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(
        run_simrun(dir, (const char *const[]){"compare", tables[i], MEASURED, "--svg", "a.csv", NULL}, &run), 0);
    CU_ASSERT_EQUAL(run.status, 2);
    assert_error_line(run.err, "--svg 'a.csv' would replace table A", (const char *const[]){"another name", NULL});
    CU_ASSERT_STRING_EQUAL(run.out, "");
    run_free(&run);
  }
  ssize_t len = readlink(path, target, sizeof target - 1);
  CU_ASSERT_FATAL(len > 0);
  target[len] = '\0';
  CU_ASSERT_STRING_EQUAL(target, SIMULATED);
  remove_folder(dir);
}

/* fuzz-big-p.csv (after a fuzz_compare finding): a p of 1.9e93, which no run has, is left out of --svg's picture (its
 * axis overflowed a size_t in rep_svg): the x axis spans p = 1 to 2, the rows that are process counts. */
static void test_compare_svg_leaves_out_absurd_p(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"compare", COMPARE "fuzz-big-p.csv", COMPARE "fuzz-big-p.csv", "--svg", "big.svg", NULL};
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  char *svg = read_output(dir, "big.svg");
  tu_chart_t chart = {0};
  CU_ASSERT_FATAL(svg && tu_svg_chart(svg, 0, &chart) == 0);
  CU_ASSERT(chart.nticks >= 2);
  for (int i = 0; i < chart.nticks; i++)
    CU_ASSERT(chart.tick_v[i] >= 1 && chart.tick_v[i] <= 2);
  free(svg);
  remove_folder(dir);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_compare_by_hand", test_compare_by_hand},
                                    {"test_compare_tolerance_and_picture", test_compare_tolerance_and_picture},
                                    {"test_compare_json", test_compare_json},
                                    {"test_compare_run_csv_json", test_compare_run_csv_json},
                                    {"test_compare_noise_only", test_compare_noise_only},
                                    {"test_compare_one_change", test_compare_one_change},
                                    {"test_compare_per_rank", test_compare_per_rank},
                                    {"test_compare_not_numbers", test_compare_not_numbers},
                                    {"test_compare_bad_input", test_compare_bad_input},
                                    {"test_compare_svg_replaces_input", test_compare_svg_replaces_input},
                                    {"test_compare_svg_leaves_out_absurd_p", test_compare_svg_leaves_out_absurd_p},
                                    {NULL, NULL}};
  return tu_run("cli_compare", cases);
}
