/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The wait states of a study's points (Scalasca's patterns per rank, met_wait.h; docs/wait-states.md), whatever the
 * study's views: a simulated point's computed where its whole trace is (the per-process p's simulating process) and
 * carried in its result; a measured run's summarised once the study is complete from its trace, whole or summed while
 * it was read (met_trace_sum_waits); read by the report through stu_waits. Its row of the views table is
 * stu_waits_view (stu_view.h). */
#ifndef STU_WAITS_H
#define STU_WAITS_H

#include "met_wait.h"
#include "stu_study.h"

/* The point's wait states, or NULL: its timeline was not kept (not the per-process p), or no rank lost time. Borrowed
 * from the point. */
const met_waits_t *stu_waits(const stu_point_t *point);

/* The wait states of `trace` (borrowed) into the point's slot, in place of any before: kept when some rank lost time,
 * none for an aggregate trace that did not sum them. 0, or SIM_ENOMEM. */
int stu_waits_compute(stu_point_t *point, const met_trace_t *trace);
/* Keeps *w (taken) in the point's slot when some rank lost time, frees it otherwise. 0, or SIM_ENOMEM. */
int stu_waits_keep(stu_point_t *point, met_waits_t *w);

#endif
