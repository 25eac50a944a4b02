/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The summary a study opens with (rep_summary.h), on a hand-built what-if: topology (mesh, torus) x broadcast
 * (one-to-all, neighbour) at p = 4 and 16, T_seq = 40 s, each point's seconds summed over ranks given by hand. Its best
 * configuration per p, margins, "within 1%", best speedup, separating class and component, verdict and agreement with
 * a reference figure are worked out below from those seconds, never read from simrun's output. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "rep_summary.h"
#include "stu_view.h"
#include "tu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *topologies[] = {"mesh", "torus"};
static char *broadcasts[] = {"one-to-all", "neighbour"};
static char *ps[] = {"4", "16"};
static const char *values[8][3] = {{"mesh", "one-to-all", "4"},   {"mesh", "neighbour", "4"},
                                   {"torus", "one-to-all", "4"},  {"torus", "neighbour", "4"},
                                   {"mesh", "one-to-all", "16"},  {"mesh", "neighbour", "16"},
                                   {"torus", "one-to-all", "16"}, {"torus", "neighbour", "16"}};

static double t_seq = 40; /* 1 s: a machine on which the run never speeds up */

/* Point `which` at p with these seconds summed over ranks (work, comm, idle; T_par is their sum / p), T_seq = 40 s,
 * and a Table 5 breakdown of `cpu` seconds of processing and `broadcast` seconds of communication. */
static stu_point_t point(int which, int p, double work, double comm, double idle, double cpu, double broadcast)
{
  stu_point_t pt = {.values = values[which], .p = p, .t_par = (work + comm + idle) / p};
  stu_lost_cycles_t *r = stu_lost_cycles_make(&pt);
  CU_ASSERT_FATAL(r != NULL);
  r->eppa.t_seq = t_seq;
  r->eppa.t_par = pt.t_par;
  r->eppa.work = work;
  r->eppa.ovh_time[MET_OVH_COMM] = comm;
  r->eppa.ovh_time[MET_OVH_IDLE] = idle;
  r->eppa.speedup = t_seq / pt.t_par;
  r->eppa.efficiency = r->eppa.speedup / p;
  met_breakdown_t *b = &r->breakdown;
  b->p = p;
  b->t_par = pt.t_par;
  b->sub[MET_SUB_CPU] = b->component[MET_COMP_PROCESSING] = cpu;
  b->sub[MET_SUB_BROADCAST] = b->component[MET_COMP_COMMUNICATION] = broadcast;
  b->b_ratio[MET_COMP_PROCESSING] = cpu / broadcast;
  b->b_ratio[MET_COMP_COMMUNICATION] = broadcast / cpu;
  return pt;
}

/* p = 4: mesh/one-to-all 40 + 8 + 12 = 60 -> 15 s; mesh/neighbour 40 + 4 + 4 = 48 -> 12 s; torus/one-to-all 40 + 6 +
 * 10 = 56 -> 14 s; torus/neighbour 40 + 4 + 4.4 = 48.4 -> 12.1 s. Best mesh/neighbour, by 0.1 / 12 = 0.833% over
 * torus/neighbour: within 1%.
 * p = 16: mesh/one-to-all 40 + 16 + 104 = 160 -> 10 s; mesh/neighbour 40 + 12 + 28 = 80 -> 5 s; torus/one-to-all
 * 40 + 14 + 90 = 144 -> 9 s; torus/neighbour 40 + 12 + 20 = 72 -> 4.5 s. Best torus/neighbour, by 0.5 / 4.5 = 11.11%
 * over mesh/neighbour, whose extra per process is idle (28 - 20) / 16 = 0.5 s (work and comm equal) and whose
 * broadcast is 3 - 2 = 1 s longer. Best speedup 40 / 4.5 = 8.89 there; its B-ratio of processing 2.5 / 2 = 1.25:
 * processing is a bottleneck, mostly cpu. The reference T_par of 5 s at p = 16 for the neighbour broadcast: mesh 0%,
 * torus (4.5 - 5) / 5 = -10%: mean |error| 5%, max 10% (torus's). */
static void build(stu_point_t *points)
{
  points[0] = point(0, 4, 40, 8, 12, 10, 4);
  points[1] = point(1, 4, 40, 4, 4, 10, 1);
  points[2] = point(2, 4, 40, 6, 10, 10, 3);
  points[3] = point(3, 4, 40, 4, 4.4, 10, 1.1);
  points[4] = point(4, 16, 40, 16, 104, 2.5, 6);
  points[5] = point(5, 16, 40, 12, 28, 2.5, 3);
  points[6] = point(6, 16, 40, 14, 90, 2.5, 5);
  points[7] = point(7, 16, 40, 12, 20, 2.5, 2);
}

static int ref_p[] = {16};
static double ref_values[] = {5.0};

typedef struct fixture {
  scn_param_t params[3];
  scn_reference_t ref;
  scn_scenario_t scenario;
  stu_point_t points[8];
  stu_study_t study;
} fixture_t;

/* The what-if above; with `zipped` 1, its topology zipped with p as a scaled sweep's n is (scn_param_t.zip); with 2,
 * its broadcast too; with 3, nothing zipped but the topology a size (SCN_ROLE_SIZE), as a worksize sweep's n is. */
static void fixture_up(fixture_t *f, int zipped)
{
  int zip = zipped == 1 || zipped == 2;
  f->params[0] = (scn_param_t){.name = "topology",
                               .values = topologies,
                               .nvalues = 2,
                               .swept = 1,
                               .zip = zip,
                               .role = zipped == 3 ? SCN_ROLE_SIZE : SCN_ROLE_NONE};
  f->params[1] = (scn_param_t){.name = "broadcast", .values = broadcasts, .nvalues = 2, .swept = 1, .zip = zipped == 2};
  f->params[2] =
      (scn_param_t){.name = "p", .values = ps, .nvalues = 2, .swept = 1, .role = SCN_ROLE_PROCESSES, .zip = zip};
  f->ref = (scn_reference_t){.quantity = "t_par",
                             .source = "hand",
                             .where_name = "broadcast",
                             .where_value = "neighbour",
                             .p = ref_p,
                             .values = ref_values,
                             .count = 1};
  f->scenario =
      (scn_scenario_t){.name = "what-if", .params = f->params, .nparams = 3, .refs = &f->ref, .nrefs = 1, .nzips = zip};
  build(f->points);
  f->study = (stu_study_t){.scenario = &f->scenario,
                           .facts = {.views = MET_VIEW_LOST_CYCLES, .skeleton = "hand"},
                           .npoints = 8,
                           .points = f->points};
  CU_ASSERT_EQUAL_FATAL(stu_view_summarise(&f->study), 0);
}

static void fixture_down(fixture_t *f)
{
  stu_summaries_release(&f->study);
  for (size_t i = 0; i < 8; i++)
    stu_slots_release(&f->points[i]);
}

/* The fixture and its summary; summary_down frees both. */
static void summary_up(fixture_t *f, rep_summary_t *s, int zipped)
{
  fixture_up(f, zipped);
  CU_ASSERT_EQUAL_FATAL(rep_summary_make(&f->study, s), 0);
}

static void summary_down(fixture_t *f, rep_summary_t *s)
{
  rep_summary_free(s);
  fixture_down(f);
}

static void test_rep_summary_figures(void)
{
  fixture_t f;
  rep_summary_t s;
  summary_up(&f, &s, 0);
  CU_ASSERT_EQUAL(s.p_min, 4);
  CU_ASSERT_EQUAL(s.p_max, 16);
  CU_ASSERT_EQUAL_FATAL(s.nranges, 2);
  CU_ASSERT_PTR_EQUAL(s.ranges[0].first, &f.points[1]); /* p = 4: mesh, neighbour */
  CU_ASSERT_PTR_EQUAL(s.ranges[0].runner_up, &f.points[3]);
  TU_ASSERT_CLOSE(s.ranges[0].margin_min, 0.1 / 12, 1e-12);
  CU_ASSERT(s.ranges[0].margin_max < REP_SUMMARY_WITHIN);
  CU_ASSERT_PTR_EQUAL(s.ranges[1].first, &f.points[7]); /* p = 16: torus, neighbour */
  CU_ASSERT_PTR_EQUAL(s.ranges[1].runner_up, &f.points[5]);
  TU_ASSERT_CLOSE(s.ranges[1].margin_max, 0.5 / 4.5, 1e-12);
  CU_ASSERT_PTR_EQUAL(s.top_speedup, &f.points[7]);
  CU_ASSERT_PTR_EQUAL(s.sep_best, &f.points[7]);
  CU_ASSERT_PTR_EQUAL(s.sep_second, &f.points[5]);
  CU_ASSERT_EQUAL(s.sep_most, REP_CLASS_IDLE);
  TU_ASSERT_CLOSE(s.sep_class[REP_CLASS_IDLE], 0.5, 1e-12);
  TU_ASSERT_CLOSE(s.sep_class[REP_CLASS_WORK] + s.sep_class[REP_CLASS_COMM], 0, 1e-12);
  CU_ASSERT_EQUAL(s.sep_sub, MET_SUB_BROADCAST);
  TU_ASSERT_CLOSE(s.sep_sub_seconds, 1.0, 1e-12);
  CU_ASSERT_TRUE(s.has_verdict);
  CU_ASSERT_EQUAL(s.verdict.dominant, MET_COMP_PROCESSING);
  CU_ASSERT_TRUE(s.verdict.is_bottleneck);
  TU_ASSERT_CLOSE(s.verdict_ratio, 1.25, 1e-12);
  CU_ASSERT_EQUAL(s.refs_t_par.count, 2);
  TU_ASSERT_CLOSE(s.refs_t_par.mean_abs, 0.05, 1e-12);
  TU_ASSERT_CLOSE(s.refs_t_par.max_abs, 0.10, 1e-12);
  CU_ASSERT_PTR_EQUAL(s.refs_t_par.worst_point, &f.points[7]);
  CU_ASSERT_EQUAL(s.refs_parts.count, 0);
  CU_ASSERT_EQUAL(s.model_count, 0);
  summary_down(&f, &s);
}

/* The same summary as printed: at most 20 lines within 80 columns (and no line wider than 40 at 40), with the figures
 * above. */
/* The summary of the hand-built what-if (zipped as fixture_up says) at `width` columns (the caller frees it). */
static char *printed(int width, int zipped)
{
  fixture_t f;
  rep_summary_t s;
  summary_up(&f, &s, zipped);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_FATAL(out != NULL);
  rep_summary_print(out, &f.study, &s, width);
  fclose(out);
  summary_down(&f, &s);
  return text;
}

static void test_rep_summary_printed(void)
{
  static const int widths[] = {80, 40};
  for (size_t w = 0; w < 2; w++) {
    char *text = printed(widths[w], 0);
    size_t lines = 0;
    for (const char *c = text + 1; *c; c += strcspn(c, "\n") + 1) { /* after the blank line before it */
      CU_ASSERT(strcspn(c, "\n") <= (size_t)widths[w]);
      lines++;
    }
    CU_ASSERT(lines <= 20 || widths[w] < 80); /* one screen at 80 columns; narrower, the lines wrap into more */
    if (widths[w] == 80) {
      CU_ASSERT_PTR_NOT_NULL(strstr(text, "  p = 4: mesh, neighbour, by 0.83% over torus, neighbour (within 1%)\n"));
      CU_ASSERT_PTR_NOT_NULL(strstr(text, "  p = 16: torus, neighbour, by 11.11% over mesh, neighbour\n"));
      CU_ASSERT_PTR_NOT_NULL(strstr(text, "Best speedup: 8.89 at p = 16, torus, neighbour (T_par = 4.50 s,"));
      CU_ASSERT_PTR_NOT_NULL(
          strstr(text, "At p = 16 the runner-up (mesh, neighbour) trails the best (torus, neighbour) by\n"
                       "    500 ms: per process, idle +500 ms on average; component: broadcast +1.00 s\n"));
      CU_ASSERT_PTR_NOT_NULL(strstr(text, "processing is a bottleneck (B-ratio 1.25), mostly cpu"));
      CU_ASSERT_PTR_NOT_NULL(strstr(text, "Reference T_par (2 figures): mean |error| 5.0%, max 10.0%"));
    }
    free(text);
  }
}

/* With T_seq = 1 s the best speedup is 1 / 4.5 = 0.22 (torus, neighbour at p = 16): the verdict line says the run
 * never speeds up rather than naming a bottleneck at that p. */
static void test_rep_summary_never_speeds_up(void)
{
  t_seq = 1;
  char *text = printed(100, 0);
  CU_ASSERT_PTR_NOT_NULL(
      strstr(text, "Bottleneck: none at a best p, the run never speeds up (speedup at most 0.22)\n"));
  CU_ASSERT_PTR_NULL(strstr(text, "Bottleneck at p ="));
  free(text);
  t_seq = 40;
}

/* The what-if with its topology zipped with p (a scaled sweep's n), or marked as a size (a worksize sweep's n): only
 * points of equal topology are rivals at a p.
 * By hand from the times above: p = 4, mesh: neighbour 12 s best, by 3 / 12 = 25% over one-to-all 15 s; torus:
 * neighbour 12.1 s, by 1.9 / 12.1 = 15.70% over 14 s; p = 16, mesh: 5 s, by 100% over 10 s; torus: 4.5 s, by 100%
 * over 9 s. Unzipped, p = 4 ranked mesh/neighbour over torus/neighbour (0.83%), points of different topologies. */
static void test_rep_summary_scaled(void)
{
  for (int zipped = 1; zipped <= 3; zipped += 2) { /* the topology zipped with p, or a size: the same rankings */
    fixture_t f;
    rep_summary_t s;
    summary_up(&f, &s, zipped);
    CU_ASSERT_EQUAL_FATAL(s.nranges, 4);
    static const int best[] = {1, 3, 5, 7}, second[] = {0, 2, 4, 6};
    static const double margins[] = {3.0 / 12, 1.9 / 12.1, 1, 1};
    for (size_t k = 0; k < 4; k++) {
      CU_ASSERT_PTR_EQUAL(s.ranges[k].first, &f.points[best[k]]);
      CU_ASSERT_PTR_EQUAL(s.ranges[k].runner_up, &f.points[second[k]]);
      TU_ASSERT_CLOSE(s.ranges[k].margin_max, margins[k], 1e-12);
    }
    CU_ASSERT_PTR_EQUAL(s.sep_best, &f.points[7]); /* the largest p's last ranking: torus */
    CU_ASSERT_PTR_EQUAL(s.sep_second, &f.points[6]);
    summary_down(&f, &s);
    char *text = printed(100, zipped);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "Best per p (lowest T_par among equal topology), its lead"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "p = 4: mesh, neighbour, by 25.00% over mesh, one-to-all\n"));
    free(text);
  }
  char *text;
  /* both zipped: no two points at a p are rivals, and the summary says so */
  text = printed(200, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "Best per p: none compared (at each p the points differ in topology, broadcast "
                                      "alone: different problems)\n"));
  CU_ASSERT_PTR_NULL(strstr(text, "the runner-up ("));
  free(text);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_rep_summary_figures", test_rep_summary_figures},
                                    {"test_rep_summary_printed", test_rep_summary_printed},
                                    {"test_rep_summary_never_speeds_up", test_rep_summary_never_speeds_up},
                                    {"test_rep_summary_scaled", test_rep_summary_scaled},
                                    {NULL, NULL}};
  return tu_run("rep_summary", cases);
}
