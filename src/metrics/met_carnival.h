/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Cause-effect analysis of a distributed-shared-memory run, as CARNIVAL does it for NCP2 (seed 002 §4, Table 1):
 * profiles of the main processors (PP) and protocol controllers (CP) in four dimensions (node, code scope, cost
 * category, DSM operation), and every request's wait split into the eight categories of Table 1 from the timestamps
 * its messages carried (the trace's cause-effect annex, met_trace.h). No SimGrid: it reads any trace with an annex. */
#ifndef MET_CARNIVAL_H
#define MET_CARNIVAL_H

#include "met_ce.h"
#include "met_trace.h"

#include <stddef.h>
#include <stdio.h>

/* Names for reports; NULL out of range. cat: "Comp" .. "CPIdle"; op: "-", "page", "diff", "barrier"; wait category:
 * "CPLWait" .. "PPLWait", with a title ("command queued at the local CP", ...). */
const char *met_ce_cat_name(met_ce_cat_t cat);
const char *met_ce_op_name(met_ce_op_t op);
const char *met_wait_cat_name(met_wait_cat_t cat);
const char *met_wait_cat_title(met_wait_cat_t cat);
/* What happens in interval k (1..13) of operation op (page, diff or barrier) in seed 002 Figs. 1-3, as simrun's
 * protocol does it (docs/ncp2.md); NULL out of range. */
const char *met_carnival_step(met_ce_op_t op, int k);

/* One line of the wait map (CARNIVAL's CPWait map, Fig. 5): where (scope), who waited (unit: the PP's Wait or the
 * CP's CPWait), on what (op), and the waits' profile. */
typedef struct met_ce_row {
  int scope;
  int unit;
  met_ce_op_t op;
  met_ce_wait_t wait;
} met_ce_row_t;

typedef struct met_carnival met_carnival_t;

/* Analyses `trace` (borrowed: nothing of it is kept) from the cause-effect sums it kept as its spans and requests
 * arrived (met_trace_ce_sums), so a full trace and an aggregate one give the same figures to the bit. The end of the
 * trace is the run time: a unit's time before its first span, between spans and after its last one counts as Wait
 * (PP) or CPIdle (CP), so that every unit's categories add up to the run time; CP categories are all zero when the
 * trace has no CP spans (a run without controllers). Returns NULL when out of memory, when the trace has no phase, or
 * when a span carries a state of the other unit or an op (of a span or request) outside met_ce_op_t. Free with
 * met_carnival_free. */
met_carnival_t *met_carnival_new(const met_trace_t *trace);
void met_carnival_free(met_carnival_t *carnival); /* accepts NULL */

/* Binary serialisation, to hand the analysis from a simulation process to the study's (the result stream, whose
 * reader is the same build): write 0, or -1 on an I/O error; read a new analysis, or NULL on a malformed or truncated
 * stream or out of memory. */
int met_carnival_write(const met_carnival_t *carnival, FILE *out);
met_carnival_t *met_carnival_read(FILE *in);

/* The analysis's figures: how many nodes it covers, whether the run had protocol controllers (CP: the categories of
 * their work are kept apart), the time its last node ended (seconds), and how many scopes (phases) it splits. */
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

/* The first PP request of `op` (the earliest start, then the lowest node), or NULL when there is none. Owned by the
 * analysis. */
const met_request_t *met_carnival_first(const met_carnival_t *carnival, met_ce_op_t op);

#endif
