/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Cause-effect analysis of a distributed-shared-memory run, as CARNIVAL does it for NCP2 (seed 002 §4, Table 1):
 * profiles of the main processors (PP) and protocol controllers (CP) in four dimensions (node, code scope, cost
 * category, DSM operation), and every request's wait split into the eight categories of Table 1 from the timestamps
 * its messages carried (the trace's cause-effect annex, met_trace.h). No SimGrid: it reads any trace with an annex. */
#ifndef MET_CARNIVAL_H
#define MET_CARNIVAL_H

#include "met_trace.h"

#include <stddef.h>

/* Where a unit's time goes (§4.1). PP: Comp (the application), Extra (coherence code: TreadMarks), Wait (for its
 * requests), Prste (serving remote or CP requests through interrupts). CP: CPComp (executing commands), CPWait (for
 * its PP's answer), CPIdle (empty queue). PP spans of the annex carry states 0-3, CP spans 4-6. */
typedef enum met_ce_cat {
  MET_CE_COMP = 0,
  MET_CE_EXTRA,
  MET_CE_WAIT,
  MET_CE_PRSTE,
  MET_CE_CPCOMP,
  MET_CE_CPWAIT,
  MET_CE_CPIDLE,
  MET_CE_COUNT
} met_ce_cat_t;

/* The DSM operation a span or request belongs to; NONE for application code. */
typedef enum met_ce_op { MET_OP_NONE = 0, MET_OP_PAGE, MET_OP_DIFF, MET_OP_BARRIER, MET_OP_COUNT } met_ce_op_t;

/* Table 1: the eight categories of a request's wait. */
typedef enum met_wait_cat {
  MET_W_CPLWAIT = 0, /* command queued at the local CP (intervals 1, 11) */
  MET_W_CPLCOMP,     /* local CP executing (2, 12) */
  MET_W_CPCCOMM,     /* network between CPs (3, 10) */
  MET_W_CPRWAIT,     /* queued at the remote CP (4, 8) */
  MET_W_CPRCOMP,     /* remote CP executing (5, 9) */
  MET_W_PPRWAIT,     /* remote PP interrupt latency (6) */
  MET_W_PPRCOMP,     /* remote PP executing (7) */
  MET_W_PPLWAIT,     /* local PP notification (13) */
  MET_W_COUNT
} met_wait_cat_t;

enum { MET_CE_INTERVALS = MET_REQ_MARKS - 1 }; /* 13 */

/* The category of interval k (1..13) of Table 1; MET_W_COUNT for any other k. */
met_wait_cat_t met_carnival_interval(int k);

/* Splits `req`'s wait over the categories: cats[c] = the summed lengths of its intervals in category c. Returns the
 * wait, mark[13] - mark[0]; the categories add up to it up to rounding. */
double met_carnival_split(const met_request_t *req, double cats[MET_W_COUNT]);

/* Names for reports; NULL out of range. cat: "Comp" .. "CPIdle"; op: "-", "page", "diff", "barrier"; wait category:
 * "CPLWait" .. "PPLWait", with a title ("command queued at the local CP", ...). */
const char *met_ce_cat_name(met_ce_cat_t cat);
const char *met_ce_op_name(met_ce_op_t op);
const char *met_wait_cat_name(met_wait_cat_t cat);
const char *met_wait_cat_title(met_wait_cat_t cat);
/* What happens in interval k (1..13) of operation op (page, diff or barrier) in seed 002 Figs. 1-3, as simrun's
 * protocol does it (docs/ncp2.md); NULL out of range. */
const char *met_carnival_step(met_ce_op_t op, int k);

/* Request waits summed: how many, their time, and that time per category. */
typedef struct met_ce_wait {
  size_t count;
  double time;
  double cat[MET_W_COUNT];
} met_ce_wait_t;

/* One line of the wait map (CARNIVAL's CPWait map, Fig. 5): where (scope), who waited (unit: the PP's Wait or the
 * CP's CPWait), on what (op), and the waits' profile. */
typedef struct met_ce_row {
  int scope;
  int unit;
  met_ce_op_t op;
  met_ce_wait_t wait;
} met_ce_row_t;

typedef struct met_carnival met_carnival_t;

/* Analyses `trace` (borrowed: nothing of it is kept). The end of the trace is the run time: a unit's time before its
 * first span, between spans and after its last one counts as Wait (PP) or CPIdle (CP), so that every unit's
 * categories add up to the run time; CP categories are all zero when the trace has no CP spans (a run without
 * controllers). Returns NULL when out of memory or when a span carries a state of the other unit. Free with
 * met_carnival_free. */
met_carnival_t *met_carnival_new(const met_trace_t *trace);
void met_carnival_free(met_carnival_t *carnival); /* accepts NULL */

int met_carnival_nodes(const met_carnival_t *carnival);
int met_carnival_has_cp(const met_carnival_t *carnival);
double met_carnival_end(const met_carnival_t *carnival);
int met_carnival_scope_count(const met_carnival_t *carnival);
/* The label of scope `id`, owned by the analysis; NULL for an unknown id. */
const char *met_carnival_scope_name(const met_carnival_t *carnival, int id);

/* Seconds in the profile at (node, scope, cat, op); -1 for node, scope or op sums over that dimension. */
double met_carnival_time(const met_carnival_t *carnival, int node, int scope, met_ce_cat_t cat, int op);

/* The waits of `unit` (MET_UNIT_PP or MET_UNIT_CP) on `op` in `scope`; -1 for op or scope sums over it. */
met_ce_wait_t met_carnival_wait(const met_carnival_t *carnival, int unit, int op, int scope);

/* The wait map: one row per (scope, unit, op) that waited, the longest total first (ties: scope, unit, op). Owned by
 * the analysis; the number of rows in *count. */
const met_ce_row_t *met_carnival_map(const met_carnival_t *carnival, size_t *count);

/* Every request of the trace (PP and CP waits), in the order the trace holds them; owned by the analysis, their number
 * in *count (NULL when none). */
const met_request_t *met_carnival_requests(const met_carnival_t *carnival, size_t *count);

/* The first PP request of `op` (the earliest start, then the lowest node), or NULL when there is none. Owned by the
 * analysis. */
const met_request_t *met_carnival_first(const met_carnival_t *carnival, met_ce_op_t op);

#endif
