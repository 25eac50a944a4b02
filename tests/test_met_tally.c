/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The counts of message ends by envelope (met_tally.h): what a queue may hold, against the ends added and removed by
 * hand, through the table's rebuilds, with wildcards, and its size bounded by the ends it holds, not by those it has
 * seen. */
#include "met_tally.h"
#include "tu.h"

/* One end counted and taken away; its envelope differs from others in each field. */
static void test_tally_one_end(void)
{
  met_tally_t t = {0};
  CU_ASSERT_FALSE(met_tally_may_hold(&t, 0, 5, 1));
  CU_ASSERT_EQUAL(met_tally_add(&t, 0, 5, 1), 0);
  CU_ASSERT_TRUE(met_tally_may_hold(&t, 0, 5, 1));
  CU_ASSERT_FALSE(met_tally_may_hold(&t, 1, 5, 1)); /* another communicator */
  CU_ASSERT_FALSE(met_tally_may_hold(&t, 0, 6, 1)); /* another tag */
  CU_ASSERT_FALSE(met_tally_may_hold(&t, 0, 5, 2)); /* another source */
  CU_ASSERT_EQUAL(met_tally_add(&t, 0, 5, 1), 0);   /* two of it: one removal leaves one */
  met_tally_remove(&t, 0, 5, 1);
  CU_ASSERT_TRUE(met_tally_may_hold(&t, 0, 5, 1));
  met_tally_remove(&t, 0, 5, 1);
  CU_ASSERT_FALSE(met_tally_may_hold(&t, 0, 5, 1));
  met_tally_free(&t);
}

/* An end with any tag or from any source may pair with every envelope while it is held. */
static void test_tally_wildcards(void)
{
  met_tally_t t = {0};
  CU_ASSERT_EQUAL(met_tally_add(&t, 0, -1, 3), 0);
  CU_ASSERT_TRUE(met_tally_may_hold(&t, 7, 99, 8));
  CU_ASSERT_EQUAL(met_tally_add(&t, 0, 4, -1), 0);
  met_tally_remove(&t, 0, -1, 3);
  CU_ASSERT_TRUE(met_tally_may_hold(&t, 7, 99, 8));
  met_tally_remove(&t, 0, 4, -1);
  CU_ASSERT_FALSE(met_tally_may_hold(&t, 7, 99, 8));
  met_tally_free(&t);
}

/* 10,000 tags (the table rebuilt several times), the odd ones removed: each even tag held, no odd one, no other; then
 * 100 rounds of 10,000 new tags added and removed: the table keeps at most four times the slots of the first 10,000
 * (a table that kept every envelope it had seen would hold a million). */
static void test_tally_many_tags(void)
{
  met_tally_t t = {0};
  int failed = 0;
  for (int tag = 0; tag < 10000; tag++)
    failed += met_tally_add(&t, 2, tag, 0) != 0;
  for (int tag = 1; tag < 10000; tag += 2)
    met_tally_remove(&t, 2, tag, 0);
  int wrong = 0;
  for (int tag = 0; tag < 20000; tag++)
    wrong += met_tally_may_hold(&t, 2, tag, 0) != (tag < 10000 && tag % 2 == 0);
  CU_ASSERT_EQUAL(wrong, 0);
  size_t first = t.cap;
  for (int round = 1; round <= 100; round++) {
    for (int tag = 0; tag < 10000; tag++)
      failed += met_tally_add(&t, 2, 100000 * round + tag, 0) != 0;
    for (int tag = 0; tag < 10000; tag++)
      met_tally_remove(&t, 2, 100000 * round + tag, 0);
  }
  CU_ASSERT_EQUAL(failed, 0);
  CU_ASSERT(t.cap <= 4 * first);
  CU_ASSERT_TRUE(met_tally_may_hold(&t, 2, 9998, 0));
  CU_ASSERT_FALSE(met_tally_may_hold(&t, 2, 100000 * 50 + 7, 0));
  met_tally_free(&t);
  CU_ASSERT_PTR_NULL(t.slots);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_tally_one_end", test_tally_one_end},
                                    {"test_tally_wildcards", test_tally_wildcards},
                                    {"test_tally_many_tags", test_tally_many_tags},
                                    {NULL, NULL}};
  return tu_run("met_tally", cases);
}
