/* End-to-end tests of hostile input (issue 18): numbers that would wrap or mean nothing, platforms SimGrid would abort
 * on, signals. Each must end with the documented exit status, one "simrun: error: FILE:LINE: ..." line and nothing
 * left behind. Inputs are in tests/data/cli/hostile/. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, fileno, dup2, fork, execv, kill */

#include "tu_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOSTILE DATA "hostile/"

/* Numbers: an int parameter above INT_MAX used to wrap (2^32 -> 0: SIGFPE; 2^32 + 2 -> 2, a wrong run). */

static void test_hostile_grid_rows_wrap(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "grid-rows-wrap.xml"}, .status = 2, .prefix = HOSTILE "grid-rows-wrap.xml:13: ",
                 .phrases = {"grid-rows=\"4294967296\" is too large", "2147483647"});
}

static void test_hostile_p_wrap(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "p-wrap.xml"}, .status = 2,
                 .prefix = HOSTILE "p-wrap.xml:10: ", .phrases = {"p=\"4294967298\" is too large", "2147483647"});
}

/* The platform's 32 hosts are checked before pdgemm sizes its grid by p: the message comes at once, not "out of
 * memory" after 16 GB. */
static void test_hostile_p_checked_against_hosts_first(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "pdgemm-huge-p.xml"}, .status = 2, .prefix = HOSTILE "pdgemm-huge-p.xml:14: ",
                 .phrases = {"p = 2000000000", "has 32 hosts", "use p no larger than the host count"});
}

static void test_hostile_reference_p_huge(void)
{
  EXPECT_FAILURE(.args = {HOSTILE "reference-p-huge.xml"}, .status = 2,
                 .prefix = HOSTILE "reference-p-huge.xml:12: ", .phrases = {"p = 99999999999", "2147483647"});
}

static void test_hostile_reference_values_not_times(void)
{
  static const char *const files[] = {"reference-value-nan.xml", "reference-value-inf.xml",
                                      "reference-value-negative.xml"};
  static const char *const shown[] = {"value nan ", "value inf ", "value -0.5 "};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[1024];
    char prefix[2048];
    snprintf(path, sizeof path, HOSTILE "%s", files[i]);
    snprintf(prefix, sizeof prefix, "%s:12: <reference> ", path);
    EXPECT_FAILURE(.args = {path}, .status = 2, .prefix = prefix, .phrases = {shown[i], "give finite numbers"});
  }
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_hostile_grid_rows_wrap", test_hostile_grid_rows_wrap},
      {"test_hostile_p_wrap", test_hostile_p_wrap},
      {"test_hostile_p_checked_against_hosts_first", test_hostile_p_checked_against_hosts_first},
      {"test_hostile_reference_p_huge", test_hostile_reference_p_huge},
      {"test_hostile_reference_values_not_times", test_hostile_reference_values_not_times},
      {NULL, NULL}};
  return tu_run("hostile", cases);
}
