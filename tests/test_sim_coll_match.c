/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Mismatched collectives in a trace are named as such, with both ranks' lines: a rank calling reduce where another
 * calls allreduce was reported as a lost eager send. Folded loops count their bodies' collectives as many times as they
 * repeat. Inputs: tests/data/cli/ti-coll-mismatch/, ti-coll-loops/. */
#include "sim_coll_match.h"
#include "tu_cli.h"

#define TRACE DATA "ti-coll-mismatch/"
#define LOOPS DATA "ti-coll-loops/"

/* sim_coll_match on rank 0's file `first` and rank 1's `second` finds the mismatch `expected` (NULL: none, no message).
 */
static void match_says(const char *first, const char *second, const char *expected)
{
  char err[1024] = "";
  const char *const paths[] = {first, second};
  CU_ASSERT_EQUAL(sim_coll_match(paths, 2, err, sizeof err), expected != NULL);
  CU_ASSERT_STRING_EQUAL(err, expected ? expected : "");
}

/* The second collective differs (allreduce on rank 0, reduce on rank 1, after a bcast both call); a file compared
 * with itself matches; a missing file says nothing. */
static void test_sim_coll_match_names_both_lines(void)
{
  match_says(TRACE "rank-0.txt", TRACE "rank-1.txt",
             TRACE "rank-1.txt:4: mismatched collectives: rank 1 calls reduce where rank 0 calls allreduce (" TRACE
                   "rank-0.txt:4), as collective #2 of each; every rank must call the same collectives in the same "
                   "order; fix the trace");
  match_says(TRACE "rank-0.txt", TRACE "rank-0.txt", NULL);
  match_says(TRACE "rank-0.txt", TRACE "no-such.txt", NULL);
}

/* Through simrun: one line blaming the collectives, exit 2 (bad input), nothing written. */
static void test_sim_coll_match_through_simrun(void)
{
  EXPECT_FAILURE(.args = {"--no-cache", DATA "ti-coll-mismatch.xml"}, .status = 2,
                 .prefix = DATA "ti-coll-mismatch.xml: " TRACE "rank-1.txt:4: mismatched collectives: rank 1 calls "
                                "reduce where rank 0 calls allreduce (" TRACE "rank-0.txt:4)");
}

/* ti-coll-loops/: the same five collectives folded two ways (rank 0 a barrier then a loop of 3 barriers; rank 1 a loop
 * of 2 then two barriers), then an allreduce: they match, loops unfolded, where read line by line rank 0's allreduce
 * met rank 1's third barrier (as OpenCoarrays' folded trace at p = 2 was refused). rank-1-bcast.txt has a bcast for its
 * fourth collective (by hand: after the loop's 2 barriers and one more, line 6), a barrier on rank 0, the third
 * iteration of its loop's body, line 5. */
static void test_sim_coll_match_unfolds_loops(void)
{
  match_says(LOOPS "rank-0.txt", LOOPS "rank-1.txt", NULL);
  match_says(LOOPS "rank-0.txt", LOOPS "rank-1-bcast.txt",
             LOOPS "rank-1-bcast.txt:6: mismatched collectives: rank 1 calls bcast where rank 0 calls barrier (" LOOPS
                   "rank-0.txt:5), as collective #4 of each; every rank must call the same collectives in the same "
                   "order; fix the trace");
}

/* Through simrun, the same trace, whose rank 0 also sends a message no one receives: the replay drops it with a
 * warning and ends (exit 0); before, the collectives were blamed, exit 2. */
static void test_sim_coll_match_loops_through_simrun(void)
{
  cli_run_t run;
  const char *const args[] = {"--no-cache", "ti-coll-loops.xml", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(DATA, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "rank 0's send of 8 bytes to rank 1 is never received"));
  CU_ASSERT_PTR_NULL(strstr(run.err, "mismatched collectives"));
  run_free(&run);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_coll_match_names_both_lines", test_sim_coll_match_names_both_lines},
      {"test_sim_coll_match_through_simrun", test_sim_coll_match_through_simrun},
      {"test_sim_coll_match_unfolds_loops", test_sim_coll_match_unfolds_loops},
      {"test_sim_coll_match_loops_through_simrun", test_sim_coll_match_loops_through_simrun},
      {NULL, NULL}};
  return tu_run("sim_coll_match", cases);
}
