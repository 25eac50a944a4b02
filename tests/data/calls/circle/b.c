/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The other half of the circle of a.c. */
int a_helper(int x);
int b_twice(int x)
{
  return a_helper(a_helper(x));
}
