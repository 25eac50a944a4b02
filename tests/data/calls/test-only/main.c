/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* check-calls must find the second function of lib.c test-only: only test_lib.c calls it. */
int lib_used(int x);
int main(void)
{
  return lib_used(0);
}
