/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one table of simrun's error codes, at the bottom of the layers: every library (metrics, sim, apps, study,
 * report) returns 0 or one of these negative codes, with its message in the caller's buffer; each code says whether
 * the user's input is at fault and so the exit status the front end (src/cli, the only one that prints) gives it.
 * -1 is no code: a bare `return -1` in a library's public function is refused by scripts/check-calls. */
#ifndef BAS_ERROR_H
#define BAS_ERROR_H

/* The exit statuses (docs/simrun.1, EXIT STATUS): a runtime failure, and anything wrong with the input or the command
 * line. A signal's stop, 128 + its number, is the command line's alone (cli_signal.h). */
enum bas_status { BAS_STATUS_RUNTIME = 1, BAS_STATUS_INPUT = 2 };

/* name, value, exit status (BAS_STATUS_INPUT: the user is at fault), message */
#define BAS_ERROR_MAP(X)                                                                                               \
  X(BAS_ENOMEM, -2, BAS_STATUS_RUNTIME, "out of memory")                                                               \
  X(BAS_EINVAL, -3, BAS_STATUS_INPUT, "invalid argument")                                                              \
  X(BAS_EPLATFORM, -4, BAS_STATUS_INPUT, "the platform could not be loaded")                                           \
  X(BAS_EHOSTS, -5, BAS_STATUS_INPUT, "more ranks than hosts in the platform")                                         \
  X(BAS_EPARAM, -6, BAS_STATUS_INPUT, "a parameter is out of range for this skeleton")                                 \
  X(BAS_EIO, -7, BAS_STATUS_RUNTIME, "an input/output error")                                                          \
  X(BAS_ECHILD, -8, BAS_STATUS_RUNTIME, "the simulation process failed")                                               \
  X(BAS_EDEADLOCK, -9, BAS_STATUS_INPUT, "the simulation ended with ranks still blocked")                              \
  X(BAS_EINTR, -10, BAS_STATUS_RUNTIME, "interrupted")                                                                 \
  X(BAS_EDATA, -11, BAS_STATUS_INPUT, "a file the user gave is damaged or not in its format")

typedef enum bas_error {
#define BAS_ERROR_ENUM(name, value, status, text) name = value,
  BAS_ERROR_MAP(BAS_ERROR_ENUM)
#undef BAS_ERROR_ENUM
} bas_error_t;

/* The message of `code`, a static string; "success" for 0, "unknown error" for a value not in the table. */
const char *bas_strerror(int code);

/* The exit status of `code`: 0 for 0, the table's status for a code, BAS_STATUS_RUNTIME for a value not in the table
 * (a failure nobody classified is not blamed on the user). */
int bas_error_status(int code);

/* 1 when `code` means the user's input is wrong (exit status 2), 0 otherwise. */
int bas_error_is_input(int code);

/* The code of a failure to open or read a file the user named, from its errno: the machine's limits and faults (no
 * memory, too many open files, an I/O error) are runtime failures, BAS_EIO or BAS_ENOMEM; anything else (missing,
 * not allowed, not a file) is the name's fault, BAS_EDATA. */
int bas_error_reading(int errnum);

#endif
