/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The key map (bas_keymap.h): every key put is got back, through the table's growths, whatever bits its keys differ
 * in; a key put again maps to its new number; a key never put maps to 0. */
#include "bas_keymap.h"
#include "tu.h"

/* 100,000 keys that differ only in their high bits (what a multiplier and a mask crowd into one slot), then as many
 * that differ only in their low ones: each maps to its own number, and keys between them to none. */
static void test_keymap_keys_got_back(void)
{
  enum { N = 100000 };
  bas_keymap_t *map = bas_keymap_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(map);
  CU_ASSERT_EQUAL(bas_keymap_get(map, 7), 0);
  for (uint64_t i = 0; i < N; i++) {
    CU_ASSERT_EQUAL_FATAL(bas_keymap_put(map, (i << 40) | 7, (size_t)(i + 1)), 0);
    CU_ASSERT_EQUAL_FATAL(bas_keymap_put(map, i * 2, (size_t)(N + i + 1)), 0);
  }
  int wrong = 0;
  for (uint64_t i = 0; i < N; i++) {
    uint64_t odd = i * 2 + 1; /* put only as 7, the first high-bits key (i = 0) */
    wrong += bas_keymap_get(map, (i << 40) | 7) != i + 1 || bas_keymap_get(map, i * 2) != N + i + 1 ||
             bas_keymap_get(map, odd) != (odd == 7 ? 1 : 0);
  }
  CU_ASSERT_EQUAL(wrong, 0);
  bas_keymap_free(map);
}

/* A key put again maps to its new number; the others keep theirs. */
static void test_keymap_put_replaces(void)
{
  bas_keymap_t *map = bas_keymap_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(map);
  CU_ASSERT_EQUAL(bas_keymap_put(map, 5, 1), 0);
  CU_ASSERT_EQUAL(bas_keymap_put(map, 6, 2), 0);
  CU_ASSERT_EQUAL(bas_keymap_put(map, 5, 3), 0);
  CU_ASSERT_EQUAL(bas_keymap_get(map, 5), 3);
  CU_ASSERT_EQUAL(bas_keymap_get(map, 6), 2);
  CU_ASSERT_EQUAL(bas_keymap_get(map, UINT64_MAX), 0);
  bas_keymap_free(map);
  bas_keymap_free(NULL);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_keymap_keys_got_back", test_keymap_keys_got_back},
                                    {"test_keymap_put_replaces", test_keymap_put_replaces},
                                    {NULL, NULL}};
  return tu_run("bas_keymap", cases);
}
