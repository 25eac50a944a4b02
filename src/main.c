/* The simrun command line: options, usage, messages and exit codes (0 ok, 1 runtime failure, 2 bad input or usage).
 * Everything else lives in the libraries: scenario, study, report. */
#include "app_skeleton.h"
#include "rep_report.h"
#include "scn_scenario.h"
#include "sim_error.h"
#include "stu_sweep.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_INPUT = 2 };

typedef struct options {
  const char *scenario;
  const char *csv;
  const char *json;
  int per_process;
  int quiet;
} options_t;

static void usage(FILE *out)
{
  fprintf(out,
          "Usage: simrun [run] [OPTIONS] SCENARIO.xml\n"
          "\n"
          "Simulates a program skeleton on a parallel machine (SimGrid) for every point of the scenario's sweep and\n"
          "prints, per point, the simulated time T_par, speedup, efficiency, the overhead ratios of each lost-cycle\n"
          "class (control of parallelism, communication, idling, parallel anomaly) and granularity.\n"
          "\n"
          "Options:\n"
          "  --csv FILE          also write one CSV row per point to FILE (overrides the scenario's <report csv>)\n"
          "  --json FILE         also write the results as JSON to FILE (overrides <report json>)\n"
          "  --per-process P     also show the per-process overhead ratios for p = P (overrides <report\n"
          "                      per-process>); P must be one of the scenario's p values\n"
          "  -q, --quiet         no progress line, even on a terminal\n"
          "  -h, --help          show this help and exit\n"
          "  -V, --version       show the version and exit\n"
          "\n"
          "Skeletons: %s. Scenario format: docs/scenarios.md (schema scenarios/scenario.rng).\n"
          "Paths inside a scenario are relative to the scenario file; paths given as options, to the current folder.\n"
          "Exit status: 0 success, 1 runtime failure, 2 bad input or usage.\n",
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
  static const struct option longopts[] = {{"csv", required_argument, NULL, 'c'},
                                           {"json", required_argument, NULL, 'j'},
                                           {"per-process", required_argument, NULL, 'P'},
                                           {"quiet", no_argument, NULL, 'q'},
                                           {"help", no_argument, NULL, 'h'},
                                           {"version", no_argument, NULL, 'V'},
                                           {NULL, 0, NULL, 0}};
  opterr = 0;
  const char *positional[3] = {NULL, NULL, NULL};
  int npositional = 0;
  /* Options may come before or after the scenario: getopt_long is asked not to permute ('+'), and each positional
   * argument it stops at is taken here, so that argv[at] is always the argument being read, for messages. */
  while (optind < argc) {
    int at = optind;
    int c = getopt_long(argc, argv, "+:qhV", longopts, NULL);
    if (c == -1) {
      int after_dashes = optind > at; /* "--": everything after it is positional */
      for (; optind < argc && (after_dashes || optind == at); optind++)
        if (npositional < 3)
          positional[npositional++] = argv[optind];
      continue;
    }
    if (c == 'c')
      opts->csv = optarg;
    else if (c == 'j')
      opts->json = optarg;
    else if (c == 'P' && (opts->per_process = parse_positive(optarg)) < 0)
      return fail_usage("--per-process takes a positive whole number, not '%s'", optarg);
    else if (c == 'q')
      opts->quiet = 1;
    else if (c == 'h') {
      usage(stdout);
      return EXIT_OK;
    } else if (c == 'V') {
      printf("simrun 0.1.0\n");
      return EXIT_OK;
    } else if (c == '?')
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
  return -1;
}

/* The per-process p must be one of the sweep's p values. */
static int check_per_process(const scn_scenario_t *scenario, int per_process, scn_error_t *err)
{
  const scn_param_t *p = scn_param(scenario, "p");
  for (size_t i = 0; per_process == 0 || i < p->nvalues; i++)
    if (per_process == 0 || atoi(p->values[i]) == per_process)
      return 0;
  return scn_fail(err, scenario->path, p->line, "--per-process %d: no point has p = %d; choose one of this line's "
                  "p values", per_process, per_process);
}

static void show_progress(size_t done, size_t total, void *ctx)
{
  fprintf(stderr, "\rsimrun: simulated %zu of %zu points", done, total);
  if (done == total)
    fprintf(stderr, "\r%*s\r", 45, "");
  fflush(stderr);
}

/* Opens one output file (none when path is NULL). A folder is refused here: renaming onto it would fail only after
 * every point had been simulated. */
static int open_output(const char *path, rep_file_t **file)
{
  char message[1200];
  struct stat st;
  if (!path)
    return EXIT_OK;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    snprintf(message, sizeof message, "cannot write '%s': it is a folder; give a file name", path);
  else if ((*file = rep_file_open(path, message, sizeof message)))
    return EXIT_OK;
  fprintf(stderr, "simrun: error: %s\n", message);
  return EXIT_INPUT;
}

/* Opens the output files before any simulation, so that an unwritable path fails at once. */
static int open_outputs(const char *csv, const char *json, rep_file_t **csv_file, rep_file_t **json_file)
{
  int status = open_output(csv, csv_file);
  return status != EXIT_OK ? status : open_output(json, json_file);
}

/* Writes and commits the outputs; aborts both on any failure. */
static int write_outputs(const stu_study_t *study, rep_file_t *csv_file, rep_file_t *json_file)
{
  char message[1200] = "";
  int failed = (csv_file && rep_csv(rep_file_stream(csv_file), study) != 0) ||
               (json_file && rep_json(rep_file_stream(json_file), study) != 0);
  if (failed) {
    rep_file_abort(csv_file);
    rep_file_abort(json_file);
    fprintf(stderr, "simrun: error: writing the results failed\n");
    return EXIT_RUNTIME;
  }
  int rc = csv_file ? rep_file_commit(csv_file, message, sizeof message) : 0;
  if (rc != 0)
    rep_file_abort(json_file); /* or its temporary file would stay behind */
  else if (json_file)
    rc = rep_file_commit(json_file, message, sizeof message);
  if (rc != 0) {
    fprintf(stderr, "simrun: error: %s\n", message);
    return EXIT_RUNTIME;
  }
  return EXIT_OK;
}

static int run(const options_t *opts)
{
  scn_error_t err = {0};
  scn_scenario_t *scenario = NULL;
  stu_study_t *study = NULL;
  rep_file_t *csv_file = NULL;
  rep_file_t *json_file = NULL;
  int status = EXIT_INPUT;
  if (scn_load(opts->scenario, &scenario, &err) != 0)
    goto report;
  const app_skeleton_t *skeleton = app_find(scenario->skeleton);
  if (!skeleton) {
    scn_fail(&err, scenario->path, scenario->skeleton_line, "unknown skeleton '%s'; choose one of: %s",
             scenario->skeleton, app_names());
    goto report;
  }
  int per_process = opts->per_process ? opts->per_process : scenario->per_process;
  if (scn_check(scenario, skeleton->spec, &err) != 0 || check_per_process(scenario, per_process, &err) != 0)
    goto report;
  status = open_outputs(opts->csv ? opts->csv : scenario->csv, opts->json ? opts->json : scenario->json, &csv_file,
                        &json_file);
  if (status != EXIT_OK)
    goto done;
  int progress = !opts->quiet && isatty(STDERR_FILENO);
  int rc = stu_run(scenario, skeleton, per_process, progress ? show_progress : NULL, NULL, &study, &err);
  if (rc != 0) {
    status = sim_error_is_input(rc) ? EXIT_INPUT : EXIT_RUNTIME;
    goto report;
  }
  rep_print(stdout, study);
  status = write_outputs(study, csv_file, json_file);
  csv_file = json_file = NULL;
  goto done;
report:
  print_error(&err);
done:
  rep_file_abort(csv_file);
  rep_file_abort(json_file);
  stu_free(study);
  scn_free(scenario);
  return status;
}

int main(int argc, char **argv)
{
  options_t opts = {0};
  int status = parse_options(argc, argv, &opts);
  return status >= 0 ? status : run(&opts);
}
