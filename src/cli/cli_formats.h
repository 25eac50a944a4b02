/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The output formats of `simrun run` and `simrun analyse` as one table (option, the commands that take it, file or
 * folder, what it needs, writer): both commands' options, --help, the checks before the work and the writing after it
 * all follow it. Adding a format is its writer and one row in cli_formats.c; docs/architecture.md. */
#ifndef CLI_FORMATS_H
#define CLI_FORMATS_H

#include "cli_output.h"
#include "scn_scenario.h"
#include "stu_study.h"

#include <stddef.h>
#include <stdio.h>

/* What a format needs of the run. */
enum {
  CLI_NEEDS_PER_PROCESS = 1u,
  CLI_NEEDS_NO_MPI = 2u,
  CLI_NEEDS_WHOLE_TRACES = 4u,  /* every event of the per-process p's runs (stu_options_t.whole_traces) */
  CLI_NEEDS_TIMELINES = 8u,     /* the runs' timelines, drawn (simrun analyse spills a long run's intervals for them) */
  CLI_NEEDS_SORTED_EVENTS = 16u /* every event of the runs sorted by time (a long run's through a file in $TMPDIR) */
};

typedef enum {
  CLI_FORMAT_FILE,        /* one file, '-' for standard output */
  CLI_FORMAT_FOLDER,      /* a folder made with its parents when the outputs are written */
  CLI_FORMAT_FOLDER_SWEEP /* a folder the sweep itself writes (made without its parents) */
} cli_format_kind_t;

typedef struct cli_format {
  const char *option; /* "--csv" */
  /* Per command (cli_command_t): its --help text after "  --csv FILE" (lines joined by '\n'), or NULL when that
   * command does not take the format. */
  const char *help[CLI_COMMANDS];
  cli_format_kind_t kind; /* --help names a file's argument FILE, a folder's DIR */
  const char *pattern;    /* a folder's: the names the run writes in it (fnmatch), for the clash check */
  unsigned needs;         /* CLI_NEEDS_* */
  const char *refusal;    /* with `needs`: the error line's text when the run lacks them */
  int gathers;            /* written after all the others (the page that holds them): the step "written" comes first */
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
/* Whether a format asked for in `outputs` needs `need` (a CLI_NEEDS_* flag). */
int cli_outputs_need(const cli_outputs_t *outputs, unsigned need);

/* The getopt value of the long option of the format in row `i` of the table. */
enum { CLI_FORMAT_OPTION = 256 };
struct option;
/* Fills `all` with the command's own long options `fixed` (up to their {NULL, 0, NULL, 0}), then the long option (with
 * a value) of each format `command` takes, and the terminating entry: `all` has room for the entries of `fixed` and
 * CLI_MAX_FORMATS more. */
void cli_formats_options(cli_command_t command, const struct option *fixed, struct option *all);

/* --help's lines of the formats `command` takes, in the table's order. */
void cli_formats_usage(FILE *out, cli_command_t command);

/* A folder whose every file is an input (analyse's trace folders). */
typedef struct cli_input_folder {
  const char *what; /* names its files in messages: "a file of the trace folder" */
  const char *dir;
} cli_input_folder_t;

/* What a command needs to know of itself to check its outputs. */
typedef struct cli_run_facts {
  const scn_scenario_t *scenario;    /* run: checked, its <report csv/json> too; NULL: none (analyse) */
  const cli_input_folder_t *folders; /* the folders of inputs besides the scenario's (borrowed), nfolders of them */
  size_t nfolders;
  int per_process; /* the per-process p, 0: none; analyse gives every run per process (-1) */
  int mpi;         /* a task farm (--mpi) */
  int no_cache;    /* --no-cache, or a command without a cache (analyse) */
} cli_run_facts_t;

/* Everything before the work: `*outputs` gets the command line's outputs (`given`), the scenario's <report csv/json>
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
