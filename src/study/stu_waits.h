/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The wait states of a study's points (Scalasca's patterns per rank, met_wait.h; docs/wait-states.md): summarised once
 * the study is complete from every point whose whole trace is kept (the per-process p), or whose aggregate trace summed
 * them while it was read (a measured run read as sums, met_trace_sum_waits), whatever the study's views; read by the
 * report through stu_waits. Its row of the views table is stu_waits_view (stu_view.h). */
#ifndef STU_WAITS_H
#define STU_WAITS_H

#include "met_wait.h"
#include "stu_study.h"

/* The point's wait states, or NULL: its whole trace was not kept, or no rank lost time. Borrowed from the point. */
const met_waits_t *stu_waits(const stu_point_t *point);

#endif
