/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Growing by doubling (bas_grow.h): room from `first`, then twice as much each time the array is full, the items
 * kept; nothing done while there is room; a size past SIZE_MAX bytes refused with the array unchanged. */
#include "bas_error.h"
#include "bas_grow.h"
#include "tu.h"

#include <stdint.h>
#include <stdlib.h>

/* 100 ints pushed one at a time from an empty array with first 4: capacities 4, 8, 16, 32, 64, 128 and every item
 * kept; a call with room left changes nothing. */
static void test_grow_doubles_and_keeps(void)
{
  int *v = NULL;
  size_t cap = 0, n = 0, growths = 0;
  for (int i = 0; i < 100; i++) {
    size_t was = cap;
    CU_ASSERT_EQUAL_FATAL(bas_reserve((void **)&v, &cap, n, sizeof *v, 4), 0);
    growths += cap != was;
    CU_ASSERT(cap == was || cap == (was ? 2 * was : 4));
    v[n++] = i;
  }
  CU_ASSERT_EQUAL(cap, 128);
  CU_ASSERT_EQUAL(growths, 6);
  int wrong = 0;
  for (int i = 0; i < 100; i++)
    wrong += v[i] != i;
  CU_ASSERT_EQUAL(wrong, 0);
  int *same = v;
  CU_ASSERT_EQUAL(bas_reserve((void **)&v, &cap, 50, sizeof *v, 4), 0);
  CU_ASSERT(v == same && cap == 128);
  free(v);
}

/* A capacity whose double passes SIZE_MAX bytes, or wraps: refused, nothing allocated, the array as it was. */
static void test_grow_refuses_overflow(void)
{
  char item = 'x';
  void *v = &item;
  size_t cap = SIZE_MAX / 4 + 1;
  CU_ASSERT_EQUAL(bas_reserve(&v, &cap, cap, 2, 4), BAS_ENOMEM);
  CU_ASSERT(v == &item && cap == SIZE_MAX / 4 + 1);
  cap = SIZE_MAX / 2 + 1;
  CU_ASSERT_EQUAL(bas_reserve(&v, &cap, cap, 1, 4), BAS_ENOMEM);
  CU_ASSERT(v == &item && cap == SIZE_MAX / 2 + 1);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_grow_doubles_and_keeps", test_grow_doubles_and_keeps},
                                    {"test_grow_refuses_overflow", test_grow_refuses_overflow},
                                    {NULL, NULL}};
  return tu_run("bas_grow", cases);
}
