/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CARNIVAL's cause-effect analysis for NCP2 (seed 002 §4.1-4.3, Table 1): unit profiles in four dimensions from the
 * annex's spans, request waits split into Table 1's categories from the carried timestamps, and the wait map. */
#include "met_carnival.h"

#include <stdint.h>
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
};

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

static size_t profile_cells(const met_carnival_t *c)
{
  return (size_t)c->nodes * c->nscopes * MET_CE_COUNT * MET_OP_COUNT;
}

static size_t wait_cells(const met_carnival_t *c)
{
  return (size_t)c->nscopes * MET_UNIT_COUNT * MET_OP_COUNT;
}

/* The sums' profile, waits and first requests for scopes 0 .. nscopes - 1. */
static void copy_sums(met_carnival_t *c, const met_ce_sums_t *sums)
{
  for (int node = 0; node < c->nodes; node++)
    for (int s = 0; s < c->nscopes; s++)
      for (int cat = 0; cat < MET_CE_COUNT; cat++)
        for (int op = 0; op < MET_OP_COUNT; op++)
          *cell(c, node, s, cat, op) = met_ce_sums_time(sums, node, s, (met_ce_cat_t)cat, (met_ce_op_t)op);
  for (int s = 0; s < c->nscopes; s++)
    for (int unit = 0; unit < MET_UNIT_COUNT; unit++)
      for (int op = 0; op < MET_OP_COUNT; op++)
        *wait_cell(c, s, unit, op) = met_ce_sums_wait(sums, s, unit, (met_ce_op_t)op);
  for (int op = 0; op < MET_OP_COUNT; op++)
    if ((c->has_first[op] = met_ce_sums_first(sums, (met_ce_op_t)op) != NULL))
      c->first[op] = *met_ce_sums_first(sums, (met_ce_op_t)op);
}

/* The time after each unit's last span (from 0 without sums: a trace with no annex) up to the end, in its idle
 * category and the scope of that span. */
static void add_tails(met_carnival_t *c, const met_ce_sums_t *sums)
{
  for (int node = 0; node < c->nodes; node++)
    for (int unit = 0; unit < (c->has_cp ? MET_UNIT_COUNT : 1); unit++) {
      int scope = 0;
      double last = sums ? met_ce_sums_last(sums, node, unit, &scope) : 0.0;
      *cell(c, node, scope, unit == MET_UNIT_PP ? MET_CE_WAIT : MET_CE_CPIDLE, MET_OP_NONE) += c->end - last;
    }
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
  size_t cells = wait_cells(c);
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
  for (int i = 0; i < c->nscopes; i++) {
    const char *name = met_trace_phase_name(trace, i);
    if (!(c->scopes[i] = malloc(strlen(name) + 1)))
      return -1;
    strcpy(c->scopes[i], name);
  }
  return 0;
}

/* A new analysis of `nodes` nodes and `nscopes` scopes, its arrays zero; NULL when out of memory. */
static met_carnival_t *alloc_carnival(int nodes, int nscopes)
{
  met_carnival_t *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->nodes = nodes;
  c->nscopes = nscopes;
  c->profile = calloc(profile_cells(c), sizeof *c->profile);
  c->waits = calloc(wait_cells(c), sizeof *c->waits);
  c->scopes = calloc((size_t)nscopes, sizeof *c->scopes);
  if (c->profile && c->waits && c->scopes)
    return c;
  met_carnival_free(c);
  return NULL;
}

met_carnival_t *met_carnival_new(const met_trace_t *trace)
{
  const met_ce_sums_t *sums = met_trace_ce_sums(trace);
  if (met_trace_phase_count(trace) == 0 || (sums && !met_ce_sums_usable(sums)))
    return NULL;
  met_carnival_t *c = alloc_carnival(met_trace_nranks(trace), met_trace_phase_count(trace));
  if (!c)
    return NULL;
  c->has_cp = sums && met_ce_sums_has_cp(sums);
  c->end = met_trace_end(trace);
  if (sums)
    copy_sums(c, sums);
  add_tails(c, sums);
  if (copy_scopes(c, trace) == 0 && build_map(c) == 0)
    return c;
  met_carnival_free(c);
  return NULL;
}

static int put(FILE *out, const void *data, size_t size)
{
  return fwrite(data, 1, size, out) == size ? 0 : -1;
}

static int get(FILE *in, void *data, size_t size)
{
  return fread(data, 1, size, in) == size ? 0 : -1;
}

/* [nodes, scopes, has_cp: int32][end][each scope: uint32 length, bytes][profile][waits][has_first][first] */
int met_carnival_write(const met_carnival_t *carnival, FILE *out)
{
  const int32_t dims[3] = {carnival->nodes, carnival->nscopes, carnival->has_cp};
  int rc = put(out, dims, sizeof dims) | put(out, &carnival->end, sizeof carnival->end);
  for (int i = 0; rc == 0 && i < carnival->nscopes; i++) {
    uint32_t len = (uint32_t)strlen(carnival->scopes[i]);
    rc = put(out, &len, sizeof len) | put(out, carnival->scopes[i], len);
  }
  return rc | put(out, carnival->profile, profile_cells(carnival) * sizeof *carnival->profile) |
         put(out, carnival->waits, wait_cells(carnival) * sizeof *carnival->waits) |
         put(out, carnival->has_first, sizeof carnival->has_first) | put(out, carnival->first, sizeof carnival->first);
}

/* Reads scope i's name into c. 0, or -1. */
static int read_scope(met_carnival_t *c, int i, FILE *in)
{
  uint32_t len;
  if (get(in, &len, sizeof len) || len > (1u << 20) || !(c->scopes[i] = malloc((size_t)len + 1)))
    return -1;
  c->scopes[i][len] = '\0';
  return get(in, c->scopes[i], len);
}

/* Whether `in` holds fewer than `bytes` bytes after its position (a damaged count; false when that cannot be told),
 * so that they are refused before anything is allocated. */
static int holds_less(FILE *in, double bytes)
{
  long at = ftell(in);
  long end = at >= 0 && fseek(in, 0, SEEK_END) == 0 ? ftell(in) : -1;
  if (at < 0 || fseek(in, at, SEEK_SET) != 0 || end < at)
    return 0;
  return (double)(end - at) < bytes;
}

met_carnival_t *met_carnival_read(FILE *in)
{
  int32_t dims[3];
  if (get(in, dims, sizeof dims) || dims[0] < 1 || dims[0] > (1 << 20) || dims[1] < 1 || dims[1] > (1 << 16) ||
      (dims[2] != 0 && dims[2] != 1) ||
      holds_less(in,
                 (double)dims[1] * (sizeof(uint32_t) + (double)dims[0] * MET_CE_COUNT * MET_OP_COUNT * sizeof(double) +
                                    MET_UNIT_COUNT * MET_OP_COUNT * sizeof(met_ce_wait_t))))
    return NULL;
  met_carnival_t *c = alloc_carnival(dims[0], dims[1]);
  int rc = c ? get(in, &c->end, sizeof c->end) : -1;
  for (int i = 0; rc == 0 && i < dims[1]; i++)
    rc = read_scope(c, i, in);
  if (rc == 0) {
    c->has_cp = dims[2];
    rc = get(in, c->profile, profile_cells(c) * sizeof *c->profile) |
         get(in, c->waits, wait_cells(c) * sizeof *c->waits) | get(in, c->has_first, sizeof c->has_first) |
         get(in, c->first, sizeof c->first);
  }
  if (rc == 0 && build_map(c) == 0)
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
        met_ce_wait_add(&sum, wait_cell(carnival, s, unit, o));
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
