/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The first function is called by main.c; the second only by the test (test_lib.c). */
int lib_used(int x)
{
  return x;
}
int lib_for_tests(int x)
{
  return -x;
}
