/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The views simrun draws from a trace, as flags: the lost-cycle metrics against a sequential run (met_eppa.h, with the
 * bottleneck breakdown of met_bottleneck.h), the message times by size and distance for benchmarks with no sequential
 * counterpart such as a ping-pong (met_comm.h), the cause-effect analysis of a DSM run (met_carnival.h), and a measured
 * run's phases (seed 000 §1.2). A skeleton registers the views of its studies (app_skeleton_t.views) and a study says
 * which it has (stu_facts_t.views) with this one enum; src/study/stu_view.c says what each needs and how it is
 * computed. */
#ifndef MET_VIEW_H
#define MET_VIEW_H

typedef enum met_view {
  MET_VIEW_LOST_CYCLES = 1u << 0,
  MET_VIEW_MESSAGES = 1u << 1,
  MET_VIEW_CAUSE_EFFECT = 1u << 2,
  MET_VIEW_PHASES = 1u << 3 /* a measured run's time per phase label (src/study/stu_phases.c); no skeleton's */
} met_view_t;

#endif
