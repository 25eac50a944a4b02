/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `simrun analyse DIR...`: the lost-cycle analysis of real MPI runs traced by libsimrun-trace.so (docs/tracer.md). */
#ifndef CLI_ANALYSE_H
#define CLI_ANALYSE_H

#include "cli_context.h"

/* Runs the subcommand; argv[0] is "analyse". A replay's signals are caught when ctx->catch_signals says so. Returns the
 * exit status: 0, 1 (a write failed) or 2 (bad usage or a bad trace folder, with one "simrun: error: FILE:LINE: ..."
 * line on stderr). */
int cli_analyse_main(const cli_context_t *ctx, int argc, char **argv);

#endif
