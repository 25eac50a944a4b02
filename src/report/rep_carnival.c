/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CARNIVAL's views for NCP2 (seed 002 §4.3, Figs. 4-5; Table 1) in the terminal report and the JSON: the profiles by
 * node, scope and operation and the wait map (their tables' schemas, rep_dsm_tables.h), the dominant operation and
 * category, one page request's 13 intervals, and what the protocol controller saves against the original TreadMarks
 * (the last three as the cause-effect view drew them, stu_cause_effect.h). */
#include "rep_carnival.h"
#include "rep_dsm_tables.h"
#include "rep_group.h"
#include "rep_json.h"
#include "stu_cause_effect.h"

#include <math.h>
#include <stdlib.h>

enum { REP_MAP_ROWS = 12 };

/* A profile of the point's rows by `by` ("node", "scope", "operation") under its title. */
static void print_profile(FILE *out, const stu_study_t *study, const stu_point_t *point, const char *by,
                          const char *title, int width)
{
  size_t count;
  rep_at_t *rows = rep_profiles_rows(study, point, by, &count);
  fprintf(out, "\n%s\n", title);
  rep_schema_print(out, &rep_profiles_schema, rows, count, width);
  free(rows);
}

static void print_map(FILE *out, const stu_study_t *study, const stu_point_t *point, int width)
{
  size_t rows;
  rep_at_t *map = rep_waits_rows(study, point, &rows);
  fprintf(out, "\nWait map (CARNIVAL's CPWait map, Fig. 5): who waited where on what, longest first; profile in %% of "
               "each row's time\n");
  rep_schema_print(out, &rep_waits_schema, map, rows < REP_MAP_ROWS ? rows : REP_MAP_ROWS, width);
  if (rows > REP_MAP_ROWS)
    fprintf(out, "  ... %zu more rows in the CSV and JSON outputs\n", rows - REP_MAP_ROWS);
  free(map);
}

/* What dominates the waiting (the view's, stu_ce_dominant). */
static void print_dominant(FILE *out, const stu_point_t *point)
{
  const stu_ce_dominant_t *d = stu_ce_dominant(point);
  if (!d)
    return;
  fprintf(out, "\nWhat dominates the waiting: the PPs waited %.3f ms on %zu requests (%.1f%% of their time).\n",
          1e3 * d->all.time, d->all.count, d->all_pct);
  fprintf(out, "  operation: %s requests, %.1f%% of the wait (%zu requests, mean %.1f us);\n", met_ce_op_name(d->op),
          d->op_pct, d->of_op.count, d->op_mean_us);
  fprintf(out, "  category:  %s (%s), %.1f%% of all waiting; within %s requests, %s (%.1f%%).\n",
          met_wait_cat_name(d->cat), met_wait_cat_title(d->cat), d->cat_pct, met_ce_op_name(d->op),
          met_wait_cat_name(d->cat_of_op), d->cat_of_op_pct);
  if (!isnan(d->barrier_pct))
    fprintf(out,
            "  note: a barrier's interval 6 (PPRWait) also holds its wait for the last node to arrive (load "
            "imbalance); barriers hold %.1f%% of the PPRWait here.\n",
            d->barrier_pct);
}

/* One page request followed through its 13 intervals (Fig. 1, Table 1). */
static void print_first_request(FILE *out, const stu_point_t *point)
{
  const stu_ce_first_t *first = stu_ce_first_page(point);
  if (!first)
    return;
  const met_carnival_t *c = stu_carnival(point);
  const met_request_t *r = first->request;
  const double wait = first->wait, *cats = first->cats;
  fprintf(out,
          "\nThe first page request, interval by interval (Fig. 1): node %d, scope %s, page %d from node %d, "
          "waited %.2f us\n  %2s %-8s %12s %11s  %s\n",
          r->node, met_carnival_scope_name(c, r->scope), r->item, r->peer, 1e6 * wait, "k", "category", "start (us)",
          "length (us)", "step");
  for (int k = 1; k <= MET_CE_INTERVALS; k++)
    fprintf(out, "  %2d %-8s %12.2f %11.2f  %s\n", k, met_wait_cat_name(met_ce_interval(k)), 1e6 * r->mark[k - 1],
            1e6 * (r->mark[k] - r->mark[k - 1]), met_carnival_step(MET_OP_PAGE, k));
  fprintf(out, "  by category (us):");
  for (int k = 0; k < MET_W_COUNT; k++)
    fprintf(out, " %s %.2f%s", met_wait_cat_name(k), 1e6 * cats[k], k + 1 < MET_W_COUNT ? "," : "");
  fprintf(out, "; they add up to the wait, %.2f us\n", 1e6 * wait);
}

static void print_point(FILE *out, const stu_study_t *study, const stu_point_t *point, int width)
{
  const met_carnival_t *c = stu_carnival(point);
  fprintf(out, "\n==== ");
  if (rep_print_params(out, study, point, 1))
    fprintf(out, ", ");
  fprintf(out, "p = %d: T_par = %.6f s, requests:", point->p, point->t_par);
  for (int op = MET_OP_PAGE; op < MET_OP_COUNT; op++)
    fprintf(out, " %s %zu", met_ce_op_name(op), met_carnival_wait(c, MET_UNIT_PP, op, -1).count);
  fprintf(out, "%s\n",
          met_carnival_has_cp(c) ? ""
                                 : " (no protocol controllers: original TreadMarks; a request's CP "
                                   "categories name the same steps, run by the PPs)");
  print_profile(out, study, point, "node", "Time by node: PP, then CP; every row adds up to T_par per unit", width);
  print_profile(out, study, point, "scope", "Time by code scope, all nodes", width);
  print_profile(out, study, point, "operation", "Time by DSM operation, all nodes (\"-\": application code and idling)",
                width);
  print_map(out, study, point, width);
  print_dominant(out, point);
  print_first_request(out, point);
}

/* "name = value, " for the parameters other than p and the variant (the controller). */
static void print_others(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  const scn_scenario_t *s = study->scenario;
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].role != SCN_ROLE_VARIANT && s->params[j].role != SCN_ROLE_PROCESSES)
      fprintf(out, "%s = %s, ", s->params[j].name, point->values[j]);
}

/* What the controller saves at one point (the view's summary, stu_ce_summary). */
static void print_saving(FILE *out, const stu_study_t *study, const stu_ce_saving_t *s)
{
  fprintf(out, "  ");
  print_others(out, study, s->with);
  fprintf(out,
          "p = %d: T_par %.6f s with the CP, %.6f s without: the controller saves %.6f s (%.1f%% of the "
          "time without)\n    PP per node (ms), with -> without:",
          s->with->p, s->with->t_par, s->without->t_par, s->saved, s->saved_pct);
  for (int cat = MET_CE_COMP; cat <= MET_CE_PRSTE; cat++)
    fprintf(out, " %s %.3f -> %.3f%s", met_ce_cat_name(cat), s->pp_ms[0][cat], s->pp_ms[1][cat],
            cat < MET_CE_PRSTE ? "," : "\n");
  fprintf(out, "    mean request wait (us), with -> without:");
  for (int op = MET_OP_PAGE; op < MET_OP_COUNT; op++)
    fprintf(out, " %s %.1f -> %.1f%s", met_ce_op_name(op), s->wait_us[0][op], s->wait_us[1][op],
            op + 1 < MET_OP_COUNT ? "," : "\n");
}

static void print_savings(FILE *out, const stu_study_t *study)
{
  const stu_ce_summary_t *summary = stu_ce_summary(study);
  if (summary->nsavings)
    fprintf(out, "\n==== What the protocol controller buys (NCP2 against the original TreadMarks, Extra and Prste "
                 "being the PP's protocol work the CP takes over)\n");
  for (size_t i = 0; i < summary->nsavings; i++)
    print_saving(out, study, &summary->savings[i]);
}

void rep_carnival_print(FILE *out, const stu_study_t *study, int width)
{
  fprintf(out,
          "Cause-effect analysis (seed 002 §4): PP time in Comp (application), Extra (TreadMarks code), Wait (for "
          "requests), Prste (serving interrupts); CP time in CPComp, CPWait (for its PP), CPIdle. A request's wait "
          "splits into the 8 categories of Table 1.\n");
  for (size_t i = 0; i < study->npoints; i++)
    print_point(out, study, &study->points[i], width);
  print_savings(out, study);
}

static void json_wait(FILE *out, const met_ce_wait_t *w)
{
  fprintf(out, "\"requests\": %zu, \"wait\": %.9g, \"categories\": {", w->count, w->time);
  for (int k = 0; k < MET_W_COUNT; k++) {
    fputs(k ? ", " : "", out);
    rep_json_key(out, met_wait_cat_name(k));
    fprintf(out, "%.9g", w->cat[k]);
  }
  fputc('}', out);
}

static void json_first_request(FILE *out, const stu_point_t *point)
{
  const stu_ce_first_t *first = stu_ce_first_page(point);
  const met_request_t *r = first ? first->request : NULL;
  fprintf(out, ",\n     \"first_page_request\": ");
  if (!r) {
    fputs("null", out);
    return;
  }
  fprintf(out, "{\"node\": %d, \"page\": %d, \"owner\": %d, \"start\": %.9g, \"intervals\": [", r->node, r->item,
          r->peer, r->mark[0]);
  for (int k = 1; k <= MET_CE_INTERVALS; k++)
    fprintf(out, "%s%.9g", k > 1 ? ", " : "", r->mark[k] - r->mark[k - 1]);
  fprintf(out, "]}");
}

void rep_carnival_json(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  const met_carnival_t *c = stu_carnival(point);
  fprintf(out, ", \"t_par_s\": %.9g, \"controller\": %s", point->t_par, met_carnival_has_cp(c) ? "true" : "false");
  size_t count;
  rep_at_t *rows = rep_profiles_rows(study, point, NULL, &count);
  rep_schema_json_rows(out, "profiles", &rep_profiles_schema, rows, count);
  free(rows);
  fprintf(out, ",\n     \"waits_by_operation\": {");
  for (int op = MET_OP_PAGE; op < MET_OP_COUNT; op++) {
    met_ce_wait_t w = met_carnival_wait(c, MET_UNIT_PP, op, -1);
    fprintf(out, "%s\"%s\": {", op > MET_OP_PAGE ? ", " : "", met_ce_op_name(op));
    json_wait(out, &w);
    fputc('}', out);
  }
  fputc('}', out);
  rows = rep_waits_rows(study, point, &count);
  rep_schema_json_rows(out, "wait_map", &rep_waits_schema, rows, count);
  free(rows);
  json_first_request(out, point);
}
