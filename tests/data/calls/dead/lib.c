/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The first function is called by main.c; the second by nobody. */
int lib_used(int x)
{
  return x;
}
int lib_unused(int x)
{
  return -x;
}
