/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The simrun command line, callable in process (cli_main.h): the run subcommand's options and usage, and the dispatch
 * to every other subcommand; messages and exit codes (0 ok, 1 runtime failure, 2 bad input or usage). */
#include "cli_main.h"

#include "cli_analyse.h"
#include "cli_characterise.h"
#include "cli_compare.h"
#include "cli_config.h"
#include "cli_data.h"
#include "cli_exit.h"
#include "cli_formats.h"
#include "cli_layout.h"
#include "cli_machine.h"
#include "cli_messages.h"
#include "cli_platform.h"
#include "cli_provenance.h"
#include "cli_run.h"
#include "cli_signal.h"
#include "rep_report.h"
#include "scn_scenario.h"
#include "stu_catalogue.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  cli_formats_usage(out, CLI_COMMAND_RUN);
  cli_layout_usage(out);
  fprintf(out,
          "  -j, --jobs N        run N simulations at once, each in its own process (default 1); the results are\n"
          "                      the same whatever N is\n"
          "  --no-cache          neither reuse nor keep finished points (see below)\n"
          "  --requests          DSM skeletons: also list every request with its 13 intervals in --csv's\n"
          "                      FILE-requests.csv (every point's whole trace is then kept: memory grows with\n"
          "                      the requests)\n"
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
          "it stopped; the least recently used go when it holds more than $SIMRUN_CACHE_MAX_MB MiB (default 1024).\n"
          "The outputs are written under temporary names and renamed together once all are complete: a signal at\n"
          "any step leaves the earlier files as they were and names those not written. FILE '-' is standard output\n"
          "(every output above that takes a FILE; the report then goes to standard error).\n"
          "Exit status: 0 success, 1 runtime failure, 2 bad input or usage, 128 + N when stopped by signal N\n"
          "(130 Ctrl-C, 143 SIGTERM, 129 SIGHUP, 141 SIGPIPE, which ends the run silently).\n",
          stu_catalogue_names());
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

/* Parses a positive integer option value; -1 when it is not one. */
static int parse_positive(const char *text)
{
  char *end = NULL;
  long value = strtol(text, &end, 10);
  return (*text >= '0' && *text <= '9' && *end == '\0' && value >= 1 && value <= 1000000) ? (int)value : -1;
}

/* Fills `opts` from argv. Returns -1 to go on, or an exit status. */
static int parse_options(int argc, char **argv, cli_run_options_t *opts)
{
  static const struct option longopts[] = {{"per-process", required_argument, NULL, 'P'},
                                           {"jobs", required_argument, NULL, 'j'},
                                           {"no-cache", no_argument, NULL, 'N'},
                                           {"requests", no_argument, NULL, 'R'},
                                           {"mpi", no_argument, NULL, 'M'},
                                           {"quiet", no_argument, NULL, 'q'},
                                           {"help", no_argument, NULL, 'h'},
                                           {"version", no_argument, NULL, 'V'},
                                           {"list", no_argument, NULL, 'L'},
                                           {"cfg", required_argument, NULL, 'C'},
                                           {"log", required_argument, NULL, 'G'},
                                           {"set", required_argument, NULL, 'S'},
                                           {"shard", required_argument, NULL, 'H'},
                                           {"width", required_argument, NULL, 'W'},
                                           {"full", no_argument, NULL, 'F'},
                                           {NULL, 0, NULL, 0}};
  struct option all[sizeof longopts / sizeof longopts[0] + CLI_MAX_FORMATS]; /* and the output formats' options */
  cli_formats_options(CLI_COMMAND_RUN, longopts, all);
  opterr = 0;
  optind = 0; /* glibc starts afresh: an earlier call's parse may have stopped inside a group such as -qx */
  char message[1200];
  const char *positional[3] = {NULL, NULL, NULL};
  int npositional = 0;
  /* Options may come before or after the scenario: getopt_long is asked not to permute ('+'), and each positional
   * argument it stops at is taken here, so that argv[at] is always the argument being read, for messages. */
  while (optind < argc) {
    int at = optind ? optind : 1;
    int c = getopt_long(argc, argv, "+:qhVj:", all, NULL);
    if (c == -1) {
      int after_dashes = optind > at; /* "--": everything after it is positional */
      for (; optind < argc && (after_dashes || optind == at); optind++)
        if (npositional < 3)
          positional[npositional++] = argv[optind];
      continue;
    }
    if (c >= CLI_FORMAT_OPTION)
      cli_format_set(&opts->outputs, &cli_formats[c - CLI_FORMAT_OPTION], optarg);
    else if ((c == 'C' || c == 'G') &&
             cli_simgrid_option(&opts->config, c == 'C' ? "cfg" : "log", optarg, message, sizeof message) != 0)
      return fail_usage("%s", message);
    else if (c == 'S' && cli_set_add(&opts->config, optarg, message, sizeof message) != 0)
      return fail_usage("%s", message);
    else if (c == 'H' && cli_shard_parse(&opts->config, optarg, message, sizeof message) != 0)
      return fail_usage("%s", message);
    else if (c == 'W' && cli_layout_width(optarg, &opts->width, message, sizeof message) != 0)
      return fail_usage("%s", message);
    else if (c == 'F')
      opts->full = 1;
    else if (c == 'P' && (opts->per_process = parse_positive(optarg)) < 0)
      return fail_usage("--per-process takes a positive whole number, not '%s'", optarg);
    else if (c == 'j' && ((opts->jobs = parse_positive(optarg)) < 0 || opts->jobs > MAX_JOBS))
      return fail_usage("-j takes the number of simulations to run at once, a whole number from 1 to 1024, not '%s'",
                        optarg);
    else if (c == 'N' || c == 'M')
      *(c == 'N' ? &opts->no_cache : &opts->mpi) = 1;
    else if (c == 'q')
      opts->quiet = 1;
    else if (c == 'R')
      opts->requests = 1;
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

/* simrun [run] [OPTIONS] SCENARIO: the scenario found, the provenance set, then the sweep, with the signals caught
 * when the context says so. */
static int run_main(const cli_context_t *ctx, int argc, char **argv)
{
  cli_run_options_t opts = {0};
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
  if (ctx->catch_signals)
    cli_signal_catch(); /* for the whole run: a signal at any step stops it the same way */
  status = cli_run(&opts);
  fflush(stdout); /* while SIGPIPE is still caught: a reader gone by now means 141, not a death by SIGPIPE */
  status = status == EXIT_OK && cli_signal_status() ? cli_signal_status() : status;
  if (ctx->catch_signals)
    cli_signal_release();
  return status;
}

int cli_main(const cli_context_t *ctx, int argc, char **argv)
{
  rep_set_provenance(&(rep_provenance_t){0}); /* an earlier call's command names none of this one's results */
  cli_messages_to_stderr();                   /* what the libraries say to the user */
  if (argc > 1 && strcmp(argv[1], "analyse") == 0)
    return cli_analyse_main(ctx, argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "machine") == 0)
    return cli_machine_main(ctx, argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "platform") == 0)
    return cli_platform_main(argc - 1, argv + 1);
  scn_set_data_dir(cli_data_dir());
  if (argc > 1 && strcmp(argv[1], "characterise") == 0)
    return cli_characterise_main(argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "compare") == 0)
    return cli_compare_main(argc - 1, argv + 1);
  return run_main(ctx, argc, argv);
}
