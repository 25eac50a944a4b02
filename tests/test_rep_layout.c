/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The terminal report's layout and numbers (rep_layout.h, rep_units.h) on crafted values: the width chosen from
 * --width, COLUMNS and the terminal; text wrapped at spaces; a table split into column groups that repeat its key
 * column; times scaled to one unit per column with 3 significant digits and rounding noise printed as 0. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "rep_layout.h"
#include "rep_units.h"
#include "tu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --width wins, then a valid COLUMNS, then the terminal, then 80; out-of-range COLUMNS is ignored. */
static void test_rep_layout_width_choice(void)
{
  CU_ASSERT_EQUAL(rep_width_pick(120, "100", 90), 120);
  CU_ASSERT_EQUAL(rep_width_pick(0, "100", 90), 100);
  CU_ASSERT_EQUAL(rep_width_pick(0, NULL, 90), 90);
  CU_ASSERT_EQUAL(rep_width_pick(0, "", 0), 80);
  CU_ASSERT_EQUAL(rep_width_pick(0, "abc", 0), 80);
  CU_ASSERT_EQUAL(rep_width_pick(0, "10", 0), 80);   /* below REP_WIDTH_MIN: not a width */
  CU_ASSERT_EQUAL(rep_width_pick(0, "100x", 0), 80); /* not a number */
  CU_ASSERT_EQUAL(rep_width_pick(0, NULL, 20), REP_WIDTH_MIN);
}

static char *capture_wrap(const char *text, int width, int indent)
{
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  CU_ASSERT_FATAL(f != NULL);
  rep_wrap(f, text, width, indent);
  fclose(f);
  return out;
}

/* 20 columns: "aaaa bbbb cccc dddd eeee" (24) breaks after "dddd" (19); the rest indented by 2; a 25-letter word is
 * cut at 20. */
static void test_rep_layout_wrap(void)
{
  char *a = capture_wrap("aaaa bbbb cccc dddd eeee", 20, 2);
  CU_ASSERT_STRING_EQUAL(a, "aaaa bbbb cccc dddd\n  eeee\n");
  char *b = capture_wrap("abcdefghijklmnopqrstuvwxy", 20, 0);
  CU_ASSERT_STRING_EQUAL(b, "abcdefghijklmnopqrst\nuvwxy\n");
  char *c = capture_wrap("short", 20, 2);
  CU_ASSERT_STRING_EQUAL(c, "short\n");
  free(a);
  free(b);
  free(c);
}

/* A figure keeps its unit: "by 426 ms: per" at 8 columns would break after "426" (6 columns), so it breaks after "by"
 * and "426 ms:" goes whole to the next line; a figure before a word that is not a unit ("426 more") still breaks. */
static void test_rep_layout_wrap_keeps_units(void)
{
  char *a = capture_wrap("by 426 ms: per", 8, 0);
  CU_ASSERT_STRING_EQUAL(a, "by\n426 ms:\nper\n");
  char *b = capture_wrap("by 426 more", 8, 0);
  CU_ASSERT_STRING_EQUAL(b, "by 426\nmore\n");
  char *c = capture_wrap("x 64 KiB 2 s", 6, 0);
  CU_ASSERT_STRING_EQUAL(c, "x\n64 KiB\n2 s\n");
  free(a);
  free(b);
  free(c);
}

/* A key column "p" (width 2) and four columns of width 5: at 20 columns, "p" + 2 spaces + "aaaaa" + " bbbbb" = 15 fit,
 * and one more (21) does not: two groups of two, each with the key column, a blank line between. */
static void test_rep_layout_split(void)
{
  rep_cols_t *cols = rep_cols_new(5, 1);
  CU_ASSERT_FATAL(cols != NULL);
  const char *heads[] = {"p", "aaaaa", "bbbbb", "ccccc", "ddddd"};
  for (size_t i = 0; i < 5; i++)
    rep_cols_add(cols, "%s", heads[i]);
  for (int p = 1; p <= 16; p *= 16)
    for (size_t i = 0; i < 5; i++)
      rep_cols_add(cols, "%d", i == 0 ? p : (int)i);
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  CU_ASSERT_FATAL(f != NULL);
  rep_cols_print(f, cols, "", 20);
  fclose(f);
  CU_ASSERT_STRING_EQUAL(out, " p  aaaaa bbbbb\n"
                              " 1      1     2\n"
                              "16      1     2\n"
                              "\n"
                              " p  ccccc ddddd\n"
                              " 1      3     4\n"
                              "16      3     4\n");
  free(out);
  rep_cols_free(cols);
}

static char *capture_fit(const char *text, int width)
{
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  CU_ASSERT_FATAL(f != NULL);
  rep_fit_lines(f, text, width);
  fclose(f);
  return out;
}

/* A text table 26 wide at 20 columns splits at the last column boundary within 20 (after "bbb", column 17), the rest
 * after the key column "row"; a prose line wraps at a space; a line within the width stays as it is. */
static void test_rep_layout_fit_lines(void)
{
  char *a = capture_fit("Title\n"
                        "row   aaa   bbb   ccc\n"
                        "x       1     2     3\n"
                        "yy     10    20    30\n"
                        "one two three four five six\n",
                        20);
  CU_ASSERT_STRING_EQUAL(a, "Title\n"
                            "row   aaa   bbb\n"
                            "x       1     2\n"
                            "yy     10    20\n"
                            "\n"
                            "row   ccc\n"
                            "x       3\n"
                            "yy     30\n"
                            "one two three four\n"
                            "  five six\n");
  free(a);
}

static const char *shown(double seconds, const rep_unit_t *unit)
{
  static char buf[64];
  rep_unit_format(buf, sizeof buf, seconds, unit);
  return buf;
}

/* A column of 9 ms and 10 ms (a machine of today) reads in ms with 3 significant digits: 9.00, 10.0 would need 1
 * decimal, the smaller value sets 2. 78.18 s and 6.13 s: s, 2 decimals. 850 ns: ns, 0 decimals. A residue of 3.6e-16
 * beside 0.125 s is below the 1e-9 noise floor: 0. All zeros: s, and 0. */
static void test_rep_layout_units(void)
{
  double today[] = {0.009, 0.010};
  rep_unit_t u = rep_unit_pick(today, 2);
  CU_ASSERT_STRING_EQUAL(u.name, "ms");
  CU_ASSERT_STRING_EQUAL(shown(0.009, &u), "9.00");
  CU_ASSERT_STRING_EQUAL(shown(0.010, &u), "10.00");
  double t800[] = {78.18, 6.13, NAN};
  u = rep_unit_pick(t800, 3);
  CU_ASSERT_STRING_EQUAL(u.name, "s");
  CU_ASSERT_STRING_EQUAL(shown(6.13, &u), "6.13");
  CU_ASSERT_STRING_EQUAL(shown(NAN, &u), "-");
  double tiny[] = {850e-9};
  u = rep_unit_pick(tiny, 1);
  CU_ASSERT_STRING_EQUAL(u.name, "ns");
  CU_ASSERT_STRING_EQUAL(shown(850e-9, &u), "850");
  double noise[] = {0.125, 3.63542528e-16};
  u = rep_unit_pick(noise, 2);
  CU_ASSERT_STRING_EQUAL(u.name, "ms");
  CU_ASSERT_STRING_EQUAL(shown(3.63542528e-16, &u), "0");
  CU_ASSERT_STRING_EQUAL(shown(0.125, &u), "125");
  double zeros[] = {0, 0};
  u = rep_unit_pick(zeros, 2);
  CU_ASSERT_STRING_EQUAL(u.name, "s");
  CU_ASSERT_STRING_EQUAL(shown(0, &u), "0");
  char one[64];
  rep_unit_seconds(one, sizeof one, 0.0123);
  CU_ASSERT_STRING_EQUAL(one, "12.3 ms");
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_rep_layout_width_choice", test_rep_layout_width_choice},
                                    {"test_rep_layout_wrap", test_rep_layout_wrap},
                                    {"test_rep_layout_wrap_keeps_units", test_rep_layout_wrap_keeps_units},
                                    {"test_rep_layout_split", test_rep_layout_split},
                                    {"test_rep_layout_units", test_rep_layout_units},
                                    {"test_rep_layout_fit_lines", test_rep_layout_fit_lines},
                                    {NULL, NULL}};
  return tu_run("rep_layout", cases);
}
