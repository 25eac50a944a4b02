/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of scaled sweeps in scenario files (scn_zip.c): <zip> and expr= read into paired values, the values of an
 * expression worked out by hand, --set taking a parameter out of its zip, and each bad input at its line. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include "scn_scenario.h"
#include "tu.h"
#include "bas_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const broadcasts[] = {"one-to-all", "neighbour", NULL};
static const scn_param_spec_t gj_params[] = {
    {"n", SCN_INT, 1, NULL, 1, "matrix order", SCN_ROLE_NONE},
    {"broadcast", SCN_CHOICE, 0, broadcasts, 0, "how the pivot row is sent", SCN_ROLE_BROADCAST},
};
static const scn_skeleton_spec_t gj = {"gauss-jordan", gj_params, sizeof gj_params / sizeof gj_params[0]};

static char path[64];

/* Writes a scenario whose <sweep> holds `sweep` (line 6 on) and loads it; *s NULL when scn_load refused it. */
static int load(const char *sweep, scn_scenario_t **s, scn_error_t *err)
{
  snprintf(path, sizeof path, "/tmp/simrun-zip-XXXXXX");
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f,
          "<?xml version=\"1.0\"?>\n<scenario name=\"z\">\n<platform file=\"" SIMRUN_SOURCE_DIR
          "/platforms/t800-mesh-128.xml\"/>\n<program skeleton=\"gauss-jordan\"/>\n<sweep>\n%s\n</sweep>\n"
          "</scenario>\n",
          sweep);
  fclose(f);
  int rc = scn_load(path, s, err);
  unlink(path);
  return rc;
}

/* Loads and checks `sweep`, which must fail at `line` with `part` in the message. */
static void expect_error(const char *sweep, int line, const char *part)
{
  scn_scenario_t *s = NULL;
  scn_error_t err;
  int rc = load(sweep, &s, &err);
  if (rc == 0) {
    CU_ASSERT_EQUAL(scn_check(s, &gj, &err), BAS_EINVAL);
    scn_free(s);
  }
  CU_ASSERT_EQUAL(err.line, line);
  if (!strstr(err.message, part) || err.line != line)
    printf("\ngot %d '%s', expected %d '%s'\n", err.line, err.message, line, part);
  CU_ASSERT_PTR_NOT_NULL(strstr(err.message, part));
}

/* n = round(64 sqrt(p)) at p = 1, 2, 4, 8: 64, 90.51 -> 91, 128, 181.02 -> 181; n joins p's zip. */
static void test_scn_zip_expression_values_by_hand(void)
{
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL_FATAL(
      load("<param name=\"p\" values=\"1 2 4 8\"/>\n<param name=\"n\" expr=\"round(64 * sqrt(p))\"/>", &s, &err), 0);
  CU_ASSERT_EQUAL_FATAL(scn_check(s, &gj, &err), 0);
  const scn_param_t *n = scn_param(s, "n");
  const scn_param_t *p = scn_param(s, "p");
  CU_ASSERT_EQUAL_FATAL(n->nvalues, 4);
  const char *expected[] = {"64", "91", "128", "181"};
  for (size_t k = 0; k < 4; k++)
    CU_ASSERT_STRING_EQUAL(n->values[k], expected[k]);
  CU_ASSERT(n->zip != 0 && n->zip == p->zip);
  CU_ASSERT_EQUAL(scn_zip_leader(s, 1), 0);
  scn_free(s);
}

/* A <zip> pairs its parameters; a zip crossed with another swept parameter keeps both. */
static void test_scn_zip_reads_pairs(void)
{
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL_FATAL(load("<param name=\"broadcast\" values=\"one-to-all neighbour\"/>\n<zip><param name=\"p\" "
                             "values=\"1 4\"/><param name=\"n\" values=\"64 128\"/></zip>",
                             &s, &err),
                        0);
  CU_ASSERT_EQUAL_FATAL(scn_check(s, &gj, &err), 0);
  CU_ASSERT_EQUAL(s->nzips, 1);
  CU_ASSERT_EQUAL(scn_param(s, "broadcast")->zip, 0);
  CU_ASSERT_EQUAL(scn_param(s, "p")->zip, 1);
  CU_ASSERT_EQUAL(scn_param(s, "n")->zip, 1);
  CU_ASSERT_EQUAL(scn_zip_leader(s, 2), 1);
  CU_ASSERT_EQUAL(scn_zip_leader(s, 0), 0);
  scn_free(s);
}

/* --set p=4 (scn_zip_leave, then new values): the expression follows the one value left. */
static void test_scn_zip_leave_keeps_the_expression_following(void)
{
  scn_scenario_t *s = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL_FATAL(load("<param name=\"p\" values=\"1 2 4 8\"/>\n<param name=\"n\" expr=\"32 * p\"/>", &s, &err),
                        0);
  scn_param_t *p = &s->params[0];
  scn_zip_leave(p);
  for (size_t v = 1; v < p->nvalues; v++)
    free(p->values[v]);
  p->nvalues = 1;
  CU_ASSERT_EQUAL_FATAL(scn_check(s, &gj, &err), 0);
  CU_ASSERT_EQUAL_FATAL(scn_param(s, "n")->nvalues, 1);
  CU_ASSERT_STRING_EQUAL(scn_param(s, "n")->values[0], "32");
  scn_free(s);
}

static void test_scn_zip_rejects_bad_input(void)
{
  static const char p4[] = "<param name=\"p\" values=\"1 2 4 8\"/>\n";
  char sweep[512];
#define WITH_P(expr) (snprintf(sweep, sizeof sweep, "%s<param name=\"n\" expr=\"%s\"/>", p4, expr), sweep)
  expect_error(WITH_P("64 * q"), 7, "unknown name 'q'; name one of the scenario's parameters (p)");
  expect_error(WITH_P("64 / (p - 2)"), 7, "at p = 2: division by zero");
  expect_error(WITH_P("sqrt(1 - p)"), 7, "at p = 2: sqrt(-1) is not a number (NaN");
  expect_error(WITH_P("64 * sqrt(p)"), 7, "gives 90.5097 at p = 2, not a whole number; wrap it in round()");
  expect_error(WITH_P("2^31 * p"), 7, "gives 2.14748e+09 at p = 1, out of range");
  expect_error(WITH_P("10^(400 * p)"), 7, "a power overflows");
  expect_error(WITH_P("64 * n"), 7, "unknown name 'n'");
  expect_error(WITH_P("64 * n-p"), 7, "put spaces around a minus sign");
  expect_error(WITH_P("0 * p"), 7, "below the minimum 1");
  expect_error("<param name=\"broadcast\" values=\"neighbour\"/>\n<param name=\"p\" values=\"1 2\"/>\n"
               "<param name=\"n\" expr=\"64 * p * broadcast\"/>",
               8, "'broadcast' = 'neighbour' is not a number");
  expect_error("<param name=\"grid\" values=\"1 2\"/>\n<param name=\"p\" values=\"1 2\"/>\n"
               "<param name=\"n\" expr=\"64 * p * grid\"/>",
               8, "two swept parameters, 'p' and 'grid'");
  expect_error("<param name=\"p\" expr=\"4\"/>\n<param name=\"n\" values=\"64\"/>", 6, "'p' cannot be an expression");
  expect_error("<zip>\n<param name=\"p\" values=\"1 2 4\"/>\n<param name=\"n\" values=\"64 128\"/>\n</zip>", 8,
               "'n' has 2 values but 'p', zipped with it (line 7), has 3");
  expect_error("<zip>\n<param name=\"p\" values=\"1 2 2\"/>\n<param name=\"n\" values=\"64 128 128\"/>\n</zip>", 7,
               "gives the same point twice");
  expect_error("<zip>\n<param name=\"p\" values=\"1 2 2\"/>\n<param name=\"n\" values=\"64 128 256\"/>\n</zip>", 7,
               "'p' lists '2' more than once");
  expect_error("<zip>\n<param name=\"p\" values=\"1 2\"/>\n</zip>", 6, "missing at the end of <zip>"); /* two or more */
  expect_error("<param name=\"p\" values=\"1\"/><param name=\"n\" expr=\"\"/>", 6, ""); /* the schema: not empty */
#undef WITH_P
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_scn_zip_expression_values_by_hand", test_scn_zip_expression_values_by_hand},
      {"test_scn_zip_reads_pairs", test_scn_zip_reads_pairs},
      {"test_scn_zip_leave_keeps_the_expression_following", test_scn_zip_leave_keeps_the_expression_following},
      {"test_scn_zip_rejects_bad_input", test_scn_zip_rejects_bad_input},
      {NULL, NULL},
  };
  return tu_run("scn_zip", cases);
}
