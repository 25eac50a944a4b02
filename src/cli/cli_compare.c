/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare (cli_compare.h): its options, two tables read (cli_table.h) and handed to rep_compare, the summary
 * printed once everything succeeded and the --svg picture written whole or not at all. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, strtok_r */
#include "cli_compare.h"
#include "bas_error.h"
#include "cli_exit.h"

#include "cli_output.h"
#include "cli_table.h"
#include "rep_compare.h"
#include "rep_report.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_METRICS = 64 };

static void usage(FILE *out)
{
  fprintf(out, "Usage: simrun compare A.csv|A.json B.csv|B.json [OPTIONS]\n"
               "\n"
               "Compares two results tables point by point: the main CSV tables or the JSON of\n"
               "two runs (two platforms, two versions of simrun, two settings), a simulation's\n"
               "and a measured run's (simrun analyse --csv or --json), the per-process tables\n"
               "of two runs, or a run's and a measurement's (a CSV with a column p, the\n"
               "parameters that tell its points apart, and the measured figures named as\n"
               "simrun's, such as t_par_s). Points pair on every key column both tables have:\n"
               "the parameters, p, and the columns after p that name a row (rank...); a point\n"
               "twice in one table is an error. A summary of one screen comes first.\n"
               "\n"
               "Options:\n"
               "  --metric NAME[,NAME...]  the metrics compared (repeatable; all: every metric\n"
               "                      both tables have; default t_par_s and speedup, else\n"
               "                      every metric both have)\n"
               "  --rtol R            relative tolerance (default 0.05)\n"
               "  --tolerance R       the same as --rtol\n"
               "  --atol X            absolute tolerance (default 1e-9): A and B are equal when\n"
               "                      |B - A| <= atol + rtol max(|A|, |B|)\n"
               "  --full              after the summary, every point's values and the points\n"
               "                      in one table only\n"
               "  --svg FILE          also draw the first metric compared, A's and B's against\n"
               "                      p, as SVG to FILE\n"
               "  -h, --help          show this help and exit\n"
               "\n"
               "Exit status: 0 every value compared is equal within the tolerance, 1 some is\n"
               "not (or a cell is not a number and differs), 2 bad input or usage, or no\n"
               "point in common. See docs/compare.md.\n");
}

/* The one error line; returns 2. */
static int fail(const char *message)
{
  fprintf(stderr, "simrun: error: %s\n", message);
  return EXIT_INPUT;
}

/* Writes the --svg picture to `path`, whole or not at all. */
static int write_svg(const rep_table_t *a, const rep_table_t *b, const rep_compare_opts_t *opts, const char *path)
{
  char message[1200] = "";
  rep_file_t *file = rep_file_open(path, message, sizeof message);
  if (!file)
    return fail(message);
  int rc = rep_compare_svg(rep_file_stream(file), a, b, opts, message, sizeof message);
  if (rc != 0) {
    rep_file_abort(file);
    return (fail(message), bas_error_status(rc));
  }
  return rep_file_commit(file, message, sizeof message) == 0 ? 0 : (fail(message), EXIT_RUNTIME);
}

typedef struct options {
  const char *files[2];
  const char *svg;
  rep_compare_opts_t compare;
  const char *metrics[MAX_METRICS];
  char *lists[MAX_METRICS]; /* the --metric arguments, split in place */
  size_t nlists;
} options_t;

/* A tolerance given to `flag`: a finite decimal number >= 0 into *x. 0, or the exit status after the error line. */
static int tolerance(const char *flag, const char *text, double *x)
{
  char *end, message[256];
  *x = strtod(text, &end);
  if (end != text && !*end && *x >= 0 && !isinf(*x) && !text[strspn(text, "0123456789.+-eE")])
    return 0;
  snprintf(message, sizeof message, "%s %.64s: give a decimal number >= 0, such as %s", flag, text,
           strcmp(flag, "--atol") == 0 ? "1e-9" : "0.05 for 5%");
  return fail(message);
}

/* A --metric argument: names separated by commas, all for every metric. 0, or the exit status after the error. */
static int add_metrics(options_t *o, const char *text)
{
  char *copy = o->nlists < MAX_METRICS ? strdup(text) : NULL;
  if (!copy)
    return fail(o->nlists < MAX_METRICS ? "out of memory" : "more than 64 --metric options; give them as a list");
  o->lists[o->nlists++] = copy;
  char *save = NULL;
  for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
    if (strcmp(name, "all") == 0)
      o->compare.all = 1;
    else if (o->compare.nmetrics == MAX_METRICS)
      return fail("--metric: more than 64 metrics; give --metric all for every metric");
    else
      o->metrics[o->compare.nmetrics++] = name;
  }
  return 0;
}

/* -1 to go on, or the exit status. */
static int parse(int argc, char **argv, options_t *o)
{
  static const struct option longopts[] = {{"tolerance", required_argument, NULL, 'r'},
                                           {"rtol", required_argument, NULL, 'r'},
                                           {"atol", required_argument, NULL, 'a'},
                                           {"full", no_argument, NULL, 'f'},
                                           {"svg", required_argument, NULL, 's'},
                                           {"metric", required_argument, NULL, 'm'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  int n = 0, c, status = 0;
  opterr = 0;
  optind = 0; /* glibc starts afresh: an earlier call's parse may have stopped inside a group */
  while (status == 0 && (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    if (c == 'h') {
      usage(stdout);
      return EXIT_OK;
    } else if (c == 'r' || c == 'a')
      status = tolerance(c == 'r' ? "--rtol" : "--atol", optarg, c == 'r' ? &o->compare.rtol : &o->compare.atol);
    else if (c == 'f')
      o->compare.full = 1;
    else if (c == 's')
      o->svg = optarg;
    else if (c == 'm')
      status = add_metrics(o, optarg);
    else
      return fail(c == ':' ? "an option needs a value; see simrun compare --help"
                           : "unknown option; see simrun compare --help");
  }
  if (status != 0)
    return status;
  for (; optind < argc; optind++)
    if (n++ < 2)
      o->files[n - 1] = argv[optind];
  o->compare.metrics = o->metrics;
  return n == 2 ? -1 : fail("compare takes two results files, A and B; see simrun compare --help");
}

/* The output gate (cli_output.h) for --svg: not table A or B (device and inode, through links), not a folder, a device
 * or a FIFO, in a folder that exists and can be written. 0, or the exit status after the error line. */
static int check_svg(const options_t *o)
{
  const char *const inputs[][2] = {{"table A", o->files[0]}, {"table B", o->files[1]}};
  return o->svg ? cli_gate_output("--svg", o->svg, inputs, 2, NULL) : EXIT_OK;
}

/* Reads both tables, compares them and prints the comparison (once the picture is drawn: nothing on the standard
 * output on a failure). Returns the exit status. */
static int compare(const options_t *o)
{
  cli_table_t a, b = {0};
  char message[8400] = "", *text = NULL;
  int rc = cli_table_read(o->files[0], &a, message, sizeof message);
  rc = rc == 0 ? cli_table_read(o->files[1], &b, message, sizeof message) : rc;
  size_t len = 0;
  rep_compare_result_t result = {0};
  FILE *buffer = rc == 0 ? open_memstream(&text, &len) : NULL;
  if (rc == 0)
    rc = buffer ? rep_compare_print(buffer, &a.t, &b.t, &o->compare, &result, message, sizeof message) : BAS_ENOMEM;
  if (buffer && fclose(buffer) != 0 && rc == 0)
    rc = BAS_EIO;
  if (rc < -1 && !message[0])
    snprintf(message, sizeof message, "%s", bas_strerror(rc));
  /* cli_table_read's -1 and the library's input codes are the user's (exit 2); the others this machine's (exit 1) */
  int status = rc == 0 ? EXIT_OK : rc == -1 || bas_error_is_input(rc) ? fail(message) : (fail(message), EXIT_RUNTIME);
  if (status == EXIT_OK && o->svg)
    status = write_svg(&a.t, &b.t, &o->compare, o->svg);
  if (status == EXIT_OK && (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0))
    status = (fail("cannot write the comparison on the standard output"), EXIT_RUNTIME);
  if (status == EXIT_OK && result.beyond + result.not_numbers > 0)
    status = EXIT_RUNTIME;
  free(text);
  cli_table_free(&a);
  cli_table_free(&b);
  return status;
}

int cli_compare_main(int argc, char **argv)
{
  options_t o = {.compare = {.rtol = REP_COMPARE_RTOL, .atol = REP_COMPARE_ATOL}};
  int status = parse(argc, argv, &o);
  if (status < 0 && (status = check_svg(&o)) == 0)
    status = compare(&o);
  for (size_t i = 0; i < o.nlists; i++)
    free(o.lists[i]);
  return status;
}
