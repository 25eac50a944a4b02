/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the caller of the command line (cli_main.h) decides for it, passed down to the subcommands that need it: the
 * simrun executable catches the signals, a test calling the command line in process does not. */
#ifndef CLI_CONTEXT_H
#define CLI_CONTEXT_H

typedef struct cli_context {
  int catch_signals; /* 1 in the simrun executable: SIGINT, SIGTERM, SIGHUP and SIGPIPE stop a run (cli_signal.h);
                      * 0 in a test, whose own handlers stay */
} cli_context_t;

#endif
