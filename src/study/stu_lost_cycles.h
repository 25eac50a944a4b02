/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The lost-cycle view (MET_VIEW_LOST_CYCLES: Lemeire's EPPA, seed 000 §1.1, with the bottleneck breakdown of seed 001
 * Table 5 and the per-process view at the per-process p): its results at a point, its summary of the study (a
 * regression fit per metric and series, the bottleneck verdict per series against p, the best point at each p) and
 * their accessors, read by the report; its row of the views table is stu_lost_cycles_view (stu_view.h). */
#ifndef STU_LOST_CYCLES_H
#define STU_LOST_CYCLES_H

#include "met_bottleneck.h"
#include "met_eppa.h"
#include "met_fit.h"
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
/* Whether a rank of a per-process view of the study ran on a host of another speed than rank 0's (its host_speed is
 * not 0): the reports then give the host-speed part of the anomaly too. */
int stu_hosts_differ(const stu_study_t *study);
/* The point's lost-cycle results to fill, made (all zero) if it has none; NULL when out of memory. Owned by the point.
 */
stu_lost_cycles_t *stu_lost_cycles_make(stu_point_t *point);

/* The metrics a curve shows and a fit follows, against p or a work size (seed 000 Figs 1.7-1.8; docs/pictures.md). */
typedef enum stu_metric {
  STU_METRIC_TIME,       /* T_par, s */
  STU_METRIC_SPEEDUP,    /* T_seq / T_par */
  STU_METRIC_EFFICIENCY, /* speedup / p, from 0 to 1 (the CSV's, JSON's and fits' unit: docs/results.md) */
  STU_METRIC_OVH_CTRL,   /* the overhead ratios Ovh_j */
  STU_METRIC_OVH_COMM,
  STU_METRIC_OVH_IDLE,
  STU_METRIC_OVH_ANOMALY,
  STU_METRIC_GRANULARITY, /* T_comp / T_comm */
  STU_METRICS
} stu_metric_t;
/* The metric at the point. */
double stu_metric(const stu_point_t *point, stu_metric_t metric);

/* The fit of one metric over one series (stu_series.h): the best form (met_fit_best) of the series' finite values. */
typedef struct stu_fit {
  met_fit_t fit;
  int fitted; /* a form applied and is honest within the metric's range (met_fit_honest): shown */
  int unfit;  /* a form applied but none is honest: "no simple form fits" */
} stu_fit_t;
/* The fit of `metric` over series `series` against the parameter at x_index (a numeric sweep, stu_numeric_sweep), as
 * summarised once the study was complete; NULL when the study has none there. Borrowed from the study. */
const stu_fit_t *stu_fit(const stu_study_t *study, size_t x_index, stu_metric_t metric, size_t series);
/* At one p, among the points of equal zipped parameters (a scaled sweep's n: the fixed-size and the scaled point at
 * one p are not rivals), the point of lowest T_par (the earlier on ties) and the runner-up (NULL when it has no
 * rival). */
typedef struct stu_ranking {
  const stu_point_t *best, *second;
} stu_ranking_t;
/* The ranking at each p and zipped parameters' values, in the order of their first point, *count of them; borrowed
 * from the study (NULL and 0 when it has none). */
const stu_ranking_t *stu_rankings(const stu_study_t *study, size_t *count);
/* The bottleneck verdict (met_bottleneck_verdict) of series `series` against p; NULL when the study has none there (no
 * breakdown, or out of memory when it was drawn). Borrowed from the study. */
const met_verdict_t *stu_verdict(const stu_study_t *study, size_t series);
/* One point's bottleneck, as its series' verdict has it. */
typedef struct stu_bottleneck {
  met_component_t dominant; /* the component of largest B-ratio (met_bottleneck_dominant) */
  int is_bottleneck;        /* it takes more time than the others together (met_bottleneck_exceeds) */
  met_sub_t cause;          /* its largest sub-component */
} stu_bottleneck_t;
/* The point's bottleneck; NULL when the study has no verdict (no breakdown, or not summarised). Borrowed from the
 * study. */
const stu_bottleneck_t *stu_bottleneck(const stu_study_t *study, const stu_point_t *point);

#endif
