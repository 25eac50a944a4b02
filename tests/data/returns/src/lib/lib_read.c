/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A library whose public reader returns a bare -1 (scripts/check-returns must find it), beside what it allows: a
 * static helper's -1, a -1 in a comment or a string, a floating-point function's -1, and a code of the table. */
#include <stdio.h>

static int helper(int x)
{
  return x > 0 ? 0 : -1; /* a static function's own convention */
}

double lib_ratio(double a, double b)
{
  return b != 0 ? a / b : -1;
}

int lib_parse(const char *text)
{
  if (!text)
    return -3; /* "return -1;" in a comment is no return */
  return helper(text[0]) == 0 ? puts("return -1;") : -3;
}

int lib_read(const char *path)
{
  if (!path)
    return -1;
  return 0;
}
