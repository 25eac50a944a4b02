/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The lost-cycle view (MET_VIEW_LOST_CYCLES: Lemeire's EPPA, seed 000 §1.1, with the bottleneck breakdown of seed 001
 * Table 5 and the per-process view at the per-process p): its results at a point and their accessors, read by the
 * report; its row of the views table is stu_lost_cycles_view (stu_view.h). */
#ifndef STU_LOST_CYCLES_H
#define STU_LOST_CYCLES_H

#include "met_bottleneck.h"
#include "met_eppa.h"
#include "stu_study.h"

/* A point's lost-cycle results. */
typedef struct stu_lost_cycles {
  met_eppa_t eppa;           /* the lost-cycle metrics */
  met_breakdown_t breakdown; /* seed 001 Table 5; zero when the study has no breakdown (stu_facts_t.no_breakdown) */
  met_eppa_proc_t *procs;    /* the per-process view, p entries, for the per-process p only; otherwise NULL */
} stu_lost_cycles_t;

/* The point's lost-cycle metrics and bottleneck breakdown: all zero when it has none (a study without the view).
 * Borrowed from the point. */
const met_eppa_t *stu_eppa(const stu_point_t *point);
const met_breakdown_t *stu_breakdown(const stu_point_t *point);
/* The point's per-process view, p entries, or NULL (not the per-process p). Borrowed from the point. */
const met_eppa_proc_t *stu_procs(const stu_point_t *point);
/* The point's lost-cycle results to fill, made (all zero) if it has none; NULL when out of memory. Owned by the point.
 */
stu_lost_cycles_t *stu_lost_cycles_make(stu_point_t *point);

#endif
