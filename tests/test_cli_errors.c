/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* End-to-end tests of the simrun command line: exit statuses, one-line "simrun: error: FILE:LINE: ..." messages for
 * bad usage, scenarios and platforms, no output file left behind, and the reports of a small run. Inputs are in
 * tests/data/cli/; every run works in a fresh temporary folder. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, fileno, dup2, fork, execv */

#include "tu_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Usage. */

static void test_cli_no_argument(void)
{
  EXPECT_FAILURE(.bare = 1, .status = 2, .prefix = "no scenario file given", .phrases = {"see simrun --help"});
}

static void test_cli_unknown_option(void)
{
  EXPECT_FAILURE(.args = {"--frobnicate", DATA "gj-small.xml"}, .status = 2, .prefix = "unknown option '--frobnicate'",
                 .phrases = {"see simrun --help"});
}

static void test_cli_unknown_short_option_in_group(void)
{
  EXPECT_FAILURE(.args = {"-xq", DATA "gj-small.xml"}, .status = 2, .prefix = "unknown option '-x';",
                 .phrases = {"see simrun --help"});
}

static void test_cli_option_without_value(void)
{
  EXPECT_FAILURE(.args = {"--per-process"}, .status = 2, .prefix = "option '--per-process' needs a value",
                 .phrases = {"see simrun --help"});
}

static void test_cli_two_scenario_files(void)
{
  EXPECT_FAILURE(.args = {DATA "gj-small.xml", DATA "junk-n.xml"}, .status = 2,
                 .prefix = "only one scenario file at a time, but '" DATA "junk-n.xml' follows",
                 .phrases = {"see simrun --help"});
}

static void test_cli_per_process_junk(void)
{
  EXPECT_FAILURE(.args = {"--per-process", "junk", DATA "gj-small.xml"}, .status = 2,
                 .prefix = "--per-process takes a positive whole number, not 'junk'", .phrases = {"see simrun --help"});
}

static void test_cli_per_process_not_a_p_value(void)
{
  EXPECT_FAILURE(.args = {"--per-process", "3", DATA "gj-small.xml"}, .status = 2, .prefix = DATA "gj-small.xml:9: ",
                 .phrases = {"no point has p = 3", "choose one of this line's p values"});
}

/* The request table goes beside the CSV: without one, --requests is refused before anything runs. */
static void test_cli_requests_without_csv(void)
{
  EXPECT_FAILURE(.args = {"--requests", SIMRUN_SOURCE_DIR "/tests/data/dsm/gj-small.xml"}, .bare = 1, .status = 2,
                 .prefix = "--requests: the request table goes beside the CSV output; add --csv FILE");
}

/* n-below-p.xml fails validation, so its message would show if anything ran before the outputs were opened. */
static void test_cli_csv_into_missing_folder_fails_fast(void)
{
  EXPECT_FAILURE(.args = {"--csv", "missing/out.csv", DATA "n-below-p.xml"}, .bare = 1, .status = 2,
                 .prefix = "--csv 'missing/out.csv': 'missing' does not exist; ",
                 .phrases = {"make that folder first"});
}

/* The --svg note (no --per-process) used to come before the error of a failing --csv: the error is the only line. */
static void test_cli_svg_note_never_before_error(void)
{
  EXPECT_FAILURE(.args = {"--svg", "pictures", "--csv", "missing/out.csv", DATA "gj-small.xml"}, .bare = 1, .status = 2,
                 .prefix = "--csv 'missing/out.csv': 'missing' does not exist; ",
                 .phrases = {"make that folder first"});
}

/* An output folder that cannot be made is a usage error found before anything runs: 2, not 1 (issue 32). */
static void test_cli_ti_folder_cannot_be_made(void)
{
  EXPECT_FAILURE(.args = {"--per-process", "2", "--ti", "missing/traces", DATA "gj-small.xml"}, .status = 2,
                 .prefix = "--ti 'missing/traces': 'missing' does not exist; ", .phrases = {"make that folder first"});
  EXPECT_FAILURE(.args = {"--per-process", "2", "--ti", DATA "two-hosts.xml", DATA "gj-small.xml"}, .status = 2,
                 .prefix = "--ti '" DATA "two-hosts.xml' is not a folder; ", .phrases = {"give a folder"});
}

static void test_cli_output_is_a_folder_fails_fast(void)
{
  EXPECT_FAILURE(.args = {"--json", "results", DATA "n-below-p.xml"}, .folder = "results", .status = 2,
                 .prefix = "cannot write 'results': ", .phrases = {"is a folder", "give a file name"});
}

/* Scenario files. */

static void test_cli_scenario_missing(void)
{
  EXPECT_FAILURE(.args = {DATA "no-such-scenario.xml"}, .status = 2,
                 .prefix = DATA "no-such-scenario.xml: ", .phrases = {"cannot open scenario", "No such file"});
}

static void test_cli_scenario_is_a_folder(void)
{
  EXPECT_FAILURE(.args = {SIMRUN_SOURCE_DIR "/tests/data/cli"}, .status = 2,
                 .prefix = SIMRUN_SOURCE_DIR "/tests/data/cli: ", .phrases = {"cannot open scenario", "directory"});
}

static void test_cli_scenario_empty(void)
{
  EXPECT_FAILURE(.args = {DATA "empty.xml"}, .status = 2,
                 .prefix = DATA "empty.xml:1: ", .phrases = {"Document is empty", "fix the syntax"});
}

static void test_cli_scenario_malformed(void)
{
  EXPECT_FAILURE(.args = {DATA "malformed.xml"}, .status = 2, .prefix = DATA "malformed.xml:6: malformed XML",
                 .phrases = {"tag mismatch: param line 5", "fix the syntax at this line"});
}

static void test_cli_scenario_unknown_element(void)
{
  EXPECT_FAILURE(.args = {DATA "unknown-element.xml"}, .status = 2, .prefix = DATA "unknown-element.xml:6: ",
                 .phrases = {"unexpected element <loop>", "holding only <param"});
}

static void test_cli_scenario_missing_platform(void)
{
  EXPECT_FAILURE(.args = {DATA "missing-platform-element.xml"}, .status = 2,
                 .prefix = DATA "missing-platform-element.xml:3: ",
                 .phrases = {"unexpected element <program>", "<platform>, <program>"});
}

static void test_cli_scenario_unknown_skeleton(void)
{
  EXPECT_FAILURE(.args = {DATA "unknown-skeleton.xml"}, .status = 2, .prefix = DATA "unknown-skeleton.xml:4: ",
                 .phrases = {"unknown skeleton 'gauss-seidel'", "choose one of: gauss-jordan"});
}

static void test_cli_scenario_unknown_parameter(void)
{
  EXPECT_FAILURE(.args = {DATA "unknown-parameter.xml"}, .status = 2, .prefix = DATA "unknown-parameter.xml:6: ",
                 .phrases = {"unknown parameter 'pivot'", "known parameters: p, n, broadcast"});
}

static void test_cli_scenario_negative_n(void)
{
  EXPECT_FAILURE(.args = {DATA "negative-n.xml"}, .status = 2,
                 .prefix = DATA "negative-n.xml:5: ", .phrases = {"negative", "whole number >= 1"});
}

static void test_cli_scenario_junk_n(void)
{
  EXPECT_FAILURE(.args = {DATA "junk-n.xml"}, .status = 2, .prefix = DATA "junk-n.xml:5: ",
                 .phrases = {"\"16x\" is not a whole number", "use decimal digits only"});
}

static void test_cli_scenario_unknown_broadcast(void)
{
  EXPECT_FAILURE(.args = {DATA "unknown-broadcast.xml"}, .status = 2, .prefix = DATA "unknown-broadcast.xml:8: ",
                 .phrases = {"unknown broadcast 'ring'", "choose one of: one-to-all, neighbour"});
}

static void test_cli_scenario_duplicate_parameter(void)
{
  EXPECT_FAILURE(.args = {DATA "duplicate-parameter.xml"}, .status = 2, .prefix = DATA "duplicate-parameter.xml:6: ",
                 .phrases = {"'n' is given twice (first at line 5)", "keep only one"});
}

/* Platforms. */

static void test_cli_platform_file_missing(void)
{
  EXPECT_FAILURE(.args = {DATA "missing-platform-file.xml"}, .status = 2,
                 .prefix = DATA "missing-platform-file.xml:3: ",
                 .phrases = {"no-such-platform.xml' not found", "relative to the scenario file"});
}

static void test_cli_platform_rejected_by_simgrid(void)
{
  EXPECT_FAILURE(.args = {DATA "broken-platform.xml"}, .status = 2, .prefix = DATA "broken-platform.xml:3: ",
                 .phrases = {
                     "broken-platform-file.xml' could not be loaded",
                     "broken-platform-file.xml:7:12: not well-formed XML: Opening and ending tag mismatch: zone "
                     "line 5 and platform; fix the syntax"});
}

/* Every p beyond the platform's hosts (p = 4 and 8 on two hosts): one line, exit 2. With some p within, the others are
 * skipped (test_cli_one_platform_skips_points_beyond_hosts). */
static void test_cli_platform_more_ranks_than_hosts(void)
{
  EXPECT_FAILURE(.args = {DATA "too-many-ranks.xml", "--set", "p=4 8"}, .status = 2,
                 .prefix = "--set p=4 8: every point has more ranks than its platform's hosts: p = 4 and up, platform ",
                 .phrases = {"has 2 hosts", "use p no larger than the host count"});
}

/* A time-independent trace with an action simrun does not replay: the trace file and line, what it replays. */
static void test_cli_trace_unsupported_action(void)
{
  EXPECT_FAILURE(.args = {DATA "ti-bad.xml"}, .status = 2, .prefix = DATA "ti-bad.xml: " DATA "ti-bad/rank-0.txt:2: ",
                 .phrases = {"'0 ibsend 1 0 8': not an action simrun replays",
                             "it replays SimGrid 3.32's: init, finalize"});
}

/* A trace whose loop (simrun's extension) is cut short: the loop's line, how many of its body's lines are there. */
static void test_cli_trace_loop_cut_short(void)
{
  EXPECT_FAILURE(.args = {DATA "ti-loop-cut.xml"}, .status = 2,
                 .prefix = DATA "ti-loop-cut.xml: " DATA "ti-loop-cut/rank-0.txt:2: ",
                 .phrases = {"the file ends 1 line(s) into a loop's body of 2"});
}

/* A TI trace compressed by zstd whose checksum does not match (ti-zstd-damaged), or cut short in its second frame
 * after two lines (ti-zstd-cut: a run killed while writing it): one line naming the file, the line and what is wrong.
 */
static void test_cli_trace_zstd_damaged_or_cut(void)
{
  EXPECT_FAILURE(.args = {DATA "ti-zstd-damaged.xml"}, .status = 2,
                 .prefix = DATA "ti-zstd-damaged.xml:5: " DATA "ti-zstd-damaged/rank-0.txt:1: ",
                 .phrases = {"damaged zstd data (Restored data doesn't match checksum); trace the run again"});
  EXPECT_FAILURE(.args = {DATA "ti-zstd-cut.xml"}, .status = 2,
                 .prefix = DATA "ti-zstd-cut.xml:5: " DATA "ti-zstd-cut/rank-0.txt:3: ",
                 .phrases = {"cut short: the compressed trace ends mid-stream (its run was killed before "
                             "MPI_Finalize); trace the run again"});
}

/* A trace whose receives outnumber the sends: which rank waits for which, and the rule. */
static void test_cli_trace_unmatched_messages(void)
{
  EXPECT_FAILURE(.args = {DATA "ti-unmatched.xml"}, .status = 2, /* a bad trace is bad input (issue 32) */
                 .prefix = DATA "ti-unmatched.xml: rank 1 never finished: it waits to receive from rank 0",
                 .phrases = {"every send needs the matching receive on the other rank"});
}

/* simrun -q --no-cache `scenario` succeeds with `warning` on its stderr; the run in *run (free with run_free). */
static void replay_warns(const char *scenario, const char *warning, cli_run_t *run)
{
  const char *args[] = {"-q", "--no-cache", scenario, NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, run), 0);
  CU_ASSERT_EQUAL(run->status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run->err, warning));
}

/* An eager send (below SMPI's 65536 bytes) that no receive matches: its sender went on, so nothing blocks. A real
 * program may end with a message pending, and smpirun -replay drops it: the replay stands, with a warning that names
 * the send (never a silent loss). The receive of the first message carries -444, SMPI's MPI_ANY_TAG, which is
 * accepted. */
static void test_cli_trace_eager_send_never_received(void)
{
  cli_run_t run;
  replay_warns(DATA "ti-eager-lost.xml",
               "simrun: warning: " DATA "ti-eager-lost/trace.txt:4: rank 0's send of 8 bytes to rank 1 is never "
               "received (1 such send(s) in all)",
               &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "dropped, as smpirun -replay drops it"));
  CU_ASSERT_PTR_NULL(strstr(run.err, "'finalize'")); /* its ranks finalize */
  run_free(&run);
}

/* A trace in which no rank finalizes (issue 48: replayed without a word): the replay stands, with one warning naming
 * the trace and what it means (ti-eager-lost, whose ranks finalize, has none). */
static void test_cli_trace_never_finalized(void)
{
  cli_run_t run;
  replay_warns(DATA "ti-unfinalized.xml",
               "simrun: warning: " DATA "ti-unfinalized/trace.txt: no rank's trace has a 'finalize' action: the "
               "traced run stopped before MPI_Finalize",
               &run);
  run_free(&run);
}

/* The number of times `part` occurs in `text`. */
static int occurrences(const char *text, const char *part)
{
  int n = 0;
  for (const char *at = text; (at = strstr(at, part)) != NULL; at += strlen(part))
    n++;
  return n;
}

/* The same trace on two platforms: each run drops the same send, and the warning is printed once, not once a point.
 * The report names the network model the runs had, SMPI's (ti-replay's default, as smpirun's), not the platforms'
 * CM02, on a line per platform that names it, and prices the Point-to-point line with it. */
static void test_cli_warning_once_per_sweep(void)
{
  const char *args[] = {"-q",
                        "--no-cache",
                        "--full",
                        "--width",
                        "1000",
                        "--set",
                        "platform=" SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml " SIMRUN_SOURCE_DIR
                        "/platforms/icluster-fe-32.xml",
                        DATA "ti-eager-lost.xml",
                        NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "platforms/icluster-fe-32.xml (1 messages")); /* both points ran */
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "platforms/t800-mesh-128.xml (1 messages"));
  CU_ASSERT_EQUAL(occurrences(run.err, "dropped, as smpirun -replay drops it"), 1);
  CU_ASSERT_EQUAL(occurrences(run.out, "Network model (SimGrid's, which the models follow; docs/machines.md): on "
                                       "t800-mesh-128.xml, SMPI: "),
                  1);
  CU_ASSERT_EQUAL(occurrences(run.out, "docs/machines.md): on icluster-fe-32.xml, SMPI: "), 1);
  CU_ASSERT_EQUAL(occurrences(run.out, "xml, CM02"), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "SMPI's factors for 1024 bytes"));
  run_free(&run);
}

/* A send with a negative tag: SMPI keeps those for its collectives, so the trace is refused at its line. */
static void test_cli_trace_negative_tag(void)
{
  EXPECT_FAILURE(.args = {DATA "ti-negative-tag.xml"}, .status = 2,
                 .prefix = DATA "ti-negative-tag.xml: " DATA "ti-negative-tag/trace.txt:4: '0 send 1 -3 8': tag -3 is "
                                "negative",
                 .phrases = {"MPI tags are >= 0", "give the tag the program used"});
}

/* A rank's host whose speed changes during the run: refused at the host's line in the platform (line 8 of
 * speed-profile-platform.xml, its speed_file), since ranks compute at constant speeds; with the platform given by
 * --set platform=... too (it said "platform ... could not be loaded", without a line, although it loaded). A host
 * without a rank may change speed: the run with one rank, on the other host, succeeds. */
static void test_cli_platform_speed_profile(void)
{
  EXPECT_FAILURE(.args = {DATA "speed-profile.xml"}, .status = 2,
                 .prefix = DATA "speed-profile-platform.xml:8: host h1 changed speed during the run",
                 .phrases = {"remove the profile from the host", NULL});
  EXPECT_FAILURE(.args = {DATA "speed-profile-one-rank.xml", "--set", "platform=" DATA "speed-profile-platform.xml",
                          "--set", "p=2"},
                 .status = 2, .prefix = DATA "speed-profile-platform.xml:8: host h1 changed speed during the run",
                 .phrases = {"speed_file", NULL});
  char dir[1024];
  cli_run_t run;
  run_ok(dir, sizeof dir, (const char *const[]){"-q", DATA "speed-profile-one-rank.xml", NULL}, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "T_seq = "));
  run_free(&run);
  remove_folder(dir);
}

static void test_cli_platform_n_below_p(void)
{
  EXPECT_FAILURE(.args = {DATA "n-below-p.xml"}, .status = 2,
                 .prefix = DATA "n-below-p.xml:5: ", .phrases = {"n = 2 is smaller than p = 4", "use n >= p"});
}

static void test_cli_platform_bad_comm_model(void)
{
  EXPECT_FAILURE(.args = {DATA "bad-comm-model.xml"}, .status = 2, .prefix = DATA "bad-comm-model.xml:3: ",
                 .phrases = {"simrun:comm-model = \"foo\"", "expected piecewise; fix the value"});
}

/* simrun platform: generated platforms. */

static void test_cli_generate_bad_topology_or_size(void)
{
  EXPECT_FAILURE(.args = {"platform", "ring", "8", "--preset=t800"}, .bare = 1, .status = 2,
                 .prefix = "unknown topology 'ring'; choose one of: mesh, torus",
                 .phrases = {"see simrun platform --help"});
  EXPECT_FAILURE(.args = {"platform", "mesh", "8by16", "--preset=t800"}, .bare = 1, .status = 2,
                 .prefix = "mesh size '8by16': expected ROWSxCOLS",
                 .phrases = {"at most 1048576 hosts (--routing native; explicit routing: 4096)"});
  EXPECT_FAILURE(.args = {"platform", "torus", "65x64", "--preset=t800-flat"}, .bare = 1, .status = 2,
                 .prefix = "torus of 4160 hosts with explicit routing", .phrases = {"give --routing native"});
  EXPECT_FAILURE(.args = {"platform", "switch", "--preset=t800"}, .bare = 1, .status = 2,
                 .prefix = "give a topology and its size", .phrases = {"see simrun platform --help"});
}

static void test_cli_generate_bad_parameters(void)
{
  EXPECT_FAILURE(.args = {"platform", "switch", "4", "--preset=t800", "--latency=-5us"}, .bare = 1, .status = 2,
                 .prefix = "--latency '-5us': expected a non-negative number", .phrases = {"units s ms us ns"});
  EXPECT_FAILURE(.args = {"platform", "switch", "4", "--speed=1Gf"}, .bare = 1, .status = 2,
                 .prefix = "without --preset, give --speed, --bandwidth and --latency", .phrases = {"presets: t800"});
  EXPECT_FAILURE(.args = {"platform", "switch", "4", "--preset=cray"}, .bare = 1, .status = 2,
                 .prefix = "unknown preset 'cray'; choose one of: t800");
  EXPECT_FAILURE(.args = {"platform", "--frob"}, .bare = 1, .status = 2, .prefix = "unknown option '--frob'",
                 .phrases = {"see simrun platform --help"});
}

static void test_cli_generate_into_missing_folder(void)
{
  EXPECT_FAILURE(.args = {"platform", "switch", "4", "--preset=t800", "-omissing/x.xml"}, .bare = 1, .status = 2,
                 .prefix = "--output 'missing/x.xml': 'missing' does not exist", .phrases = {"make that folder first"});
}

/* -o writes exactly what standard output gets: a platform with the 2 x 3 mesh's six hosts. */
static void test_cli_generate_writes_platform(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  const char *to_file[] = {"platform", "mesh", "2x3", "--preset", "t800", "-o", "m.xml", NULL};
  const char *to_stdout[] = {"platform", "mesh", "2x3", "--preset", "t800", NULL};
  cli_run_t a;
  cli_run_t b;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, to_file, &a), 0);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, to_stdout, &b), 0);
  CU_ASSERT(a.status == 0 && b.status == 0 && !*a.out && !*a.err && !*b.err);
  char *file = read_output(dir, "m.xml");
  CU_ASSERT_FATAL(file != NULL);
  CU_ASSERT_STRING_EQUAL(file, b.out);
  size_t hosts = 0;
  for (const char *c = file; (c = strstr(c, "<host ")); c++)
    hosts++;
  CU_ASSERT_EQUAL(hosts, 6);
  CU_ASSERT_EQUAL(count_entries(dir), 1);
  free(file);
  run_free(&a);
  run_free(&b);
  remove_folder(dir);
}

/* Success. */

/* `csv` must have a header and one row per point of gj-small.xml (broadcast varies slowest, then p), each row with
 * as many fields as the header. */
static void assert_small_csv(const char *csv)
{
  static const char *const rows[] = {"one-to-all,1,", "one-to-all,2,", "one-to-all,4,",
                                     "neighbour,1,",  "neighbour,2,",  "neighbour,4,"};
  static const char header[] = "scenario,platform,skeleton,n,broadcast,p,t_par_s,t_seq_s,speedup,efficiency,";
  CU_ASSERT_NSTRING_EQUAL(csv, header, strlen(header));
  CU_ASSERT_EQUAL_FATAL(count_lines(csv), 7);
  const char *line = csv;
  size_t header_fields = 0;
  for (size_t i = 0; i < 7; i++) {
    const char *end = strchr(line, '\n');
    size_t fields = 1;
    for (const char *c = line; c < end; c++)
      fields += *c == ',';
    if (i == 0)
      header_fields = fields;
    CU_ASSERT_EQUAL(fields, header_fields);
    char start[80];
    snprintf(start, sizeof start, "gj-small,t800-mesh-128.xml,gauss-jordan,16,%s", i ? rows[i - 1] : "");
    CU_ASSERT(i == 0 || strncmp(line, start, strlen(start)) == 0);
    line = end + 1;
  }
  CU_ASSERT(header_fields > 10);
}

static void test_cli_small_run_writes_table_csv_and_json(void)
{
  char dir[1024];
  /* the subcommand, and options after the scenario file, as a user may well write them */
  const char *args[] = {"run", DATA "gj-small.xml", "--csv", "out.csv", "--json", "out.json", NULL};
  cli_run_t run;
  run_ok(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "speedup"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "efficiency"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "granularity"));
  char *csv = read_output(dir, "out.csv");
  char *json = read_output(dir, "out.json");
  CU_ASSERT_PTR_NOT_NULL(csv);
  CU_ASSERT_PTR_NOT_NULL(json);
  if (csv)
    assert_small_csv(csv);
  CU_ASSERT(json && json[0] == '{' && strstr(json, "\"points\"") && strstr(json, "\"gj-small\""));
  CU_ASSERT_EQUAL(count_entries(dir), 3); /* out.csv, its out-provenance.csv, out.json */
  free(csv);
  free(json);
  run_free(&run);
  remove_folder(dir);
}

/* Runs simrun with `args` (NULL-terminated), which must exit 0 with nothing on stderr; returns its stdout (the caller
 * frees it) or NULL. */
static char *run_info(const char *const *args)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  cli_run_t run = {0};
  if (run_simrun(dir, args, &run) == 0) {
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_STRING_EQUAL(run.err, "");
  } else {
    CU_FAIL("simrun could not be run");
  }
  CU_ASSERT_EQUAL(count_entries(dir), 0);
  remove_folder(dir);
  free(run.err);
  return run.out;
}

/* Runs simrun with the single argument `option` (run_info). */
static char *run_info_option(const char *option)
{
  const char *args[] = {option, NULL};
  return run_info(args);
}

enum { MAX_OPTIONS = 64, OPTION_LEN = 32 };

/* A set of option names ("--csv", "-j"), read from a source file or from a help text. */
typedef struct option_set {
  char name[MAX_OPTIONS][OPTION_LEN];
  int count;
} option_set_t;

static void option_add(option_set_t *set, const char *name, size_t len)
{
  CU_ASSERT_FATAL(set->count < MAX_OPTIONS && len < OPTION_LEN);
  memcpy(set->name[set->count], name, len);
  set->name[set->count++][len] = '\0';
}

static int option_has(const option_set_t *set, const char *name)
{
  for (int i = 0; i < set->count; i++)
    if (strcmp(set->name[i], name) == 0)
      return 1;
  return 0;
}

/* The options a command accepts, from its source: every {"NAME", ...} of its getopt_long table as "--NAME", and every
 * letter of the short-option string given to getopt_long as "-X". */
static void options_in_source(const char *path, option_set_t *set)
{
  FILE *file = fopen(path, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(file);
  char *text = slurp(file);
  fclose(file);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  const char *table = strstr(text, "longopts[] = {");
  const char *end = table ? strstr(table, "{NULL, 0, NULL, 0}") : NULL;
  const char *call = strstr(text, "getopt_long(argc, argv, \"");
  CU_ASSERT_FATAL(table && end && call);
  char name[OPTION_LEN] = "--";
  for (const char *at = strstr(table, "{\""); at && at < end; at = strstr(at + 2, "{\"")) {
    size_t len = strcspn(at + 2, "\"");
    CU_ASSERT_FATAL(len + 2 < OPTION_LEN);
    memcpy(name + 2, at + 2, len);
    option_add(set, name, len + 2);
  }
  for (const char *c = call + strlen("getopt_long(argc, argv, \""); *c && *c != '"'; c++)
    if (*c != '+' && *c != ':') {
      char flag[2] = {'-', *c};
      option_add(set, flag, 2);
    }
  free(text);
}

/* The options of the output formats' table (src/cli/cli_formats.c) that a command takes: every row's .option =
 * "--NAME" whose .help has an entry for `command` ("[CLI_COMMAND_RUN]"). */
static void options_in_formats(option_set_t *set, const char *command)
{
  FILE *file = fopen(SIMRUN_SOURCE_DIR "/src/cli/cli_formats.c", "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(file);
  char *text = slurp(file);
  fclose(file);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  const char *table = strstr(text, "cli_formats[] = {");
  const char *end = table ? strstr(table, "\n};") : NULL;
  CU_ASSERT_FATAL(table && end);
  static const char key[] = ".option = \"";
  for (const char *at = strstr(table, key); at && at < end;) {
    const char *name = at + strlen(key), *next = strstr(name, key);
    const char *row_end = next && next < end ? next : end, *help = strstr(name, command);
    size_t len = strcspn(name, "\"");
    CU_ASSERT_FATAL(len < OPTION_LEN);
    if (help && help < row_end)
      option_add(set, name, len);
    at = next;
  }
  CU_ASSERT(set->count > 3);
  free(text);
}

/* The options a help text lists: on each line "  -x, --name ARG   text" or "  --name=ARG   text", every word of the
 * part before the description (up to two spaces) that starts with '-'. */
static void options_in_help(const char *help, option_set_t *set)
{
  static const char name_chars[] = "-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (const char *line = help; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    if (strncmp(line, "  -", 3) != 0)
      continue;
    const char *head = line + 2;
    size_t width = strcspn(head, "\n");
    const char *gap = strstr(head, "  ");
    const char *stop = gap && gap < head + width ? gap : head + width;
    for (const char *at = head; at < stop; at++)
      if (*at == '-' && (at == head || at[-1] == ' '))
        option_add(set, at, strspn(at, name_chars));
  }
}

/* Both ways: every option the source accepts (with the output formats' table's for `command`, unless NULL) is in the
 * help, and the help lists no option the source lacks. */
static void expect_help_matches_source(const char *const *args, const char *source, const char *command)
{
  option_set_t accepted = {0};
  option_set_t listed = {0};
  options_in_source(source, &accepted);
  if (command)
    options_in_formats(&accepted, command);
  char *help = run_info(args);
  CU_ASSERT_PTR_NOT_NULL_FATAL(help);
  options_in_help(help, &listed);
  CU_ASSERT(accepted.count > 3 && listed.count > 3);
  for (int i = 0; i < accepted.count; i++)
    if (!option_has(&listed, accepted.name[i])) {
      fprintf(stderr, "%s accepts %s, but its --help does not list it\n", source, accepted.name[i]);
      CU_FAIL("an accepted option is missing from --help");
    }
  for (int i = 0; i < listed.count; i++)
    if (!option_has(&accepted, listed.name[i])) {
      fprintf(stderr, "--help lists %s, which %s does not accept\n", listed.name[i], source);
      CU_FAIL("--help lists an option that is not accepted");
    }
  free(help);
}

/* simrun --help lists exactly the options of cli_main.c's getopt_long table and short-option string, and those of the
 * output formats' table. */
static void test_cli_help_lists_every_option(void)
{
  const char *args[] = {"--help", NULL};
  char *out = run_info(args);
  CU_ASSERT_FATAL(out != NULL);
  CU_ASSERT_NSTRING_EQUAL(out, "Usage: simrun ", 14);
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "Exit status"));
  free(out);
  expect_help_matches_source(args, SIMRUN_SOURCE_DIR "/src/cli/cli_main.c", "[CLI_COMMAND_RUN]");
}

/* simrun analyse --help lists exactly the options of cli_analyse.c's table and those the output formats' table gives
 * analyse. */
static void test_cli_analyse_help_lists_every_option(void)
{
  const char *args[] = {"analyse", "--help", NULL};
  expect_help_matches_source(args, SIMRUN_SOURCE_DIR "/src/cli/cli_analyse.c", "[CLI_COMMAND_ANALYSE]");
}

/* simrun platform --help lists exactly the options of cli_platform.c's table and short-option string. */
static void test_cli_platform_help_lists_every_option(void)
{
  const char *args[] = {"platform", "--help", NULL};
  expect_help_matches_source(args, SIMRUN_SOURCE_DIR "/src/cli/cli_platform.c", NULL);
}

static void test_cli_version(void)
{
  char *out = run_info_option("--version");
  CU_ASSERT_FATAL(out != NULL);
  CU_ASSERT_NSTRING_EQUAL(out, "simrun ", 7);
  CU_ASSERT_EQUAL(count_lines(out), 1);
  free(out);
}

/* A platform a user brings, written into `folder` as plat.xml with a Gauss-Jordan scenario beside it (its path in
 * scenario): version `version`, <config> line 5 `config`, zone routing `routing` (line 7), host a's extra attributes
 * `host` (line 8) and link l's `link` (line 10). */
static void write_user_platform(const char *folder, const char *version, const char *config, const char *routing,
                                const char *host, const char *link, char *scenario, size_t len)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/plat.xml", folder);
  FILE *out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fprintf(out,
          "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"%s\">\n  <config>\n    %s\n  </config>\n  <zone id=\"z\" routing=\"%s\">\n"
          "    <host id=\"a\" speed=\"1Gf\"%s/>\n    <host id=\"b\" speed=\"1Gf\"/>\n"
          "    <link id=\"l\" bandwidth=\"125MBps\" latency=\"50us\"%s/>\n"
          "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n  </zone>\n</platform>\n",
          version, config, routing, host, link);
  fclose(out);
  snprintf(scenario, len, "%s/gj.xml", folder);
  out = fopen(scenario, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fprintf(out, "<?xml version=\"1.0\"?>\n<scenario name=\"gj\">\n  <platform file=\"plat.xml\"/>\n"
               "  <program skeleton=\"gauss-jordan\"><param name=\"n\" value=\"16\"/></program>\n"
               "  <sweep><param name=\"broadcast\" values=\"one-to-all\"/><param name=\"p\" values=\"2\"/></sweep>\n"
               "</scenario>\n");
  fclose(out);
}

/* The platform of write_user_platform refused in one line, exit 2, naming plat.xml's line and the phrases. */
static void expect_user_platform_refused(const char *version, const char *config, const char *routing, const char *host,
                                         const char *link, int line, const char *phrase, const char *fix)
{
  char folder[1024];
  char scenario[1200];
  char prefix[1300];
  char place[1300];
  CU_ASSERT_EQUAL_FATAL(make_folder(folder, sizeof folder), 0);
  write_user_platform(folder, version, config, routing, host, link, scenario, sizeof scenario);
  snprintf(prefix, sizeof prefix, "%s:3: ", scenario);
  snprintf(place, sizeof place, "plat.xml:%d: ", line);
  EXPECT_FAILURE(.args = {scenario}, .status = 2, .prefix = prefix, .phrases = {place, phrase, fix});
  remove_folder(folder);
}

#define NETWORK_MODEL "<prop id=\"network/model\" value=\"CM02\"/>"

/* A <config> setting SimGrid refuses, by its line and name: an unknown name (SimGrid listed every setting it has,
 * with no line), a value of the wrong type (SimGrid said "invalid double"), a model SimGrid does not have (SimGrid
 * aborted the process). */
static void test_cli_platform_config_setting(void)
{
  expect_user_platform_refused("4.1", "<prop id=\"network/modell\" value=\"CM02\"/>", "Full", "", "", 5,
                               "<config> setting network/modell = \"CM02\": SimGrid 3.32 has no setting of that name",
                               "correct or remove it");
  expect_user_platform_refused("4.1", "<prop id=\"network/bandwidth-factor\" value=\"65472:0.94;15424:0.69\"/>", "Full",
                               "", "", 5, "network/bandwidth-factor = \"65472:0.94;15424:0.69\"",
                               "refuses the value: invalid double; correct or remove it");
  expect_user_platform_refused("4.1", "<prop id=\"network/model\" value=\"CM03\"/>", "Full", "", "", 5,
                               "network/model = \"CM03\": SimGrid 3.32 knows LV08, Constant, SMPI, IB, CM02, ns-3",
                               "correct or remove it");
}

/* A platform of a newer SimGrid (version 4.2): the version SimGrid 3.32 reads, not SimGrid's shouted complaint. */
static void test_cli_platform_too_new(void)
{
  expect_user_platform_refused("4.2", NETWORK_MODEL, "Full", "", "", 3,
                               "<platform version=\"4.2\">: SimGrid 3.32 reads platform files up to version 4.1",
                               "write version=\"4.1\"");
}

/* A WIFI zone or link: named as such (its routes were refused as passing a link twice). */
static void test_cli_platform_wifi(void)
{
  expect_user_platform_refused("4.1", NETWORK_MODEL, "Wifi", "", "", 7, "zone 'z' is a WIFI zone",
                               "model the cell as a wired zone");
  expect_user_platform_refused("4.1", NETWORK_MODEL, "Full", "", " sharing_policy=\"WIFI\"", 10,
                               "link 'l' is a WIFI link", "model the cell as a wired zone");
}

/* A state profile, which switches a host or link off mid-run (the run said "rank 0 never finished: the program's
 * sends and receives do not match", or SimGrid aborted on starting a rank on a host switched off). */
static void test_cli_platform_state_profile(void)
{
  expect_user_platform_refused("4.1", NETWORK_MODEL, "Full", " state_file=\"a.profile\"", "", 8,
                               "<host state_file=\"a.profile\">: a state profile can switch host 'a' off",
                               "remove the state_file");
  expect_user_platform_refused("4.1", NETWORK_MODEL, "Full", "", " state_file=\"l.profile\"", 10,
                               "can switch link 'l' off", "remove the state_file");
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_cli_platform_config_setting", test_cli_platform_config_setting},
      {"test_cli_platform_too_new", test_cli_platform_too_new},
      {"test_cli_platform_wifi", test_cli_platform_wifi},
      {"test_cli_platform_state_profile", test_cli_platform_state_profile},
      {"test_cli_warning_once_per_sweep", test_cli_warning_once_per_sweep},
      {"test_cli_no_argument", test_cli_no_argument},
      {"test_cli_trace_unsupported_action", test_cli_trace_unsupported_action},
      {"test_cli_trace_loop_cut_short", test_cli_trace_loop_cut_short},
      {"test_cli_trace_zstd_damaged_or_cut", test_cli_trace_zstd_damaged_or_cut},
      {"test_cli_platform_speed_profile", test_cli_platform_speed_profile},
      {"test_cli_trace_unmatched_messages", test_cli_trace_unmatched_messages},
      {"test_cli_trace_eager_send_never_received", test_cli_trace_eager_send_never_received},
      {"test_cli_trace_never_finalized", test_cli_trace_never_finalized},
      {"test_cli_trace_negative_tag", test_cli_trace_negative_tag},
      {"test_cli_unknown_option", test_cli_unknown_option},
      {"test_cli_unknown_short_option_in_group", test_cli_unknown_short_option_in_group},
      {"test_cli_option_without_value", test_cli_option_without_value},
      {"test_cli_two_scenario_files", test_cli_two_scenario_files},
      {"test_cli_per_process_junk", test_cli_per_process_junk},
      {"test_cli_per_process_not_a_p_value", test_cli_per_process_not_a_p_value},
      {"test_cli_requests_without_csv", test_cli_requests_without_csv},
      {"test_cli_csv_into_missing_folder_fails_fast", test_cli_csv_into_missing_folder_fails_fast},
      {"test_cli_ti_folder_cannot_be_made", test_cli_ti_folder_cannot_be_made},
      {"test_cli_svg_note_never_before_error", test_cli_svg_note_never_before_error},
      {"test_cli_output_is_a_folder_fails_fast", test_cli_output_is_a_folder_fails_fast},
      {"test_cli_scenario_missing", test_cli_scenario_missing},
      {"test_cli_scenario_is_a_folder", test_cli_scenario_is_a_folder},
      {"test_cli_scenario_empty", test_cli_scenario_empty},
      {"test_cli_scenario_malformed", test_cli_scenario_malformed},
      {"test_cli_scenario_unknown_element", test_cli_scenario_unknown_element},
      {"test_cli_scenario_missing_platform", test_cli_scenario_missing_platform},
      {"test_cli_scenario_unknown_skeleton", test_cli_scenario_unknown_skeleton},
      {"test_cli_scenario_unknown_parameter", test_cli_scenario_unknown_parameter},
      {"test_cli_scenario_negative_n", test_cli_scenario_negative_n},
      {"test_cli_scenario_junk_n", test_cli_scenario_junk_n},
      {"test_cli_scenario_unknown_broadcast", test_cli_scenario_unknown_broadcast},
      {"test_cli_scenario_duplicate_parameter", test_cli_scenario_duplicate_parameter},
      {"test_cli_platform_file_missing", test_cli_platform_file_missing},
      {"test_cli_platform_rejected_by_simgrid", test_cli_platform_rejected_by_simgrid},
      {"test_cli_platform_more_ranks_than_hosts", test_cli_platform_more_ranks_than_hosts},
      {"test_cli_platform_n_below_p", test_cli_platform_n_below_p},
      {"test_cli_platform_bad_comm_model", test_cli_platform_bad_comm_model},
      {"test_cli_generate_bad_topology_or_size", test_cli_generate_bad_topology_or_size},
      {"test_cli_generate_bad_parameters", test_cli_generate_bad_parameters},
      {"test_cli_generate_into_missing_folder", test_cli_generate_into_missing_folder},
      {"test_cli_generate_writes_platform", test_cli_generate_writes_platform},
      {"test_cli_small_run_writes_table_csv_and_json", test_cli_small_run_writes_table_csv_and_json},
      {"test_cli_help_lists_every_option", test_cli_help_lists_every_option},
      {"test_cli_analyse_help_lists_every_option", test_cli_analyse_help_lists_every_option},
      {"test_cli_platform_help_lists_every_option", test_cli_platform_help_lists_every_option},
      {"test_cli_version", test_cli_version},
      {NULL, NULL}};
  return tu_run("cli", cases);
}
