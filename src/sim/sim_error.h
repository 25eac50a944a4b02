/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The simulation's names of the error codes (the table is src/base's bas_error.h), and the sink of the libraries' lines
 * for the user. Functions return 0 on success or one of these negative codes; none of them prints or exits. */
#ifndef SIM_ERROR_H
#define SIM_ERROR_H

#include "bas_error.h"

/* The simulation's names of the codes of the one table (bas_error.h, which also gives their messages and exit
 * statuses). */
enum sim_errno {
  SIM_ENOMEM = BAS_ENOMEM,
  SIM_EINVAL = BAS_EINVAL,
  SIM_EPLATFORM = BAS_EPLATFORM,
  SIM_EHOSTS = BAS_EHOSTS,
  SIM_EPARAM = BAS_EPARAM,
  SIM_EIO = BAS_EIO,
  SIM_ECHILD = BAS_ECHILD,
  SIM_EDEADLOCK = BAS_EDEADLOCK,
  SIM_EINTR = BAS_EINTR
};

/* Where the libraries' lines for the user go (a warning, or what a simulation process wrote on its stderr): only the
 * front end prints, so a library hands each line, ending in '\n', to the sink the front end set. With no sink set (a
 * test calling a library directly) a line is dropped. A forked simulation process keeps its parent's sink. */
typedef void (*sim_message_fn)(const char *line, void *ctx);
void sim_set_message_sink(sim_message_fn sink, void *ctx);
/* Hands `line` to the sink. */
void sim_message(const char *line);
/* Hands `line` to the sink unless it is a simrun warning ("simrun: warning: ...") handed on before by this process,
 * so that one every point of a sweep gives (a trace's message dropped at its end, on each platform and p), or each
 * replay of simrun analyse, is printed once; other lines (what --log asked SimGrid for) go on whole. */
void sim_message_once(const char *line);
/* Hands "simrun: warning: " + the formatted text + "\n" to the sink. */
void sim_warn(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif
