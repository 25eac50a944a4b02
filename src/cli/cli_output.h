/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Checks, before a sweep, that its outputs can be written, leaving nothing behind: the files and folders are made only
 * once the study is done, so that an interrupt, a failure or kill -9 in between leaves no trace. */
#ifndef CLI_OUTPUT_H
#define CLI_OUTPUT_H

#include "rep_report.h"
#include "scn_scenario.h"

#include <stddef.h>

/* Whether folder `dir` (for --svg) exists or can be made: the missing folders of its path are made, then removed
 * again. 0, or -1 with a message. */
int cli_folder_probe(const char *dir, char *err, size_t errlen);

/* The files one run reads and writes, so that no output replaces an input or another output of the run: each output is
 * compared, as it is added, with everything added before it (device and inode after following links; for what does
 * not exist yet, the absolute path with the links of its existing part resolved). */
typedef struct cli_files cli_files_t;

/* NULL when out of memory; free with cli_files_free (accepts NULL). */
cli_files_t *cli_files_new(void);
void cli_files_free(cli_files_t *files);

/* An input at `path` (nothing when NULL), `what` naming it in messages ("the scenario"). 0, or -1 out of memory. */
int cli_files_input(cli_files_t *files, const char *what, const char *path);
/* Every regular file in folder `dir` as an input. 0, or -1 out of memory. */
int cli_files_input_folder(cli_files_t *files, const char *what, const char *dir);
/* The cache folder `dir` (nothing when NULL): no output may lie in it. 0, or -1 out of memory. */
int cli_files_cache(cli_files_t *files, const char *dir);

/* An output file at `path` (nothing when NULL), `what` naming it ("--csv"). 0, or -1 with "WHAT 'PATH' would replace
 * OTHER 'PATH'; give WHAT another name" (or out of memory) when it clashes. */
int cli_files_output(cli_files_t *files, const char *what, const char *path, char *err, size_t errlen);
/* An output folder `dir` (nothing when NULL) into which the run writes the names matching fnmatch `pattern` (such as
 * "*.svg", or "point-*" for everything beneath those). 0, or -1 with the message when it clashes. */
int cli_files_output_folder(cli_files_t *files, const char *what, const char *dir, const char *pattern, char *err,
                            size_t errlen);

/* A folder the sweep itself writes into (--ti), made without its parents. 0, or -1 with the message. */
int cli_files_sweep_folder(cli_files_t *files, const char *what, const char *dir, const char *pattern, char *err,
                           size_t errlen);
/* An output CSV and the tables written beside it (rep_csv_tables), named after `what` ("--csv"). */
int cli_files_output_csv(cli_files_t *files, const char *what, const char *csv, char *err, size_t errlen);
/* Every input of the scenario: itself, its platforms and the files they name, the files its skeleton's path
 * parameters name (a TI trace and the files its index lists). 0, or -1 out of memory. */
int cli_files_scenario(cli_files_t *files, const scn_scenario_t *scenario);
/* The scenario's own output `path` (<report csv> or <report json>, `what`), where the command line gives none: the
 * message starts with the scenario's FILE:LINE. */
int cli_files_report(cli_files_t *files, const scn_scenario_t *scenario, const char *what, const char *path, char *err,
                     size_t errlen);

/* The commands that write outputs; cli_formats.h's table says which formats each one takes. */
typedef enum cli_command { CLI_COMMAND_RUN, CLI_COMMAND_ANALYSE, CLI_COMMANDS } cli_command_t;

/* The outputs of one `simrun run` or `simrun analyse`: a path per row of cli_formats.h's table, NULL for those not
 * asked for. */
enum { CLI_MAX_FORMATS = 16 };
typedef struct cli_outputs {
  cli_command_t command; /* whose outputs they are (0: simrun run's) */
  const char *path[CLI_MAX_FORMATS];
} cli_outputs_t;

/* Makes folder `dir` (for --svg, --otf2) inside the output transaction (rep_report.h): the folders of its path it
 * made are removed again when the transaction is rolled back. 0, or -1 with a message. */
int cli_folder_make(const char *dir, char *err, size_t errlen);

/* Opens one output file (none, *file untouched, when path is NULL); a folder, a device or an empty path is refused
 * with 2, before any work. The caller commits or aborts *file. */
int cli_open_output(const char *path, rep_file_t **file);

/* The output gate of a command that writes one file, before any work starts: `output`, named `what` ("the
 * platform"), passes cli_files_output's checks against the command's `inputs` (`ninputs` pairs {what, path}, a NULL
 * path skipped: no output replaces an input, by device and inode through links) and cli_open_output's (not a folder,
 * a device or a FIFO; its folder exists and a file can be made in it). NULL or "-" (standard output) passes.
 * 0, or 2 (cli_exit.h) after printing the one error line. With `file`, the output is left open there for the
 * caller to commit or abort (NULL for NULL or "-"); without, it is removed again. */
int cli_gate_output(const char *what, const char *output, const char *const inputs[][2], size_t ninputs,
                    rep_file_t **file);

#endif
