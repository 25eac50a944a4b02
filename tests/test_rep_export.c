/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CSV tables and the JSON as other tools read them: tests/check_results.py parses them with python3's csv and json
 * modules and checks every table against the JSON, the printed report and the study's invariants (docs/results.md). */
#include "rep_report.h"
#include "tu.h"
#include "tu_cli.h"

#define CHECKER SIMRUN_SOURCE_DIR "/tests/check_results.py"

/* Runs simrun on `scenario` (then `extra`, NULL-ended) in a fresh folder (its path in dir), keeping its report as
 * report.txt beside out.csv and out.json. */
static void export_run(char *dir, size_t size, const char *scenario, const char *const *extra)
{
  /* the whole report in one group of columns: the checker reads its tables as a script would */
  const char *args[MAX_ARGS + 1] = {"-q",     "--no-cache", scenario, "--csv",   "out.csv",
                                    "--json", "out.json",   "--full", "--width", "1000"};
  size_t n = 10;
  for (size_t i = 0; extra && extra[i]; i++)
    args[n++] = extra[i];
  cli_run_t run;
  run_ok(dir, size, args, &run);
  char path[2048];
  snprintf(path, sizeof path, "%s/report.txt", dir);
  FILE *file = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(file);
  fputs(run.out ? run.out : "", file);
  fclose(file);
  run_free(&run);
}

/* The checker's verdict on folder `dir` for results of `kind` (lost, dsm, messages): its exit status; what it found
 * wrong goes to stderr. */
static int checker(const char *kind, const char *dir)
{
  const char *args[] = {"python3", CHECKER, kind, dir, NULL};
  cli_run_t run;
  if (run_program(dir, "/usr/bin/env", args, &run) != 0)
    return -1;
  fprintf(stderr, "%s%s", run.out, run.err);
  int status = run.status;
  run_free(&run);
  return status;
}

/* Replaces the first `from` in file `name` of `dir` by `to` (same length or not); 0, or -1. */
static int tamper(const char *dir, const char *name, const char *from, const char *to)
{
  char *text = read_output(dir, name);
  char *at = text ? strstr(text, from) : NULL;
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *file = at ? fopen(path, "w") : NULL;
  if (file)
    fprintf(file, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  int rc = file && fclose(file) == 0 ? 0 : -1;
  free(text);
  return rc;
}

/* A change of `from` into `to` in file `name` of `dir` must make the checker fail; the file is restored after. */
static void assert_caught(const char *kind, const char *dir, const char *name, const char *from, const char *to)
{
  CU_ASSERT_EQUAL_FATAL(tamper(dir, name, from, to), 0);
  CU_ASSERT_EQUAL(checker(kind, dir), 1);
  CU_ASSERT_EQUAL_FATAL(tamper(dir, name, to, from), 0);
}

/* Gauss-Jordan: the main table, the per-process one, the JSON and the terminal tables agree, the JSON is typed and
 * snake_case with its provenance; a changed figure, a renamed column or an untyped value makes the checker fail, so
 * that it can fail. */
static void test_export_lost_cycles_agree_with_report(void)
{
  char dir[1024];
  const char *extra[] = {"--per-process", "2", NULL};
  export_run(dir, sizeof dir, DATA "gj-small.xml", extra);
  CU_ASSERT_EQUAL(checker("lost", dir), 0);
  /* out.csv out-processes.csv out-wait-states.csv out-provenance.csv out.json report.txt, and no temporary file */
  CU_ASSERT_EQUAL(count_entries(dir), 6);
  assert_caught("lost", dir, "out.csv", ",ovh_comm,", ",ovh_comm_,");
  assert_caught("lost", dir, "out-processes.csv", ",0.039443442,", ",0.039443443,");
  assert_caught("lost", dir, "out.json", "\"t_par_s\": 0.0281264396", "\"t_par_s\": 0.0282264396");
  /* typed JSON: a number as a string, a missing list, a dashed key, a scenario hash that is not the file's */
  assert_caught("lost", dir, "out.json", "\"n\": 16", "\"n\": \"16\"");
  assert_caught("lost", dir, "out.json", "\"per_process\": [],", "\"per_process_\": [],");
  assert_caught("lost", dir, "out.json", "\"link_init\"", "\"link-init\"");
  assert_caught("lost", dir, "out.json", "\"scenario_hash\": \"", "\"scenario_hash\": \"0");
  /* the network model: the same in the report, the provenance table and the JSON */
  assert_caught("lost", dir, "out.json", "\"network_model\": \"CM02: latency x 1,",
                "\"network_model\": \"LV08: latency x 1,");
  assert_caught("lost", dir, "out-provenance.csv", "CM02: latency x 1,", "LV08: latency x 1,");
  CU_ASSERT_EQUAL(checker("lost", dir), 0);
  remove_folder(dir);
}

/* Two factors (n and broadcast, with --set): the -factors table and the JSON's factors agree with each other and with
 * the main table, and the checker works their ranks and best marks out anew; a wrong best mark or a point paired
 * with another's T_par makes it fail. */
static void test_export_factors_agree(void)
{
  char dir[1024];
  const char *extra[] = {"--set", "n=16 24", "--per-process", "2", NULL};
  export_run(dir, sizeof dir, DATA "gj-small.xml", extra);
  CU_ASSERT_EQUAL(checker("lost", dir), 0);
  char *text = read_output(dir, "out-factors.csv");
  CU_ASSERT_FATAL(text != NULL);
  CU_ASSERT(strncmp(text, "scenario,n,broadcast,p,t_par_s,speedup,rank,best\n", 49) == 0);
  free(text);
  assert_caught("lost", dir, "out-factors.csv", ",1,1\n", ",1,0\n");
  assert_caught("lost", dir, "out-factors.csv", ",16,one-to-all,4,", ",24,one-to-all,4,");
  remove_folder(dir);
}

/* At p = 1 on a machine without memory or I/O times, processing is the only component: its B-ratio (processing / the
 * sum of the others, 0) is undefined, so the report shows '-', the CSV field is empty and the JSON null (it was 0, and
 * the verdict saw processing's ratio rise above 1 at p = 1); the verdict calls processing a bottleneck there (all of
 * the run is processing) and finds no crossing. A 0 in the CSV, or a number in the JSON, makes the checker fail. */
static void test_export_undefined_ratios(void)
{
  char dir[1024];
  const char *extra[] = {"--per-process", "2", NULL};
  export_run(dir, sizeof dir, DATA "gj-free-memory.xml", extra);
  CU_ASSERT_EQUAL(checker("lost", dir), 0);
  char *report = read_output(dir, "report.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(report);
  const char *row = strstr(report, "\n  B-ratio processing ");
  char first[16] = "";
  CU_ASSERT(row && sscanf(row, " B-ratio processing %15s", first) == 1 && strcmp(first, "-") == 0);
  CU_ASSERT_PTR_NOT_NULL(
      strstr(report, "    p = 1: processing is a bottleneck (B-ratio undefined: no other component"));
  CU_ASSERT_PTR_NULL(strstr(report, "B-ratio of processing rises"));
  free(report);
  assert_caught("lost", dir, "out.csv", ",,0,0,0,0,0,1,processing,", ",0,0,0,0,0,0,1,processing,");
  assert_caught("lost", dir, "out.json", "\"processing\": null", "\"processing\": 0");
  remove_folder(dir);
}

/* Runs `scenario` as export_run does (with the options `extra`, NULL-terminated, or none); the checker must accept the
 * results, and `table` hold `lines` lines. */
static void export_checked(char *dir, size_t size, const char *scenario, const char *const *extra, const char *kind,
                           const char *table, size_t lines)
{
  export_run(dir, size, scenario, extra);
  CU_ASSERT_EQUAL(checker(kind, dir), 0);
  char *text = read_output(dir, table);
  CU_ASSERT(text && count_lines(text) == lines);
  free(text);
}

/* DSM: one row per point (not per wait-map line), the time profile summed over the nodes as the report's "all" row,
 * empty lost-cycle fields; the wait map in out-waits.csv, the profiles by node, scope and operation in
 * out-profiles.csv, adding up; with --requests, every request with its 13 intervals in out-requests.csv, as many as
 * the map counts; without it, no request table and the same other tables. */
static void test_export_dsm_one_row_per_point(void)
{
  char dir[1024], plain[1024];
  const char *requests[] = {"--requests", NULL};
  /* a header and the two points, controller = yes and no */
  export_checked(dir, sizeof dir, SIMRUN_SOURCE_DIR "/tests/data/dsm/gj-small.xml", requests, "dsm", "out.csv", 3);
  assert_caught("dsm", dir, "out-waits.csv", ",update,Wait,diff,", ",update,Wait,page,");
  assert_caught("dsm", dir, "out-profiles.csv", ",node,1,4.864e-05,", ",node,1,4.865e-05,");
  assert_caught("dsm", dir, "out-requests.csv", ",CPWait,barrier,init,", ",CPWait,barrier,exit,");
  export_run(plain, sizeof plain, SIMRUN_SOURCE_DIR "/tests/data/dsm/gj-small.xml", NULL);
  char *none = read_output(plain, "out-requests.csv");
  CU_ASSERT_PTR_NULL(none);
  free(none);
  const char *same[] = {"out.csv", "out-waits.csv", "out-profiles.csv", "report.txt"};
  for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
    char *a = read_output(dir, same[i]), *b = read_output(plain, same[i]);
    CU_ASSERT(a && b && strcmp(a, b) == 0);
    free(a);
    free(b);
  }
  remove_folder(plain);
  remove_folder(dir);
}

/* Ping-pong: one row per point in out.csv, the times by size and distance in out-messages.csv; their counts add up. */
static void test_export_messages_in_their_table(void)
{
  char dir[1024];
  /* 4 sizes (8..64 bytes) x 2 distances (1, 2 hops), and the header */
  export_checked(dir, sizeof dir, SIMRUN_SOURCE_DIR "/tests/data/export/pingpong-small.xml", NULL, "messages",
                 "out-messages.csv", 9);
  assert_caught("messages", dir, "out-messages.csv", ",1,4,", ",1,5,");
  remove_folder(dir);
}

/* docs/results.md's pandas recipes, each run as written (tests/check_recipes.py, Debian's python3-pandas; a missing
 * one fails) after the command the page gives, print what their comments say: row counts taken from the scenario file
 * (gj256: 2 broadcasts x 8 p, 8 ranks at the per-process p = 8, 18 references of 8 values). */
static void test_export_pandas_recipes(void)
{
  if (SANITIZED) { /* gj256's 16 points take 20 s there; the CSV writers are checked under it by the cases above */
    fprintf(stderr, "\npandas recipes: gj256 is too slow under a sanitizer; the normal build runs them\n");
    return;
  }
  char dir[1024];
  const char *args[] = {"-q",
                        "--no-cache",
                        SIMRUN_SOURCE_DIR "/scenarios/gj256.xml",
                        "--per-process",
                        "8",
                        "--csv",
                        "out/gj256.csv",
                        "--json",
                        "out/gj256.json",
                        NULL};
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  char out[1100];
  snprintf(out, sizeof out, "%s/out", dir);
  CU_ASSERT_EQUAL_FATAL(mkdir(out, 0700), 0);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  const char *check[] = {SIMRUN_SOURCE_DIR "/tests/check_recipes.py", SIMRUN_SOURCE_DIR "/docs/results.md", dir, NULL};
  CU_ASSERT_EQUAL_FATAL(run_program(dir, "/usr/bin/python3", check, &run), 0);
  fprintf(stderr, "%s%s", run.out, run.err);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  remove_folder(out);
  remove_folder(dir);
}

static void test_export_table_path(void)
{
  char path[256];
  rep_csv_table_path("dir/out.csv", "waits", path, sizeof path);
  CU_ASSERT_STRING_EQUAL(path, "dir/out-waits.csv");
  rep_csv_table_path("results", "processes", path, sizeof path);
  CU_ASSERT_STRING_EQUAL(path, "results-processes.csv");
  rep_csv_table_path(".csv", "messages", path, sizeof path);
  CU_ASSERT_STRING_EQUAL(path, ".csv-messages.csv");
}

/* The fits go into the CSV (out-fits.csv) and the JSON ("fits"), the same as the terminal lists (issue 27): gj128 has
 * 14 fits (7 metrics of two broadcasts with a lost-cycle curve; the anomaly stays 0 and gets none), each row with its
 * form, coefficients, R^2, range, whether it is shown and the report's text for it. */
static void test_export_fits(void)
{
  char dir[1024];
  export_run(dir, sizeof dir, SIMRUN_SOURCE_DIR "/scenarios/gj128.xml", NULL);
  char *csv = read_output(dir, "out-fits.csv");
  char *json = read_output(dir, "out.json");
  char *report = read_output(dir, "report.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  CU_ASSERT_PTR_NOT_NULL_FATAL(json);
  CU_ASSERT_PTR_NOT_NULL_FATAL(report);
  CU_ASSERT_PTR_NOT_NULL(
      strstr(csv, "scenario,metric,axis,group,form,formula,a,b,c,r2,adj_r2,x_min,x_max,shown,text\n"));
  size_t rows = 0;
  for (const char *c = csv; *c; c++)
    rows += *c == '\n';
  CU_ASSERT_EQUAL(rows, 1 + 14);
  /* every shown fit's text is a line of the report, and the JSON has one object per fit */
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"fits\": [\n    {\"metric\": \"time\", \"axis\": \"p\""));
  size_t objects = 0;
  for (const char *c = json; (c = strstr(c, "{\"metric\": ")); c++)
    objects++;
  CU_ASSERT_EQUAL(objects, 14);
  CU_ASSERT_PTR_NOT_NULL(strstr(report, "time against p, broadcast = one-to-all: fit "));
  CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",yes,\"fit "));
  free(csv);
  free(json);
  free(report);
  remove_folder(dir);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_export_lost_cycles_agree_with_report", test_export_lost_cycles_agree_with_report},
      {"test_export_factors_agree", test_export_factors_agree},
      {"test_export_undefined_ratios", test_export_undefined_ratios},
      {"test_export_dsm_one_row_per_point", test_export_dsm_one_row_per_point},
      {"test_export_messages_in_their_table", test_export_messages_in_their_table},
      {"test_export_pandas_recipes", test_export_pandas_recipes},
      {"test_export_table_path", test_export_table_path},
      {"test_export_fits", test_export_fits},
      {NULL, NULL}};
  return tu_run("rep_export", cases);
}
