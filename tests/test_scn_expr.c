/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the scaled sweeps' expressions (scn_expr.h): values worked out by hand, precedence and associativity, and
 * each error a hostile expression can cause (syntax, unknown name, division by zero, NaN, overflow, deep nesting). */
#include "scn_expr.h"
#include "tu.h"
#include "bas_error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* p = 8 and grid-rows = 2; any other name is unknown. */
static int lookup(void *ctx, const char *name, double *value, char *err, size_t len)
{
  (void)ctx;
  if (strcmp(name, "p") == 0 || strcmp(name, "grid-rows") == 0) {
    *value = name[0] == 'p' ? 8 : 2;
    return 0;
  }
  snprintf(err, len, "unknown name '%s'", name);
  return -1;
}

static double eval(const char *text)
{
  char err[256] = "";
  double value = NAN;
  CU_ASSERT_EQUAL(scn_expr_eval(text, lookup, NULL, &value, err, sizeof err), 0);
  CU_ASSERT_STRING_EQUAL(err, "");
  return value;
}

static void expect_error(const char *text, const char *part)
{
  char err[256] = "";
  double value = 0;
  CU_ASSERT_EQUAL(scn_expr_eval(text, lookup, NULL, &value, err, sizeof err), BAS_EINVAL);
  if (!strstr(err, part))
    printf("\n'%s': got '%s', expected '%s'\n", text, err, part);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, part));
  CU_ASSERT_PTR_NULL(strchr(err, '\n'));
}

/* 256 sqrt(8) = 724.077..., rounded 724; floor and ceil of 8 / 3 = 2.67 are 2 and 3; log2(8) = 3, cbrt(8) = 2. */
static void test_scn_expr_values_by_hand(void)
{
  CU_ASSERT_DOUBLE_EQUAL(eval("256 * sqrt(p)"), 256 * 2.8284271247461903, 1e-9);
  CU_ASSERT_EQUAL(eval("round(256 * sqrt(p))"), 724);
  CU_ASSERT_EQUAL(eval("floor(p / 3)"), 2);
  CU_ASSERT_EQUAL(eval("ceil(p / 3)"), 3);
  CU_ASSERT_EQUAL(eval("log2(p)"), 3);
  CU_ASSERT_EQUAL(eval("cbrt(p)"), 2);
  CU_ASSERT_EQUAL(eval("64 * p / grid-rows"), 256);
  CU_ASSERT_EQUAL(eval("round(2.5)"), 3); /* halves away from zero */
  CU_ASSERT_EQUAL(eval("1e3"), 1000);
}

/* * before +, ^ before unary minus (-2^2 = -4), ^ right-associative (2^3^2 = 2^9), p-1 is p minus 1. */
static void test_scn_expr_precedence(void)
{
  CU_ASSERT_EQUAL(eval("1 + 2 * 3"), 7);
  CU_ASSERT_EQUAL(eval("(1 + 2) * 3"), 9);
  CU_ASSERT_EQUAL(eval("-2^2"), -4);
  CU_ASSERT_EQUAL(eval("2^3^2"), 512);
  CU_ASSERT_EQUAL(eval("p-1"), 7);
  CU_ASSERT_EQUAL(eval("8 / 2 / 2"), 2);
  CU_ASSERT_EQUAL(eval("--p"), 8);
}

static void test_scn_expr_rejects_hostile_input(void)
{
  expect_error("q * 2", "unknown name 'q'");
  expect_error("p / (p - 8)", "division by zero");
  expect_error("sqrt(1 - p)", "NaN");
  expect_error("log2(0)", "NaN");
  expect_error("10^400", "overflows");
  expect_error("1e308 * 10", "overflows");
  expect_error("p *", "ends where a number");
  expect_error("(p", "expected ')'");
  expect_error("p p", "column 3: unexpected 'p'");
  expect_error("p $ 2", "unexpected '$'");
  expect_error("p \x01", "byte 0x01");
  expect_error("sin(p)", "unknown function 'sin'");
  expect_error("0x10", "not a number");
  expect_error("nan", "unknown name 'nan'");
  expect_error("", "ends where");
  /* an expression that ends inside a call or parentheses (fuzz_scenario: "round(32 * sqrt(p)-"): the closing
   * parenthesis was stepped over past the text's end, a heap overflow under ASan; each on the heap, so that a read
   * past its end is one */
  static const char *const unclosed[] = {"round(32 * sqrt(p)-", "(p -", "sqrt(p *", "((p"};
  for (size_t i = 0; i < sizeof unclosed / sizeof unclosed[0]; i++) {
    char *text = strdup(unclosed[i]);
    CU_ASSERT_FATAL(text != NULL);
    expect_error(text, i == 3 ? "expected ')'" : "ends where");
    free(text);
  }
}

/* 10,000 opening parentheses stop at the depth limit, not the stack's end. */
static void test_scn_expr_limits_nesting(void)
{
  static char deep[20002];
  memset(deep, '(', 10000);
  deep[10000] = '1';
  memset(deep + 10001, ')', 10000);
  deep[20001] = '\0';
  expect_error(deep, "nests deeper than 64");
  memset(deep, '-', 10000);
  deep[10000] = '1';
  deep[10001] = '\0';
  expect_error(deep, "nests deeper than 64");
  CU_ASSERT_EQUAL(eval("((((((((((1))))))))))"), 1);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_scn_expr_values_by_hand", test_scn_expr_values_by_hand},
      {"test_scn_expr_precedence", test_scn_expr_precedence},
      {"test_scn_expr_rejects_hostile_input", test_scn_expr_rejects_hostile_input},
      {"test_scn_expr_limits_nesting", test_scn_expr_limits_nesting},
      {NULL, NULL},
  };
  return tu_run("scn_expr", cases);
}
