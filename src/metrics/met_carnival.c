/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CARNIVAL's cause-effect analysis for NCP2 (seed 002 §4.1-4.3, Table 1): unit profiles in four dimensions from the
 * annex's spans, request waits split into Table 1's categories from the carried timestamps, and the wait map. */
#include "met_carnival.h"

#include <stdlib.h>
#include <string.h>

struct met_carnival {
  int nodes;
  int nscopes;
  int has_cp;
  double end;
  char **scopes;
  double *profile;      /* [node][scope][cat][op] seconds */
  met_ce_wait_t *waits; /* [scope][unit][op] */
  met_ce_row_t *map;
  size_t nmap;
  met_request_t first[MET_OP_COUNT];
  int has_first[MET_OP_COUNT];
  met_request_t *requests; /* every request of the trace, copied in its order */
  size_t nrequests;
};

/* Table 1, "Intervalos": interval k (index k - 1) to its category. */
static const met_wait_cat_t interval_category[MET_CE_INTERVALS] = {
    MET_W_CPLWAIT, MET_W_CPLCOMP, MET_W_CPCCOMM, MET_W_CPRWAIT, MET_W_CPRCOMP, MET_W_PPRWAIT, MET_W_PPRCOMP,
    MET_W_CPRWAIT, MET_W_CPRCOMP, MET_W_CPCCOMM, MET_W_CPLWAIT, MET_W_CPLCOMP, MET_W_PPLWAIT};

static const char *const cat_names[MET_CE_COUNT] = {"Comp", "Extra", "Wait", "Prste", "CPComp", "CPWait", "CPIdle"};
static const char *const op_names[MET_OP_COUNT] = {"-", "page", "diff", "barrier"};
static const char *const wait_names[MET_W_COUNT] = {"CPLWait", "CPLComp", "CPCComm", "CPRWait",
                                                    "CPRComp", "PPRWait", "PPRComp", "PPLWait"};
static const char *const wait_titles[MET_W_COUNT] = {"command queued at the local CP",
                                                     "local CP executing",
                                                     "network between CPs",
                                                     "command queued at the remote CP",
                                                     "remote CP executing",
                                                     "remote PP interrupt latency",
                                                     "remote PP executing",
                                                     "local PP notification"};

/* Figs. 1-3 as sim_dsm.c runs them: the step of each interval, for page, diff and barrier. */
static const char *const steps[MET_OP_COUNT - 1][MET_CE_INTERVALS] = {
    {"LOCAL_PAGE_REQUEST queued at the local CP", "local CP runs it, sends REMOTE_PAGE_REQUEST",
     "REMOTE_PAGE_REQUEST on the network", "REMOTE_PAGE_REQUEST queued at the owner's CP",
     "owner's CP runs it, interrupts its PP", "owner's PP takes the interrupt",
     "owner's PP notes the new copy, queues PAGE_REPLY", "PAGE_REPLY queued at the owner's CP",
     "owner's CP reads the page (DMA), sends PAGE_REPLY", "PAGE_REPLY on the network",
     "PAGE_REPLY queued at the local CP", "local CP writes the page (DMA), notifies the PP",
     "PP resumes after the notification"},
    {"LOCAL_DIFF_REQUEST queued at the local CP", "local CP runs it, sends REMOTE_DIFF_REQUEST(s)",
     "REMOTE_DIFF_REQUEST on the network", "REMOTE_DIFF_REQUEST queued at the writer's CP",
     "writer's CP builds the diff from dirty bits, interrupts its PP", "writer's PP takes the interrupt",
     "writer's PP notes the requester, queues DIFF_REPLY", "DIFF_REPLY queued at the writer's CP",
     "writer's CP reads the diff (DMA), sends DIFF_REPLY", "DIFF_REPLY on the network",
     "DIFF_REPLY queued at the local CP", "local CP applies the diff (the last one), notifies the PP",
     "PP resumes after the notification"},
    {"SEND_MESSAGE (arrival) queued at the local CP", "local CP sends RECEIVE_MESSAGE to the manager",
     "RECEIVE_MESSAGE on the network", "RECEIVE_MESSAGE queued at the manager's CP",
     "manager's CP runs it, interrupts its PP", "arrival waits for the manager's PP: interrupt and last arrival",
     "manager's PP runs the releasing barrier handler", "SEND_MESSAGE (release) queued at the manager's CP",
     "manager's CP sends RECEIVE_MESSAGE (release)", "RECEIVE_MESSAGE on the network",
     "RECEIVE_MESSAGE queued at the local CP", "local CP applies the invalidations, interrupts the PP",
     "PP resumes after the interrupt"},
};

met_wait_cat_t met_carnival_interval(int k)
{
  return k >= 1 && k <= MET_CE_INTERVALS ? interval_category[k - 1] : MET_W_COUNT;
}

double met_carnival_split(const met_request_t *req, double cats[MET_W_COUNT])
{
  memset(cats, 0, MET_W_COUNT * sizeof *cats);
  for (int k = 1; k <= MET_CE_INTERVALS; k++)
    cats[interval_category[k - 1]] += req->mark[k] - req->mark[k - 1];
  return req->mark[MET_CE_INTERVALS] - req->mark[0];
}

const char *met_ce_cat_name(met_ce_cat_t cat)
{
  return (unsigned)cat < MET_CE_COUNT ? cat_names[cat] : NULL;
}

const char *met_ce_op_name(met_ce_op_t op)
{
  return (unsigned)op < MET_OP_COUNT ? op_names[op] : NULL;
}

const char *met_wait_cat_name(met_wait_cat_t cat)
{
  return (unsigned)cat < MET_W_COUNT ? wait_names[cat] : NULL;
}

const char *met_wait_cat_title(met_wait_cat_t cat)
{
  return (unsigned)cat < MET_W_COUNT ? wait_titles[cat] : NULL;
}

const char *met_carnival_step(met_ce_op_t op, int k)
{
  if (op <= MET_OP_NONE || op >= MET_OP_COUNT || k < 1 || k > MET_CE_INTERVALS)
    return NULL;
  return steps[op - 1][k - 1];
}

static double *cell(const met_carnival_t *c, int node, int scope, int cat, int op)
{
  return &c->profile[((node * c->nscopes + scope) * MET_CE_COUNT + cat) * MET_OP_COUNT + op];
}

static met_ce_wait_t *wait_cell(const met_carnival_t *c, int scope, int unit, int op)
{
  return &c->waits[(scope * MET_UNIT_COUNT + unit) * MET_OP_COUNT + op];
}

/* The categories a unit's spans may carry, and what fills the time no span covers. */
static int state_fits(int unit, int state)
{
  return unit == MET_UNIT_PP ? state <= MET_CE_PRSTE : state >= MET_CE_CPCOMP && state < MET_CE_COUNT;
}

/* Profiles one unit of one node. Returns 0, or -1 when a span's state belongs to the other unit. */
static int profile_unit(met_carnival_t *c, const met_trace_t *trace, int node, int unit)
{
  size_t count = 0;
  const met_span_t *spans = met_trace_spans(trace, node, unit, &count);
  int idle = unit == MET_UNIT_PP ? MET_CE_WAIT : MET_CE_CPIDLE;
  double cursor = 0;
  int scope = 0;
  for (size_t i = 0; i < count; i++) {
    if (!state_fits(unit, spans[i].state) || spans[i].op >= MET_OP_COUNT)
      return -1;
    *cell(c, node, scope, idle, MET_OP_NONE) += spans[i].start - cursor;
    *cell(c, node, spans[i].scope, spans[i].state, spans[i].op) += spans[i].end - spans[i].start;
    cursor = spans[i].end;
    scope = spans[i].scope;
  }
  *cell(c, node, scope, idle, MET_OP_NONE) += c->end - cursor;
  return 0;
}

static void merge_wait(met_ce_wait_t *sum, const met_ce_wait_t *w)
{
  sum->count += w->count;
  sum->time += w->time;
  for (int k = 0; k < MET_W_COUNT; k++)
    sum->cat[k] += w->cat[k];
}

/* Whether request a started before b (ties: the lower node). */
static int earlier(const met_request_t *a, const met_request_t *b)
{
  return a->mark[0] < b->mark[0] || (a->mark[0] == b->mark[0] && a->node < b->node);
}

/* Accumulates the requests by (scope, unit, op) and keeps the first PP request of each operation. */
static int characterise(met_carnival_t *c, const met_trace_t *trace)
{
  size_t count = 0;
  const met_request_t *reqs = met_trace_requests(trace, &count);
  for (size_t i = 0; i < count; i++) {
    const met_request_t *r = &reqs[i];
    if (r->op >= MET_OP_COUNT)
      return -1;
    met_ce_wait_t one = {.count = 1};
    one.time = met_carnival_split(r, one.cat);
    merge_wait(wait_cell(c, r->scope, r->unit, r->op), &one);
    if (r->unit == MET_UNIT_PP && (!c->has_first[r->op] || earlier(r, &c->first[r->op]))) {
      c->first[r->op] = *r;
      c->has_first[r->op] = 1;
    }
  }
  return 0;
}

static int by_time(const void *a, const void *b)
{
  const met_ce_row_t *x = a;
  const met_ce_row_t *y = b;
  if (x->wait.time != y->wait.time)
    return x->wait.time > y->wait.time ? -1 : 1;
  if (x->scope != y->scope)
    return x->scope - y->scope;
  return x->unit != y->unit ? x->unit - y->unit : (int)x->op - (int)y->op;
}

static int build_map(met_carnival_t *c)
{
  size_t cells = (size_t)c->nscopes * MET_UNIT_COUNT * MET_OP_COUNT;
  c->map = calloc(cells ? cells : 1, sizeof *c->map);
  if (!c->map)
    return -1;
  for (size_t i = 0; i < cells; i++)
    if (c->waits[i].count > 0)
      c->map[c->nmap++] = (met_ce_row_t){.scope = (int)(i / (MET_UNIT_COUNT * MET_OP_COUNT)),
                                         .unit = (int)(i / MET_OP_COUNT % MET_UNIT_COUNT),
                                         .op = (met_ce_op_t)(i % MET_OP_COUNT),
                                         .wait = c->waits[i]};
  qsort(c->map, c->nmap, sizeof *c->map, by_time);
  return 0;
}

static int copy_scopes(met_carnival_t *c, const met_trace_t *trace)
{
  c->scopes = calloc((size_t)c->nscopes, sizeof *c->scopes);
  if (!c->scopes)
    return -1;
  for (int i = 0; i < c->nscopes; i++) {
    const char *name = met_trace_phase_name(trace, i);
    c->scopes[i] = malloc(strlen(name) + 1);
    if (!c->scopes[i])
      return -1;
    strcpy(c->scopes[i], name);
  }
  return 0;
}

static int has_cp_spans(const met_trace_t *trace)
{
  for (int node = 0; node < met_trace_nranks(trace); node++) {
    size_t count = 0;
    met_trace_spans(trace, node, MET_UNIT_CP, &count);
    if (count > 0)
      return 1;
  }
  return 0;
}

/* Keeps a copy of the trace's requests, for the exports. 0, or -1 when out of memory. */
static int copy_requests(met_carnival_t *c, const met_trace_t *trace)
{
  const met_request_t *requests = met_trace_requests(trace, &c->nrequests);
  if (c->nrequests == 0)
    return 0;
  c->requests = malloc(c->nrequests * sizeof *c->requests);
  if (!c->requests)
    return -1;
  memcpy(c->requests, requests, c->nrequests * sizeof *c->requests);
  return 0;
}

const met_request_t *met_carnival_requests(const met_carnival_t *carnival, size_t *count)
{
  *count = carnival->nrequests;
  return carnival->requests;
}

met_carnival_t *met_carnival_new(const met_trace_t *trace)
{
  met_carnival_t *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->nodes = met_trace_nranks(trace);
  c->nscopes = met_trace_phase_count(trace) > 0 ? met_trace_phase_count(trace) : 1;
  c->has_cp = has_cp_spans(trace);
  c->end = met_trace_end(trace);
  c->profile = calloc((size_t)c->nodes * c->nscopes * MET_CE_COUNT * MET_OP_COUNT, sizeof *c->profile);
  c->waits = calloc((size_t)c->nscopes * MET_UNIT_COUNT * MET_OP_COUNT, sizeof *c->waits);
  int rc = c->profile && c->waits && met_trace_phase_count(trace) > 0 ? copy_scopes(c, trace) : -1;
  for (int node = 0; rc == 0 && node < c->nodes; node++) {
    rc = profile_unit(c, trace, node, MET_UNIT_PP);
    if (rc == 0 && c->has_cp)
      rc = profile_unit(c, trace, node, MET_UNIT_CP);
  }
  rc = rc ? rc : characterise(c, trace);
  rc = rc ? rc : build_map(c);
  rc = rc ? rc : copy_requests(c, trace);
  if (rc == 0)
    return c;
  met_carnival_free(c);
  return NULL;
}

void met_carnival_free(met_carnival_t *carnival)
{
  if (!carnival)
    return;
  for (int i = 0; carnival->scopes && i < carnival->nscopes; i++)
    free(carnival->scopes[i]);
  free(carnival->scopes);
  free(carnival->profile);
  free(carnival->waits);
  free(carnival->map);
  free(carnival->requests);
  free(carnival);
}

int met_carnival_nodes(const met_carnival_t *carnival)
{
  return carnival->nodes;
}

int met_carnival_has_cp(const met_carnival_t *carnival)
{
  return carnival->has_cp;
}

double met_carnival_end(const met_carnival_t *carnival)
{
  return carnival->end;
}

int met_carnival_scope_count(const met_carnival_t *carnival)
{
  return carnival->nscopes;
}

const char *met_carnival_scope_name(const met_carnival_t *carnival, int id)
{
  return id >= 0 && id < carnival->nscopes ? carnival->scopes[id] : NULL;
}

/* Whether index i is selected by `want` (-1 selects all). */
static int selects(int want, int i)
{
  return want < 0 || want == i;
}

double met_carnival_time(const met_carnival_t *carnival, int node, int scope, met_ce_cat_t cat, int op)
{
  double sum = 0;
  if ((unsigned)cat >= MET_CE_COUNT)
    return 0;
  for (int n = 0; n < carnival->nodes; n++)
    for (int s = 0; s < carnival->nscopes; s++)
      for (int o = 0; o < MET_OP_COUNT; o++)
        if (selects(node, n) && selects(scope, s) && selects(op, o))
          sum += *cell(carnival, n, s, cat, o);
  return sum;
}

met_ce_wait_t met_carnival_wait(const met_carnival_t *carnival, int unit, int op, int scope)
{
  met_ce_wait_t sum = {0};
  for (int s = 0; s < carnival->nscopes; s++)
    for (int o = 0; o < MET_OP_COUNT; o++)
      if (selects(scope, s) && selects(op, o) && unit >= 0 && unit < MET_UNIT_COUNT)
        merge_wait(&sum, wait_cell(carnival, s, unit, o));
  return sum;
}

const met_ce_row_t *met_carnival_map(const met_carnival_t *carnival, size_t *count)
{
  *count = carnival->nmap;
  return carnival->map;
}

const met_request_t *met_carnival_first(const met_carnival_t *carnival, met_ce_op_t op)
{
  return (unsigned)op < MET_OP_COUNT && carnival->has_first[op] ? &carnival->first[op] : NULL;
}
