/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The picture of a scenario's reference figures (<reference quantity="t_par">, such as a paper's measured and
 * predicted run times) against simrun's T_par, per series of points, and of a measured run's replayed prediction
 * against its measured time, drawn by rep_pictures. */
#ifndef REP_REF_PICTURE_H
#define REP_REF_PICTURE_H

#include "rep_picture.h"

/* Draws <scenario>-references[-<series>].svg: T_par against p, simrun's curve and one per run-time reference that
 * applies to the series. Nothing (0) when none applies. Returns 0, or -1 with pics->err filled. */
int rep_reference_picture(rep_pictures_t *pics, const rep_series_t *g);

/* Draws <scenario>-replay[-<series>].svg for a measured study replayed on a platform (stu_replay.h, simrun analyse
 * --replay-on): the measured time and the predicted T_par against p. Nothing (0) without a replay or with one p only.
 * Returns 0, or -1 with pics->err filled. */
int rep_replay_picture(rep_pictures_t *pics, const rep_series_t *g);

#endif
