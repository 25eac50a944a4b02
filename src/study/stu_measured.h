/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one constructor through which measured runs (simrun analyse, docs/tracer.md) enter a study: one point per run,
 * every view a measurement can give, and the views it cannot give (the bottleneck components, true anomaly against
 * imbalance) left out with their reasons (stu_facts_t), never filled with zeros. */
#ifndef STU_MEASURED_H
#define STU_MEASURED_H

#include "stu_study.h"

/* A study of `n` measured runs against one sequential time `t_seq` (> 0). The scenario (borrowed, as the study's) has a
 * parameter "p" whose i-th value is run i's p, and any others with one value each. A full trace becomes its point's
 * (freed with the study); an aggregate one (met_trace_new_aggregate) stays the caller's, its point without a
 * timeline. NULL when out of memory (the traces are then all still the caller's). */
stu_study_t *stu_measured_new(const scn_scenario_t *scenario, met_trace_t *const *traces, size_t n, double t_seq);

#endif
