/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The factor x factor view (stu_factors.h, rep_factors.h, the CSV's "factors" table and the JSON's "factors") on a
 * hand-built study of topology x bcast at p = 2 and 4, its points listed out of the sweep's order and one missing, so
 * that a cell holds its own point only if the pairing is by value, and the best and the ranks are hand-checked. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "rep_factors.h"
#include "rep_report.h"
#include "stu_lost_cycles.h"
#include "tu.h"
#include "tu_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *topologies[] = {"mesh", "torus", "cube"};
static char *bcasts[] = {"one", "tree"};
static char *ps[] = {"2", "4"};
static scn_param_t params[] = {{.name = "topology", .values = topologies, .nvalues = 3, .swept = 1},
                               {.name = "bcast", .values = bcasts, .nvalues = 2, .swept = 1},
                               {.name = "p", .values = ps, .nvalues = 2, .swept = 1, .role = SCN_ROLE_PROCESSES}};
static scn_scenario_t scenario = {.name = "s", .skeleton = "k", .platform = "m.xml", .params = params, .nparams = 3};

/* T_seq is 12 s: the speedup is 12 / T_par. At p = 2: torus-one and torus-tree tie at 4 s (rank 1, both best),
 * cube-tree 4.5 (3), mesh-tree 5 (4), mesh-one 6 (5), cube-one 7 (6). At p = 4 (no cube point): torus-tree 2 s (1,
 * best, speedup 6), mesh-tree 2.5 (2, 4.8), mesh-one 3 (3, 4), torus-one 3.5 (4). */
static const char *values[][3] = {{"torus", "tree", "4"}, {"cube", "one", "2"},  {"mesh", "one", "4"},
                                  {"torus", "one", "2"},  {"mesh", "tree", "2"}, {"torus", "one", "4"},
                                  {"cube", "tree", "2"},  {"mesh", "tree", "4"}, {"mesh", "one", "2"},
                                  {"torus", "tree", "2"}};
static const double t_par[] = {2, 7, 3, 4, 5, 3.5, 4.5, 2.5, 6, 4};
enum { NPOINTS = sizeof t_par / sizeof t_par[0] };

typedef struct fixture {
  stu_point_t points[NPOINTS];
  stu_study_t study;
} fixture_t;

static void setup(fixture_t *f)
{
  for (size_t i = 0; i < NPOINTS; i++) {
    f->points[i] = (stu_point_t){.values = values[i], .p = atoi(values[i][2]), .t_par = t_par[i]};
    stu_lost_cycles_t *r = stu_lost_cycles_make(&f->points[i]);
    CU_ASSERT_FATAL(r != NULL);
    r->eppa.t_seq = 12;
    r->eppa.speedup = 12 / t_par[i];
  }
  f->study = (stu_study_t){
      .scenario = &scenario, .facts.views = MET_VIEW_LOST_CYCLES, .npoints = NPOINTS, .points = f->points};
}

static void teardown(fixture_t *f)
{
  for (size_t i = 0; i < NPOINTS; i++)
    stu_slots_release(&f->points[i]);
}

/* Each cell holds the point of its own values; ranks and best as worked out above; the missing point is NULL. */
static void test_rep_factors_pairing_and_best(void)
{
  fixture_t fx;
  setup(&fx);
  stu_factors_t f;
  CU_ASSERT_EQUAL_FATAL(stu_factors_collect(&fx.study, &f), 1);
  CU_ASSERT_EQUAL(f.nfactors, 2);
  CU_ASSERT_EQUAL(f.rows, 3);
  CU_ASSERT_EQUAL(f.cols, 2);
  CU_ASSERT_EQUAL_FATAL(f.np, 2);
  CU_ASSERT_EQUAL(f.p[0], 4); /* the order of each p's first point */
  CU_ASSERT_EQUAL(f.p[1], 2);
  static const int rank2[3][2] = {{5, 4}, {1, 1}, {6, 3}}, rank4[3][2] = {{3, 2}, {4, 1}, {0, 0}};
  for (size_t r = 0; r < 3; r++)
    for (size_t c = 0; c < 2; c++) {
      const stu_factor_cell_t *at2 = stu_factors_cell(&f, 1, r, c), *at4 = stu_factors_cell(&f, 0, r, c);
      CU_ASSERT_FATAL(at2->point != NULL);
      CU_ASSERT_STRING_EQUAL(at2->point->values[0], topologies[r]);
      CU_ASSERT_STRING_EQUAL(at2->point->values[1], bcasts[c]);
      CU_ASSERT_EQUAL(at2->point->p, 2);
      CU_ASSERT_EQUAL(at2->rank, rank2[r][c]);
      CU_ASSERT_EQUAL(at2->best, rank2[r][c] == 1);
      CU_ASSERT_EQUAL(at4->rank, rank4[r][c]);
      CU_ASSERT_EQUAL(at4->best, rank4[r][c] == 1);
      CU_ASSERT(r == 2 ? at4->point == NULL
                       : at4->point && strcmp(at4->point->values[0], topologies[r]) == 0 &&
                             strcmp(at4->point->values[1], bcasts[c]) == 0);
      CU_ASSERT_STRING_EQUAL(stu_factors_value(&fx.study, &f, 0, r, c), topologies[r]);
      CU_ASSERT_STRING_EQUAL(stu_factors_value(&fx.study, &f, 1, r, c), bcasts[c]);
    }
  stu_factors_free(&f);
  teardown(&fx);
}

/* What `write` prints for the fixture's study (the caller frees it). */
static char *rendered(void (*write)(FILE *, const stu_study_t *, const stu_factors_t *))
{
  fixture_t fx;
  setup(&fx);
  stu_factors_t f;
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_FATAL(out != NULL && stu_factors_collect(&fx.study, &f) == 1);
  write(out, &fx.study, &f);
  fclose(out);
  stu_factors_free(&f);
  teardown(&fx);
  return text;
}

static void print80(FILE *out, const stu_study_t *study, const stu_factors_t *f)
{
  (void)f;
  rep_factors_print(out, study, 80);
}

/* With the topology a size (SCN_ROLE_SIZE, as a worksize sweep's N), cells are ranked within their topology alone:
 * by hand from the times above, p = 2: mesh tree 5 (1) one 6 (2); torus 4 and 4 (1, 1); cube tree 4.5 (1) one 7 (2);
 * p = 4: mesh tree 2.5 (1) one 3 (2); torus tree 2 (1) one 3.5 (2). */
static void test_rep_factors_ranks_within_a_size(void)
{
  fixture_t fx;
  setup(&fx);
  params[0].role = SCN_ROLE_SIZE;
  stu_factors_t f;
  CU_ASSERT_EQUAL_FATAL(stu_factors_collect(&fx.study, &f), 1);
  static const int rank2[3][2] = {{2, 1}, {1, 1}, {2, 1}}, rank4[3][2] = {{2, 1}, {2, 1}, {0, 0}};
  for (size_t r = 0; r < 3; r++)
    for (size_t c = 0; c < 2; c++) {
      CU_ASSERT_EQUAL(stu_factors_cell(&f, 1, r, c)->rank, rank2[r][c]);
      CU_ASSERT_EQUAL(stu_factors_cell(&f, 0, r, c)->rank, rank4[r][c]);
      CU_ASSERT_EQUAL(stu_factors_cell(&f, 0, r, c)->best, rank4[r][c] == 1);
    }
  stu_factors_free(&f);
  teardown(&fx);
  char *text = rendered(print80); /* the terminal says which factors the ranks hold equal */
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "* the best (lowest T_par among equal topology; ties all marked).\n"));
  free(text);
  params[0].role = SCN_ROLE_NONE;
}

/* The terminal: a row per topology under each p, T_par and speedup per bcast, '*' on the best only, '-' where no point
 * is; no line wider than 80 columns. */
static void test_rep_factors_terminal(void)
{
  char *text = rendered(print80);
  CU_ASSERT_FATAL(text != NULL);
  CU_ASSERT(strstr(text, "rows topology, columns bcast") != NULL);
  const char *p4 = strstr(text, "\np = 4");
  CU_ASSERT_FATAL(p4 != NULL);
  double t_one, s_one, t_tree, s_tree;
  char mark[8] = "";
  const char *torus = strstr(p4, "\ntorus");
  CU_ASSERT_FATAL(torus != NULL);
  CU_ASSERT_EQUAL(sscanf(torus, " torus %lf %lf %lf %lf%7s", &t_one, &s_one, &t_tree, &s_tree, mark), 5);
  TU_ASSERT_CLOSE(t_one, 3.5, 1e-9);
  TU_ASSERT_CLOSE(s_one, 12 / 3.5, 0.005);
  TU_ASSERT_CLOSE(t_tree, 2, 1e-9);
  TU_ASSERT_CLOSE(s_tree, 6, 1e-9);
  CU_ASSERT_STRING_EQUAL(mark, "*");
  const char *mesh = strstr(p4, "\nmesh");
  CU_ASSERT(mesh && strncmp(strchr(mesh + 1, '\n') - 1, " ", 1) != 0 && !memchr(mesh, '*', strcspn(mesh + 1, "\n")));
  const char *cube = strstr(p4, "\ncube");
  char dash1[4], dash2[4];
  CU_ASSERT(cube && sscanf(cube, " cube %3s %3s", dash1, dash2) == 2 && strcmp(dash1, "-") == 0 &&
            strcmp(dash2, "-") == 0);
  size_t stars = 0;
  for (const char *c = text; *c; c++)
    stars += *c == '*';
  CU_ASSERT_EQUAL(stars, 1 + 2 + 1); /* the legend's, p = 4's best, p = 2's tie */
  for (const char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != '\0'))
    CU_ASSERT(strcspn(line, "\n") <= 80);
  free(text);
}

/* The picture: each bar's tooltip pairs its values with its speedup; the ranks over the bars. */
static void svg(FILE *out, const stu_study_t *study, const stu_factors_t *f)
{
  CU_ASSERT_EQUAL(rep_factors_svg(out, study, f), 0);
}

static void test_rep_factors_picture(void)
{
  char *text = rendered(svg);
  CU_ASSERT_FATAL(text != NULL);
  CU_ASSERT(strstr(text, "<title>p = 4 torus, tree: tree 6</title>") != NULL);
  CU_ASSERT(strstr(text, "<title>p = 2 cube, one: one 1.71428571</title>") != NULL);
  CU_ASSERT(strstr(text, "p = 4 cube") == NULL); /* no bar without a point */
  CU_ASSERT(strstr(text, ">1*</text>") != NULL);
  CU_ASSERT(strstr(text, ">6</text>") != NULL);
  free(text);
}

/* The page's table: the best in bold with its mark, T_par in its p's unit, the speedup to 2 decimals as the terminal's
 * factor table (12 s / 3.5 s = 3.43), each figure exact in its tooltip. */
static void test_rep_factors_html(void)
{
  char *text = rendered(rep_factors_html);
  CU_ASSERT_FATAL(text != NULL);
  /* T_par in the p's unit with 4 significant digits at least (the smallest, 2 s, as 2.000) */
  CU_ASSERT(strstr(text, "<th>T_par (s)</th><th>speedup</th>") != NULL);
  CU_ASSERT(strstr(text, "<th>torus</th><td class=\"n\" title=\"3.5 s\">3.500</td><td class=\"n\" "
                         "title=\"3.42857143\">3.43</td><td class=\"n best\" title=\"2 s\">2.000 *</td><td "
                         "class=\"n best\" title=\"6\">6.00</td>") != NULL);
  CU_ASSERT(strstr(text, "<th>cube</th><td class=\"n\">-</td>") != NULL);
  free(text);
}

/* The CSV's tidy table and the JSON's: a row per point, one column per factor, rank and best. */
static void test_rep_factors_csv_json(void)
{
  fixture_t fx;
  setup(&fx);
  char dir[1024], path[2048], err[256];
  CU_ASSERT_FATAL(make_folder(dir, sizeof dir) == 0);
  snprintf(path, sizeof path, "%s/out.csv", dir);
  CU_ASSERT_EQUAL_FATAL(rep_csv_tables(&fx.study, path, err, sizeof err), 0);
  char *csv = read_output(dir, "out-factors.csv");
  CU_ASSERT_FATAL(csv != NULL);
  CU_ASSERT(strncmp(csv, "scenario,topology,bcast,p,t_par_s,speedup,rank,best\n", 52) == 0);
  CU_ASSERT(strstr(csv, "\ns,torus,tree,4,2,6,1,1\n") != NULL);
  CU_ASSERT(strstr(csv, "\ns,mesh,tree,4,2.5,4.8,2,0\n") != NULL);
  CU_ASSERT(strstr(csv, "\ns,torus,one,2,4,3,1,1\ns,torus,tree,2,4,3,1,1\n") != NULL);
  CU_ASSERT(strstr(csv, "cube,one,4") == NULL && strstr(csv, "cube,tree,4") == NULL);
  free(csv);
  char *json = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&json, &len);
  CU_ASSERT_FATAL(out != NULL);
  CU_ASSERT_EQUAL(rep_json(out, &fx.study), 0);
  fclose(out);
  CU_ASSERT(strstr(json, "\"factors\": {\"names\": [\"topology\", \"bcast\"]") != NULL);
  CU_ASSERT(strstr(json, "{\"topology\": \"torus\", \"bcast\": \"tree\", \"p\": 4, \"t_par_s\": 2, \"speedup\": 6, "
                         "\"rank\": 1, \"best\": true}") != NULL);
  free(json);
  remove_folder(dir);
  teardown(&fx);
}

/* One factor is no factor x factor view. */
static void test_rep_factors_one_factor(void)
{
  fixture_t fx;
  setup(&fx);
  params[1].nvalues = 1;
  stu_factors_t f;
  CU_ASSERT_EQUAL(stu_factors_collect(&fx.study, &f), 0);
  stu_factors_free(&f);
  params[1].nvalues = 2;
  teardown(&fx);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_rep_factors_pairing_and_best", test_rep_factors_pairing_and_best},
                                    {"test_rep_factors_ranks_within_a_size", test_rep_factors_ranks_within_a_size},
                                    {"test_rep_factors_terminal", test_rep_factors_terminal},
                                    {"test_rep_factors_picture", test_rep_factors_picture},
                                    {"test_rep_factors_html", test_rep_factors_html},
                                    {"test_rep_factors_csv_json", test_rep_factors_csv_json},
                                    {"test_rep_factors_one_factor", test_rep_factors_one_factor},
                                    {NULL, NULL}};
  return tu_run("rep_factors", cases);
}
