/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The simrun command line as a function, so that tests run it in process: cli_main takes what a process would set up
 * once from a context, and leaves no state behind that changes the next call (the output transaction ends or is
 * rolled back on every path, getopt starts afresh, the provenance is each call's own). */
#ifndef CLI_MAIN_H
#define CLI_MAIN_H

#include "cli_context.h"

/* Runs `simrun ARGS...` (argv[0] is the program's name) with standard output and error as they are: the exit status,
 * 0, 1 or 2 (cli_exit.h), or 128 + N when stopped by signal N (only with ctx->catch_signals). Never exits. */
int cli_main(const cli_context_t *ctx, int argc, char **argv);

#endif
