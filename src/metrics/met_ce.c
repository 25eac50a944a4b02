/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cause-effect model of a DSM run (seed 002 §4.1, Table 1): Table 1's intervals to wait categories, and the sums
 * of a run's unit spans and requests the CARNIVAL analysis (met_carnival.c) reads, taken as they arrive. */
#include "met_ce.h"
#include "bas_error.h"

#include <stdlib.h>
#include <string.h>

struct met_ce_sums {
  int nodes;
  int usable;
  int has_cp;
  int nscopes;          /* scopes the arrays have room for (>= 1) */
  double *profile;      /* [scope][node][cat][op] seconds */
  met_ce_wait_t *waits; /* [scope][unit][op] */
  double *last;         /* [node][unit]: the end of the unit's last span */
  int *last_scope;      /* [node][unit]: its scope */
  met_request_t first[MET_OP_COUNT];
  int has_first[MET_OP_COUNT];
};

/* Table 1, "Intervalos": interval k (index k - 1) to its category. */
static const met_wait_cat_t interval_category[MET_CE_INTERVALS] = {
    MET_W_CPLWAIT, MET_W_CPLCOMP, MET_W_CPCCOMM, MET_W_CPRWAIT, MET_W_CPRCOMP, MET_W_PPRWAIT, MET_W_PPRCOMP,
    MET_W_CPRWAIT, MET_W_CPRCOMP, MET_W_CPCCOMM, MET_W_CPLWAIT, MET_W_CPLCOMP, MET_W_PPLWAIT};

met_wait_cat_t met_ce_interval(int k)
{
  return k >= 1 && k <= MET_CE_INTERVALS ? interval_category[k - 1] : MET_W_COUNT;
}

double met_ce_split(const met_request_t *req, double cats[MET_W_COUNT])
{
  memset(cats, 0, MET_W_COUNT * sizeof *cats);
  for (int k = 1; k <= MET_CE_INTERVALS; k++)
    cats[interval_category[k - 1]] += req->mark[k] - req->mark[k - 1];
  return req->mark[MET_CE_INTERVALS] - req->mark[0];
}

void met_ce_wait_add(met_ce_wait_t *sum, const met_ce_wait_t *w)
{
  sum->count += w->count;
  sum->time += w->time;
  for (int k = 0; k < MET_W_COUNT; k++)
    sum->cat[k] += w->cat[k];
}

enum { PROFILE_CELLS = MET_CE_COUNT * MET_OP_COUNT, WAIT_CELLS = MET_UNIT_COUNT * MET_OP_COUNT };

static double *cell(const met_ce_sums_t *s, int node, int scope, int cat, int op)
{
  return &s->profile[((size_t)scope * s->nodes + node) * PROFILE_CELLS + cat * MET_OP_COUNT + op];
}

static met_ce_wait_t *wait_cell(const met_ce_sums_t *s, int scope, int unit, int op)
{
  return &s->waits[(size_t)scope * WAIT_CELLS + unit * MET_OP_COUNT + op];
}

/* Makes room for scopes 0 .. need - 1, the new cells zero. 0, or -1 when out of memory (the sums unchanged). */
static int make_room(met_ce_sums_t *s, int need)
{
  if (need <= s->nscopes)
    return 0;
  size_t per_scope = (size_t)s->nodes * PROFILE_CELLS, old = (size_t)s->nscopes;
  double *profile = realloc(s->profile, (size_t)need * per_scope * sizeof *profile);
  if (!profile)
    return -1;
  s->profile = profile;
  met_ce_wait_t *waits = realloc(s->waits, (size_t)need * WAIT_CELLS * sizeof *waits);
  if (!waits)
    return -1;
  s->waits = waits;
  memset(profile + old * per_scope, 0, ((size_t)need - old) * per_scope * sizeof *profile);
  memset(waits + old * WAIT_CELLS, 0, ((size_t)need - old) * WAIT_CELLS * sizeof *waits);
  s->nscopes = need;
  return 0;
}

met_ce_sums_t *met_ce_sums_new(int nodes)
{
  met_ce_sums_t *s = nodes >= 1 ? calloc(1, sizeof *s) : NULL;
  if (!s)
    return NULL;
  s->nodes = nodes;
  s->usable = 1;
  s->last = calloc((size_t)nodes * MET_UNIT_COUNT, sizeof *s->last);
  s->last_scope = calloc((size_t)nodes * MET_UNIT_COUNT, sizeof *s->last_scope);
  if (s->last && s->last_scope && make_room(s, 1) == 0)
    return s;
  met_ce_sums_free(s);
  return NULL;
}

void met_ce_sums_free(met_ce_sums_t *sums)
{
  if (!sums)
    return;
  free(sums->profile);
  free(sums->waits);
  free(sums->last);
  free(sums->last_scope);
  free(sums);
}

/* Whether `state` is one of `unit`'s categories. */
static int state_fits(int unit, int state)
{
  return unit == MET_UNIT_PP ? state <= MET_CE_PRSTE : state >= MET_CE_CPCOMP && state < MET_CE_COUNT;
}

int met_ce_sums_span(met_ce_sums_t *sums, int node, int unit, const met_span_t *span)
{
  if (!state_fits(unit, span->state) || span->op >= MET_OP_COUNT) {
    sums->usable = 0;
    return 0;
  }
  if (make_room(sums, span->scope + 1) != 0)
    return BAS_ENOMEM;
  size_t u = (size_t)node * MET_UNIT_COUNT + unit;
  int idle = unit == MET_UNIT_PP ? MET_CE_WAIT : MET_CE_CPIDLE;
  *cell(sums, node, sums->last_scope[u], idle, MET_OP_NONE) += span->start - sums->last[u];
  *cell(sums, node, span->scope, span->state, span->op) += span->end - span->start;
  sums->last[u] = span->end;
  sums->last_scope[u] = span->scope;
  sums->has_cp |= unit == MET_UNIT_CP;
  return 0;
}

/* Whether request a started before b (ties: the lower node). */
static int earlier(const met_request_t *a, const met_request_t *b)
{
  return a->mark[0] < b->mark[0] || (a->mark[0] == b->mark[0] && a->node < b->node);
}

int met_ce_sums_request(met_ce_sums_t *sums, const met_request_t *req)
{
  if (req->op >= MET_OP_COUNT) {
    sums->usable = 0;
    return 0;
  }
  if (make_room(sums, req->scope + 1) != 0)
    return BAS_ENOMEM;
  met_ce_wait_t one = {.count = 1};
  one.time = met_ce_split(req, one.cat);
  met_ce_wait_add(wait_cell(sums, req->scope, req->unit, req->op), &one);
  if (req->unit == MET_UNIT_PP && (!sums->has_first[req->op] || earlier(req, &sums->first[req->op]))) {
    sums->first[req->op] = *req;
    sums->has_first[req->op] = 1;
  }
  return 0;
}

int met_ce_sums_usable(const met_ce_sums_t *sums)
{
  return sums->usable;
}

int met_ce_sums_has_cp(const met_ce_sums_t *sums)
{
  return sums->has_cp;
}

double met_ce_sums_time(const met_ce_sums_t *sums, int node, int scope, met_ce_cat_t cat, met_ce_op_t op)
{
  return scope < sums->nscopes ? *cell(sums, node, scope, cat, op) : 0.0;
}

double met_ce_sums_last(const met_ce_sums_t *sums, int node, int unit, int *scope)
{
  *scope = sums->last_scope[node * MET_UNIT_COUNT + unit];
  return sums->last[node * MET_UNIT_COUNT + unit];
}

met_ce_wait_t met_ce_sums_wait(const met_ce_sums_t *sums, int scope, int unit, met_ce_op_t op)
{
  return scope < sums->nscopes ? *wait_cell(sums, scope, unit, op) : (met_ce_wait_t){0};
}

const met_request_t *met_ce_sums_first(const met_ce_sums_t *sums, met_ce_op_t op)
{
  return sums->has_first[op] ? &sums->first[op] : NULL;
}
