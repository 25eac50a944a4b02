/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The simrun command line: options, usage, messages and exit codes (0 ok, 1 runtime failure, 2 bad input or usage).
 * Everything else lives in the libraries: scenario, study, report. */
#include "cli_characterise.h"
#include "cli_exit.h"
#include "cli_compare.h"
#include "cli_formats.h"
#include "app_catalogue.h"
#include "cli_html.h"
#include "cli_output.h"
#include "cli_platform.h"
#include "cli_results.h"
#include "cli_signal.h"
#include "cli_config.h"
#include "cli_data.h"
#include "cli_progress.h"
#include "cli_provenance.h"
#include "rep_pictures.h"
#include "rep_report.h"
#include "scn_scenario.h"
#include "sim_error.h"
#include "stu_farm.h"
#include "stu_sweep.h"
#include "cli_analyse.h"
#include "cli_machine.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct options {
  const char *scenario;
  cli_outputs_t outputs; /* the command line's (cli_formats.h) */
  int per_process;
  int quiet;
  int jobs;            /* -j: simulations at once */
  int no_cache;        /* --no-cache */
  int mpi;             /* --mpi: a task farm under mpirun */
  cli_config_t config; /* --cfg, --log, --set, --shard */
} options_t;

#define MAX_JOBS 1024

static void usage(FILE *out)
{
  fprintf(
      out,
      "Usage: simrun [run] [OPTIONS] SCENARIO.xml|NAME   NAME: a shipped scenario (simrun --list)\n"
      "       simrun platform KIND SIZE [OPTIONS]   writes a platform: see simrun platform --help\n"
      "       simrun characterise FILE.csv          fits eq. 4 to ping-pong times: see simrun characterise --help\n"
      "       simrun compare A B                    compares two results (CSV or JSON): see simrun compare --help\n"
      "       simrun machine probe FILE.xml         measures this machine into a platform: see simrun machine --help\n"
      "\n"
      "Measured MPI runs: simrun analyse DIR [DIR...] [OPTIONS] analyses runs traced by libsimrun-trace.so;\n"
      "see simrun analyse --help.\n"
      "\n"
      "Simulates a program skeleton on a parallel machine (SimGrid) for every point of the scenario's sweep and\n"
      "prints, per point, the simulated time T_par, speedup, efficiency, the overhead ratios of each lost-cycle\n"
      "class (control of parallelism, communication, idling, parallel anomaly), granularity and the skeleton's\n"
      "analytic model if it has one; then the bottleneck analysis (components in the layout of Zemerly et al.'s\n"
      "Table 5, B-ratios, a verdict) and a study summary. Benchmarks (ping-pong) print message times by size and\n"
      "distance instead, and DSM skeletons the cause-effect analysis of their waits.\n"
      "\n"
      "Options:\n"
      "  --per-process P     also show the per-process overhead ratios for p = P (overrides <report\n"
      "                      per-process>); P must be one of the scenario's p values\n");
  cli_formats_usage(out);
  fprintf(out,
          "  -j, --jobs N        run N simulations at once, each in its own process (default 1); the results are\n"
          "                      the same whatever N is\n"
          "  --no-cache          neither reuse nor keep finished points (see below)\n"
          "  --mpi               run as a task farm under Open MPI: mpirun -np N simrun --mpi SCENARIO.xml; rank 0\n"
          "                      hands the points out to the N - 1 others (docs/sweeps.md)\n"
          "  --set NAME=VALUE    set a scenario parameter, or sweep it with NAME=\"V1 V2 ...\" (repeatable; checked\n"
          "                      as the file's parameters are)\n"
          "  --shard I/N         run and report only every N-th point from the I-th (1 <= I <= N), for job\n"
          "                      arrays: the N shards' CSV rows together are the whole study's\n"
          "  --cfg=NAME:VALUE    pass a SimGrid configuration option, as smpirun does (no cache then)\n"
          "  --log=SETTING       pass a SimGrid log setting, as smpirun does (such as root.thres:info)\n"
          "  -q, --quiet         no progress bar, even on a terminal\n"
          "  --list              list the shipped scenarios and exit\n"
          "  -h, --help          show this help and exit\n"
          "  -V, --version       show simrun's and SimGrid's versions and exit\n"
          "\n"
          "Skeletons: %s. Scenario format: docs/scenarios.md (schema scenarios/scenario.rng).\n"
          "Paths inside a scenario are relative to the scenario file (or, where nothing is there, to the shipped\n"
          "scenarios' folder, so that a copied scenario still finds its platform); paths given as options, to the\n"
          "current folder, and a scenario path found nowhere there, to simrun's data folder (scenarios/gj256.xml\n"
          "works from any folder). A scenario's <report csv/json> must lie inside the scenario's folder; --csv and\n"
          "--json write anywhere, but no output may replace an input (the scenario, a platform, a trace), lie in the\n"
          "cache or be another output of the run: checked before anything runs.\n"
          "Finished points are kept in $SIMRUN_CACHE_DIR (default ~/.cache/simrun; delete it to clear it), keyed by\n"
          "the point, its platform file and this simrun: a sweep stopped by Ctrl-C, SIGTERM or SIGHUP resumes where\n"
          "it stopped. The outputs are written under temporary names and renamed together once all are complete: a\n"
          "signal at any step leaves the earlier files as they were and names those not written. FILE '-' is\n"
          "standard output (--csv, --json, --paje, --html; the report then goes to standard error).\n"
          "Exit status: 0 success, 1 runtime failure, 2 bad input or usage, 128 + N when stopped by signal N\n"
          "(130 Ctrl-C, 143 SIGTERM, 129 SIGHUP, 141 SIGPIPE, which ends the run silently).\n",
          app_names());
}

static int fail_usage(const char *fmt, const char *arg)
{
  fprintf(stderr, "simrun: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "; see simrun --help\n");
  return EXIT_INPUT;
}

/* An unknown option: the short option `letter` inside a group such as -qx, or the long one written in `arg`. */
static int fail_unknown(const char *arg, int letter)
{
  char flag[3] = {'-', (char)letter, '\0'};
  return fail_usage("unknown option '%s'", letter && strncmp(arg, "--", 2) != 0 ? flag : arg);
}

static void print_error(const scn_error_t *err)
{
  if (err->line > 0)
    fprintf(stderr, "simrun: error: %s:%d: %s\n", err->file, err->line, err->message);
  else
    fprintf(stderr, "simrun: error: %s: %s\n", err->file, err->message);
}

/* Parses a positive integer option value; -1 when it is not one. */
static int parse_positive(const char *text)
{
  char *end = NULL;
  long value = strtol(text, &end, 10);
  return (*text >= '0' && *text <= '9' && *end == '\0' && value >= 1 && value <= 1000000) ? (int)value : -1;
}

/* Fills `opts` from argv. Returns -1 to go on, or an exit status. */
static int parse_options(int argc, char **argv, options_t *opts)
{
  static const struct option longopts[] = {{"per-process", required_argument, NULL, 'P'},
                                           {"jobs", required_argument, NULL, 'j'},
                                           {"no-cache", no_argument, NULL, 'N'},
                                           {"mpi", no_argument, NULL, 'M'},
                                           {"quiet", no_argument, NULL, 'q'},
                                           {"help", no_argument, NULL, 'h'},
                                           {"version", no_argument, NULL, 'V'},
                                           {"list", no_argument, NULL, 'L'},
                                           {"cfg", required_argument, NULL, 'C'},
                                           {"log", required_argument, NULL, 'G'},
                                           {"set", required_argument, NULL, 'S'},
                                           {"shard", required_argument, NULL, 'H'},
                                           {NULL, 0, NULL, 0}};
  /* and each output format's option (cli_formats.h), as 256 + its row */
  enum { NFIXED = sizeof longopts / sizeof longopts[0] - 1, FORMAT_OPTION = 256, MAX_FORMATS = 32 };
  struct option all[NFIXED + MAX_FORMATS + 1];
  size_t nlong = NFIXED;
  memcpy(all, longopts, sizeof longopts);
  for (size_t i = 0; i < cli_format_count && i < MAX_FORMATS; i++)
    all[nlong++] = (struct option){cli_formats[i].option + 2, required_argument, NULL, FORMAT_OPTION + (int)i};
  all[nlong] = (struct option){NULL, 0, NULL, 0};
  opterr = 0;
  char message[1200];
  const char *positional[3] = {NULL, NULL, NULL};
  int npositional = 0;
  /* Options may come before or after the scenario: getopt_long is asked not to permute ('+'), and each positional
   * argument it stops at is taken here, so that argv[at] is always the argument being read, for messages. */
  while (optind < argc) {
    int at = optind;
    int c = getopt_long(argc, argv, "+:qhVj:", all, NULL);
    if (c == -1) {
      int after_dashes = optind > at; /* "--": everything after it is positional */
      for (; optind < argc && (after_dashes || optind == at); optind++)
        if (npositional < 3)
          positional[npositional++] = argv[optind];
      continue;
    }
    if (c >= FORMAT_OPTION)
      cli_format_set(&opts->outputs, &cli_formats[c - FORMAT_OPTION], optarg);
    else if ((c == 'C' || c == 'G') &&
             cli_simgrid_option(&opts->config, c == 'C' ? "cfg" : "log", optarg, message, sizeof message) != 0)
      return fail_usage("%s", message);
    else if (c == 'S' && cli_set_add(&opts->config, optarg, message, sizeof message) != 0)
      return fail_usage("%s", message);
    else if (c == 'H' && cli_shard_parse(&opts->config, optarg, message, sizeof message) != 0)
      return fail_usage("%s", message);
    else if (c == 'P' && (opts->per_process = parse_positive(optarg)) < 0)
      return fail_usage("--per-process takes a positive whole number, not '%s'", optarg);
    else if (c == 'j' && ((opts->jobs = parse_positive(optarg)) < 0 || opts->jobs > MAX_JOBS))
      return fail_usage("-j takes the number of simulations to run at once, a whole number from 1 to 1024, not '%s'",
                        optarg);
    else if (c == 'N' || c == 'M')
      *(c == 'N' ? &opts->no_cache : &opts->mpi) = 1;
    else if (c == 'q')
      opts->quiet = 1;
    else if (c == 'h') {
      usage(stdout);
      return EXIT_OK;
    } else if (c == 'V') {
      cli_version(stdout);
      return EXIT_OK;
    } else if (c == 'L')
      return cli_list(stdout);
    else if (c == '?')
      return fail_unknown(argv[at], optopt);
    else if (c == ':')
      return fail_usage("option '%s' needs a value", argv[at]);
  }
  int first = npositional > 1 && strcmp(positional[0], "run") == 0; /* the optional subcommand */
  if (npositional - first == 0)
    return fail_usage("%sno scenario file given", "");
  if (npositional - first > 1)
    return fail_usage("only one scenario file at a time, but '%s' follows", positional[first + 1]);
  opts->scenario = positional[first];
  if (opts->mpi && opts->config.shard_count)
    return fail_usage("%s", "--shard and --mpi do not go together: run the shards as separate jobs");
  return -1;
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

/* The progress bar, on a terminal only (cli_progress.h); ctx: when the simulations started. */
static void show_progress(const stu_progress_t *at, void *ctx)
{
  char line[160];
  struct timespec now;
  const struct timespec *start = ctx;
  clock_gettime(CLOCK_MONOTONIC, &now);
  cli_progress_line(line, sizeof line, at,
                    (double)(now.tv_sec - start->tv_sec) + 1e-9 * (double)(now.tv_nsec - start->tv_nsec));
  fprintf(stderr, "\r%-*s", 80, line);
  if (at->done == at->total)
    fprintf(stderr, "\r%*s\r", 80, "");
  fflush(stderr);
}

static int show_bar; /* the progress bar is shown (run_study) */

/* The study's progress: the test hook's "sweep" step (cli_signal.h) at the first point, then the progress bar. */
static void on_point(const stu_progress_t *at, void *ctx)
{
  static size_t calls, points; /* the first call: the simulations start now (the checks before are not their work) */
  if (calls++ == 0)
    clock_gettime(CLOCK_MONOTONIC, ctx);
  if (at->done == 1 && points++ == 0)
    cli_signal_step("sweep", "during the sweep");
  if (show_bar)
    show_progress(at, ctx);
}

/* A damaged cache entry, deleted and recomputed. */
static void show_warning(const char *message, void *ctx)
{
  fprintf(stderr, "simrun: warning: %s\n", message);
}

/* Runs the study; a signal caught by cli_signal stops it, keeping the finished points. */
static int run_study(const options_t *opts, const scn_scenario_t *scenario, const app_skeleton_t *skeleton,
                     int per_process, stu_study_t **study, scn_error_t *err)
{
  char cache[4096];
  int progress = !opts->quiet && isatty(STDERR_FILENO);
  show_bar = progress;
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  stu_options_t options = {.per_process = per_process,
                           .jobs = opts->jobs,
                           .farm = opts->mpi,
                           .ti_dir = cli_output_of(&opts->outputs, "--ti"),
                           .stop = cli_signal_stop,
                           .progress = on_point,
                           .ctx = &start,
                           .warn = show_warning,
                           .shard_index = opts->config.shard_index,
                           .shard_count = opts->config.shard_count};
  /* a point taken from the cache would write no trace; one run with another --cfg could have other figures */
  if (!opts->no_cache && !options.ti_dir && !opts->config.simgrid_cfg &&
      stu_cache_default_dir(cache, sizeof cache) == 0)
    options.cache_dir = cache;
  int rc = stu_run_with(scenario, skeleton, &options, study, err);
  if (progress && rc != 0)
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

static int run(const options_t *opts)
{
  scn_error_t err = {0};
  scn_scenario_t *scenario = NULL;
  stu_study_t *study = NULL;
  int status = EXIT_INPUT;
  if (scn_load(opts->scenario, &scenario, &err) != 0 || cli_set_apply(&opts->config, scenario, &err) != 0)
    goto report;
  const app_skeleton_t *skeleton = app_find(scenario->skeleton);
  if (!skeleton) {
    scn_fail(&err, scenario->path, scenario->skeleton_line, "unknown skeleton '%s'; choose one of: %s",
             scenario->skeleton, app_names());
    goto report;
  }
  int per_process = opts->per_process ? opts->per_process : scenario->per_process;
  if (opts->per_process) /* the option replaces the file's value before the file is checked: --set may change p */
    scenario->per_process = 0;
  if (scn_check(scenario, skeleton->spec, &err) != 0 || check_per_process(scenario, per_process, &err) != 0 ||
      (!cli_output_of(&opts->outputs, "--csv") && scn_check_output(scenario, scenario->csv, "csv", &err) != 0) ||
      (!cli_output_of(&opts->outputs, "--json") && scn_check_output(scenario, scenario->json, "json", &err) != 0))
    goto report;
  cli_outputs_t outputs;
  const cli_run_facts_t facts = {scenario, skeleton->spec, per_process, opts->mpi, opts->no_cache};
  if ((status = cli_outputs_prepare(&opts->outputs, &facts, &outputs)) != EXIT_OK)
    goto done;
  if (cli_output_of(&outputs, "--svg") &&
      per_process == 0) /* after every check, so that it never comes before an error */
    fprintf(stderr, "simrun: note: no timeline or per-process picture: they need --per-process P\n");
  char unrun[1200];
  if (scn_unrun_reference(scenario, unrun, sizeof unrun))
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
    status = sim_error_is_input(rc) ? EXIT_INPUT : EXIT_RUNTIME;
    goto report;
  }
  cli_signal_step("after", "after the sweep");
  FILE *out = cli_report_stream(&outputs);
  rep_print(out, study);
  if (rep_print_fits(out, study) != 0)
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
static int serve(const options_t *opts)
{
  scn_error_t err = {0};
  scn_scenario_t *scenario = NULL;
  const app_skeleton_t *skeleton = NULL;
  if (scn_load(opts->scenario, &scenario, &err) == 0 && cli_set_apply(&opts->config, scenario, &err) == 0 &&
      (skeleton = app_find(scenario->skeleton)) && scn_check(scenario, skeleton->spec, &err) != 0)
    skeleton = NULL;
  int rc = stu_serve(skeleton ? scenario : NULL, skeleton, &err);
  scn_free(scenario);
  return rc == 0 ? EXIT_OK : EXIT_RUNTIME;
}

/* --mpi: rank 0 runs the study with the other ranks as its workers. */
static int run_farm(const options_t *opts)
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

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "analyse") == 0)
    return cli_analyse_main(argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "machine") == 0)
    return cli_machine_main(argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "platform") == 0)
    return cli_platform_main(argc - 1, argv + 1);
  scn_set_data_dir(cli_data_dir());
  if (argc > 1 && strcmp(argv[1], "characterise") == 0)
    return cli_characterise_main(argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "compare") == 0)
    return cli_compare_main(argc - 1, argv + 1);
  options_t opts = {0};
  int status = parse_options(argc, argv, &opts);
  if (status >= 0)
    return status;
  char scenario[4096];
  size_t len = strlen(opts.scenario);
  if (cli_find_scenario(opts.scenario, scenario, sizeof scenario) != 0 && !strchr(opts.scenario, '/') &&
      (len < 4 || strcmp(opts.scenario + len - 4, ".xml") != 0))
    return fail_usage("'%s' is neither a scenario file nor a shipped scenario's name (simrun --list)", opts.scenario);
  opts.scenario = scenario;
  cli_provenance_set(argc, argv);
  cli_signal_catch(); /* for the whole run: a signal at any step stops it the same way */
  status = opts.mpi ? run_farm(&opts) : run(&opts);
  fflush(stdout); /* while SIGPIPE is still caught: a reader gone by now means 141, not a death by SIGPIPE */
  status = status == EXIT_OK && cli_signal_status() ? cli_signal_status() : status;
  cli_signal_release();
  return status;
}
