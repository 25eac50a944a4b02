/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The error codes of the simulation, skeleton and report libraries, with one table of messages (sim_strerror).
 * Functions return 0 on success or one of these negative codes; none of them prints or exits. */
#ifndef SIM_ERROR_H
#define SIM_ERROR_H

#define SIM_ERRNO_MAP(X)                                                                                               \
  X(SIM_ENOMEM, -1, "out of memory")                                                                                   \
  X(SIM_EINVAL, -2, "invalid argument")                                                                                \
  X(SIM_EPLATFORM, -3, "the platform could not be loaded")                                                             \
  X(SIM_EHOSTS, -4, "more ranks than hosts in the platform")                                                           \
  X(SIM_EPARAM, -5, "a parameter is out of range for this skeleton")                                                   \
  X(SIM_EIO, -6, "an input/output error")                                                                              \
  X(SIM_ECHILD, -7, "the simulation process failed")                                                                   \
  X(SIM_EDEADLOCK, -8, "the simulation ended with ranks still blocked")                                                \
  X(SIM_EINTR, -9, "interrupted")

typedef enum sim_errno {
#define SIM_ERRNO_ENUM(name, value, text) name = value,
  SIM_ERRNO_MAP(SIM_ERRNO_ENUM)
#undef SIM_ERRNO_ENUM
} sim_errno_t;

/* The message of `code`, a static string; "unknown error" for a code not in the table, "success" for 0. */
const char *sim_strerror(int code);

/* 1 when `code` means the user's input is wrong (exit status 2), 0 when it is a runtime failure (exit status 1). */
int sim_error_is_input(int code);

/* Where the libraries' lines for the user go (a warning, or what a simulation process wrote on its stderr): only the
 * front end prints, so a library hands each line, ending in '\n', to the sink the front end set. With no sink set (a
 * test calling a library directly) a line is dropped. A forked simulation process keeps its parent's sink. */
typedef void (*sim_message_fn)(const char *line, void *ctx);
void sim_set_message_sink(sim_message_fn sink, void *ctx);
/* Hands `line` to the sink. */
void sim_message(const char *line);
/* Hands "simrun: warning: " + the formatted text + "\n" to the sink. */
void sim_warn(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif
