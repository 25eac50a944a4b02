/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cause-effect model of a distributed-shared-memory run (seed 002 §4.1, Table 1): the categories of a unit's time,
 * the DSM operations, Table 1's categories of a request's wait, and the sums the cause-effect analysis
 * (met_carnival.h) reads, taken as a run's spans and requests arrive: the trace keeps them (met_trace_ce_sums), so
 * that a run's analysis needs memory by nodes and code scopes, never by requests. No SimGrid. */
#ifndef MET_CE_H
#define MET_CE_H

#include "met_annex.h"

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
met_wait_cat_t met_ce_interval(int k);

/* Splits `req`'s wait over the categories: cats[c] = the summed lengths of its intervals in category c. Returns the
 * wait, mark[13] - mark[0]; the categories add up to it up to rounding. */
double met_ce_split(const met_request_t *req, double cats[MET_W_COUNT]);

/* Request waits summed: how many, their time, and that time per category. */
typedef struct met_ce_wait {
  size_t count;
  double time;
  double cat[MET_W_COUNT];
} met_ce_wait_t;

/* Adds the waits `w` to `sum`: counts, times and each category. */
void met_ce_wait_add(met_ce_wait_t *sum, const met_ce_wait_t *w);

/* The sums of a run's spans and requests, for `nodes` nodes (ranks). Each unit's spans come in time order; the time
 * before a unit's first span and between two of its spans counts as its idle category (PP: Wait, CP: CPIdle) in the
 * scope of the span before (scope 0 before the first), so that a unit's categories add up to the end of its last span
 * (the time after it is the analysis's to add: met_ce_sums_last). Requests are summed by (scope, unit, op), each split
 * by met_ce_split, and the earliest PP request of each operation is kept. Every sum is taken in the order the spans or
 * requests came, so that the same spans and requests give the same figures to the bit. */
typedef struct met_ce_sums met_ce_sums_t;

/* NULL when out of memory or nodes < 1. Free with met_ce_sums_free (accepts NULL). */
met_ce_sums_t *met_ce_sums_new(int nodes);
void met_ce_sums_free(met_ce_sums_t *sums);

/* Adds a span of `unit` (MET_UNIT_PP or MET_UNIT_CP) of `node` (0 .. nodes - 1), checked by the caller (the trace:
 * time order, scope >= 0, state and op below MET_SPAN_STATES and MET_SPAN_OPS, not empty). A span whose state is not
 * its unit's or whose op is not a met_ce_op_t is not summed but makes the sums unusable (met_ce_sums_usable). Returns
 * 0, or BAS_ENOMEM when out of memory (nothing changed). */
int met_ce_sums_span(met_ce_sums_t *sums, int node, int unit, const met_span_t *span);
/* Adds a request, checked by the caller (met_trace_request_add); one whose op is not a met_ce_op_t makes the sums
 * unusable. 0, or BAS_ENOMEM when out of memory (nothing changed). */
int met_ce_sums_request(met_ce_sums_t *sums, const met_request_t *req);

/* Whether every span and request fitted the model (above). */
int met_ce_sums_usable(const met_ce_sums_t *sums);
/* Whether some CP span was added. */
int met_ce_sums_has_cp(const met_ce_sums_t *sums);
/* The seconds summed at (node, scope, cat, op); 0 for a scope nothing was summed in. */
double met_ce_sums_time(const met_ce_sums_t *sums, int node, int scope, met_ce_cat_t cat, met_ce_op_t op);
/* The end of the unit's last span (0 before its first), and that span's scope in *scope (0 before the first). */
double met_ce_sums_last(const met_ce_sums_t *sums, int node, int unit, int *scope);
/* The waits of `unit`'s requests on `op` in `scope`; all zero for a scope no request came from. */
met_ce_wait_t met_ce_sums_wait(const met_ce_sums_t *sums, int scope, int unit, met_ce_op_t op);
/* The earliest PP request of `op` (the earliest start, then the lowest node, then the first added), or NULL. Owned by
 * the sums. */
const met_request_t *met_ce_sums_first(const met_ce_sums_t *sums, met_ce_op_t op);

#endif
