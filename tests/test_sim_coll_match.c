/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Mismatched collectives in a trace are named as such, with both ranks' lines: a rank calling reduce where another
 * calls allreduce was reported as a lost eager send. Inputs: tests/data/cli/ti-coll-mismatch/. */
#include "sim_coll_match.h"
#include "tu_cli.h"

#define TRACE DATA "ti-coll-mismatch/"

/* The second collective differs (allreduce on rank 0, reduce on rank 1, after a bcast both call); a file compared
 * with itself matches; a missing file says nothing. */
static void test_sim_coll_match_names_both_lines(void)
{
  char err[1024] = "";
  const char *const paths[] = {TRACE "rank-0.txt", TRACE "rank-1.txt"};
  CU_ASSERT_EQUAL(sim_coll_match(paths, 2, err, sizeof err), 1);
  CU_ASSERT_STRING_EQUAL(err,
                         TRACE "rank-1.txt:4: mismatched collectives: rank 1 calls reduce where rank 0 calls "
                               "allreduce (" TRACE "rank-0.txt:4), as collective #2 of each; every rank must call the "
                               "same collectives in the same order; fix the trace");
  const char *const same[] = {TRACE "rank-0.txt", TRACE "rank-0.txt"};
  const char *const missing[] = {TRACE "rank-0.txt", TRACE "no-such.txt"};
  err[0] = '\0';
  CU_ASSERT_EQUAL(sim_coll_match(same, 2, err, sizeof err), 0);
  CU_ASSERT_EQUAL(sim_coll_match(missing, 2, err, sizeof err), 0);
  CU_ASSERT_EQUAL(err[0], '\0');
}

/* Through simrun: one line blaming the collectives, exit 2 (bad input), nothing written. */
static void test_sim_coll_match_through_simrun(void)
{
  EXPECT_FAILURE(.args = {"--no-cache", DATA "ti-coll-mismatch.xml"}, .status = 2,
                 .prefix = DATA "ti-coll-mismatch.xml: " TRACE "rank-1.txt:4: mismatched collectives: rank 1 calls "
                                "reduce where rank 0 calls allreduce (" TRACE "rank-0.txt:4)");
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_sim_coll_match_names_both_lines", test_sim_coll_match_names_both_lines},
                                    {"test_sim_coll_match_through_simrun", test_sim_coll_match_through_simrun},
                                    {NULL, NULL}};
  return tu_run("sim_coll_match", cases);
}
