/* `simrun analyse`: reads measured runs (met_timeline.h), takes T_seq from a sequential run, a given time or the
 * measured computation, and prints the views of a simulated study (Lemeire's EPPA, seed 000 §1.1-1.2) through the
 * report module: the lost-cycle table with one row per run (metrics as functions of p, Fig. 1.7), the per-process
 * tables, and CSV, JSON, Paje and SVG pictures on request. */
#include "cli_analyse.h"
#include "cli_output.h"
#include "met_comm.h"
#include "met_timeline.h"
#include "rep_paje.h"
#include "rep_pictures.h"
#include "rep_report.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_INPUT = 2, MAX_RUNS = 64 };

typedef struct analyse_opts {
  const char *dirs[MAX_RUNS];
  int ndirs;
  const char *seq; /* --seq DIR|SECONDS, or NULL */
  const char *csv;
  const char *json;
  const char *svg;
  const char *paje;
} analyse_opts_t;

/* The measured runs, sorted by p, and where T_seq comes from. */
typedef struct runs {
  met_trace_t *traces[MAX_RUNS];
  const char *dirs[MAX_RUNS];
  char p_text[MAX_RUNS][16];
  char *p_values[MAX_RUNS]; /* the scenario's "p" values: pointers into p_text */
  int n;
  double t_seq; /* one T_seq for every run */
  char seq_source[4200];
} runs_t;

static void usage(FILE *out)
{
  fprintf(out,
          "Usage: simrun analyse DIR [DIR...] [OPTIONS]\n"
          "\n"
          "Analyses real MPI runs traced by libsimrun-trace.so (docs/tracer.md): each DIR holds one run's\n"
          "timeline-I.txt files. Prints the lost-cycle table of Lemeire's EPPA (T_par, speedup, efficiency, overhead\n"
          "ratios of control, communication, idling and the parallel anomaly, granularity) with one row per run, so\n"
          "that runs at several p give the metrics as functions of p, then every run's per-process table (a\n"
          "measurement cannot split computation into machine components: no bottleneck view), and the time of each\n"
          "phase the program labelled (simrun_phase.h) by category.\n"
          "\n"
          "Options:\n"
          "  --seq DIR|SECONDS   the sequential time T_seq: the measured run in DIR (traced at p = 1) or a time in\n"
          "                      seconds. Without it, T_seq is the measured computation of the run with the\n"
          "                      smallest p (whose parallel anomaly is then 0); the report says which\n"
          "  --csv FILE          also write one CSV row per run to FILE\n"
          "  --json FILE         also write the results as JSON to FILE\n"
          "  --svg DIR           also draw the pictures (timelines, overall and per-process views, metrics against p)\n"
          "                      as SVG files in DIR, created if missing\n"
          "  --paje FILE         also write the runs as a Paje trace (pj_dump, ViTE) to FILE\n"
          "  -h, --help          show this help and exit\n"
          "\n"
          "Exit status: 0 success, 1 a file could not be written, 2 bad usage or a bad trace folder.\n");
}

static int fail(const char *fmt, const char *arg)
{
  fprintf(stderr, "simrun: error: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return EXIT_INPUT;
}

/* Fills opts; -1 to go on, or an exit status. */
static int parse(int argc, char **argv, analyse_opts_t *opts)
{
  static const struct option longopts[] = {{"seq", required_argument, NULL, 's'},
                                           {"csv", required_argument, NULL, 'c'},
                                           {"json", required_argument, NULL, 'j'},
                                           {"svg", required_argument, NULL, 'g'},
                                           {"paje", required_argument, NULL, 'p'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  const char **slot[] = {
      ['s'] = &opts->seq, ['c'] = &opts->csv, ['j'] = &opts->json, ['g'] = &opts->svg, ['p'] = &opts->paje};
  opterr = 0;
  optind = 1;
  for (int c; (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1;) {
    if (c == 'h') {
      usage(stdout);
      return EXIT_OK;
    }
    if (c == ':')
      return fail("option '%s' needs a value; see simrun analyse --help", argv[optind - 1]);
    if (c == '?')
      return fail("unknown option '%s'; see simrun analyse --help", argv[optind - 1]);
    *slot[c] = optarg;
  }
  for (; optind < argc; optind++) {
    if (opts->ndirs == MAX_RUNS)
      return fail("more than 64 trace folders, from '%s' on; analyse at most 64 runs at once", argv[optind]);
    opts->dirs[opts->ndirs++] = argv[optind];
  }
  if (opts->ndirs == 0)
    return fail("%sno trace folder given; usage: simrun analyse DIR [DIR...], see simrun analyse --help", "");
  return -1;
}

/* Reads one folder; NULL after printing its error (a run that recorded no time has no metrics). */
static met_trace_t *read_run(const char *dir)
{
  char err[8400];
  met_trace_t *trace = met_timeline_read(dir, err, sizeof err);
  if (trace && !(met_trace_end(trace) > 0)) {
    snprintf(err, sizeof err,
             "%s/timeline-0.txt: the run recorded no time (no interval of any rank lasts); trace a "
             "run that computes or communicates",
             dir);
    met_trace_free(trace);
    trace = NULL;
  }
  if (!trace)
    fprintf(stderr, "simrun: error: %s\n", err);
  else if (err[0]) /* a run killed before MPI_Finalize (met_timeline_read) */
    fprintf(stderr, "simrun: warning: %s\n", err);
  return trace;
}

/* Reads every folder into runs, sorted by p (stable). 0, or EXIT_INPUT. */
static int read_runs(const analyse_opts_t *opts, runs_t *runs)
{
  for (int i = 0; i < opts->ndirs; i++) {
    met_trace_t *trace = read_run(opts->dirs[i]);
    if (!trace)
      return EXIT_INPUT;
    int at = runs->n++;
    for (; at > 0 && met_trace_nranks(runs->traces[at - 1]) > met_trace_nranks(trace); at--) {
      runs->traces[at] = runs->traces[at - 1];
      runs->dirs[at] = runs->dirs[at - 1];
    }
    runs->traces[at] = trace;
    runs->dirs[at] = opts->dirs[i];
  }
  for (int i = 0; i < runs->n; i++) {
    snprintf(runs->p_text[i], sizeof runs->p_text[i], "%d", met_trace_nranks(runs->traces[i]));
    runs->p_values[i] = runs->p_text[i];
  }
  return 0;
}

/* T_seq from --seq: a number of seconds, or the measured run in that folder (which must be sequential). */
static int choose_t_seq(const char *seq, runs_t *runs)
{
  if (!seq) {
    const met_trace_t *first = runs->traces[0];
    for (int rank = 0; rank < met_trace_nranks(first); rank++)
      runs->t_seq +=
          met_trace_category_time(first, rank, MET_CAT_COMPUTE) + met_trace_category_time(first, rank, MET_CAT_IO);
    snprintf(runs->seq_source, sizeof runs->seq_source,
             "the measured computation of %s (p = %d), the run with the smallest p (no --seq: its parallel anomaly "
             "is 0 by construction)",
             runs->dirs[0], met_trace_nranks(first));
    return runs->t_seq > 0 ? 0 : fail("%s: the run computed for no time; give T_seq with --seq", runs->dirs[0]);
  }
  char *end = NULL;
  double seconds = strtod(seq, &end);
  if (end != seq && *end == '\0') {
    if (!(seconds > 0) || isinf(seconds) || seq[strspn(seq, "0123456789.+eE")]) /* decimal: no hexadecimal */
      return fail("--seq %s: give a time in seconds > 0 or the folder of a run traced at p = 1", seq);
    runs->t_seq = seconds;
    snprintf(runs->seq_source, sizeof runs->seq_source, "given (--seq %s)", seq);
    return 0;
  }
  met_trace_t *trace = read_run(seq);
  if (!trace)
    return EXIT_INPUT;
  int p = met_trace_nranks(trace);
  runs->t_seq = met_trace_end(trace);
  met_trace_free(trace);
  if (p != 1) {
    fprintf(stderr, "simrun: error: --seq %s: that run has p = %d; give a run traced at p = 1 or a time in seconds\n",
            seq, p);
    return EXIT_INPUT;
  }
  if (!(runs->t_seq > 0))
    return fail("--seq %s: that run lasted no time; give a run traced at p = 1 that computes, or a time", seq);
  snprintf(runs->seq_source, sizeof runs->seq_source, "the measured sequential run in %s (its T_par)", seq);
  return 0;
}

/* Fills one point from a measured run: the lost-cycle, bottleneck and per-process views. 0, or -1 out of memory. */
static int fill_point(stu_point_t *point, met_trace_t *trace, double t_seq, char **value)
{
  point->p = met_trace_nranks(trace);
  point->values = malloc(sizeof *point->values);
  point->procs = calloc((size_t)point->p, sizeof *point->procs);
  if (!point->values || !point->procs)
    return -1;
  point->values[0] = *value;
  point->trace = trace;
  point->t_par = met_trace_end(trace);
  point->messages = met_comm_messages(trace);
  point->t_model = NAN;
  met_eppa_compute(trace, t_seq, &point->eppa);
  met_bottleneck(trace, met_table5_phases, &point->breakdown);
  for (int rank = 0; rank < point->p; rank++)
    met_eppa_process(trace, t_seq, rank, &point->procs[rank]);
  return 0;
}

/* The study of the runs, which it takes over (runs->n becomes 0); NULL when out of memory. */
static stu_study_t *make_study(const scn_scenario_t *scenario, runs_t *runs)
{
  stu_study_t *study = calloc(1, sizeof *study);
  if (!study || !(study->points = calloc((size_t)runs->n, sizeof *study->points))) {
    free(study);
    return NULL;
  }
  study->scenario = scenario;
  study->facts.views = STU_VIEW_LOST_CYCLES;
  study->facts.subs = met_phase_subs(met_table5_phases);
  int ok = 1;
  for (int i = 0; i < runs->n; i++) {
    ok = ok && fill_point(&study->points[i], runs->traces[i], runs->t_seq, &runs->p_values[i]) == 0;
    if (!study->points[i].trace)
      met_trace_free(runs->traces[i]);
    study->npoints++;
  }
  runs->n = 0;
  if (!ok) {
    stu_free(study);
    return NULL;
  }
  return study;
}

typedef int (*writer_fn)(FILE *out, const stu_study_t *study);

/* Writes `path` whole with `writer`, or not at all. */
static int write_file(const char *path, writer_fn writer, const stu_study_t *study)
{
  char message[1200];
  rep_file_t *file = path ? rep_file_open(path, message, sizeof message) : NULL;
  if (!path)
    return EXIT_OK;
  if (file && writer(rep_file_stream(file), study) == 0 && rep_file_commit(file, message, sizeof message) == 0)
    return EXIT_OK;
  if (file)
    rep_file_abort(file);
  fprintf(stderr, "simrun: error: %s\n", file ? path : message);
  return EXIT_RUNTIME;
}

static int write_svg(const char *dir, const stu_study_t *study)
{
  char message[1200];
  if (!dir)
    return EXIT_OK;
  if (rep_pictures_folder(dir, message, sizeof message) == 0 &&
      rep_pictures(study, dir, stdout, message, sizeof message) == 0)
    return EXIT_OK;
  fprintf(stderr, "simrun: error: %s\n", message);
  return EXIT_RUNTIME;
}

static void print_runs(const runs_t *runs, const stu_study_t *study)
{
  printf("Measured runs (libsimrun-trace.so):");
  for (size_t i = 0; i < study->npoints; i++)
    printf("%s %s (p = %d)", i ? "," : "", runs->dirs[i], study->points[i].p);
  printf("\nT_seq = %.6f s: %s\n\n", runs->t_seq, runs->seq_source);
}

/* EPPA's phases (seed 000 §1.2): per label, the seconds of each category summed over the ranks, and the phase's share
 * of the p T_par processor-seconds. Time outside every recorded interval (after a rank's end) is in no phase. */
static void print_phases(const stu_point_t *point)
{
  const met_trace_t *trace = point->trace;
  static const met_category_t shown[] = {MET_CAT_COMPUTE, MET_CAT_COMM, MET_CAT_IDLE, MET_CAT_CTRL};
  printf("\nPhases, p = %d (seconds summed over the ranks; share of p T_par)\n  %-20s", point->p, "phase");
  for (size_t c = 0; c < 4; c++)
    printf(" %10s", met_category_name(shown[c]));
  printf(" %8s\n", "share");
  double all = point->p * point->t_par;
  double labelled = 0;
  for (int phase = 0; phase < met_trace_phase_count(trace); phase++) {
    double sums[4] = {0};
    double total = 0;
    for (size_t c = 0; c < 4; c++) {
      for (int rank = 0; rank < point->p; rank++)
        sums[c] += met_trace_phase_time(trace, rank, phase, shown[c]);
      total += sums[c];
    }
    printf("  %-20s", met_trace_phase_name(trace, phase));
    for (size_t c = 0; c < 4; c++)
      printf(" %10.4f", sums[c]);
    printf(" %7.1f%%\n", all > 0 ? 100 * total / all : 0.0);
    labelled += total;
  }
  /* A rank that reaches MPI_Finalize before the last one waits there: idle in the lost-cycle table, in no phase. */
  double end_wait = all - labelled > 0 ? all - labelled : 0;
  printf("  %-20s %10.4f %10.4f %10.4f %10.4f %7.1f%%\n", "(end-of-run wait)", 0.0, 0.0, end_wait, 0.0,
         all > 0 ? 100 * end_wait / all : 0.0);
}

/* No output may replace a file of a trace folder or another output (cli_output.h). 0, or EXIT_INPUT. */
static int check_files(const analyse_opts_t *opts)
{
  char err[2600] = "out of memory";
  cli_files_t *files = cli_files_new();
  int rc = !files;
  for (int i = 0; rc == 0 && i < opts->ndirs; i++)
    rc = cli_files_input_folder(files, "a file of the trace folder", opts->dirs[i]);
  rc = rc || (opts->seq && cli_files_input_folder(files, "a file of the --seq folder", opts->seq) != 0);
  rc = rc || cli_files_output(files, "--csv", opts->csv, err, sizeof err) != 0;
  rc = rc || cli_files_output(files, "--json", opts->json, err, sizeof err) != 0;
  rc = rc || cli_files_output(files, "--paje", opts->paje, err, sizeof err) != 0;
  rc = rc || cli_files_output_folder(files, "--svg", opts->svg, "*.svg", err, sizeof err) != 0;
  cli_files_free(files);
  return rc ? fail("%s", err) : EXIT_OK;
}

/* Reads, analyses and reports; `runs` is freed by the caller. */
static int analyse(const analyse_opts_t *opts, runs_t *runs)
{
  int status = check_files(opts);
  if (status == EXIT_OK)
    status = read_runs(opts, runs);
  if (status == EXIT_OK)
    status = choose_t_seq(opts->seq, runs);
  if (status != EXIT_OK)
    return status;
  scn_param_t p = {.name = "p", .values = runs->p_values, .nvalues = (size_t)runs->n, .swept = 1};
  scn_scenario_t scenario = {.path = "measured",
                             .name = "measured",
                             .platform = "this machine (measured)",
                             .skeleton = "traced MPI program",
                             .params = &p,
                             .nparams = 1};
  stu_study_t *study = make_study(&scenario, runs);
  if (!study)
    return fail("%sout of memory", "");
  print_runs(runs, study);
  rep_print(stdout, study);
  for (size_t i = 0; i < study->npoints; i++)
    print_phases(&study->points[i]);
  status = write_file(opts->csv, rep_csv, study);
  if (status == EXIT_OK)
    status = write_file(opts->json, rep_json, study);
  if (status == EXIT_OK)
    status = write_file(opts->paje, rep_paje_study, study);
  if (status == EXIT_OK)
    status = write_svg(opts->svg, study);
  stu_free(study);
  return status;
}

int cli_analyse_main(int argc, char **argv)
{
  analyse_opts_t opts = {0};
  int status = parse(argc, argv, &opts);
  if (status >= 0)
    return status;
  runs_t *runs = calloc(1, sizeof *runs);
  if (!runs)
    return fail("%sout of memory", "");
  status = analyse(&opts, runs);
  for (int i = 0; i < runs->n; i++)
    met_trace_free(runs->traces[i]);
  free(runs);
  return status;
}
