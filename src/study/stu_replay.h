/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay view of a measured run (simrun analyse --replay-on, docs/ti-replay.md): per run, the T_par its TI trace
 * predicts when replayed on a platform, beside the measured time it is compared with (the untraced run's wall time
 * where --untraced gives it, else the traced run's T_par), given to the study by the command line once the replays
 * ran, so that the CSV and JSON hold them. Its row of the views table is stu_replay_view (stu_view.h): every study's,
 * it analyses nothing, and a point has it only once set. */
#ifndef STU_REPLAY_H
#define STU_REPLAY_H

#include "stu_study.h"

typedef struct stu_replay {
  double predicted; /* the replay's T_par, s */
  double measured;  /* the measured time compared with, s */
  int untraced;     /* 1: measured is the untraced run's wall time; 0: the traced run's T_par */
} stu_replay_t;

/* The point's replay, or NULL when it has none. Borrowed from the point. */
const stu_replay_t *stu_replay(const stu_point_t *point);

/* Gives the point its replay (copied). 0, or SIM_ENOMEM. */
int stu_replay_set(stu_point_t *point, const stu_replay_t *replay);

/* Whether the study's points have a replay (the first point has one). */
int stu_has_replay(const stu_study_t *study);

#endif
