/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A library function that prints its warning itself: check-calls must refuse it (only the front end prints). */
#include <stdio.h>
int lib_check(int x)
{
  if (x < 0)
    fprintf(stderr, "lib: warning: %d is negative\n", x);
  return x;
}
