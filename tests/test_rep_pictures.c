/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of rep_pictures: simrun --svg on small scenarios end to end (the files, their names, well-formed SVG, the
 * numbers each view shows read back from its geometry against the CSV tables, the fits printed, errors for bad
 * options). The timeline: test_rep_timeline.c; CARNIVAL's views: test_rep_carnival_views.c. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "tu.h"
#include "tu_csv.h"
#include "tu_svg.h"

#include <dirent.h>
#include <math.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define SMALL SIMRUN_SOURCE_DIR "/tests/data/cli/gj-small.xml"

/* Runs simrun with `args` in folder `dir`, its output in dir/out.txt and dir/err.txt. Returns its exit status. */
static int run_simrun(const char *dir, const char *args)
{
  char command[2048];
  snprintf(command, sizeof command, "cd %s && %s %s > out.txt 2> err.txt", dir, SIMRUN_BINARY, args);
  int status = system(command);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *read_file(const char *dir, const char *name, size_t *len)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *in = fopen(path, "r");
  if (!in)
    return NULL;
  fseek(in, 0, SEEK_END);
  *len = (size_t)ftell(in);
  rewind(in);
  char *text = calloc(1, *len + 1);
  if (fread(text, 1, *len, in) != *len)
    *len = 0;
  fclose(in);
  return text;
}

/* The .svg files of `dir`, each checked well-formed; -1 when one is not, or a file has a temporary name. */
static int count_pictures(const char *dir)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  int count = 0;
  while (d && (e = readdir(d))) {
    size_t n = strlen(e->d_name), len = 0;
    if (strstr(e->d_name, ".tmp."))
      count = -1000;
    if (n < 4 || strcmp(e->d_name + n - 4, ".svg") != 0)
      continue;
    char *text = read_file(dir, e->d_name, &len);
    count += text && tu_svg_well_formed(text, len) ? 1 : -1000;
    free(text);
  }
  if (d)
    closedir(d);
  return count < 0 ? -1 : count;
}

static void test_rep_pictures_study(void)
{
  char dir[] = "/tmp/simrun-svg-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  CU_ASSERT_EQUAL(run_simrun(dir, SMALL " --per-process 4 --svg pics/new --paje run.paje"), 0);
  char sub[1100];
  snprintf(sub, sizeof sub, "%s/pics/new", dir);
  static const char *const expected[] = {"gj-small-timeline-neighbour.svg",
                                         "gj-small-processes-one-to-all.svg",
                                         "gj-small-overall-neighbour.svg",
                                         "gj-small-speedup.svg",
                                         "gj-small-ovh-comm.svg",
                                         "gj-small-components-one-to-all.svg",
                                         "gj-small-bratios-neighbour.svg",
                                         "gj-small-ratios-neighbour.svg",
                                         "gj-small-component-shares-neighbour.svg",
                                         "gj-small-subcomponents-one-to-all.svg"};
  for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
    size_t len = 0;
    char *text = read_file(sub, expected[i], &len);
    CU_ASSERT_PTR_NOT_NULL(text);
    free(text);
  }
  size_t len = 0;
  char *out = read_file(dir, "out.txt", &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  int count = count_pictures(sub);
  char line[128];
  snprintf(line, sizeof line, "Pictures: %d SVG files in pics/new", count);
  CU_ASSERT(count >= (int)(sizeof expected / sizeof expected[0]));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
  /* 3 values of p: too few for any form, which needs two points more than its coefficients */
  CU_ASSERT_PTR_NULL(strstr(out, "Regression fits"));
  char *paje = read_file(dir, "run.paje", &len);
  CU_ASSERT(paje && strstr(paje, "\"gj-small: broadcast=neighbour p=4\""));
  free(paje);
  free(out);
  snprintf(line, sizeof line, "rm -rf %s", dir);
  CU_ASSERT_EQUAL(system(line), 0);
}

/* What a reader of view `view` sees: the point of the series labelled `label` at x = x_value on panel `panel`, read
 * from the axis ticks, against `expected` (to the SVG's resolution, 0.1 pixel, plus 1e-9 relative). */
static void check_point(const char *dir, const char *view, int panel, const char *label, double x_value,
                        double expected)
{
  size_t len = 0;
  char *svg = read_file(dir, view, &len);
  tu_chart_t chart;
  char color[8];
  CU_ASSERT_FATAL(svg && tu_svg_chart(svg, panel, &chart) == 0 && tu_svg_legend(svg, label, color) == 0);
  double seen = tu_svg_point(svg, &chart, color, x_value);
  if (!(fabs(seen - expected) <= tu_svg_step(&chart, expected) + 1e-9 * fabs(expected)))
    fprintf(stderr, "%s, %s at %g: the picture shows %.9g, the table says %.9g\n", view, label, x_value, seen,
            expected);
  CU_ASSERT(fabs(seen - expected) <= tu_svg_step(&chart, expected) + 1e-9 * fabs(expected));
  free(svg);
}

/* The same for the bar of `label` at x = x_value: its height (top - bottom) against `expected`. */
static void check_bar(const char *dir, const char *view, int panel, const char *label, double x_value, double expected)
{
  size_t len = 0;
  char *svg = read_file(dir, view, &len);
  tu_chart_t chart;
  char color[8];
  double lo = NAN, hi = NAN;
  CU_ASSERT_FATAL(svg && tu_svg_chart(svg, panel, &chart) == 0 && tu_svg_legend(svg, label, color) == 0);
  CU_ASSERT(tu_svg_bar(svg, &chart, color, x_value, &lo, &hi) == 0 || expected == 0);
  double seen = isnan(lo) ? 0 : hi - lo;
  if (!(fabs(seen - expected) <= 2 * tu_svg_step(&chart, expected) + 1e-9 * fabs(expected)))
    fprintf(stderr, "%s, %s at %g: the picture shows %.9g, the table says %.9g\n", view, label, x_value, seen,
            expected);
  CU_ASSERT(fabs(seen - expected) <= 2 * tu_svg_step(&chart, expected) + 1e-9 * fabs(expected));
  free(svg);
}

/* Every view of gj-small shows the study's figures: points and bars read back from the pictures' geometry and axes
 * (as a reader of the picture would) against the CSV tables of the same run, for both broadcasts at p = 2 and 4 and
 * the per-process p = 4. A picture that draws a class in another's colour, shifts a stacked share or mislabels its
 * legend fails here. */
static void test_rep_pictures_show_the_figures(void)
{
  char dir[] = "/tmp/simrun-svgfig-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, "-q --no-cache " SMALL " --per-process 4 --svg . --csv run.csv"), 0);
  size_t len = 0;
  char *csv = read_file(dir, "run.csv", &len), *procs = read_file(dir, "run-processes.csv", &len);
  char *waits = read_file(dir, "run-wait-states.csv", &len);
  CU_ASSERT_FATAL(csv && procs && waits);
  static const char *const bcasts[] = {"one-to-all", "neighbour"};
  for (int b = 0; b < 2; b++) {
    char series[64], view[128], key[64];
    snprintf(series, sizeof series, "broadcast = %s", bcasts[b]);
    for (int p = 2; p <= 4; p *= 2) {
      snprintf(key, sizeof key, "broadcast=%s,p=%d", bcasts[b], p);
      double v[4], sum = 0;
      static const char *const ovh[] = {"ovh_ctrl", "ovh_comm", "ovh_idle", "ovh_anomaly"};
      for (int j = 0; j < 4; j++)
        sum += (v[j] = tu_csv_value(csv, key, ovh[j]));
      check_point(dir, "gj-small-speedup.svg", 0, series, p, tu_csv_value(csv, key, "speedup"));
      check_point(dir, "gj-small-efficiency.svg", 0, series, p, tu_csv_value(csv, key, "efficiency"));
      check_point(dir, "gj-small-time.svg", 0, series, p, tu_csv_value(csv, key, "t_par_s"));
      check_point(dir, "gj-small-ovh-ctrl.svg", 0, series, p, v[0]);
      check_point(dir, "gj-small-ovh-comm.svg", 0, series, p, v[1]);
      check_point(dir, "gj-small-ovh-idle.svg", 0, series, p, v[2]);
      check_point(dir, "gj-small-granularity.svg", 0, series, p, tu_csv_value(csv, key, "granularity"));
      /* the overall view: shares of p T_par (seed 000 Fig. 1.5), then the stacked ratios */
      snprintf(view, sizeof view, "gj-small-overall-%s.svg", bcasts[b]);
      check_bar(dir, view, 0, "useful work", p, 100 / (1 + sum));
      check_bar(dir, view, 0, "control of parallelism", p, 100 * v[0] / (1 + sum));
      check_bar(dir, view, 0, "communication", p, 100 * v[1] / (1 + sum));
      check_bar(dir, view, 0, "idling", p, 100 * v[2] / (1 + sum));
      check_bar(dir, view, 1, "Ovh_ctrl", p, v[0]);
      check_bar(dir, view, 1, "Ovh_comm", p, v[1]);
      check_bar(dir, view, 1, "Ovh_idle", p, v[2]);
      /* the bottleneck views (seed 001 Figs 5-9) */
      static const char *const comp[] = {"processing_s", "memory_s", "communication_s", "io_s"};
      static const char *const comp_label[] = {"processing", "memory", "communication", "I/O"};
      static const char *const bratio[] = {"b_processing", "b_memory", "b_communication", "b_io"};
      double comp_sum = 0;
      for (int j = 0; j < 4; j++)
        comp_sum += tu_csv_value(csv, key, comp[j]);
      for (int j = 0; j < 4; j++) {
        snprintf(view, sizeof view, "gj-small-components-%s.svg", bcasts[b]);
        check_point(dir, view, 0, comp_label[j], p, tu_csv_value(csv, key, comp[j]));
        snprintf(view, sizeof view, "gj-small-bratios-%s.svg", bcasts[b]);
        check_point(dir, view, 0, comp_label[j], p, tu_csv_value(csv, key, bratio[j]));
        snprintf(view, sizeof view, "gj-small-component-shares-%s.svg", bcasts[b]);
        check_bar(dir, view, 0, comp_label[j], p, 100 * tu_csv_value(csv, key, comp[j]) / comp_sum);
      }
      /* Table 5's sub-components as shares of their sum (seed 001 Fig. 9) */
      static const char *const subs[] = {"cpu_s",        "fpu_s",          "intmem_s",    "extmem_s",
                                         "link_init_s",  "distribution_s", "broadcast_s", "collection_s",
                                         "other_comm_s", "input_s",        "output_s"};
      static const char *const sub_label[] = {
          "CPU",          "FPU",       "internal memory", "external memory",     "link initialisation",
          "distribution", "broadcast", "collection",      "other communication", "input",
          "output"};
      double sub_sum = 0;
      for (int j = 0; j < 11; j++)
        sub_sum += tu_csv_value(csv, key, subs[j]);
      snprintf(view, sizeof view, "gj-small-subcomponents-%s.svg", bcasts[b]);
      for (int j = 0; j < 11; j++)
        if (tu_csv_value(csv, key, subs[j]) > 0) /* the legend names the sub-components the study has */
          check_bar(dir, view, 0, sub_label[j], p, 100 * tu_csv_value(csv, key, subs[j]) / sub_sum);
      snprintf(view, sizeof view, "gj-small-ratios-%s.svg", bcasts[b]);
      check_point(dir, view, 0, "communication / computation", p, tu_csv_value(csv, key, "comm_comp_ratio"));
      check_point(dir, view, 0, "memory / processing", p, tu_csv_value(csv, key, "mem_proc_ratio"));
    }
    /* per process at p = 4 (seed 000 Fig. 1.6) and the wait states per rank */
    for (int rank = 0; rank < 4; rank++) {
      snprintf(key, sizeof key, "broadcast=%s,p=4,rank=%d", bcasts[b], rank);
      snprintf(view, sizeof view, "gj-small-processes-%s.svg", bcasts[b]);
      check_bar(dir, view, 0, "communication", rank, tu_csv_value(procs, key, "rank_ovh_comm"));
      check_bar(dir, view, 0, "idling", rank, tu_csv_value(procs, key, "rank_ovh_idle"));
      snprintf(view, sizeof view, "gj-small-wait-states-%s.svg", bcasts[b]);
      check_bar(dir, view, 0, "Late Sender", rank, tu_csv_value(waits, key, "late_sender_s"));
      check_bar(dir, view, 0, "Late Broadcast", rank, tu_csv_value(waits, key, "late_broadcast_s"));
    }
  }
  free(csv);
  free(procs);
  free(waits);
  char command[128];
  snprintf(command, sizeof command, "rm -rf %s", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* The metrics against the work size (seed 000 Fig. 1.8): gj-worksize's points read back from the speedup, efficiency
 * and time pictures against n, one curve per p, against the CSV of the same run. */
static void test_rep_pictures_against_work_size(void)
{
  char dir[] = "/tmp/simrun-worksize-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  CU_ASSERT_EQUAL_FATAL(
      run_simrun(dir, "-q --no-cache " SIMRUN_SOURCE_DIR "/scenarios/gj-worksize.xml --svg . --csv run.csv"), 0);
  size_t len = 0;
  char *csv = read_file(dir, "run.csv", &len);
  CU_ASSERT_FATAL(csv != NULL);
  for (int p = 16; p <= 64; p *= 4)
    for (int n = 64; n <= 512; n *= 2) {
      char key[32], series[16];
      snprintf(key, sizeof key, "p=%d,n=%d", p, n);
      snprintf(series, sizeof series, "p = %d", p);
      check_point(dir, "gj-worksize-speedup-vs-n.svg", 0, series, n, tu_csv_value(csv, key, "speedup"));
      check_point(dir, "gj-worksize-efficiency-vs-n.svg", 0, series, n, tu_csv_value(csv, key, "efficiency"));
      check_point(dir, "gj-worksize-time-vs-n.svg", 0, series, n, tu_csv_value(csv, key, "t_par_s"));
    }
  free(csv);
  char command[128];
  snprintf(command, sizeof command, "rm -rf %s", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* --paje without a per-process p, and --svg under a regular file: exit 2, one message, nothing simulated. */
static void test_rep_pictures_bad_options(void)
{
  char dir[] = "/tmp/simrun-svg-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  size_t len = 0;
  CU_ASSERT_EQUAL(run_simrun(dir, SMALL " --paje run.paje"), 2);
  char *err = read_file(dir, "err.txt", &len);
  CU_ASSERT(err && strcmp(err, "simrun: error: --paje records the run of the per-process p, but none is chosen; add "
                               "--per-process P (or <report per-process> in the scenario)\n") == 0);
  free(err);
  CU_ASSERT_EQUAL(run_simrun(dir, SMALL " --svg out.txt/pics"), 2);
  err = read_file(dir, "err.txt", &len);
  CU_ASSERT(err && strncmp(err, "simrun: error: cannot create folder 'out.txt/pics': ", 52) == 0);
  free(err);
  char command[128];
  snprintf(command, sizeof command, "test ! -e %s/run.paje && rm -rf %s", dir, dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* Without --svg, the terminal shows the fits (with --full): gj-worksize's speedup against N at p = 16 takes the
 * saturating form of eq. 11 (T_seq ~ N^3, T_par ~ N^3/p + N^2): a speedup that grows with N towards a limit 1/a above
 * 1, explaining the data (adjusted R^2 above 0.99), with the data's range. */
static void test_rep_pictures_fits_on_terminal(void)
{
  char dir[] = "/tmp/simrun-fits-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  CU_ASSERT_EQUAL_FATAL(
      run_simrun(dir, "-q --no-cache --full --width 1000 " SIMRUN_SOURCE_DIR "/scenarios/gj-worksize.xml"), 0);
  size_t len;
  char *out = read_file(dir, "out.txt", &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  const char *line = strstr(out, "speedup against n, p = 16: fit 1 / (");
  double a = 0;
  CU_ASSERT_PTR_NOT_NULL_FATAL(line);
  CU_ASSERT_EQUAL(sscanf(line, "speedup against n, p = 16: fit 1 / (%lf", &a), 1);
  CU_ASSERT(a > 0 && 1 / a > 1);
  const char *adjusted = strstr(line, "adjusted ");
  CU_ASSERT(adjusted && strtod(adjusted + 9, NULL) > 0.99);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "n from 64 to 512\n"));
  free(out);
  char command[128];
  snprintf(command, sizeof command, "rm -rf %s", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* The green of the fill of the heat map's cell at grid column q of the first map (simulated T_par; one process row, so
 * every cell is in the map's only row), or -1 without one: the map's cells are 13 pixels wide from its left edge,
 * x = 70 (rep_heatmap.c). Viridis's green rises with the value, so the greens order the cells as their times do. */
static int heat_green(const char *svg, int q)
{
  char opening[96];
  unsigned red, green, blue;
  snprintf(opening, sizeof opening, "<rect x=\"%d\" y=\"96\" width=\"13\" height=\"13\" fill=\"#", 70 + 13 * (q - 1));
  const char *at = strstr(svg, opening);
  return at && sscanf(at + strlen(opening), "%2x%2x%2x", &red, &green, &blue) == 3 ? (int)green : -1;
}

/* --svg on a skeleton with a process grid draws the heat map of the grids (docs/icluster.md), well-formed, with the
 * study's figures (the model view's and the simulation's, from the CSV of the same run): the time scale runs from the
 * least to the largest of T_par and T_model, the difference scale spans the largest |model_diff|, and the cells of the
 * simulated times are coloured in the order of T_par. */
static void test_rep_pictures_grid_heat_map(void)
{
  char dir[] = "/tmp/simrun-grids-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  CU_ASSERT_EQUAL_FATAL(
      run_simrun(dir, "-q --no-cache " SIMRUN_SOURCE_DIR "/tests/data/linalg/pdgemm-row.xml --svg pics --csv run.csv"),
      0);
  size_t len = 0;
  char *svg = read_file(dir, "pics/pdgemm-row-grids.svg", &len), *csv = read_file(dir, "run.csv", &len);
  CU_ASSERT_FATAL(svg && csv && tu_svg_well_formed(svg, strlen(svg)));
  static const int ps[] = {4, 5, 8, 9, 16, 17}; /* grid-rows = 1: the grid 1 x p */
  double t_lo = INFINITY, t_hi = 0, d_max = 0, t_par[6];
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
    char key[32];
    snprintf(key, sizeof key, "p=%d", ps[i]);
    double t_model = tu_csv_value(csv, key, "t_model_s");
    t_par[i] = tu_csv_value(csv, key, "t_par_s");
    CU_ASSERT_FATAL(t_par[i] > 0 && t_model > 0);
    t_lo = fmin(t_lo, fmin(t_par[i], t_model));
    t_hi = fmax(t_hi, fmax(t_par[i], t_model));
    d_max = fmax(d_max, fabs(tu_csv_value(csv, key, "model_diff")));
  }
  char text[64];
  snprintf(text, sizeof text, ">%.2f s</text>", t_lo);
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, text));
  snprintf(text, sizeof text, ">%.2f s (log scale)</text>", t_hi);
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, text));
  snprintf(text, sizeof text, ">model %.1f%% below</text>", 100 * d_max);
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, text));
  snprintf(text, sizeof text, ">%.1f%% above</text>", 100 * d_max);
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, text));
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
    for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++) {
      int gi = heat_green(svg, ps[i]), gj = heat_green(svg, ps[j]);
      CU_ASSERT(gi >= 0 && gj >= 0 && (t_par[i] >= t_par[j] || gi < gj));
    }
  free(svg);
  free(csv);
  char command[128];
  snprintf(command, sizeof command, "rm -rf %s", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_rep_pictures_study", test_rep_pictures_study},
                                    {"test_rep_pictures_show_the_figures", test_rep_pictures_show_the_figures},
                                    {"test_rep_pictures_fits_on_terminal", test_rep_pictures_fits_on_terminal},
                                    {"test_rep_pictures_against_work_size", test_rep_pictures_against_work_size},
                                    {"test_rep_pictures_grid_heat_map", test_rep_pictures_grid_heat_map},
                                    {"test_rep_pictures_bad_options", test_rep_pictures_bad_options},
                                    {NULL, NULL}};
  int status = tu_run("rep_pictures", cases);
  xmlCleanupParser();
  return status;
}
