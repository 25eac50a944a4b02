/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The types of the trace's cause-effect annex (met_trace.h), apart so that the cause-effect sums (met_ce.h), which the
 * trace keeps, need not include the trace. */
#ifndef MET_ANNEX_H
#define MET_ANNEX_H

/* The cause-effect annex (seed 002 §4.1): what a distributed-shared-memory run records beyond the ranks' timelines,
 * written by the DSM layer (sim_dsm.h) and read by the cause-effect analysis (met_carnival.h), which gives the ids
 * below their meaning. Each node has two units, its main processor (PP, whose spans mirror the rank's timeline) and its
 * protocol controller (CP); a unit's spans come in time order without overlaps, as intervals do. A request is one
 * wait of a unit with the timestamps its messages carried: mark[0] when the wait starts, mark[k] when interval k of
 * seed 002 Figs. 1-3 ends (k = 1..13), non-decreasing. */
enum { MET_UNIT_PP = 0, MET_UNIT_CP, MET_UNIT_COUNT };
enum { MET_SPAN_STATES = 8, MET_SPAN_OPS = 8, MET_REQ_MARKS = 14 };

typedef struct met_span {
  double start; /* seconds */
  double end;   /* seconds, >= start */
  int state;    /* the unit's cost category, 0 .. MET_SPAN_STATES - 1 */
  int scope;    /* code scope: a phase label id */
  int op;       /* the DSM operation, 0 .. MET_SPAN_OPS - 1 */
} met_span_t;

typedef struct met_request {
  int node;  /* the waiting node */
  int unit;  /* MET_UNIT_PP (the PP's Wait) or MET_UNIT_CP (the CP's CPWait) */
  int op;    /* the DSM operation, 0 .. MET_SPAN_OPS - 1 */
  int scope; /* phase label id of the code that waited */
  int peer;  /* the remote node on the request's critical path, or -1 */
  int item;  /* what was asked for: a page number, or a barrier's sequence number */
  double mark[MET_REQ_MARKS];
} met_request_t;
#endif
