/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The output formats of `simrun run` and `simrun analyse` (cli_formats.h): the table, each format's writer, the checks
 * before the work and the writing after it, in the table's order. */
#include "cli_formats.h"

#include "cli_exit.h"
#include "cli_html.h"
#include "cli_results.h"
#include "cli_signal.h"
#include "rep_otf2.h"
#include "rep_paje.h"
#include "rep_pictures.h"
#include "rep_report.h"
#include "stu_sweep.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static int is_stdout(const char *path)
{
  return path && strcmp(path, "-") == 0;
}

/* One file written by `render` into the transaction (nothing when path is NULL); `what` names it on failure, after
 * which `fix` says what to do ("" for the generic advice). */
static int write_file(const char *path, const stu_study_t *study, int (*render)(FILE *, const stu_study_t *),
                      const char *what, const char *fix)
{
  char message[1200] = "";
  rep_file_t *file = NULL;
  int status = cli_open_output(path, &file);
  if (status != EXIT_OK || !file)
    return status;
  int rc = render(rep_file_stream(file), study);
  if (rc != 0) {
    rep_file_abort(file);
    fprintf(stderr, "simrun: error: writing %s failed: %s%s\n", what, bas_strerror(rc), fix);
    return bas_error_status(rc);
  }
  if (rep_file_commit(file, message, sizeof message) != 0) {
    fprintf(stderr, "simrun: error: %s\n", message);
    return EXIT_RUNTIME;
  }
  return EXIT_OK;
}

/* Whether simrun run's CSV (not analyse's, whose runs' per-process rows are in its JSON) has its extra tables beside
 * it (rep_csv_tables). */
static int has_tables(cli_command_t command)
{
  return command == CLI_COMMAND_RUN;
}

/* The CSV, then, beside a file, its extra tables. */
static int write_csv(const stu_study_t *study, const char *path, const cli_outputs_t *o)
{
  char message[1200] = "";
  int status = write_file(path, study, rep_csv, "the results", "");
  if (status != EXIT_OK || is_stdout(path) || !has_tables(o->command))
    return status;
  if (rep_csv_tables(study, path, message, sizeof message) == 0)
    return EXIT_OK;
  fprintf(stderr, "simrun: error: %s\n", message);
  return EXIT_RUNTIME;
}

static int write_json(const stu_study_t *study, const char *path, const cli_outputs_t *o)
{
  return write_file(path, study, rep_json, "the results", "");
}

static int write_paje(const stu_study_t *study, const char *path, const cli_outputs_t *o)
{
  return write_file(path, study, rep_paje_study, "the Paje trace",
                    "; check the room left in its folder and in $TMPDIR (else /tmp), where a long run's events are "
                    "sorted");
}

/* A folder's writer's status: 0, or 1 with the message printed when it `failed`. */
static int folder_status(int failed, const char *message)
{
  if (!failed)
    return EXIT_OK;
  fprintf(stderr, "simrun: error: %s\n", message);
  return EXIT_RUNTIME;
}

static int write_otf2(const stu_study_t *study, const char *dir, const cli_outputs_t *o)
{
  char message[1200] = "";
  return folder_status(cli_folder_make(dir, message, sizeof message) != 0 ||
                           rep_otf2_study(study, dir, message, sizeof message) != 0,
                       message);
}

/* The pictures, listing the fits on the report's stream. */
static int write_svg(const stu_study_t *study, const char *dir, const cli_outputs_t *o)
{
  char message[1200] = "";
  return folder_status(cli_folder_make(dir, message, sizeof message) != 0 ||
                           rep_pictures(study, dir, cli_report_stream(o), message, sizeof message) != 0,
                       message);
}

static int write_html(const stu_study_t *study, const char *path, const cli_outputs_t *o)
{
  return cli_html_write(study, path);
}

#define PER_PROCESS_REFUSAL(what)                                                                                      \
  what ", but none is chosen; add --per-process P (or <report per-process> in the scenario)"

/* In the order of --help, of the clash checks, of the writing and of the list of outputs not written after a stop. A
 * row's help per command says which commands take it: simrun run's of the per-process p, simrun analyse's of its
 * measured runs. */
const cli_format_t cli_formats[] = {
    {.option = "--csv",
     .help = {[CLI_COMMAND_RUN] =
                  "also write one CSV row per point to FILE (overrides the scenario's <report csv>), and\n"
                  "the per-process, per-message, wait-map, wait-state, DSM or reference rows to\n"
                  "FILE-processes.csv, -messages.csv, -waits.csv, -wait-states.csv,\n"
                  "-profiles.csv, -requests.csv (with --requests), -references.csv, the\n"
                  "regression fits to -fits.csv, the factor x factor table to -factors.csv,\n"
                  "and the run's versions, command line and scenario hash to\n"
                  "-provenance.csv (FILE without .csv); columns: docs/results.md",
              [CLI_COMMAND_ANALYSE] = "also write one CSV row per run to FILE"},
     .kind = CLI_FORMAT_FILE,
     .write = write_csv},
    {.option = "--json",
     .help = {[CLI_COMMAND_RUN] = "also write the results as JSON to FILE (overrides <report json>)",
              [CLI_COMMAND_ANALYSE] = "also write the results as JSON to FILE"},
     .kind = CLI_FORMAT_FILE,
     .write = write_json},
    {.option = "--paje",
     .help = {[CLI_COMMAND_RUN] = "also write the per-process p's run as a Paje trace (pj_dump, ViTE) to FILE",
              [CLI_COMMAND_ANALYSE] = "also write the runs as a Paje trace (pj_dump, ViTE) to FILE"},
     .kind = CLI_FORMAT_FILE,
     .needs = CLI_NEEDS_PER_PROCESS | CLI_NEEDS_WHOLE_TRACES | CLI_NEEDS_SORTED_EVENTS,
     .refusal = PER_PROCESS_REFUSAL("--paje records the run of the per-process p"),
     .write = write_paje},
    {.option = "--otf2",
     .help = {[CLI_COMMAND_RUN] = "also write the per-process p's runs as OTF2 archives (Vampir, Scalasca, ViTE,\n"
                                  "otf2-print), DIR/point-K.otf2 for point K, DIR created if missing",
              [CLI_COMMAND_ANALYSE] = "also write the runs as OTF2 archives (Vampir, Scalasca, ViTE, otf2-print),\n"
                                      "DIR/point-K.otf2 for the run K (from 0, by p), DIR created if missing"},
     .kind = CLI_FORMAT_FOLDER,
     .pattern = "point-*",
     .needs = CLI_NEEDS_PER_PROCESS | CLI_NEEDS_WHOLE_TRACES,
     .refusal = PER_PROCESS_REFUSAL("--otf2 records the runs of the per-process p"),
     .write = write_otf2},
    {.option = "--svg",
     .help = {[CLI_COMMAND_RUN] = "also draw the pictures (timeline, overall and per-process views, metrics against p\n"
                                  "and the work size with regression fits, bottleneck views) as SVG files in DIR,\n"
                                  "created if missing; see docs/pictures.md",
              [CLI_COMMAND_ANALYSE] =
                  "also draw the pictures (timelines, overall and per-process views, metrics against p)\n"
                  "as SVG files in DIR, created if missing"},
     .kind = CLI_FORMAT_FOLDER,
     .pattern = "*.svg",
     .needs = CLI_NEEDS_TIMELINES,
     .write = write_svg},
    {.option = "--html",
     .help = {[CLI_COMMAND_RUN] = "also write one self-contained HTML page (no network needed) to FILE: the report's\n"
                                  "tables, every picture of --svg inline, and the per-process p's timeline, which\n"
                                  "pans and zooms and describes the interval under the pointer (docs/pictures.md)",
              [CLI_COMMAND_ANALYSE] = "also write one self-contained HTML page (no network needed) to FILE: the\n"
                                      "report's lines on each run and its tables, every picture of --svg inline, and\n"
                                      "each run's timeline, which pans and zooms and describes the interval under the\n"
                                      "pointer"},
     .kind = CLI_FORMAT_FILE,
     .gathers = 1,
     .needs = CLI_NEEDS_TIMELINES,
     .write = write_html},
    {.option = "--ti",
     .help = {[CLI_COMMAND_RUN] = "also write the per-process p's runs as SimGrid time-independent traces, one\n"
                                  "folder DIR/point-K per point (index.txt for smpirun -replay, rank-I.txt,\n"
                                  "hostfile.txt for smpirun -hostfile: every rank on the host simrun gave it);\n"
                                  "those runs are simulated, not taken from the cache"},
     .kind = CLI_FORMAT_FOLDER_SWEEP,
     .pattern = "point-*",
     .needs = CLI_NEEDS_PER_PROCESS | CLI_NEEDS_NO_MPI,
     .refusal = "--ti writes the runs of the per-process p in this process: add --per-process P (or <report "
                "per-process> in the scenario), without --mpi"},
};
const size_t cli_format_count = sizeof cli_formats / sizeof cli_formats[0];

_Static_assert(sizeof cli_formats / sizeof cli_formats[0] <= CLI_MAX_FORMATS, "raise CLI_MAX_FORMATS (cli_output.h)");

const char *cli_format_path(const cli_outputs_t *outputs, const cli_format_t *f)
{
  return outputs->path[f - cli_formats];
}

void cli_format_set(cli_outputs_t *outputs, const cli_format_t *f, const char *path)
{
  outputs->path[f - cli_formats] = path;
}

/* The row of the format whose option is `option`, or NULL. */
static const cli_format_t *format_of(const char *option)
{
  for (size_t i = 0; i < cli_format_count; i++)
    if (strcmp(cli_formats[i].option, option) == 0)
      return &cli_formats[i];
  return NULL;
}

const char *cli_output_of(const cli_outputs_t *outputs, const char *option)
{
  const cli_format_t *f = format_of(option);
  return f ? cli_format_path(outputs, f) : NULL;
}

int cli_outputs_need(const cli_outputs_t *outputs, unsigned need)
{
  for (size_t i = 0; i < cli_format_count; i++)
    if ((cli_formats[i].needs & need) && cli_format_path(outputs, &cli_formats[i]))
      return 1;
  return 0;
}

void cli_formats_options(cli_command_t command, const struct option *fixed, struct option *all)
{
  size_t count = 0;
  for (; fixed[count].name; count++)
    all[count] = fixed[count];
  for (size_t i = 0; i < cli_format_count; i++)
    if (cli_formats[i].help[command])
      all[count++] = (struct option){cli_formats[i].option + 2, required_argument, NULL, CLI_FORMAT_OPTION + (int)i};
  all[count] = (struct option){NULL, 0, NULL, 0};
}

void cli_formats_usage(FILE *out, cli_command_t command)
{
  char head[64];
  for (size_t i = 0; i < cli_format_count; i++) {
    const char *help = cli_formats[i].help[command];
    if (!help)
      continue;
    snprintf(head, sizeof head, "%s %s", cli_formats[i].option,
             cli_formats[i].kind == CLI_FORMAT_FILE ? "FILE" : "DIR");
    fprintf(out, "  %-19s ", head);
    for (const char *c = help; *c; c++)
      fputs(*c == '\n' ? "\n                      " : (char[]){*c, '\0'}, out);
    fputc('\n', out);
  }
}

FILE *cli_report_stream(const cli_outputs_t *outputs)
{
  for (size_t i = 0; i < cli_format_count; i++)
    if (cli_formats[i].kind == CLI_FORMAT_FILE && is_stdout(cli_format_path(outputs, &cli_formats[i])))
      return stderr;
  return stdout;
}

/* Every file can be written (opened and removed again); '-' is refused for a folder, and for two outputs at once. */
static int check_writable(const cli_outputs_t *o)
{
  int to_stdout = 0;
  for (size_t i = 0; i < cli_format_count; i++) {
    const cli_format_t *f = &cli_formats[i];
    const char *path = cli_format_path(o, f);
    if (f->kind != CLI_FORMAT_FILE && is_stdout(path)) {
      fprintf(stderr,
              "simrun: error: %s -: %s writes a folder, and '-' (standard output) is for one file; give a "
              "folder name (./- for a folder named '-')\n",
              f->option, f->option);
      return EXIT_INPUT;
    }
  }
  for (size_t i = 0; i < cli_format_count; i++) {
    const char *path = cli_formats[i].kind == CLI_FORMAT_FILE ? cli_format_path(o, &cli_formats[i]) : NULL;
    to_stdout += is_stdout(path);
    rep_file_t *file = NULL;
    int status = to_stdout > 1 ? EXIT_INPUT : cli_open_output(path, &file);
    rep_file_abort(file); /* opened only to check the path: written after the sweep */
    if (to_stdout > 1)
      fprintf(stderr, "simrun: error: two outputs are '-', but there is one standard output; give a file name to "
                      "all but one\n");
    if (status != EXIT_OK)
      return status;
  }
  return EXIT_OK;
}

/* One format's claim on its path, for the clash check. */
static int claim(cli_files_t *files, const cli_format_t *f, const cli_outputs_t *o, char *err, size_t errlen)
{
  const char *path = cli_format_path(o, f);
  if (strcmp(f->option, "--csv") == 0 && has_tables(o->command)) /* with the tables beside it */
    return cli_files_output_csv(files, f->option, path, err, errlen);
  if (f->kind == CLI_FORMAT_FILE)
    return cli_files_output(files, f->option, path, err, errlen);
  if (f->kind == CLI_FORMAT_FOLDER)
    return cli_files_output_folder(files, f->option, path, f->pattern, err, errlen);
  return cli_files_sweep_folder(files, f->option, path, f->pattern, err, errlen);
}

/* No output replaces an input of the run, lies in the cache or is another output (the command line's, then the
 * scenario's <report csv/json> where the command line gives none). 0, or 2 after printing the one line naming both. */
static int check_clashes(const cli_outputs_t *given, const cli_run_facts_t *run)
{
  char err[2600] = "out of memory", cache[4096];
  const scn_scenario_t *s = run->scenario;
  cli_files_t *files = cli_files_new();
  int rc = !files || (s && cli_files_scenario(files, s) != 0) ||
           cli_files_cache(files, !run->no_cache && stu_cache_default_dir(cache, sizeof cache) == 0 ? cache : NULL);
  for (size_t i = 0; i < run->nfolders && !rc; i++)
    rc = cli_files_input_folder(files, run->folders[i].what, run->folders[i].dir) != 0;
  for (size_t i = 0; i < cli_format_count && !rc; i++)
    rc = claim(files, &cli_formats[i], given, err, sizeof err) != 0;
  rc = rc ||
       (s && !cli_output_of(given, "--csv") && cli_files_report(files, s, "<report csv>", s->csv, err, sizeof err));
  rc = rc ||
       (s && !cli_output_of(given, "--json") && cli_files_report(files, s, "<report json>", s->json, err, sizeof err));
  cli_files_free(files);
  if (rc)
    fprintf(stderr, "simrun: error: %s\n", err);
  return rc ? EXIT_INPUT : EXIT_OK;
}

/* Each format has what it needs, and each folder, made when the outputs are written or by the sweep (--ti), can be
 * made: a read-only parent is found here, exit 2, not by the sweep after its work (exit 1). */
static int check_needs(const cli_outputs_t *o, const cli_run_facts_t *run)
{
  char message[1200] = "";
  for (size_t i = 0; i < cli_format_count; i++) {
    const cli_format_t *f = &cli_formats[i];
    const char *path = cli_format_path(o, f);
    int lacks =
        ((f->needs & CLI_NEEDS_PER_PROCESS) && run->per_process == 0) || ((f->needs & CLI_NEEDS_NO_MPI) && run->mpi);
    if (path && lacks) {
      fprintf(stderr, "simrun: error: %s\n", f->refusal);
      return EXIT_INPUT;
    }
    if (path && f->kind != CLI_FORMAT_FILE && cli_folder_probe(path, message, sizeof message) != 0) {
      fprintf(stderr, "simrun: error: %s\n", message);
      return EXIT_INPUT;
    }
  }
  return EXIT_OK;
}

/* The list of the outputs, for the message of a stop (cli_signal.h). */
static void name_outputs(const cli_outputs_t *o)
{
  char list[2048] = "";
  for (size_t i = 0; i < cli_format_count; i++) {
    const char *path = cli_format_path(o, &cli_formats[i]);
    if (path && strlen(list) + strlen(path) + 3 < sizeof list)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "", path);
  }
  cli_signal_outputs(list);
}

int cli_outputs_prepare(const cli_outputs_t *given, const cli_run_facts_t *run, cli_outputs_t *outputs)
{
  *outputs = *given; /* the scenario's <report csv/json> where the command line gives none */
  const cli_format_t *csv = format_of("--csv"), *json = format_of("--json");
  if (run->scenario && !cli_format_path(given, csv))
    cli_format_set(outputs, csv, run->scenario->csv);
  if (run->scenario && !cli_format_path(given, json))
    cli_format_set(outputs, json, run->scenario->json);
  name_outputs(outputs);
  int status = check_clashes(given, run);
  status = status == EXIT_OK ? check_writable(outputs) : status;
  return status == EXIT_OK ? check_needs(outputs, run) : status;
}

int cli_outputs_write(const stu_study_t *study, const cli_outputs_t *outputs)
{
  int status = EXIT_OK;
  if (cli_signal_stop())
    return CLI_EXIT_STOPPED;
  rep_file_begin();
  cli_signal_step("writing", "while writing the outputs");
  for (size_t i = 0; i < cli_format_count && status == EXIT_OK && !cli_signal_stop(); i++) {
    if (cli_formats[i].gathers) /* the tables, traces and pictures are complete, the page is to come */
      cli_signal_step("written", "while writing the outputs");
    const char *path = cli_format_path(outputs, &cli_formats[i]);
    if (cli_formats[i].write && path)
      status = cli_formats[i].write(study, path, outputs);
  }
  return cli_outputs_end(status);
}
