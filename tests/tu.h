/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Test utilities: one CUnit suite per test executable, run by ctest; exits non-zero when any assertion failed. */
#ifndef TU_H
#define TU_H

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tu_case {
  const char *name;
  void (*fn)(void);
} tu_case_t;

/* SANITIZED: 1 in a build with AddressSanitizer, where simrun runs 5 to 20 times slower; tests then leave their
 * heaviest runs to the normal build, which asserts the same. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Sets environment variable `name` to `value` (for the processes a test starts), returning its earlier value for
 * tu_env_restore: a copy, or NULL when it was unset. */
static inline char *tu_env_swap(const char *name, const char *value)
{
  const char *was = getenv(name);
  char *saved = was ? strdup(was) : NULL;
  setenv(name, value, 1);
  return saved;
}

/* Puts back what tu_env_swap saved (unsets `name` for NULL) and frees it. */
static inline void tu_env_restore(const char *name, char *saved)
{
  if (saved)
    setenv(name, saved, 1);
  else
    unsetenv(name);
  free(saved);
}

/* Writes `text` to the file `path` (replaced), asserting it could (fatal: the test cannot go on without it). */
static inline void tu_write_text(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  CU_ASSERT_FATAL(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

/* Registers `cases` (ended by {NULL, NULL}) as suite `suite`, runs them verbosely, returns the exit status. With
 * TU_CASES set, only the cases whose names contain it (docs/testing.md: one case again and again). */
static inline int tu_run(const char *suite, const tu_case_t *cases)
{
  if (CU_initialize_registry() != CUE_SUCCESS)
    return 2;
  CU_pSuite s = CU_add_suite(suite, NULL, NULL);
  const char *only = getenv("TU_CASES");
  for (const tu_case_t *c = cases; s && c->name; c++)
    if (!only || strstr(c->name, only))
      CU_add_test(s, c->name, c->fn);
  CU_basic_set_mode(CU_BRM_VERBOSE);
  CU_basic_run_tests();
  unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
  CU_cleanup_registry();
  return failed ? 1 : 0;
}

#define TU_ASSERT_CLOSE(actual, expected, tol) CU_ASSERT_DOUBLE_EQUAL((actual), (expected), (tol))

#endif
