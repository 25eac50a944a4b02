/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The study's output files (--csv, --json, --paje, --otf2, --svg, --html, or the scenario's), written as one
 * transaction (rep_report.h): all appear together once all are complete, or none does, with the one
 * "simrun: error: ..." line on failure. "-" is standard output for the single-file ones. */
#ifndef CLI_RESULTS_H
#define CLI_RESULTS_H

#include "cli_output.h"
#include "rep_report.h"
#include "stu_study.h"

#include <stdio.h>

/* Opens one output file (none, *file untouched, when path is NULL); a folder, a device or an empty path is refused
 * with 2, before any simulation. The caller commits or aborts *file. */
int cli_open_output(const char *path, rep_file_t **file);

/* Checks, before any simulation, that every output file can be written (opened and removed again): 0, or 2 with the
 * message printed. '-' is refused for a folder, and for two outputs at once. */
int cli_outputs_check(const cli_outputs_t *outputs);

/* Where the terminal report goes: standard output, or standard error when an output is "-". */
FILE *cli_report_stream(const cli_outputs_t *outputs);

/* Opens the output transaction before the sweep (cli_outputs_write ends it): the --ti folder the sweep writes is part
 * of it. 0, or 1 with the message printed. */
int cli_outputs_begin(const cli_outputs_t *outputs);

/* Writes every output in one transaction. Returns 0, 1 or 2 with the message printed, or -1 when a signal came
 * (cli_signal.h) before every output was renamed into place: then none of them was, and no temporary file is left. */
int cli_outputs_write(const stu_study_t *study, const cli_outputs_t *outputs);

#endif
