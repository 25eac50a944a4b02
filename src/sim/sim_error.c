/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The message table behind sim_error.h. */
#include "sim_error.h"

const char *sim_strerror(int code)
{
  switch (code) {
  case 0:
    return "success";
#define SIM_ERRNO_CASE(name, value, text)                                                                              \
  case name:                                                                                                           \
    return text;
    SIM_ERRNO_MAP(SIM_ERRNO_CASE)
#undef SIM_ERRNO_CASE
  default:
    return "unknown error";
  }
}

int sim_error_is_input(int code)
{
  /* a deadlock is a program whose sends and receives do not match: a trace's, or a skeleton's parameters' */
  return code == SIM_EINVAL || code == SIM_EPLATFORM || code == SIM_EHOSTS || code == SIM_EPARAM ||
         code == SIM_EDEADLOCK;
}
