/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The front end, which may print: check-calls must name lib.c alone. */
#include <stdio.h>
int lib_check(int x);
int main(void)
{
  printf("%d\n", lib_check(1));
  return 0;
}
