/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The table behind bas_error.h: each code's message and exit status. */
#include "bas_error.h"

#include <errno.h>

const char *bas_strerror(int code)
{
  switch (code) {
  case 0:
    return "success";
#define BAS_ERROR_TEXT(name, value, status, text)                                                                      \
  case name:                                                                                                           \
    return text;
    BAS_ERROR_MAP(BAS_ERROR_TEXT)
#undef BAS_ERROR_TEXT
  default:
    return "unknown error";
  }
}

int bas_error_status(int code)
{
  switch (code) {
  case 0:
    return 0;
#define BAS_ERROR_STATUS(name, value, status, text)                                                                    \
  case name:                                                                                                           \
    return status;
    BAS_ERROR_MAP(BAS_ERROR_STATUS)
#undef BAS_ERROR_STATUS
  default:
    return BAS_STATUS_RUNTIME;
  }
}

int bas_error_is_input(int code)
{
  return bas_error_status(code) == BAS_STATUS_INPUT;
}

int bas_error_reading(int errnum)
{
  switch (errnum) {
  case ENOMEM:
    return BAS_ENOMEM;
  case EMFILE:
  case ENFILE:
  case EIO:
  case ENOSPC:
  case EFBIG:
  case EINTR:
    return BAS_EIO;
  default:
    return BAS_EDATA;
  }
}
