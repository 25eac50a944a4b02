/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* check-calls must find the second function of lib.c dead: nothing calls it. */
int lib_used(int x);
int main(void)
{
  return lib_used(0);
}
