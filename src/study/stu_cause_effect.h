/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cause-effect view (MET_VIEW_CAUSE_EFFECT: the DSM's CARNIVAL analysis, met_carnival.h): its results at a point
 * (the analysis, what dominates the point's waiting and its first page request split by category) and its summary of
 * the study (what the protocol controllers save), with their accessors, read by the report; its row of the views table
 * is stu_cause_effect_view (stu_view.h). */
#ifndef STU_CAUSE_EFFECT_H
#define STU_CAUSE_EFFECT_H

#include "met_carnival.h"
#include "stu_study.h"

#include <stddef.h>

/* The point's cause-effect analysis, or NULL when it has none. Borrowed from the point. */
const met_carnival_t *stu_carnival(const stu_point_t *point);

/* The requests of the point's whole trace (PP and CP waits, in the trace's order) when the study asks for them
 * (stu_facts_t.requests: every point's whole trace is then kept), their number in *count; NULL and 0 otherwise.
 * Borrowed from the point. */
const met_request_t *stu_ce_requests(const stu_point_t *point, size_t *count);

/* What dominates the PPs' waiting at a point (seed 002 §4.3: the operation and the Table 1 category that hold most of
 * it), the shares in percent. */
typedef struct stu_ce_dominant {
  met_ce_wait_t all;        /* every request wait of the PPs */
  double all_pct;           /* all.time's share of the PPs' time (T_par times the nodes) */
  met_ce_op_t op;           /* the operation whose requests waited longest (the first on ties) */
  met_ce_wait_t of_op;      /* their waits */
  double op_pct;            /* of_op.time's share of all.time */
  double op_mean_us;        /* of_op's mean wait, in microseconds */
  met_wait_cat_t cat;       /* the category that holds most of all the waiting (the first on ties) */
  double cat_pct;           /* its share of all.time */
  met_wait_cat_t cat_of_op; /* the one that holds most of op's waiting */
  double cat_of_op_pct;     /* its share of of_op.time */
  double barrier_pct;       /* barriers' share of all the PPRWait (a barrier's interval 6 also holds its wait for the
                             * last node to arrive); NAN when there is no PPRWait */
} stu_ce_dominant_t;
/* Borrowed from the point; NULL when it has no cause-effect analysis or its PPs never waited on a request. */
const stu_ce_dominant_t *stu_ce_dominant(const stu_point_t *point);

/* A point's first page request, followed through its 13 intervals (seed 002 Fig. 1, Table 1). */
typedef struct stu_ce_first {
  const met_request_t *request; /* the earliest page request (met_carnival_first), borrowed from the analysis */
  double wait;                  /* its wait, s: the sum of its intervals */
  double cats[MET_W_COUNT];     /* that wait split into Table 1's categories, s */
} stu_ce_first_t;
/* Borrowed from the point; NULL when it has no cause-effect analysis or no page request. */
const stu_ce_first_t *stu_ce_first_page(const stu_point_t *point);

/* What the protocol controllers save at a point run with them, against its baseline (the point equal in every other
 * parameter whose variant is the baseline, the original TreadMarks: seed 002 §4.3), [0] with and [1] without. */
typedef struct stu_ce_saving {
  const stu_point_t *with, *without;
  double saved;                      /* without's T_par less with's, s */
  double saved_pct;                  /* its share of without's T_par */
  double pp_ms[2][MET_CE_PRSTE + 1]; /* per node, the mean time of each PP category (Comp .. Prste), ms */
  double wait_us[2][MET_OP_COUNT];   /* per operation (from MET_OP_PAGE), the mean request wait of the PPs, us (0:
                                      * no request) */
} stu_ce_saving_t;

/* The view's summary of the study: a saving per point with controllers that has a baseline, in the points' order. */
typedef struct stu_ce_summary {
  stu_ce_saving_t *savings;
  size_t nsavings;
} stu_ce_summary_t;
/* Borrowed from the study; before it is summarised (or without the view), a summary of no point. */
const stu_ce_summary_t *stu_ce_summary(const stu_study_t *study);

#endif
