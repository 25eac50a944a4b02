/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The output formats of `simrun run` as one table (option, file or folder, what it needs, writer): the command line's
 * options, --help, the checks before the sweep and the writing after it all follow it. Adding a format is its writer
 * and one row in cli_formats.c; docs/architecture.md. */
#ifndef CLI_FORMATS_H
#define CLI_FORMATS_H

#include "cli_output.h"
#include "scn_scenario.h"
#include "stu_study.h"

#include <stddef.h>
#include <stdio.h>

/* What a format needs of the run. */
enum { CLI_NEEDS_PER_PROCESS = 1u, CLI_NEEDS_NO_MPI = 2u };

typedef enum {
  CLI_FORMAT_FILE,        /* one file, '-' for standard output */
  CLI_FORMAT_FOLDER,      /* a folder made with its parents when the outputs are written */
  CLI_FORMAT_FOLDER_SWEEP /* a folder the sweep itself writes (made without its parents) */
} cli_format_kind_t;

typedef struct cli_format {
  const char *option; /* "--csv" */
  const char *help;   /* --help's text after "  --csv FILE", lines joined by '\n' */
  cli_format_kind_t kind;
  const char *pattern; /* a folder's: the names the run writes in it (fnmatch), for the clash check */
  unsigned needs;      /* CLI_NEEDS_* */
  const char *refusal; /* with `needs`: the error line's text when the run lacks them */
  int gathers;         /* written after all the others (the page that holds them): the step "written" comes first */
  /* Writes `path` (not NULL), `outputs` being all of the run's: 0 or an exit status with the message printed. NULL:
   * the sweep writes it. */
  int (*write)(const stu_study_t *study, const char *path, const cli_outputs_t *outputs);
} cli_format_t;

extern const cli_format_t cli_formats[];
extern const size_t cli_format_count;

/* The path format `f` (a row of cli_formats) has in `outputs` (NULL: not asked for), and setting it. */
const char *cli_format_path(const cli_outputs_t *outputs, const cli_format_t *f);
void cli_format_set(cli_outputs_t *outputs, const cli_format_t *f, const char *path);
/* The path of the format whose option is `option` ("--ti"); NULL when not asked for or no such format. */
const char *cli_output_of(const cli_outputs_t *outputs, const char *option);

/* --help's lines of every format, in the table's order. */
void cli_formats_usage(FILE *out);

/* What a run needs to know of itself to check its outputs. */
typedef struct cli_run_facts {
  const scn_scenario_t *scenario; /* checked, its <report csv/json> too */
  const scn_skeleton_spec_t *spec;
  int per_process; /* 0: none */
  int mpi;         /* a task farm (--mpi) */
  int no_cache;    /* --no-cache */
} cli_run_facts_t;

/* Everything before the sweep: `*outputs` gets the command line's outputs (`given`), the scenario's <report csv/json>
 * where the command line gives none; then no output may replace an input, the cache or another output (cli_output.h),
 * each file can be written (cli_results.h), each format has what it needs, and each folder can be made. 0, or 2 after
 * printing the one error line. */
int cli_outputs_prepare(const cli_outputs_t *given, const cli_run_facts_t *run, cli_outputs_t *outputs);

/* Where the terminal report goes: standard output, or standard error when an output file is "-". */
FILE *cli_report_stream(const cli_outputs_t *outputs);

/* Writes every output in the table's order in one transaction (cli_results.h). Returns 0, 1 or 2 with the message
 * printed, or CLI_EXIT_STOPPED when a signal came before every output was renamed into place: then none of them
 * was, and no temporary file is left. */
int cli_outputs_write(const stu_study_t *study, const cli_outputs_t *outputs);

#endif
