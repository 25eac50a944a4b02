/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The DSM views' tables declared once (rep_dsm_tables.h): CARNIVAL's time profiles (seed 002 Fig. 4), its wait map
 * (Fig. 5) and the requests' 13 intervals (Figs. 1-3, Table 1), from met_carnival's sums and the point's requests. */
#include "rep_dsm_tables.h"
#include "stu_cause_effect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const waiter_names[MET_UNIT_COUNT] = {"Wait", "CPWait"};

/* A profile row: what it sums by (node, scope, operation) and which one (-1: all nodes). */
enum { BY_NODE, BY_SCOPE, BY_OPERATION, BY_COUNT };
static const char *const by_names[BY_COUNT] = {"node", "scope", "operation"};

typedef struct profile {
  int by, index;
} profile_t;
/* rep_profiles_rows keeps a row's items after the rows, in the same block */
_Static_assert(sizeof(rep_at_t) % _Alignof(profile_t) == 0, "profile items after the rows are aligned");

static const met_carnival_t *carnival(const rep_at_t *at)
{
  return stu_carnival(at->point);
}

static rep_cell_t profile_by(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(by_names[((const profile_t *)at->item)->by]);
}

static rep_cell_t profile_name(const rep_at_t *at, int i)
{
  (void)i;
  const profile_t *row = at->item;
  if (row->by == BY_SCOPE)
    return rep_cell_text(met_carnival_scope_name(carnival(at), row->index));
  if (row->by == BY_OPERATION)
    return rep_cell_text(met_ce_op_name(row->index));
  rep_cell_t cell = rep_cell_text(NULL);
  cell.made = 1;
  snprintf(cell.buf, sizeof cell.buf, row->index < 0 ? "all" : "%d", row->index);
  return cell;
}

/* Category `cat`'s time in the row's node, scope or operation. */
static double profile_time(const rep_at_t *at, int cat)
{
  const profile_t *row = at->item;
  return met_carnival_time(carnival(at), row->by == BY_NODE ? row->index : -1, row->by == BY_SCOPE ? row->index : -1,
                           cat, row->by == BY_OPERATION ? row->index : -1);
}

static rep_cell_t profile_pp(const rep_at_t *at, int i)
{
  return rep_cell_num(profile_time(at, MET_CE_COMP + i));
}

/* A controller's category: none in a run without controllers. */
static rep_cell_t profile_cp(const rep_at_t *at, int i)
{
  return rep_cell_num(met_carnival_has_cp(carnival(at)) ? profile_time(at, MET_CE_CPCOMP + i) : NAN);
}

static const char *pp_label(int i)
{
  return met_ce_cat_name(MET_CE_COMP + i);
}

static const char *cp_label(int i)
{
  return met_ce_cat_name(MET_CE_CPCOMP + i);
}

enum { ALL = REP_IN_ALL, SHOWN = REP_IN_CSV | REP_IN_JSON | REP_IN_HTML };

/* csv, json, head, unit, meaning, format, key, in, each, label, has, get */
static const rep_column_t profile_columns[] = {
    {"by", "by", "by", "", "what the row sums by: node, scope or operation", REP_FMT_TEXT, 1, SHOWN, 0, NULL, NULL,
     profile_by},
    {"name", "name", "name", "", "the node's number or all, the scope's label, the operation (-: application code)",
     REP_FMT_TEXT, 1, ALL, 0, NULL, NULL, profile_name},
    {"profile_%s_s", "pp.%s", "%s", "s", "the PPs' time in the category there (Comp, Extra, Wait, Prste)", REP_FMT_TIME,
     0, ALL, MET_CE_CPCOMP, pp_label, NULL, profile_pp},
    {"profile_%s_s", "cp.%s", "%s", "s", "the controllers' time in the category there; none without controllers",
     REP_FMT_TIME, 0, ALL, MET_CE_COUNT - MET_CE_CPCOMP, cp_label, NULL, profile_cp},
};

const rep_schema_t rep_profiles_schema = {"profiles", profile_columns,
                                          sizeof profile_columns / sizeof profile_columns[0], NULL};

/* How many rows of each kind a DSM point has: its nodes and all, its scopes, the operations. */
static void profile_counts(const stu_point_t *point, int counts[BY_COUNT])
{
  const met_carnival_t *c = stu_carnival(point);
  counts[BY_NODE] = c ? met_carnival_nodes(c) + 1 : 0;
  counts[BY_SCOPE] = c ? met_carnival_scope_count(c) : 0;
  counts[BY_OPERATION] = c ? MET_OP_COUNT : 0;
}

static int picked(const stu_point_t *point, const stu_point_t *only, int by, const char *pick)
{
  return (!only || point == only) && (!pick || strcmp(pick, by_names[by]) == 0);
}

rep_at_t *rep_profiles_rows(const stu_study_t *study, const stu_point_t *only, const char *by, size_t *count)
{
  int counts[BY_COUNT];
  size_t n = 0;
  for (size_t i = 0; i < study->npoints; i++) {
    profile_counts(&study->points[i], counts);
    for (int b = 0; b < BY_COUNT; b++)
      n += picked(&study->points[i], only, b, by) ? (size_t)counts[b] : 0;
  }
  rep_at_t *at = n ? malloc(n * (sizeof *at + sizeof(profile_t))) : NULL;
  profile_t *items = at ? (profile_t *)(void *)(at + n) : NULL;
  *count = at ? n : 0;
  n = 0;
  for (size_t i = 0; at && i < study->npoints; i++) {
    profile_counts(&study->points[i], counts);
    for (int b = 0; b < BY_COUNT; b++)
      for (int k = 0; picked(&study->points[i], only, b, by) && k < counts[b]; k++) {
        items[n] = (profile_t){b, b == BY_NODE && k == counts[b] - 1 ? -1 : k};
        at[n] = (rep_at_t){study, &study->points[i], -1, &items[n]};
        n++;
      }
  }
  return at;
}

static const met_ce_row_t *map_row(const rep_at_t *at)
{
  return at->item;
}

static rep_cell_t map_scope(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(met_carnival_scope_name(carnival(at), map_row(at)->scope));
}

static rep_cell_t map_waiter(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(waiter_names[map_row(at)->unit]);
}

static rep_cell_t map_operation(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(met_ce_op_name(map_row(at)->op));
}

static rep_cell_t map_requests(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num((double)map_row(at)->wait.count);
}

static rep_cell_t map_time(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(map_row(at)->wait.time);
}

static rep_cell_t map_mean(const rep_at_t *at, int i)
{
  (void)i;
  const met_ce_wait_t *w = &map_row(at)->wait;
  return rep_cell_num(w->count ? w->time / (double)w->count : NAN);
}

static rep_cell_t map_category(const rep_at_t *at, int k)
{
  return rep_cell_num(map_row(at)->wait.cat[k]);
}

/* A category's share of the line's time, as CARNIVAL's map shows it. */
static rep_cell_t map_share(const rep_at_t *at, int k)
{
  const met_ce_wait_t *w = &map_row(at)->wait;
  return rep_cell_num(w->time > 0 ? w->cat[k] / w->time : 0.0);
}

static const char *wait_label(int k)
{
  return met_wait_cat_name(k);
}

enum { FILES_HTML = REP_IN_FILES | REP_IN_HTML };

static const rep_column_t map_columns[] = {
    {"scope", "scope", "scope", "", "the code scope the waits were in", REP_FMT_TEXT, 1, ALL, 0, NULL, NULL, map_scope},
    {"waiter", "waiter", "waiter", "", "Wait: a PP waited, CPWait: a controller", REP_FMT_TEXT, 1, ALL, 0, NULL, NULL,
     map_waiter},
    {"operation", "operation", "op", "", "the DSM operation waited for (page, diff, barrier, ...)", REP_FMT_TEXT, 1,
     ALL, 0, NULL, NULL, map_operation},
    {"requests", "requests", "requests", "", "how many waits", REP_FMT_INT, 0, ALL, 0, NULL, NULL, map_requests},
    {"time_s", "wait", "time", "s", "their total wait", REP_FMT_TIME, 0, ALL, 0, NULL, NULL, map_time},
    {"mean_s", "mean_s", "mean", "s", "one wait's mean time", REP_FMT_TIME, 0, ALL, 0, NULL, NULL, map_mean},
    {"%s_s", "categories.%s", "%s", "s", "the wait's split into the categories of seed 002 Table 1", REP_FMT_TIME, 0,
     FILES_HTML | REP_CSV_AS_IS, MET_W_COUNT, wait_label, NULL, map_category},
    {"%s_share", "", "%s", "", "the category's share of the line's time, as CARNIVAL's map shows it", REP_FMT_PERCENT,
     0, REP_IN_TERM, MET_W_COUNT, wait_label, NULL, map_share},
};

const rep_schema_t rep_waits_schema = {"waits", map_columns, sizeof map_columns / sizeof map_columns[0], NULL};

/* Point i's wait map and its number of lines, when the point is picked (every one, or `only`) and has one; NULL
 * otherwise. */
static const met_ce_row_t *map_of(const stu_study_t *study, const stu_point_t *only, size_t i, size_t *lines)
{
  const stu_point_t *point = &study->points[i];
  *lines = 0;
  return (!only || only == point) && stu_carnival(point) ? met_carnival_map(stu_carnival(point), lines) : NULL;
}

rep_at_t *rep_waits_rows(const stu_study_t *study, const stu_point_t *only, size_t *count)
{
  size_t n = 0, lines = 0;
  for (size_t i = 0; i < study->npoints; i++)
    if (map_of(study, only, i, &lines))
      n += lines;
  rep_at_t *at = n ? malloc(n * sizeof *at) : NULL;
  *count = at ? n : 0;
  n = 0;
  for (size_t i = 0; at && i < study->npoints; i++) {
    const met_ce_row_t *map = map_of(study, only, i, &lines);
    for (size_t k = 0; map && k < lines; k++)
      at[n++] = (rep_at_t){study, &study->points[i], -1, &map[k]};
  }
  return at;
}

static const met_request_t *request(const rep_at_t *at)
{
  return at->item;
}

static rep_cell_t request_node(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(request(at)->node);
}

static rep_cell_t request_waiter(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(waiter_names[request(at)->unit]);
}

static rep_cell_t request_operation(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(met_ce_op_name(request(at)->op));
}

static rep_cell_t request_scope(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(met_carnival_scope_name(carnival(at), request(at)->scope));
}

static rep_cell_t request_peer(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(request(at)->peer >= 0 ? request(at)->peer : NAN);
}

static rep_cell_t request_item(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(request(at)->item);
}

static rep_cell_t request_start(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(request(at)->mark[0]);
}

static rep_cell_t request_interval(const rep_at_t *at, int k)
{
  return rep_cell_num(request(at)->mark[k + 1] - request(at)->mark[k]);
}

static const char *interval_label(int k)
{
  static const char *const numbers[MET_CE_INTERVALS] = {"1", "2", "3",  "4",  "5",  "6", "7",
                                                        "8", "9", "10", "11", "12", "13"};
  return numbers[k];
}

enum { CSV = REP_IN_CSV };

static const rep_column_t request_columns[] = {
    {"node", "node", "node", "", "the node that waited", REP_FMT_INT, 1, CSV, 0, NULL, NULL, request_node},
    {"waiter", "waiter", "waiter", "", "Wait: the PP, CPWait: the CP", REP_FMT_TEXT, 1, CSV, 0, NULL, NULL,
     request_waiter},
    {"operation", "operation", "op", "", "the DSM operation", REP_FMT_TEXT, 1, CSV, 0, NULL, NULL, request_operation},
    {"scope", "scope", "scope", "", "the code scope", REP_FMT_TEXT, 1, CSV, 0, NULL, NULL, request_scope},
    {"peer", "peer", "peer", "", "the remote node on the request's critical path, empty when none", REP_FMT_INT, 0, CSV,
     0, NULL, NULL, request_peer},
    {"item", "item", "item", "", "the page, or the barrier's number", REP_FMT_INT, 0, CSV, 0, NULL, NULL, request_item},
    {"start_s", "start_s", "start", "s", "when the wait began", REP_FMT_TIME, 0, CSV, 0, NULL, NULL, request_start},
    {"interval_%s_s", "intervals.%s", "%s", "s", "the 13 intervals of seed 002 Figs. 1-3 (docs/ncp2.md)", REP_FMT_TIME,
     0, CSV, MET_CE_INTERVALS, interval_label, NULL, request_interval},
};

const rep_schema_t rep_requests_schema = {"requests", request_columns,
                                          sizeof request_columns / sizeof request_columns[0], NULL};

rep_at_t *rep_requests_rows(const stu_study_t *study, size_t *count)
{
  size_t n = 0, k = 0;
  for (size_t i = 0; i < study->npoints; i++) {
    stu_ce_requests(&study->points[i], &k);
    n += k;
  }
  rep_at_t *at = n ? malloc(n * sizeof *at) : NULL;
  *count = at ? n : 0;
  n = 0;
  for (size_t i = 0; at && i < study->npoints; i++) {
    const met_request_t *r = stu_ce_requests(&study->points[i], &k);
    for (size_t j = 0; j < k; j++)
      at[n++] = (rep_at_t){study, &study->points[i], -1, &r[j]};
  }
  return at;
}
