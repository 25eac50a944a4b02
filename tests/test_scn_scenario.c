/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of scenario files: every field read from a valid file, syntax and schema errors at the right line, and
 * parameter checks against a hand-written Gauss-Jordan specification. Inputs are in tests/data/scenarios/. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno, mkstemp */

#include "scn_scenario.h"
#include "tu.h"
#include "bas_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DATA SIMRUN_SOURCE_DIR "/tests/data/scenarios/"

static const char *const broadcasts[] = {"one-to-all", "neighbour", NULL};
static const scn_param_spec_t gj_params[] = {
    {"n", SCN_INT, 1, NULL, 1, "matrix order", SCN_ROLE_NONE},
    {"broadcast", SCN_CHOICE, 0, broadcasts, 0, "how the pivot row is sent", SCN_ROLE_BROADCAST},
};
static const scn_skeleton_spec_t gj = {"gauss-jordan", gj_params, sizeof gj_params / sizeof gj_params[0]};

static void data_path(char *buf, size_t size, const char *name)
{
  snprintf(buf, size, DATA "%s", name);
}

static void assert_error(const scn_error_t *err, const char *file, int line, const char *part1, const char *part2)
{
  CU_ASSERT_STRING_EQUAL(err->file, file);
  CU_ASSERT_EQUAL(err->line, line);
  CU_ASSERT_PTR_NOT_NULL(strstr(err->message, part1));
  CU_ASSERT_PTR_NOT_NULL(strstr(err->message, part2));
}

/* Loads data file `name`, which must fail with `line` and both parts in the message. */
static void expect_load_error(const char *name, int line, const char *part1, const char *part2)
{
  char path[1024];
  data_path(path, sizeof path, name);
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL(scn_load(path, &s, &err), BAS_EINVAL);
  CU_ASSERT_PTR_NULL(s);
  assert_error(&err, path, line, part1, part2);
}

/* Loads data file `name`, which must load but fail scn_check with `line` and both parts in the message. */
static void expect_check_error(const char *name, int line, const char *part1, const char *part2)
{
  char path[1024];
  data_path(path, sizeof path, name);
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL_FATAL(scn_load(path, &s, &err), 0);
  CU_ASSERT_EQUAL(scn_check(s, &gj, &err), BAS_EINVAL);
  assert_error(&err, path, line, part1, part2);
  scn_free(s);
}

/* Writes `value` as the first value of parameter `index` of junk-integer.xml (line 5 is p, line 6 is n) and expects
 * scn_check to fail at that parameter's line with `part` in the message. */
static void expect_value_error(size_t index, const char *value, const char *part)
{
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL_FATAL(scn_load(DATA "junk-integer.xml", &s, &err), 0);
  char copy[64];
  snprintf(copy, sizeof copy, "%s", value);
  char *written = s->params[index].values[0];
  s->params[index].values[0] = copy;
  CU_ASSERT_EQUAL(scn_check(s, &gj, &err), BAS_EINVAL);
  CU_ASSERT_EQUAL(err.line, s->params[index].line);
  CU_ASSERT_PTR_NOT_NULL(strstr(err.message, part));
  s->params[index].values[0] = written;
  scn_free(s);
}

static void assert_param(const scn_param_t *p, const char *name, int line, int swept, size_t nvalues,
                         const char *const *values)
{
  CU_ASSERT_STRING_EQUAL(p->name, name);
  CU_ASSERT_EQUAL(p->line, line);
  CU_ASSERT_EQUAL(p->swept, swept);
  CU_ASSERT_EQUAL_FATAL(p->nvalues, nvalues);
  for (size_t v = 0; v < nvalues; v++)
    CU_ASSERT_STRING_EQUAL(p->values[v], values[v]);
}

static void test_scn_load_reads_every_field(void)
{
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL_FATAL(scn_load(DATA "valid.xml", &s, &err), 0);
  CU_ASSERT_STRING_EQUAL(s->path, DATA "valid.xml");
  CU_ASSERT_STRING_EQUAL(s->name, "gj256");
  CU_ASSERT_STRING_EQUAL(s->description, "Gauss-Jordan on a mesh");
  CU_ASSERT_STRING_EQUAL(s->platform, DATA "dummy-platform.xml");
  CU_ASSERT_EQUAL(s->platform_line, 4);
  CU_ASSERT_STRING_EQUAL(s->skeleton, "gauss-jordan");
  CU_ASSERT_EQUAL(s->skeleton_line, 5);
  CU_ASSERT_EQUAL_FATAL(s->nparams, 3);
  assert_param(&s->params[0], "n", 6, 0, 1, (const char *const[]){"256"});
  assert_param(&s->params[1], "broadcast", 9, 1, 2, (const char *const[]){"one-to-all", "neighbour"});
  assert_param(&s->params[2], "p", 10, 1, 4, (const char *const[]){"1", "2", "4", "8"});
  CU_ASSERT_EQUAL(s->per_process, 4);
  CU_ASSERT_EQUAL(s->report_line, 12);
  CU_ASSERT_STRING_EQUAL(s->csv, DATA "out/gj256.csv");
  CU_ASSERT_STRING_EQUAL(s->json, DATA "gj256.json");
  CU_ASSERT_PTR_EQUAL(scn_param(s, "p"), &s->params[2]);
  CU_ASSERT_PTR_NULL(scn_param(s, "q"));
  CU_ASSERT_EQUAL(scn_check(s, &gj, &err), 0);
  scn_free(s);
}

/* The layers above read p and the broadcast by role: p's is built in, the broadcast's comes from the skeleton's
 * specification when scn_check has run; a parameter the skeleton gives no role has none. */
static void test_scn_roles_come_from_the_specification(void)
{
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL_FATAL(scn_load(DATA "valid.xml", &s, &err), 0);
  CU_ASSERT_EQUAL(scn_role_index(s, SCN_ROLE_PROCESSES), 2);
  CU_ASSERT_PTR_NULL(scn_role_param(s, SCN_ROLE_BROADCAST)); /* not checked yet: a name alone gives no role */
  CU_ASSERT_EQUAL(scn_check(s, &gj, &err), 0);
  CU_ASSERT_PTR_EQUAL(scn_role_param(s, SCN_ROLE_BROADCAST), &s->params[1]);
  CU_ASSERT_EQUAL(s->params[0].role, SCN_ROLE_NONE);
  CU_ASSERT_EQUAL(scn_role_index(s, SCN_ROLE_GRID_ROWS), s->nparams);
  CU_ASSERT_EQUAL(scn_role_index(s, SCN_ROLE_NONE), s->nparams);
  CU_ASSERT(scn_spec_has_role(&gj, SCN_ROLE_BROADCAST));
  CU_ASSERT_FALSE(scn_spec_has_role(&gj, SCN_ROLE_GRID_ROWS));
  CU_ASSERT_EQUAL(scn_builtin_role("platform"), SCN_ROLE_PLATFORM);
  CU_ASSERT_EQUAL(scn_builtin_role("broadcast"), SCN_ROLE_NONE);
  scn_free(s);
}

static void test_scn_load_leaves_optional_fields_empty(void)
{
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL_FATAL(scn_load(DATA "missing-required.xml", &s, &err), 0);
  CU_ASSERT_PTR_NULL(s->description);
  CU_ASSERT_EQUAL(s->per_process, 0);
  CU_ASSERT_EQUAL(s->report_line, 0);
  CU_ASSERT_PTR_NULL(s->csv);
  CU_ASSERT_PTR_NULL(s->json);
  CU_ASSERT_EQUAL(s->nparams, 1);
  scn_free(s);
}

/* An absolute platform path is kept as written; other paths still follow the scenario's folder (here /tmp). */
static void test_scn_load_keeps_absolute_paths(void)
{
  char path[] = "/tmp/test_scn_scenario-XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  FILE *f = fdopen(fd, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f,
          "<scenario name=\"abs\">\n  <platform file=\"%s\"/>\n  <program skeleton=\"gauss-jordan\">\n"
          "    <param name=\"p\" value=\"1\"/>\n  </program>\n  <report csv=\"r.csv\"/>\n</scenario>\n",
          DATA "dummy-platform.xml");
  fclose(f);
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL(scn_load(path, &s, &err), 0);
  if (s) {
    CU_ASSERT_STRING_EQUAL(s->platform, DATA "dummy-platform.xml");
    CU_ASSERT_STRING_EQUAL(s->csv, "/tmp/r.csv");
  }
  scn_free(s);
  unlink(path);
}

static void test_scn_load_reports_malformed_xml_line(void)
{
  expect_load_error("malformed.xml", 6, "malformed XML: Opening and ending tag mismatch: param line 5 and program",
                    "; fix the syntax at this line");
}

static void test_scn_load_reports_unknown_element_line(void)
{
  expect_load_error("unknown-element.xml", 6, "unexpected element <foo>; write <program skeleton=",
                    "; see scenarios/scenario.rng or docs/scenarios.md for the format");
}

static void test_scn_load_reports_missing_platform_element(void)
{
  expect_load_error("missing-platform-element.xml", 4, "unexpected element <program>",
                    "holds, in this order: <description> (optional), <platform>, <program>");
}

static void test_scn_load_reports_bad_per_process(void)
{
  expect_load_error("bad-per-process.xml", 7, "invalid attribute per-process on <report>", "P a positive integer");
}

static void test_scn_load_reports_missing_platform_file(void)
{
  expect_load_error("missing-platform-file.xml", 3, "platform file '" DATA "../nowhere/no-such-platform.xml' not found",
                    "; check the path, which is relative to the scenario file");
}

static void test_scn_load_reports_missing_scenario_file(void)
{
  char message[256];
  snprintf(message, sizeof message, "cannot open scenario: %s", strerror(ENOENT));
  expect_load_error("no-such-scenario.xml", 0, message, message);
}

static void test_scn_load_reports_missing_p(void)
{
  expect_load_error("missing-p.xml", 4, "parameter 'p' (the number of processes) is missing",
                    "<param name=\"p\" values=\"...\"/> to <sweep>");
}

/* libxml2 must report through scn_error_t only: stderr stays empty while bad files are loaded. */
static void test_scn_load_prints_nothing(void)
{
  static const char *const names[] = {"malformed.xml", "unknown-element.xml", "bad-per-process.xml",
                                      "missing-platform-file.xml", "no-such-scenario.xml"};
  FILE *capture = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(capture);
  fflush(stderr);
  int saved = dup(fileno(stderr));
  dup2(fileno(capture), fileno(stderr));
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char path[1024];
    data_path(path, sizeof path, names[i]);
    scn_scenario_t *s = NULL;
    scn_error_t err;
    CU_ASSERT_EQUAL(scn_load(path, &s, &err), BAS_EINVAL);
  }
  fflush(stderr);
  dup2(saved, fileno(stderr));
  close(saved);
  CU_ASSERT_EQUAL(fseek(capture, 0, SEEK_END), 0);
  CU_ASSERT_EQUAL(ftell(capture), 0);
  fclose(capture);
}

static void test_scn_check_rejects_unknown_parameter(void)
{
  expect_check_error("unknown-parameter.xml", 7, "unknown parameter 'colour' for skeleton 'gauss-jordan'",
                     "; known parameters: p, n, broadcast");
}

static void test_scn_check_rejects_negative_size(void)
{
  expect_check_error("negative-size.xml", 6, "n=\"-5\"", "a size cannot be negative; give a whole number >= 1");
}

static void test_scn_check_rejects_junk_integer(void)
{
  expect_check_error("junk-integer.xml", 6, "n=\"12x\" is not a whole number", "use decimal digits only");
  expect_value_error(1, "1e3", "n=\"1e3\" is not a whole number");
  expect_value_error(1, "+5", "n=\"+5\" is not a whole number");
  expect_value_error(1, "0x10", "n=\"0x10\" is not a whole number");
  expect_value_error(0, "-", "p=\"-\" is not a whole number");
}

static void test_scn_check_rejects_integer_overflow(void)
{
  expect_value_error(1, "99999999999999999999", "n=\"99999999999999999999\" is too large");
}

static void test_scn_check_rejects_value_below_min(void)
{
  expect_check_error("below-min.xml", 6, "n=\"0\" is below the minimum 1", "give 1 or more");
}

static void test_scn_check_rejects_p_below_one(void)
{
  expect_check_error("p-below-one.xml", 8, "p=\"0\" is below the minimum 1", "give 1 or more");
}

static void test_scn_check_rejects_unknown_choice(void)
{
  expect_check_error("unknown-choice.xml", 9, "unknown broadcast 'foo'; choose one of: one-to-all, neighbour",
                     "neighbour");
}

static void test_scn_check_rejects_duplicate_parameter(void)
{
  expect_check_error("duplicate-parameter.xml", 9, "parameter 'n' is given twice (first at line 5)", "keep only one");
}

static void test_scn_check_rejects_fixed_param_with_two_values(void)
{
  expect_check_error("fixed-two-values.xml", 6, "parameter 'n' has 2 values", "move it to <sweep>");
}

static void test_scn_check_rejects_missing_required(void)
{
  expect_check_error("missing-required.xml", 4, "skeleton 'gauss-jordan' needs parameter 'n' (matrix order)",
                     "<param name=\"n\" value=\"...\"/>");
}

static void test_scn_check_rejects_per_process_not_among_p(void)
{
  expect_check_error("per-process-not-p.xml", 10, "per-process=\"8\" is not among the values of p (1 2 4)",
                     "choose one of them");
}

static void test_scn_fail_fills_the_error(void)
{
  scn_error_t err;
  CU_ASSERT_EQUAL(scn_fail(&err, "a.xml", 12, "p=%d is odd", 3), BAS_EINVAL);
  assert_error(&err, "a.xml", 12, "p=3 is odd", "");
  scn_free(NULL);
}

/* References: where, note and an explicit p list read as written; a missing p list takes the scenario's p values. */
static void test_scn_load_reads_references(void)
{
  char path[1024];
  data_path(path, sizeof path, "references.xml");
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL_FATAL(scn_load(path, &s, &err), 0);
  CU_ASSERT_EQUAL_FATAL(s->nrefs, 2);
  const scn_reference_t *a = &s->refs[0];
  CU_ASSERT_STRING_EQUAL(a->quantity, "t_par");
  CU_ASSERT_STRING_EQUAL(a->source, "Table 4, measured");
  CU_ASSERT_STRING_EQUAL(a->where_name, "broadcast");
  CU_ASSERT_STRING_EQUAL(a->where_value, "neighbour");
  CU_ASSERT_STRING_EQUAL(a->note, "measured on the machine");
  CU_ASSERT_EQUAL_FATAL(a->count, 4);
  CU_ASSERT(a->p[0] == 1 && a->p[1] == 2 && a->p[2] == 4 && a->p[3] == 8);
  CU_ASSERT_DOUBLE_EQUAL(a->values[3], 13.73, 1e-12);
  CU_ASSERT_EQUAL(a->line, 13); /* libxml2 gives the line where a multi-line start tag ends */
  const scn_reference_t *b = &s->refs[1];
  CU_ASSERT(b->where_name == NULL && b->note == NULL && b->count == 2 && b->p[0] == 2 && b->p[1] == 8);
  CU_ASSERT_DOUBLE_EQUAL(b->values[0], 0.005, 1e-12);
  scn_free(s);
}

static void test_scn_load_rejects_bad_references(void)
{
  expect_load_error("reference-count.xml", 12, "3 values for the 4 p values of line 10", "one value per p");
  expect_load_error("reference-where-name.xml", 12, "no parameter 'bcast'", "name one of its parameters");
  expect_load_error("reference-where-value.xml", 12, "'binomial' is not a value of broadcast", "use one of");
  expect_load_error("reference-quantity.xml", 12, "quantity", "t_par");
}

/* libxml2's and SimGrid's messages may span lines: an error is one line whatever it quotes. */
static void test_scn_fail_folds_lines(void)
{
  scn_error_t err;
  CU_ASSERT_EQUAL(scn_fail(&err, "a.xml", 3, "platform: %s; fix it", "Parse error\n  at line 4:\r\n\tbad unit\n"),
                  BAS_EINVAL);
  CU_ASSERT_STRING_EQUAL(err.message, "platform: Parse error at line 4: bad unit; fix it");
  CU_ASSERT_STRING_EQUAL(err.file, "a.xml");
  CU_ASSERT_EQUAL(err.line, 3);
}

/* Line numbers past 65535 (libxml2 stores 16 bits in a node unless asked for XML_PARSE_BIG_LINES). */
static void test_scn_load_line_past_65535(void)
{
  char path[] = "/tmp/simrun-scn-big-XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  FILE *f = fdopen(fd, "w");
  CU_ASSERT_FATAL(f != NULL);
  fprintf(f,
          "<?xml version=\"1.0\"?>\n<scenario name=\"big\">\n<platform file=\"%s\"/>\n"
          "<program skeleton=\"gauss-jordan\">\n",
          SIMRUN_SOURCE_DIR "/tests/data/cli/two-hosts.xml");
  for (int i = 0; i < 70000; i++)
    fputs("<!-- filler -->\n", f);
  fputs("<param name=\"n\" value=\"16\"/>\n</program>\n<sweep><param name=\"p\" values=\"1\"/></sweep>\n"
        "<reference quantity=\"t_par\" source=\"s\" values=\"NaN\"/>\n</scenario>\n",
        f);
  fclose(f);
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL(scn_load(path, &s, &err), BAS_EINVAL);
  CU_ASSERT_EQUAL(err.line, 4 + 70000 + 4); /* 4 lines of head, the filler, then param, </program>, <sweep> */
  unlink(path);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_scn_load_reads_references", test_scn_load_reads_references},
      {"test_scn_load_rejects_bad_references", test_scn_load_rejects_bad_references},
      {"test_scn_load_reads_every_field", test_scn_load_reads_every_field},
      {"test_scn_roles_come_from_the_specification", test_scn_roles_come_from_the_specification},
      {"test_scn_load_leaves_optional_fields_empty", test_scn_load_leaves_optional_fields_empty},
      {"test_scn_load_keeps_absolute_paths", test_scn_load_keeps_absolute_paths},
      {"test_scn_load_reports_malformed_xml_line", test_scn_load_reports_malformed_xml_line},
      {"test_scn_load_reports_unknown_element_line", test_scn_load_reports_unknown_element_line},
      {"test_scn_load_reports_missing_platform_element", test_scn_load_reports_missing_platform_element},
      {"test_scn_load_reports_bad_per_process", test_scn_load_reports_bad_per_process},
      {"test_scn_load_reports_missing_platform_file", test_scn_load_reports_missing_platform_file},
      {"test_scn_load_reports_missing_scenario_file", test_scn_load_reports_missing_scenario_file},
      {"test_scn_load_reports_missing_p", test_scn_load_reports_missing_p},
      {"test_scn_load_prints_nothing", test_scn_load_prints_nothing},
      {"test_scn_check_rejects_unknown_parameter", test_scn_check_rejects_unknown_parameter},
      {"test_scn_check_rejects_negative_size", test_scn_check_rejects_negative_size},
      {"test_scn_check_rejects_junk_integer", test_scn_check_rejects_junk_integer},
      {"test_scn_check_rejects_integer_overflow", test_scn_check_rejects_integer_overflow},
      {"test_scn_check_rejects_value_below_min", test_scn_check_rejects_value_below_min},
      {"test_scn_check_rejects_p_below_one", test_scn_check_rejects_p_below_one},
      {"test_scn_check_rejects_unknown_choice", test_scn_check_rejects_unknown_choice},
      {"test_scn_check_rejects_duplicate_parameter", test_scn_check_rejects_duplicate_parameter},
      {"test_scn_check_rejects_fixed_param_with_two_values", test_scn_check_rejects_fixed_param_with_two_values},
      {"test_scn_check_rejects_missing_required", test_scn_check_rejects_missing_required},
      {"test_scn_check_rejects_per_process_not_among_p", test_scn_check_rejects_per_process_not_among_p},
      {"test_scn_fail_fills_the_error", test_scn_fail_fills_the_error},
      {"test_scn_fail_folds_lines", test_scn_fail_folds_lines},
      {"test_scn_load_line_past_65535", test_scn_load_line_past_65535},
      {NULL, NULL},
  };
  return tu_run("scn_scenario", cases);
}
