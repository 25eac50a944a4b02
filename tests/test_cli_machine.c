/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of simrun machine probe (src/cli/cli_machine.c, cli_probe.c): with the ping-pong times given (a measured
 * sample of this machine's, tests/data/machine/pingpong-shm.csv) it writes a platform whose every value has its
 * measurement in a comment, and on which a simulated ping-pong takes the fitted time; bad usage is one error line. */
#include "tu_cli.h"

#include <math.h>

#define MACHINE SIMRUN_SOURCE_DIR "/tests/data/machine/"

/* The four numbers of property `id` in the platform text. */
static int property(const char *xml, const char *id, double v[4])
{
  char key[128];
  snprintf(key, sizeof key, "<prop id=\"%s\" value=\"", id);
  const char *at = strstr(xml, key);
  return at ? sscanf(at + strlen(key), "%lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3]) : 0;
}

/* The probed platform: each characterisation value follows its comment; a ping-pong skeleton run on it gives, for
 * 8 and 64 bytes, the small-message regime's alpha + beta l written there (one link per route: eq. 4 at d = 1). */
static void test_cli_machine_probe_writes_platform(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"machine", "probe", "probed.xml", "--samples", MACHINE "pingpong-shm.csv", NULL};
  run_ok(dir, sizeof dir, args, &run);
  run_free(&run);
  char *xml = read_output(dir, "probed.xml");
  CU_ASSERT_PTR_NOT_NULL_FATAL(xml);
  static const char *const ids[] = {"simrun:clock-hz",      "simrun:cycles-cpu",    "simrun:cycles-flop",
                                    "simrun:cycles-intmem", "simrun:cycles-extmem", "simrun:comm-model"};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    char key[128];
    snprintf(key, sizeof key, "<prop id=\"%s\"", ids[i]);
    const char *at = strstr(xml, key);
    CU_ASSERT_FATAL(at != NULL);
    const char *comment_end = at - 1;
    while (comment_end > xml && (*comment_end == ' ' || *comment_end == '\n'))
      comment_end--;
    CU_ASSERT(comment_end - 2 > xml && strncmp(comment_end - 2, "-->", 3) == 0);
  }
  double small[4] = {0}, packet[4] = {0};
  CU_ASSERT_EQUAL(property(xml, "simrun:comm-small-us", small), 4);
  CU_ASSERT_EQUAL(property(xml, "simrun:comm-packet-bytes", packet), 1);
  CU_ASSERT(packet[0] >= 64 && small[0] >= 0 && small[1] >= 0);
  free(xml);
  char path[1100];
  snprintf(path, sizeof path, "%s/pp.xml", dir);
  FILE *scenario = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(scenario);
  fprintf(scenario, "<scenario name=\"pp\"><platform file=\"probed.xml\"/><program skeleton=\"ping-pong\">"
                    "<param name=\"min-bytes\" value=\"8\"/><param name=\"max-bytes\" value=\"64\"/>"
                    "<param name=\"p\" value=\"2\"/></program></scenario>\n");
  fclose(scenario);
  const char *pp[] = {"pp.xml", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, pp, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  for (int bytes = 8; bytes <= 64; bytes *= 8) {
    char row[128];
    snprintf(row, sizeof row, "%10d %6d %8d %14.3f", bytes, 1, 2, small[0] + small[1] * bytes);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, row));
  }
  run_free(&run);
  remove(path);
  remove_folder(dir);
}

static void test_cli_machine_bad_usage(void)
{
  EXPECT_FAILURE(.args = {"machine"}, .bare = 1, .status = 2, .prefix = "expected 'simrun machine probe FILE.xml'",
                 .phrases = {NULL});
  EXPECT_FAILURE(.args = {"machine", "probe"}, .bare = 1, .status = 2, .prefix = "no output file given",
                 .phrases = {NULL});
  EXPECT_FAILURE(.args = {"machine", "probe", "out.xml", "--samples", MACHINE "not-eq4.csv"}, .bare = 1, .status = 1,
                 .prefix = MACHINE "not-eq4.csv: the fit misses", .phrases = {"nothing written"});
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_cli_machine_probe_writes_platform", test_cli_machine_probe_writes_platform},
                                    {"test_cli_machine_bad_usage", test_cli_machine_bad_usage},
                                    {NULL, NULL}};
  return tu_run("cli_machine", cases);
}
