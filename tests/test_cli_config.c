/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the command line changes in a run: --set gives the CSV of the scenario file edited the same way, with the
 * file's validation and errors that name the option; --shard's shards together are the whole study; --cfg and --log
 * reach SimGrid after simrun's own options, and SimGrid's objections come back as one error line. */
#include "tu.h"
#include "tu_cli.h"

#define SMALL DATA "gj-small.xml"

/* Runs simrun in `dir` with `args`, which must exit 0; returns the CSV it wrote to `csv` (the caller frees it). */
static char *csv_of(const char *dir, const char *const *args, const char *csv)
{
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  if (run.status != 0)
    fprintf(stderr, "\nexit status %d\n%s", run.status, run.err);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  return read_output(dir, csv);
}

/* Removes file `name` of folder `dir`. */
static void remove_in(const char *dir, const char *name)
{
  char path[1100];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  CU_ASSERT_EQUAL(remove(path), 0);
}

/* --set n=32 --set "p=1 2" on gj-small.xml gives the CSV of gj-small.xml with n = 32 and p = 1 2 written in. */
static void test_config_set_equals_edited_file(void)
{
  char dir[1024], path[1100];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(path, sizeof path, "%s/edited.xml", dir); /* written here, removed by remove_in */
  FILE *file = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(file);
  fprintf(file,
          "<?xml version=\"1.0\"?>\n<scenario name=\"gj-small\">\n"
          "  <platform file=\"%s/platforms/t800-mesh-128.xml\"/>\n"
          "  <program skeleton=\"gauss-jordan\"><param name=\"n\" value=\"32\"/></program>\n"
          "  <sweep><param name=\"broadcast\" values=\"one-to-all neighbour\"/><param name=\"p\" values=\"1 2\"/>"
          "</sweep>\n</scenario>\n",
          SIMRUN_SOURCE_DIR);
  fclose(file);
  const char *set[] = {"-q", "--no-cache", SMALL, "--set", "n=32", "--set", "p=1 2", "--csv", "set.csv", NULL};
  const char *edited[] = {"-q", "--no-cache", "edited.xml", "--csv", "edited.csv", NULL};
  char *a = csv_of(dir, set, "set.csv"), *b = csv_of(dir, edited, "edited.csv");
  CU_ASSERT(a && b && count_lines(a) == 5 && strcmp(a, b) == 0);
  CU_ASSERT(a && strstr(a, "\ngj-small,t800-mesh-128.xml,gauss-jordan,32,neighbour,2,"));
  free(a);
  free(b);
  remove_in(dir, "edited.xml");
  remove_folder(dir);
}

/* Bad values get the file's own checks, reported against the option; a malformed --set is a usage error. */
static void test_config_set_errors(void)
{
  EXPECT_FAILURE(.args = {SMALL, "--set", "n=abc", NULL}, .status = 2,
                 .prefix = "--set n=abc: ", .phrases = {"not a whole number", NULL});
  EXPECT_FAILURE(.args = {SMALL, "--set", "broadcast=carrier-pigeon", NULL}, .status = 2,
                 .prefix = "--set broadcast=carrier-pigeon: ", .phrases = {"neighbour", NULL});
  EXPECT_FAILURE(.args = {SMALL, "--set", "colour=blue", NULL}, .status = 2,
                 .prefix = "--set colour=blue: ", .phrases = {"unknown parameter 'colour'", NULL});
  EXPECT_FAILURE(.args = {SMALL, "--set", "n", NULL}, .status = 2, .prefix = "--set takes NAME=VALUE",
                 .phrases = {"see simrun --help", NULL});
  EXPECT_FAILURE(.args = {SMALL, "--set", "platform=no-such.xml", NULL}, .status = 2,
                 .prefix = "--set platform=no-such.xml: ", .phrases = {"no-such.xml", NULL});
  /* control characters are shown escaped, so that the error stays one line (a newline was printed raw) */
  EXPECT_FAILURE(.args = {SMALL, "--set", "n=1\n6", NULL}, .status = 2,
                 .prefix = "--set 'n=1\\n6': ", .phrases = {"control character", "separate values with spaces", NULL});
  EXPECT_FAILURE(.args = {SMALL, "--set", "n\x01=16", NULL}, .status = 2, .prefix = "--set takes NAME=VALUE",
                 .phrases = {"not 'n\\x01=16'", NULL});
}

/* The 6 points of gj-small.xml in 4 shards (2, 2, 1, 1 points): each CSV has the header, and their rows together are
 * the whole study's rows; a shard with no point, or a bad I/N, is bad input. */
static void test_config_shards_make_the_whole(void)
{
  char dir[1024], *whole;
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  const char *all[] = {"-q", "--no-cache", SMALL, "--csv", "all.csv", NULL};
  whole = csv_of(dir, all, "all.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(whole);
  const char *header_end = strchr(whole, '\n') + 1;
  size_t rows = 0, length = 0;
  static const size_t expected_rows[] = {2, 2, 1, 1};
  for (int i = 1; i <= 4; i++) {
    char shard[8], name[16];
    snprintf(shard, sizeof shard, "%d/4", i);
    snprintf(name, sizeof name, "s%d.csv", i);
    const char *args[] = {"-q", "--no-cache", SMALL, "--shard", shard, "--csv", name, NULL};
    char *part = csv_of(dir, args, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(part);
    CU_ASSERT_NSTRING_EQUAL(part, whole, (size_t)(header_end - whole));
    CU_ASSERT_EQUAL(count_lines(part) - 1, expected_rows[i - 1]);
    /* every row of the shard is a row of the whole */
    for (const char *row = strchr(part, '\n') + 1; *row; row = strchr(row, '\n') + 1) {
      size_t len = (size_t)(strchr(row, '\n') - row) + 1;
      char line[4096];
      snprintf(line, sizeof line, "\n%.*s", (int)len, row);
      CU_ASSERT_PTR_NOT_NULL(strstr(whole, line));
      rows++;
      length += len;
    }
    free(part);
    remove_in(dir, name);
  }
  CU_ASSERT_EQUAL(rows, count_lines(whole) - 1);
  CU_ASSERT_EQUAL(length, strlen(header_end));
  free(whole);
  remove_in(dir, "all.csv");
  remove_folder(dir);
  EXPECT_FAILURE(.args = {SMALL, "--shard", "7/8", NULL}, .status = 2,
                 .prefix = DATA "gj-small.xml: --shard 7/8: ", .phrases = {"6 points", "at most 6 shards", NULL});
  EXPECT_FAILURE(.args = {SMALL, "--shard", "0/3", NULL}, .status = 2, .prefix = "--shard takes I/N",
                 .phrases = {"'0/3'", NULL});
}

/* --log and --cfg reach SimGrid, after simrun's own options (SimGrid logs each change of configuration at info). */
static void test_config_cfg_and_log_reach_simgrid(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  const char *args[] = {"-q",
                        "--no-cache",
                        SMALL,
                        "--set",
                        "p=1",
                        "--set",
                        "broadcast=neighbour",
                        "--log=root.thres:info",
                        "--cfg=contexts/stack-size:256",
                        NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  const char *ours = strstr(run.err, "Configuration change: Set 'contexts/stack-size' to '128'");
  const char *theirs = strstr(run.err, "Configuration change: Set 'contexts/stack-size' to '256'");
  CU_ASSERT(ours && theirs && ours < theirs);
  run_free(&run);
  remove_folder(dir);
  EXPECT_FAILURE(.args = {SMALL, "--cfg=network/model", NULL}, .status = 2, .prefix = "--cfg takes NAME:VALUE",
                 .phrases = {NULL});
}

/* simrun's own log categories say nothing by default (SimGrid's root threshold is critical); --log lowers one
 * category's threshold, after simrun's options: a line per platform loaded (sim_engine), per rank at the end of its
 * program (sim_replay), per barrier a DSM node enters (sim_dsm). The two ranks of p = 2 both end. */
static void test_config_log_own_categories(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  const char *quiet[] = {"-q", "--no-cache", SMALL, "--set", "p=2", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, quiet, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NULL(strstr(run.err, "[sim_"));
  run_free(&run);
  const char *loud[] = {
      "-q", "--no-cache", SMALL, "--set", "p=2", "--log=sim_engine.thres:debug", "--log=sim_replay.thres:verbose",
      NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, loud, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "[sim_engine/VERBOSE] platform "));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "[sim_replay/VERBOSE] rank 0: program over at "));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "[sim_replay/VERBOSE] rank 1: program over at "));
  CU_ASSERT_PTR_NULL(strstr(run.err, "[sim_dsm/"));
  run_free(&run);
  const char *dsm[] = {"-q", "--no-cache", DATA "memcheck/dsm-false-sharing.xml", "--log=sim_dsm.thres:verbose", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, dsm, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "[sim_dsm/VERBOSE] node 1: barrier "));
  run_free(&run);
  remove_folder(dir);
}

/* A --cfg (or --log) that SimGrid refuses, for its name or its value, is checked before anything is simulated (SimGrid
 * set up in a child on a one-host platform): one line naming the option, SimGrid's objection and how to fix it, exit 2,
 * nothing written. A model SimGrid does not have made the first simulation die (xbt_die) with the platform blamed; a
 * value of the wrong type blamed the scenario file. */
static void test_config_cfg_refused_before_running(void)
{
  EXPECT_FAILURE(.args = {SMALL, "--cfg=bogus/name:1", NULL}, .status = 2,
                 .prefix = "--cfg=bogus/name:1: SimGrid refuses it: Bad config key: bogus/name; give an option name",
                 .phrases = {"--help-cfg", NULL});
  EXPECT_FAILURE(.args = {SMALL, "--cfg=network/model:Bogus", NULL}, .status = 2,
                 .prefix = "--cfg=network/model:Bogus: SimGrid refuses it: Model 'Bogus' is invalid!",
                 .phrases = {"CM02", "give a value that SimGrid accepts", NULL});
  /* SimGrid takes the Constant model, then aborts on the platform's first link (it was "could not be loaded: the
   * simulation process died with signal 6"): refused as the platform's <config> one is */
  EXPECT_FAILURE(.args = {SMALL, "--cfg=network/model:Constant", NULL}, .status = 2,
                 .prefix = "--cfg=network/model:Constant: the Constant network model has no links and so no routes "
                           "between hosts",
                 .phrases = {"--cfg=network/model:CM02", NULL});
  EXPECT_FAILURE(.args = {SMALL, "--cfg=contexts/stack-size:abc", NULL}, .status = 2,
                 .prefix = "--cfg=contexts/stack-size:abc: SimGrid refuses it: invalid integer; give a whole number",
                 .phrases = {NULL});
  EXPECT_FAILURE(.args = {SMALL, "--cfg=network/model:CM02", "--cfg=network/crosstraffic:maybe", NULL}, .status = 2,
                 .prefix = "--cfg=network/crosstraffic:maybe: SimGrid refuses it: not a boolean; give yes or no",
                 .phrases = {NULL}); /* a --log SimGrid cannot parse is blamed on the option too (it was blamed on the
                                      * platform, which SimGrid died loading) */
  EXPECT_FAILURE(.args = {SMALL, "--log=junk", NULL}, .status = 2,
                 .prefix = "--log=junk: SimGrid refuses it: Invalid control string 'junk'; give a log setting",
                 .phrases = {"--help-logs", NULL});
  EXPECT_FAILURE(.args = {SMALL, "--log=root.thres:junk", NULL}, .status = 2,
                 .prefix = "--log=root.thres:junk: SimGrid refuses it: Unknown priority name: junk",
                 .phrases = {"root.thres:info", NULL});
}

/* simrun platform takes SimGrid's IEC bandwidth units (10GiBps), and SimGrid loads the platform: gj-small runs on it
 * through --set platform=...; an unknown unit is still refused. */
static void test_config_platform_iec_units(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  const char *make[] = {"platform", "mesh",      "2x2", "--speed", "25Mf",    "--bandwidth",
                        "10GiBps",  "--latency", "5us", "-o",      "iec.xml", NULL};
  const char *run_on[] = {"-q", "--no-cache", SMALL, "--set", "platform=iec.xml", "--csv", "iec.csv", NULL};
  char *platform = NULL, *csv = NULL;
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, make, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  platform = read_output(dir, "iec.xml");
  CU_ASSERT(platform && strstr(platform, "bandwidth=\"10GiBps\""));
  csv = csv_of(dir, run_on, "iec.csv");
  CU_ASSERT(csv && count_lines(csv) == 7 && strstr(csv, "\ngj-small,iec.xml,"));
  free(platform);
  free(csv);
  remove_in(dir, "iec.xml");
  remove_in(dir, "iec.csv");
  remove_folder(dir);
  EXPECT_FAILURE(.bare = 1, .args = {"platform", "mesh", "2x2", "--preset=t800", "--bandwidth=10XBps", NULL},
                 .status = 2, .prefix = "--bandwidth '10XBps': ", .phrases = {"GiBps", NULL});
}

/* The report of gj256 with --set, at p = 4 with the neighbour broadcast: a subset of its own values keeps Table 4's
 * measured 22.67 s (seed 001) beside simrun's; on another machine or at another n the T800's figures are left out, and
 * the title names the machine the points ran on. The figures at the p not chosen bring no warning. */
static void test_config_set_keeps_only_fitting_references(void)
{
  static const char *const moves[][2] = {
      {"broadcast=neighbour", "t800-mesh-128.xml"},
      {"platform=" SIMRUN_SOURCE_DIR "/platforms/icluster-fe-32.xml", "icluster-fe-32.xml"},
      {"n=128", "t800-mesh-128.xml"}};
  for (size_t i = 0; i < 3; i++) {
    const char *args[] = {"-q",
                          "--no-cache",
                          "--full",
                          SIMRUN_SOURCE_DIR "/scenarios/gj256.xml",
                          "--per-process",
                          "4",
                          "--set",
                          "p=4",
                          "--set",
                          "broadcast=neighbour",
                          "--set",
                          moves[i][0],
                          NULL};
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    const char *title = strstr(run.out, ") on ");
    CU_ASSERT(title && strncmp(title + 5, moves[i][1], strlen(moves[i][1])) == 0);
    const char *ref = strstr(run.out, "  Table 4, measured ");
    double measured = 0;
    CU_ASSERT_EQUAL(ref && sscanf(ref + strlen("  Table 4, measured "), "%lf", &measured) == 1, i == 0);
    TU_ASSERT_CLOSE(measured, i == 0 ? 22.67 : 0, 1e-9);
    CU_ASSERT_PTR_NULL(strstr(run.err, "never runs")); /* --set p=4 chose p: no warning about the file's figures */
    run_free(&run);
  }
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_config_set_equals_edited_file", test_config_set_equals_edited_file},
      {"test_config_set_errors", test_config_set_errors},
      {"test_config_shards_make_the_whole", test_config_shards_make_the_whole},
      {"test_config_cfg_and_log_reach_simgrid", test_config_cfg_and_log_reach_simgrid},
      {"test_config_log_own_categories", test_config_log_own_categories},
      {"test_config_cfg_refused_before_running", test_config_cfg_refused_before_running},
      {"test_config_platform_iec_units", test_config_platform_iec_units},
      {"test_config_set_keeps_only_fitting_references", test_config_set_keeps_only_fitting_references},
      {NULL, NULL}};
  return tu_run("cli_config", cases);
}
