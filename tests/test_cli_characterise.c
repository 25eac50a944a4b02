/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of simrun characterise (src/cli/cli_characterise.c): ping-pong times made from seed 001 Table 2 give back its
 * small regime as properties to paste, never a negative term; times of another shape are refused; a malformed sample is
 * one error line with file:line and exit status 2. */
#include "tu_cli.h"

#define MACHINE SIMRUN_SOURCE_DIR "/tests/data/machine/"

/* Given Table 2's packet size, its small regime comes back as the properties; its large regime, whose alpha is
 * -81.5 us in the paper, comes back with every term >= 0 (no "-" in the properties), left to cross-validation too. */
static void test_cli_characterise_table2(void)
{
  const char *given[] = {"characterise", MACHINE "table2.csv", "--packet-bytes", "120", NULL};
  const char *chosen[] = {"characterise", MACHINE "table2.csv", NULL};
  const char *const *args[] = {given, chosen};
  for (int i = 0; i < 2; i++) {
    cli_run_t run;
    CU_ASSERT_FATAL(run_simrun(".", args[i], &run) == 0);
    CU_ASSERT_EQUAL(run.status, 0);
    if (i == 0) {
      CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "<prop id=\"simrun:comm-packet-bytes\" value=\"120\"/>"));
      CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "<prop id=\"simrun:comm-small-us\" value=\"51.1 0.27 8.86 0.68\"/>"));
    } else
      CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "chosen by cross-validation"));
    const char *large = strstr(run.out, "<prop id=\"simrun:comm-large-us\" value=\"");
    CU_ASSERT_FATAL(large != NULL);
    large += strlen("<prop id=\"simrun:comm-large-us\" value=\"");
    CU_ASSERT_PTR_NULL(memchr(large, '-', strcspn(large, "\n")));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "fitted to the 60 samples"));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "samples, residuals rms"));
    run_free(&run);
  }
}

/* Times the fit cannot be trusted with are refused: one line with the reason, exit status 2, nothing printed. */
static void test_cli_characterise_refuses_untrusted_fit(void)
{
  const char *args[] = {"characterise", MACHINE "not-eq4.csv", NULL};
  cli_run_t run;
  CU_ASSERT_FATAL(run_simrun(".", args, &run) == 0);
  CU_ASSERT_EQUAL(run.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "simrun: error: " MACHINE "not-eq4.csv: the fit misses the samples"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "no properties written\n"));
  CU_ASSERT_STRING_EQUAL(run.out, "");
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
  static const tu_case_t cases[] = {
      {"test_cli_characterise_table2", test_cli_characterise_table2},
      {"test_cli_characterise_refuses_untrusted_fit", test_cli_characterise_refuses_untrusted_fit},
      {"test_cli_characterise_malformed_line", test_cli_characterise_malformed_line},
      {NULL, NULL}};
  return tu_run("cli_characterise", cases);
}
