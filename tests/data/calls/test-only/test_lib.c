/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stands for a test of lib.c: the only user of lib_for_tests. */
int lib_for_tests(int x);
int test_lib(void)
{
  return lib_for_tests(1) == -1;
}
