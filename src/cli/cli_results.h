/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The study's output files (cli_formats.h), written as one transaction (rep_report.h): all appear together once all
 * are complete, or none does, with the one "simrun: error: ..." line on failure. "-" is standard output for the
 * single-file ones. */
#ifndef CLI_RESULTS_H
#define CLI_RESULTS_H

#include "cli_output.h"
#include "rep_report.h"
#include "stu_study.h"

#include <stdio.h>

/* Opens the output transaction before the sweep (cli_outputs_write ends it): the --ti folder `ti` the sweep writes
 * (NULL: none) is part of it. 0, or 1 with the message printed. */
int cli_outputs_begin(const char *ti);

/* Not an exit status: a signal came (cli_signal.h) before every output was renamed into place. */
enum { CLI_EXIT_STOPPED = -1 };

/* Ends the transaction cli_formats' writers wrote in: renames every output when `status` is 0 and no signal came,
 * else removes them. Returns 0, 1 or 2 with the message printed, or CLI_EXIT_STOPPED: then no output was renamed
 * into place, and no temporary file is left. */
int cli_outputs_end(int status);

#endif
