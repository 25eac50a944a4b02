/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracer's counts of the pending requests holding each handle (src/tracer/trc_handles.c, compiled into this test:
 * plain C), on hand-made handles: a handle is shared while two or more hold it, and only then; counts survive the
 * table's growth and the removals that shift colliding handles back, checked against a plain array of counts. */
#include "trc_handles.h"
#include "tu.h"

#include <stdlib.h>

/* One handle given to three requests (Open MPI's one completed request for sends done inline): shared until only one
 * holds it; a handle never added is not. */
static void test_trc_handles_shared_while_held_twice(void)
{
  trc_handles_reset();
  CU_ASSERT_FALSE(trc_handles_shared(0x1000));
  CU_ASSERT_EQUAL(trc_handles_add(0x1000), 0);
  CU_ASSERT_EQUAL(trc_handles_add(0x2000), 0);
  CU_ASSERT_FALSE(trc_handles_shared(0x1000));
  CU_ASSERT_EQUAL(trc_handles_add(0x1000), 0);
  CU_ASSERT_EQUAL(trc_handles_add(0x1000), 0);
  CU_ASSERT_TRUE(trc_handles_shared(0x1000));
  CU_ASSERT_FALSE(trc_handles_shared(0x2000));
  trc_handles_remove(0x1000);
  CU_ASSERT_TRUE(trc_handles_shared(0x1000));
  trc_handles_remove(0x1000);
  CU_ASSERT_FALSE(trc_handles_shared(0x1000));
  trc_handles_remove(0x1000);
  trc_handles_remove(0x1000); /* one more than added: nothing to remove */
  CU_ASSERT_FALSE(trc_handles_shared(0x1000));
  trc_handles_reset();
}

enum { KEYS = 5000 };

/* A drawn handle, 16-byte aligned as a heap's: drawn bits, so that the table's slots fill in clusters. */
static uint64_t drawn_handle(void)
{
  uint64_t bits = 0;
  for (int i = 0; i < 4; i++)
    bits = bits << 16 ^ (uint64_t)(rand() & 0xffff);
  return bits << 4 | 1ULL << 63;
}

/* 5,000 drawn handles, each added one to three times, then removed and added in a drawn order: after every step a
 * drawn handle's sharing is what an array of counts says (the table grows from 64 slots to 16,384 and every removal
 * shifts the handles of its cluster back: without the shift, 423 of 20,000 checks were wrong). */
static void test_trc_handles_counts_through_growth_and_removals(void)
{
  static int count[KEYS];
  static uint64_t handle[KEYS];
  trc_handles_reset();
  srand(47);
  for (int k = 0; k < KEYS; k++) {
    handle[k] = drawn_handle();
    count[k] = 1 + rand() % 3;
    for (int i = 0; i < count[k]; i++)
      CU_ASSERT_EQUAL_FATAL(trc_handles_add(handle[k]), 0);
  }
  int wrong = 0;
  for (int step = 0; step < 3 * KEYS; step++) {
    int k = rand() % KEYS;
    if (count[k] > 0 && rand() % 4 != 0) {
      trc_handles_remove(handle[k]);
      count[k]--;
    } else if (trc_handles_add(handle[k]) == 0) {
      count[k]++;
    }
    int j = rand() % KEYS;
    wrong += trc_handles_shared(handle[j]) != (count[j] > 1);
  }
  for (int k = 0; k < KEYS; k++)
    wrong += trc_handles_shared(handle[k]) != (count[k] > 1);
  CU_ASSERT_EQUAL(wrong, 0);
  trc_handles_reset();
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_trc_handles_shared_while_held_twice", test_trc_handles_shared_while_held_twice},
      {"test_trc_handles_counts_through_growth_and_removals", test_trc_handles_counts_through_growth_and_removals},
      {NULL, NULL}};
  return tu_run("trc_handles", cases);
}
