/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `simrun run` (cli_run.h): from a scenario file to the report and the outputs, with the checks first. */
#include "cli_run.h"

#include "cli_exit.h"
#include "cli_formats.h"
#include "cli_layout.h"
#include "cli_progress.h"
#include "cli_results.h"
#include "cli_signal.h"
#include "rep_report.h"
#include "scn_scenario.h"
#include "sim_error.h"
#include "stu_catalogue.h"
#include "stu_farm.h"
#include "stu_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void print_error(const scn_error_t *err)
{
  if (err->line > 0)
    fprintf(stderr, "simrun: error: %s:%d: %s\n", err->file, err->line, err->message);
  else
    fprintf(stderr, "simrun: error: %s: %s\n", err->file, err->message);
}

/* The per-process p must be one of the sweep's p values. */
static int check_per_process(const scn_scenario_t *scenario, int per_process, scn_error_t *err)
{
  const scn_param_t *p = scn_role_param(scenario, SCN_ROLE_PROCESSES);
  for (size_t i = 0; per_process == 0 || i < p->nvalues; i++)
    if (per_process == 0 || atoi(p->values[i]) == per_process)
      return 0;
  return scn_fail(err, scenario->path, p->line,
                  "--per-process %d: no point has p = %d; choose one of this line's "
                  "p values",
                  per_process, per_process);
}

/* The progress display of one run (run_study's, on_point's ctx). */
typedef struct progress {
  int show_bar;          /* on a terminal, without -q */
  size_t calls;          /* on_point's calls so far */
  int swept;             /* the test hook's "sweep" step was taken */
  struct timespec start; /* on_point's first call: the simulations start then (the checks before are not their work) */
} progress_t;

/* The progress bar, on a terminal only (cli_progress.h), `elapsed` seconds after the simulations started. */
static void show_progress(const stu_progress_t *at, double elapsed)
{
  char line[160];
  cli_progress_line(line, sizeof line, at, elapsed);
  fprintf(stderr, "\r%-*s", 80, line);
  if (at->done == at->total)
    fprintf(stderr, "\r%*s\r", 80, "");
  fflush(stderr);
}

/* The study's progress: the test hook's "sweep" step (cli_signal.h) at the first point, then the progress bar (and
 * bench/eta.sh's log of it). */
static void on_point(const stu_progress_t *at, void *ctx)
{
  progress_t *progress = ctx;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (progress->calls++ == 0)
    progress->start = now;
  double elapsed =
      (double)(now.tv_sec - progress->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - progress->start.tv_nsec);
  cli_progress_log(at, elapsed);
  if (at->done == 1 && !progress->swept) {
    progress->swept = 1;
    cli_signal_step("sweep", "during the sweep");
  }
  if (progress->show_bar)
    show_progress(at, elapsed);
}

/* A damaged cache entry, deleted and recomputed. */
static void show_warning(const char *message, void *ctx)
{
  fprintf(stderr, "simrun: warning: %s\n", message);
}

/* Runs the study; a signal caught by cli_signal stops it, keeping the finished points. */
static int run_study(const cli_run_options_t *opts, const scn_scenario_t *scenario, const app_skeleton_t *skeleton,
                     int per_process, stu_study_t **study, scn_error_t *err)
{
  char cache[4096];
  progress_t progress = {.show_bar = !opts->quiet && isatty(STDERR_FILENO)};
  stu_options_t options = {.per_process = per_process,
                           .requests = opts->requests,
                           .jobs = opts->jobs,
                           .farm = opts->mpi,
                           .ti_dir = cli_output_of(&opts->outputs, "--ti"),
                           .whole_traces = cli_outputs_need(&opts->outputs, CLI_NEEDS_WHOLE_TRACES),
                           .stop = cli_signal_stop,
                           .progress = on_point,
                           .ctx = &progress,
                           .warn = show_warning,
                           .shard_index = opts->config.shard_index,
                           .shard_count = opts->config.shard_count};
  /* a point taken from the cache would write no trace; one run with another --cfg could have other figures */
  if (!opts->no_cache && !options.ti_dir && !opts->config.simgrid_cfg &&
      stu_cache_default_dir(cache, sizeof cache) == 0)
    options.cache_dir = cache;
  if (options.cache_dir && stu_cache_default_max(&options.cache_max) != 0) {
    scn_fail(err, "SIMRUN_CACHE_MAX_MB", 0,
             "'%s' is not a whole number of MiB from 1 to %d; set one, or unset it for "
             "%d MiB",
             getenv("SIMRUN_CACHE_MAX_MB"), STU_CACHE_MAX_MB_LIMIT, STU_CACHE_MAX_MB_DEFAULT);
    return BAS_EINVAL;
  }
  int rc = stu_run_with(scenario, skeleton, &options, study, err);
  if (progress.show_bar && rc != 0)
    fprintf(stderr, "\n");
  return rc;
}

/* After a signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE): 128 + its number, with the study's message or the step it came
 * at, and the outputs not written; nothing for SIGPIPE (the reader went away). */
static int interrupted(int rc, const scn_error_t *err)
{
  char line[2600];
  if (!cli_signal_claim() || cli_signal_quiet())
    return cli_signal_status();
  cli_signal_message(line, sizeof line);
  if (rc == SIM_EINTR && err->message[0]) { /* the sweep's count of finished points, and where they are kept */
    const char *rest = strchr(line, ';');
    fprintf(stderr, "simrun: error: %s: %s%s\n", err->file, err->message, rest ? rest : "");
  } else
    fprintf(stderr, "simrun: error: %s\n", line);
  return cli_signal_status();
}

static int run(const cli_run_options_t *opts)
{
  scn_error_t err = {0};
  scn_scenario_t *scenario = NULL;
  stu_study_t *study = NULL;
  int status = EXIT_INPUT;
  if (scn_load(opts->scenario, &scenario, &err) != 0 || cli_set_apply(&opts->config, scenario, &err) != 0)
    goto report;
  const app_skeleton_t *skeleton = stu_catalogue_find(scenario->skeleton);
  if (!skeleton) {
    scn_fail(&err, scenario->path, scenario->skeleton_line, "unknown skeleton '%s'; choose one of: %s",
             scenario->skeleton, stu_catalogue_names());
    goto report;
  }
  int per_process = opts->per_process ? opts->per_process : scenario->per_process;
  if (opts->per_process) /* the option replaces the file's value before the file is checked: --set may change p */
    scenario->per_process = 0;
  if (scn_check(scenario, stu_catalogue_spec(skeleton), &err) != 0 ||
      check_per_process(scenario, per_process, &err) != 0 ||
      (!cli_output_of(&opts->outputs, "--csv") && scn_check_output(scenario, scenario->csv, "csv", &err) != 0) ||
      (!cli_output_of(&opts->outputs, "--json") && scn_check_output(scenario, scenario->json, "json", &err) != 0))
    goto report;
  cli_outputs_t outputs;
  const cli_run_facts_t facts = {
      .scenario = scenario, .per_process = per_process, .mpi = opts->mpi, .no_cache = opts->no_cache};
  if ((status = cli_outputs_prepare(&opts->outputs, &facts, &outputs)) != EXIT_OK)
    goto done;
  if (opts->requests && !cli_output_of(&outputs, "--csv")) {
    fprintf(stderr, "simrun: error: --requests: the request table goes beside the CSV output; add --csv FILE (or "
                    "<report csv> in the scenario)\n");
    status = EXIT_INPUT;
    goto done;
  }
  if (cli_output_of(&outputs, "--svg") &&
      per_process == 0) /* after every check, so that it never comes before an error */
    fprintf(stderr, "simrun: note: no timeline or per-process picture: they need --per-process P\n");
  char unrun[1200]; /* figures at p the file's own sweep never runs; not when --set p=... chose the p on purpose */
  if (!cli_set_gave(scn_role_param(scenario, SCN_ROLE_PROCESSES)) && scn_unrun_reference(scenario, unrun, sizeof unrun))
    fprintf(stderr, "simrun: warning: %s\n", unrun);
  cli_signal_step("before", "before the sweep");
  if ((status = cli_outputs_begin(cli_output_of(&outputs, "--ti"))) != EXIT_OK)
    goto done;
  int rc = SIM_EINTR;
  if (!cli_signal_stop()) {
    cli_signal_step("started", "during the sweep");
    rc = run_study(opts, scenario, skeleton, per_process, &study, &err);
  }
  if (cli_signal_stop()) {
    status = interrupted(rc, &err);
    goto done;
  }
  if (rc != 0) {
    status = bas_error_is_input(rc) ? EXIT_INPUT : EXIT_RUNTIME;
    goto report;
  }
  cli_signal_step("after", "after the sweep");
  FILE *out = cli_report_stream(&outputs);
  const rep_print_options_t layout = cli_layout_options(out, opts->width, opts->full);
  rep_print_with(out, study, &layout);
  if (opts->full && cli_layout_fits(out, study, layout.width) != 0)
    fprintf(stderr, "simrun: warning: out of memory while fitting; no regression fits shown\n");
  fflush(out); /* a reader of the report gone (SIGPIPE) is known before the outputs are written */
  status = cli_outputs_write(study, &outputs);
  if (cli_signal_stop())
    status = interrupted(0, &err);
  goto done;
report:
  cli_set_blame(&opts->config, &err);
  print_error(&err);
done:
  rep_file_rollback(); /* what was not written: nothing when the outputs were */
  stu_free(study);
  scn_free(scenario);
  return status;
}

/* An MPI worker: serves rank 0, silently (rank 0 reports for everyone). */
static int serve(const cli_run_options_t *opts)
{
  scn_error_t err = {0};
  scn_scenario_t *scenario = NULL;
  const app_skeleton_t *skeleton = NULL;
  if (scn_load(opts->scenario, &scenario, &err) == 0 && cli_set_apply(&opts->config, scenario, &err) == 0 &&
      (skeleton = stu_catalogue_find(scenario->skeleton)) &&
      scn_check(scenario, stu_catalogue_spec(skeleton), &err) != 0)
    skeleton = NULL;
  int rc = stu_serve(skeleton ? scenario : NULL, skeleton, &err);
  scn_free(scenario);
  return rc == 0 ? EXIT_OK : EXIT_RUNTIME;
}

/* --mpi: rank 0 runs the study with the other ranks as its workers. */
static int run_farm(const cli_run_options_t *opts)
{
  char message[1200];
  int rank = 0;
  if (stu_farm_start(&rank, message, sizeof message) != 0) {
    fprintf(stderr, "simrun: error: %s\n", message);
    return EXIT_INPUT;
  }
  int status = rank == 0 ? run(opts) : serve(opts);
  stu_farm_end();
  return status;
}

int cli_run(const cli_run_options_t *opts)
{
  return opts->mpi ? run_farm(opts) : run(opts);
}
