/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CARNIVAL's views for NCP2 (seed 002 §4.3, Figs. 4-5; Table 1) as text, CSV and JSON: profiles by node, scope and
 * operation, the wait map, the dominant operation and category, one page request's 13 intervals, and what the
 * protocol controller saves against the original TreadMarks (the last three as the cause-effect view drew them,
 * stu_cause_effect.h). */
#include "rep_carnival.h"
#include "rep_group.h"
#include "rep_json.h"
#include "stu_cause_effect.h"

#include <math.h>

enum { REP_MAP_ROWS = 12 };

static const char *const waiter_names[MET_UNIT_COUNT] = {"Wait", "CPWait"};

/* One row of a profile table: the seven categories at (node, scope, op), in milliseconds; CP columns show "-" for a
 * run without controllers. */
static void print_profile_row(FILE *out, const char *label, const met_carnival_t *c, int node, int scope, int op)
{
  fprintf(out, "  %-12s", label);
  for (int cat = 0; cat < MET_CE_COUNT; cat++) {
    if (cat == MET_CE_CPCOMP)
      fprintf(out, " |");
    if (cat >= MET_CE_CPCOMP && !met_carnival_has_cp(c))
      fprintf(out, " %9s", "-");
    else
      fprintf(out, " %9.3f", 1e3 * met_carnival_time(c, node, scope, cat, op));
  }
  fprintf(out, "\n");
}

static void print_profile_head(FILE *out, const char *title, const char *first)
{
  fprintf(out, "\n%s (ms)\n  %-12s", title, first);
  for (int cat = 0; cat < MET_CE_COUNT; cat++)
    fprintf(out, "%s %9s", cat == MET_CE_CPCOMP ? " |" : "", met_ce_cat_name(cat));
  fprintf(out, "\n");
}

static void print_nodes(FILE *out, const met_carnival_t *c)
{
  char label[32];
  print_profile_head(out, "Time by node: PP | CP; every row adds up to T_par per unit", "node");
  for (int node = 0; node < met_carnival_nodes(c); node++) {
    snprintf(label, sizeof label, "%d", node);
    print_profile_row(out, label, c, node, -1, -1);
  }
  print_profile_row(out, "all", c, -1, -1, -1);
}

static void print_scopes(FILE *out, const met_carnival_t *c)
{
  print_profile_head(out, "Time by code scope, all nodes", "scope");
  for (int scope = 0; scope < met_carnival_scope_count(c); scope++)
    print_profile_row(out, met_carnival_scope_name(c, scope), c, -1, scope, -1);
}

static void print_operations(FILE *out, const met_carnival_t *c)
{
  print_profile_head(out, "Time by DSM operation, all nodes (\"-\": application code and idling)", "operation");
  for (int op = 0; op < MET_OP_COUNT; op++)
    print_profile_row(out, met_ce_op_name(op), c, -1, -1, op);
}

/* A wait's profile: each category's share of its time, in percent. */
static void print_shares(FILE *out, const met_ce_wait_t *w)
{
  for (int k = 0; k < MET_W_COUNT; k++)
    fprintf(out, " %7.1f", w->time > 0 ? 100 * w->cat[k] / w->time : 0.0);
  fprintf(out, "\n");
}

static void print_map(FILE *out, const met_carnival_t *c)
{
  size_t rows = 0;
  const met_ce_row_t *map = met_carnival_map(c, &rows);
  fprintf(out,
          "\nWait map (CARNIVAL's CPWait map, Fig. 5): who waited where on what, longest first; profile in %% of "
          "each row's time\n  %-10s %-7s %-8s %8s %10s %9s",
          "scope", "waiter", "op", "requests", "time (ms)", "mean (us)");
  for (int k = 0; k < MET_W_COUNT; k++)
    fprintf(out, " %7s", met_wait_cat_name(k));
  fprintf(out, "\n");
  for (size_t i = 0; i < rows && i < REP_MAP_ROWS; i++) {
    const met_ce_wait_t *w = &map[i].wait;
    fprintf(out, "  %-10s %-7s %-8s %8zu %10.3f %9.1f", met_carnival_scope_name(c, map[i].scope),
            waiter_names[map[i].unit], met_ce_op_name(map[i].op), w->count, 1e3 * w->time, 1e6 * w->time / w->count);
    print_shares(out, w);
  }
  if (rows > REP_MAP_ROWS)
    fprintf(out, "  ... %zu more rows in the CSV and JSON outputs\n", rows - REP_MAP_ROWS);
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

static void print_point(FILE *out, const stu_study_t *study, const stu_point_t *point)
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
  print_nodes(out, c);
  print_scopes(out, c);
  print_operations(out, c);
  print_map(out, c);
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

void rep_carnival_print(FILE *out, const stu_study_t *study)
{
  fprintf(out,
          "Cause-effect analysis (seed 002 §4): PP time in Comp (application), Extra (TreadMarks code), Wait (for "
          "requests), Prste (serving interrupts); CP time in CPComp, CPWait (for its PP), CPIdle. A request's wait "
          "splits into the 8 categories of Table 1.\n");
  for (size_t i = 0; i < study->npoints; i++)
    print_point(out, study, &study->points[i]);
  print_savings(out, study);
}

void rep_carnival_csv_head(FILE *out)
{
  fprintf(out, ",scope,waiter,operation,requests,time_s");
  for (int k = 0; k < MET_W_COUNT; k++)
    fprintf(out, ",%s_s", met_wait_cat_name(k));
  fprintf(out, "\n");
}

void rep_carnival_csv_rows(FILE *out, const stu_study_t *study, const stu_point_t *point,
                           void (*lead)(FILE *, const stu_study_t *, const stu_point_t *))
{
  size_t rows = 0;
  const met_ce_row_t *map = met_carnival_map(stu_carnival(point), &rows);
  for (size_t i = 0; i < rows; i++) {
    lead(out, study, point);
    fprintf(out, ",%s,%s,%s,%zu,%.9g", met_carnival_scope_name(stu_carnival(point), map[i].scope),
            waiter_names[map[i].unit], met_ce_op_name(map[i].op), map[i].wait.count, map[i].wait.time);
    for (int k = 0; k < MET_W_COUNT; k++)
      fprintf(out, ",%.9g", map[i].wait.cat[k]);
    fprintf(out, "\n");
  }
}

void rep_carnival_csv_requests_head(FILE *out)
{
  fprintf(out, ",node,waiter,operation,scope,peer,item,start_s");
  for (int k = 1; k <= MET_CE_INTERVALS; k++)
    fprintf(out, ",interval_%d_s", k);
  fprintf(out, "\n");
}

void rep_carnival_csv_requests(FILE *out, const stu_study_t *study, const stu_point_t *point,
                               void (*lead)(FILE *, const stu_study_t *, const stu_point_t *))
{
  size_t count = 0;
  const met_request_t *r = stu_ce_requests(point, &count);
  for (size_t i = 0; i < count; i++, r++) {
    lead(out, study, point);
    fprintf(out, ",%d,%s,%s,%s,", r->node, waiter_names[r->unit], met_ce_op_name(r->op),
            met_carnival_scope_name(stu_carnival(point), r->scope));
    if (r->peer >= 0)
      fprintf(out, "%d", r->peer);
    fprintf(out, ",%d,%.9g", r->item, r->mark[0]);
    for (int k = 1; k <= MET_CE_INTERVALS; k++)
      fprintf(out, ",%.9g", r->mark[k] - r->mark[k - 1]);
    fprintf(out, "\n");
  }
}

/* {"comp": s, ...} (snake_case keys: "cp_comp") for the categories [first, last] at (node, scope, op), -1 for a sum. */
static void json_profile(FILE *out, const met_carnival_t *c, const int where[3], int first, int last)
{
  fputc('{', out);
  for (int cat = first; cat <= last; cat++) {
    fputs(cat > first ? ", " : "", out);
    rep_json_key(out, met_ce_cat_name(cat));
    fprintf(out, "%.9g", met_carnival_time(c, where[0], where[1], cat, where[2]));
  }
  fputc('}', out);
}

/* "pp": {...}, "cp": {...} (null for a run without controllers) at (node, scope, op). */
static void json_pp_cp(FILE *out, const met_carnival_t *c, const int where[3])
{
  fprintf(out, "\"pp\": ");
  json_profile(out, c, where, MET_CE_COMP, MET_CE_PRSTE);
  fprintf(out, ", \"cp\": ");
  if (met_carnival_has_cp(c))
    json_profile(out, c, where, MET_CE_CPCOMP, MET_CE_CPIDLE);
  else
    fputs("null", out);
}

/* ",\n "key": [{"name": ..., "pp": {...}, "cp": {...} or null}, ...]" over the scopes (by_scope) or the operations. */
static void json_profiles(FILE *out, const met_carnival_t *c, int by_scope, void (*string)(FILE *, const char *))
{
  int count = by_scope ? met_carnival_scope_count(c) : MET_OP_COUNT;
  fprintf(out, ",\n     \"%s\": [", by_scope ? "scopes" : "operations");
  for (int i = 0; i < count; i++) {
    const int where[3] = {-1, by_scope ? i : -1, by_scope ? -1 : i};
    fprintf(out, "%s\n       {\"name\": ", i ? "," : "");
    string(out, by_scope ? met_carnival_scope_name(c, i) : met_ce_op_name(i));
    fprintf(out, ", ");
    json_pp_cp(out, c, where);
    fputc('}', out);
  }
  fputc(']', out);
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

static void json_nodes(FILE *out, const met_carnival_t *c)
{
  fprintf(out, ",\n     \"nodes\": [");
  for (int node = 0; node < met_carnival_nodes(c); node++) {
    fprintf(out, "%s\n       {\"node\": %d, ", node ? "," : "", node);
    json_pp_cp(out, c, (const int[3]){node, -1, -1});
    fputc('}', out);
  }
  fputc(']', out);
}

static void json_map(FILE *out, const met_carnival_t *c, void (*string)(FILE *, const char *))
{
  size_t rows = 0;
  const met_ce_row_t *map = met_carnival_map(c, &rows);
  fprintf(out, ",\n     \"wait_map\": [");
  for (size_t i = 0; i < rows; i++) {
    fprintf(out, "%s\n       {\"scope\": ", i ? "," : "");
    string(out, met_carnival_scope_name(c, map[i].scope));
    fprintf(out, ", \"waiter\": \"%s\", \"operation\": \"%s\", ", waiter_names[map[i].unit], met_ce_op_name(map[i].op));
    json_wait(out, &map[i].wait);
    fputc('}', out);
  }
  fputc(']', out);
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

void rep_carnival_json(FILE *out, const stu_point_t *point, void (*string)(FILE *, const char *))
{
  const met_carnival_t *c = stu_carnival(point);
  fprintf(out, ", \"t_par_s\": %.9g, \"controller\": %s", point->t_par, met_carnival_has_cp(c) ? "true" : "false");
  json_nodes(out, c);
  json_profiles(out, c, 1, string);
  json_profiles(out, c, 0, string);
  fprintf(out, ",\n     \"waits_by_operation\": {");
  for (int op = MET_OP_PAGE; op < MET_OP_COUNT; op++) {
    met_ce_wait_t w = met_carnival_wait(c, MET_UNIT_PP, op, -1);
    fprintf(out, "%s\"%s\": {", op > MET_OP_PAGE ? ", " : "", met_ce_op_name(op));
    json_wait(out, &w);
    fputc('}', out);
  }
  fputc('}', out);
  json_map(out, c, string);
  json_first_request(out, point);
}
