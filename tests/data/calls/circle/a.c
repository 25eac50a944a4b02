/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* check-calls must find this circle: a.c calls b.c, which calls back into a.c. */
int b_twice(int x);
int a_helper(int x)
{
  return x + 1;
}
int a_run(int x)
{
  return b_twice(x);
}
