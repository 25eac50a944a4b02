/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one constructor through which measured runs (simrun analyse, docs/tracer.md) enter a study: one point per run,
 * every view a measurement can give, and the views it cannot give (the bottleneck components, true anomaly against
 * imbalance) left out with their reasons (stu_facts_t), never filled with zeros. */
#ifndef STU_MEASURED_H
#define STU_MEASURED_H

#include "met_bottleneck.h"
#include "stu_study.h"

/* A study of `n` measured runs of `program` (the traced program's name) against one sequential time `t_seq` (> 0),
 * one point per run in the given order. Its scenario, made here and freed with the study, has a parameter "p" whose
 * i-th value is run i's process count and "program". A full trace becomes its point's (freed with the study); an
 * aggregate one (met_trace_new_aggregate) stays the caller's, its point without a timeline. NULL when out of memory or
 * a run lasted no time (the traces are then all still the caller's). */
stu_study_t *stu_measured_new(const char *program, met_trace_t *const *traces, size_t n, double t_seq);

/* Gives every point of a measured study its bottleneck view, `breakdowns[i]` for point i (worked out elsewhere: the
 * run's operations replayed on a platform, simrun analyse --platform), so that every output shows it as a simulated
 * study's; the reason it was left out is then dropped and the study summarised again (its bottleneck verdicts). 0, or
 * SIM_ENOMEM. */
int stu_measured_set_breakdowns(stu_study_t *study, const met_breakdown_t *breakdowns);

#endif
