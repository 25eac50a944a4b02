/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of rep_carnival_views: simrun --svg on a small DSM study draws CARNIVAL's views per point (seed 002 Figs. 4-5),
 * and the processors' profile of each scope holds the figures of the profiles that --csv exports. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "tu.h"
#include "tu_cli.h"
#include "tu_svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GJ_SMALL SIMRUN_SOURCE_DIR "/tests/data/dsm/gj-small.xml"

enum { NODES = 4, CATS = 4, SCOPES = 6, FIELDS = 32 };

static const char *const cats[CATS] = {"Comp", "Extra", "Wait", "Prste"};
static const char *const cat_columns[CATS] = {"profile_comp_s", "profile_extra_s", "profile_wait_s", "profile_prste_s"};
/* dsm-gauss-jordan's scopes (app_dsm_gj.c) */
static const char *const scopes[SCOPES] = {"main", "init", "normalise", "update", "collect", "exit"};

static int index_of(const char *const *names, int n, const char *name)
{
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0)
      return i;
  return -1;
}

/* Splits the line at `line` (up to its newline) into at most FIELDS comma-separated fields, copied into buf. */
static int split(const char *line, char *buf, size_t len, char **fields)
{
  size_t n = strcspn(line, "\n");
  snprintf(buf, len, "%.*s", (int)n, line);
  int count = 0;
  for (char *f = buf; f && count < FIELDS; count++) {
    fields[count] = f;
    f = strchr(f, ',');
    if (f)
      *f++ = '\0';
  }
  return count;
}

/* A point's PP time in ms by node and category and by scope and category. */
typedef struct profile {
  double node[NODES][CATS];
  double scope[SCOPES][CATS];
} profile_t;

/* The by-node and by-scope rows of `csv` (a -profiles.csv) for controller = `controller`, in ms. */
static void csv_profile(const char *csv, const char *controller, profile_t *p)
{
  char head[1024], row[1024], *h[FIELDS], *f[FIELDS];
  int nh = split(csv, head, sizeof head, h);
  int c_ctl = index_of((const char *const *)h, nh, "controller"), c_by = index_of((const char *const *)h, nh, "by");
  int c_name = index_of((const char *const *)h, nh, "name");
  CU_ASSERT_FATAL(c_ctl >= 0 && c_by >= 0 && c_name >= 0);
  for (const char *line = strchr(csv, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
    int nf = split(line + 1, row, sizeof row, f);
    if (nf != nh || strcmp(f[c_ctl], controller) != 0)
      continue;
    int node = strcmp(f[c_by], "node") == 0 && strcmp(f[c_name], "all") != 0 ? atoi(f[c_name]) : -1;
    int scope = strcmp(f[c_by], "scope") == 0 ? index_of(scopes, SCOPES, f[c_name]) : -1;
    CU_ASSERT(node < NODES && (strcmp(f[c_by], "scope") != 0 || scope >= 0));
    for (int k = 0; k < CATS && (node >= 0 || scope >= 0); k++) {
      double ms = 1e3 * atof(f[index_of((const char *const *)h, nh, cat_columns[k])]);
      *(node >= 0 ? &p->node[node][k] : &p->scope[scope][k]) = ms;
    }
  }
}

/* The segments of the picture, from their tooltips "scope S, node N: CAT V ms", summed over scopes per node and over
 * nodes per scope. Returns how many segments it read. */
static int picture_profile(const char *svg, profile_t *p)
{
  int count = 0;
  for (const char *at = strstr(svg, "<title>scope "); at; at = strstr(at + 1, "<title>scope ")) {
    char scope[32], cat[16];
    int node;
    double ms;
    CU_ASSERT_EQUAL_FATAL(sscanf(at, "<title>scope %31[^,], node %d: %15s %lf ms<", scope, &node, cat, &ms), 4);
    int s = index_of(scopes, SCOPES, scope), k = index_of(cats, CATS, cat);
    CU_ASSERT_FATAL(s >= 0 && k >= 0 && node >= 0 && node < NODES);
    p->node[node][k] += ms;
    p->scope[s][k] += ms;
    count++;
  }
  return count;
}

/* Removes the working folder `dir` and the pictures' folder in it. */
static void remove_all(const char *dir)
{
  char pics[1100];
  snprintf(pics, sizeof pics, "%s/pics", dir);
  remove_folder(pics);
  remove_folder(dir);
}

static void assert_close(double actual, double expected)
{
  CU_ASSERT(fabs(actual - expected) <= 1e-6 * fabs(expected) + 1e-6);
  if (fabs(actual - expected) > 1e-6 * fabs(expected) + 1e-6)
    fprintf(stderr, "  picture %.9g ms, profiles %.9g ms\n", actual, expected);
}

/* The time by code scope (seed 002 Fig. 4) read back from the picture's geometry and axes: each scope's bar, a segment
 * per category, against the scope's row of -profiles.csv (ms), within the picture's resolution (0.1 pixel). */
static void scopes_match(char *svg, const profile_t *exported)
{
  tu_chart_t chart = {0};
  CU_ASSERT_FATAL(svg && tu_svg_chart(svg, 0, &chart) == 0);
  for (int s = 0; s < SCOPES; s++) {
    double at = tu_svg_tick_named(svg, &chart, scopes[s]);
    CU_ASSERT(!isnan(at));
    for (int k = 0; k < CATS; k++) {
      char color[8];
      double lo = NAN, hi = NAN, expected = exported->scope[s][k];
      CU_ASSERT_FATAL(tu_svg_legend(svg, cats[k], color) == 0);
      CU_ASSERT(tu_svg_bar_at(svg, &chart, color, at, &lo, &hi) == 0 || expected == 0);
      double seen = isnan(lo) ? 0 : hi - lo;
      if (fabs(seen - expected) > 2 * tu_svg_step(&chart, expected))
        fprintf(stderr, "  scope %s, %s: the picture shows %.6g ms, the profiles %.6g ms\n", scopes[s], cats[k], seen,
                expected);
      CU_ASSERT(fabs(seen - expected) <= 2 * tu_svg_step(&chart, expected));
    }
  }
  free(svg);
}

/* The wait map (seed 002 Fig. 5) read back from the picture: each line it draws (scope, waiter, operation), a segment
 * per category of Table 1, against its row of -waits.csv (ms); it draws the 12 longest lines, or all when fewer. */
static void waits_match(char *svg, const char *waits, const char *controller)
{
  static const char *const columns[] = {"CPLWait_s", "CPLComp_s", "CPCComm_s", "CPRWait_s",
                                        "CPRComp_s", "PPRWait_s", "PPRComp_s", "PPLWait_s"};
  tu_chart_t chart = {0};
  char head[1024], row[1024], *h[FIELDS], *f[FIELDS];
  CU_ASSERT_FATAL(svg && tu_svg_chart(svg, 0, &chart) == 0);
  int nh = split(waits, head, sizeof head, h), drawn = 0, lines = 0;
  int c_ctl = index_of((const char *const *)h, nh, "controller");
  for (const char *line = strchr(waits, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
    if (split(line + 1, row, sizeof row, f) != nh || strcmp(f[c_ctl], controller) != 0)
      continue;
    char label[160];
    snprintf(label, sizeof label, "%s %s %s", f[index_of((const char *const *)h, nh, "scope")],
             f[index_of((const char *const *)h, nh, "waiter")], f[index_of((const char *const *)h, nh, "operation")]);
    double at = tu_svg_slanted(svg, label);
    lines++;
    drawn += !isnan(at);
    for (size_t k = 0; !isnan(at) && k < sizeof columns / sizeof columns[0]; k++) {
      char color[8], category[16];
      double lo = NAN, hi = NAN, expected = 1e3 * atof(f[index_of((const char *const *)h, nh, columns[k])]);
      snprintf(category, sizeof category, "%.*s", (int)strlen(columns[k]) - 2, columns[k]); /* less "_s" */
      CU_ASSERT_FATAL(tu_svg_legend(svg, category, color) == 0);
      CU_ASSERT(tu_svg_bar_at(svg, &chart, color, at, &lo, &hi) == 0 || expected == 0);
      double seen = isnan(lo) ? 0 : hi - lo;
      if (fabs(seen - expected) > 2 * tu_svg_step(&chart, expected))
        fprintf(stderr, "  wait %s, %s: the picture shows %.6g ms, -waits.csv %.6g ms\n", label, columns[k], seen,
                expected);
      CU_ASSERT(fabs(seen - expected) <= 2 * tu_svg_step(&chart, expected));
    }
  }
  CU_ASSERT(lines > 0 && drawn == (lines < 12 ? lines : 12));
  free(svg);
}

/* gj-small (dsm-gauss-jordan, n = 16 on 4 NCP2 nodes, with and without controllers): the processors' profile read back
 * from its tooltips. Summed over the scopes, each node's figure per category is the node's row of -profiles.csv;
 * summed over the nodes, each scope's is the scope's row; and each node's categories add up to T_par of the main CSV,
 * since every unit's time is accounted for from 0 to the end of the run (met_carnival.h). The time by code scope shows
 * the scopes' rows too (scopes_match), and the wait map the longest lines of -waits.csv (waits_match). */
static void test_carnival_views_processors_match_profiles(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"-q", "--no-cache", GJ_SMALL, "--svg", "pics", "--csv", "out.csv", NULL};
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  char *csv = read_output(dir, "out.csv"), *profiles = read_output(dir, "out-profiles.csv");
  char *waits = read_output(dir, "out-waits.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  CU_ASSERT_PTR_NOT_NULL_FATAL(profiles);
  CU_ASSERT_PTR_NOT_NULL_FATAL(waits);
  static const char *const controllers[] = {"yes", "no"};
  for (int point = 0; point < 2; point++) {
    char name[64];
    snprintf(name, sizeof name, "pics/gj-small-dsm-processors-%s.svg", controllers[point]);
    char *svg = read_output(dir, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT(tu_svg_well_formed(svg, strlen(svg)));
    profile_t drawn = {0}, exported = {0};
    CU_ASSERT(picture_profile(svg, &drawn) > NODES);
    csv_profile(profiles, controllers[point], &exported);
    double t_par_ms = 1e3 * csv_number(csv, point + 1, (const char *const[]){"t_par_s", NULL});
    CU_ASSERT(t_par_ms > 0);
    for (int n = 0; n < NODES; n++) {
      double total = 0;
      for (int k = 0; k < CATS; k++) {
        assert_close(drawn.node[n][k], exported.node[n][k]);
        total += drawn.node[n][k];
      }
      assert_close(total, t_par_ms);
    }
    for (int s = 0; s < SCOPES; s++)
      for (int k = 0; k < CATS; k++)
        assert_close(drawn.scope[s][k], exported.scope[s][k]);
    free(svg);
    snprintf(name, sizeof name, "pics/gj-small-dsm-scopes-%s.svg", controllers[point]);
    scopes_match(read_output(dir, name), &exported);
    snprintf(name, sizeof name, "pics/gj-small-dsm-waits-%s.svg", controllers[point]);
    waits_match(read_output(dir, name), waits, controllers[point]);
  }
  free(csv);
  free(profiles);
  free(waits);
  run_free(&run);
  remove_all(dir);
}

/* The three views per point, well-formed, named after the swept controller: the time by code scope (a bar per scope
 * of the skeleton), the processors' profile (a panel per scope where the PPs spent time) and the wait map. */
static void test_carnival_views_pictures(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"-q", "--no-cache", GJ_SMALL, "--svg", "pics", NULL};
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  static const char *const names[] = {"pics/gj-small-dsm-scopes-yes.svg",     "pics/gj-small-dsm-scopes-no.svg",
                                      "pics/gj-small-dsm-processors-yes.svg", "pics/gj-small-dsm-processors-no.svg",
                                      "pics/gj-small-dsm-waits-yes.svg",      "pics/gj-small-dsm-waits-no.svg"};
  for (size_t i = 0; i < 6; i++) {
    char *svg = read_output(dir, names[i]);
    CU_ASSERT(svg && tu_svg_well_formed(svg, strlen(svg)));
    for (size_t s = 1; svg && i < 2 && s < SCOPES; s++) {
      char label[64];
      snprintf(label, sizeof label, ">%s<", scopes[s]);
      CU_ASSERT_PTR_NOT_NULL(strstr(svg, label));
    }
    CU_ASSERT(svg == NULL || i < 2 || i >= 4 || strstr(svg, ">Scope update: "));
    CU_ASSERT(svg == NULL || i < 4 || strstr(svg, ">PPRWait<"));
    free(svg);
  }
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Pictures: 6 SVG files in pics"));
  run_free(&run);
  remove_all(dir);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_carnival_views_pictures", test_carnival_views_pictures},
      {"test_carnival_views_processors_match_profiles", test_carnival_views_processors_match_profiles},
      {NULL, NULL}};
  int status = tu_run("rep_carnival_views", cases);
  xmlCleanupParser();
  return status;
}
