/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `simrun run`: loads a scenario, applies the command line's overrides, checks it and its outputs, runs the study
 * (locally, or as an MPI task farm) and writes the report and the outputs; signals stop it cleanly (cli_signal.h). */
#ifndef CLI_RUN_H
#define CLI_RUN_H

#include "cli_config.h"
#include "cli_output.h"

/* What the command line asked of a run. */
typedef struct cli_run_options {
  const char *scenario;  /* the scenario file, found (cli_find_scenario) */
  cli_outputs_t outputs; /* the command line's (cli_formats.h) */
  int per_process;       /* --per-process P, or 0 */
  int quiet;             /* -q: no progress bar */
  int jobs;              /* -j: simulations at once */
  int no_cache;          /* --no-cache */
  int requests;          /* --requests: the DSM request table beside the CSV */
  int mpi;               /* --mpi: a task farm under mpirun */
  int width;             /* --width N, or 0 (cli_layout.h) */
  int full;              /* --full: every table of the report */
  cli_config_t config;   /* --cfg, --log, --set, --shard */
} cli_run_options_t;

/* Runs the scenario as `opts` says; with opts->mpi, rank 0 runs it and the other ranks serve it. Returns the exit
 * status (cli_exit.h), with every message printed. */
int cli_run(const cli_run_options_t *opts);

#endif
