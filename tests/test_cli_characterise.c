/* Tests of simrun characterise (src/cli/cli_characterise.c): ping-pong times made from seed 001 Table 2 give back its
 * coefficients as properties to paste; a malformed sample is one error line with file:line and exit status 2. */
#include "tu_cli.h"

#define MACHINE SIMRUN_SOURCE_DIR "/tests/data/machine/"

static void test_cli_characterise_table2(void)
{
  const char *args[] = {"characterise", MACHINE "table2.csv", NULL};
  cli_run_t run;
  CU_ASSERT_FATAL(run_simrun(".", args, &run) == 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "<prop id=\"simrun:comm-packet-bytes\" value=\"120\"/>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "<prop id=\"simrun:comm-small-us\" value=\"51.1 0.27 8.86 0.68\"/>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "<prop id=\"simrun:comm-large-us\" value=\"-81.5 1.33 93.04 0.05\"/>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "fitted to the 60 samples"));
  run_free(&run);
}

static void test_cli_characterise_malformed_line(void)
{
  const char *args[] = {"characterise", MACHINE "bad-sample.csv", NULL};
  cli_run_t run;
  CU_ASSERT_FATAL(run_simrun(".", args, &run) == 0);
  CU_ASSERT_EQUAL(run.status, 2);
  CU_ASSERT_STRING_EQUAL(run.err, "simrun: error: " MACHINE "bad-sample.csv:4: expected three non-negative numbers, "
                                  "bytes,hops,time_us; fix this line\n");
  CU_ASSERT_STRING_EQUAL(run.out, "");
  run_free(&run);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_cli_characterise_table2", test_cli_characterise_table2},
                                    {"test_cli_characterise_malformed_line", test_cli_characterise_malformed_line},
                                    {NULL, NULL}};
  return tu_run("cli_characterise", cases);
}
