/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: the points of a sweep (stu_study.h), the cross product of the scenario's values, less
 * the points a skeleton on a process grid cannot run and the other shards' points. Plain data: nothing is simulated. */
#ifndef STU_POINTS_H
#define STU_POINTS_H

#include "stu_study.h"

#include <stddef.h>

/* The most points a study holds (each a few hundred bytes before it runs: 740 MB for a million; the points are
 * counted, and refused beyond it, before anything is allocated). */
#define STU_MAX_POINTS 1000000

/* Whether the cross product of the scenario's values (each zip counting as one parameter; twice as many for a scaled
 * sweep, whose fixed-size points come beside) has at most STU_MAX_POINTS points: 0, or SIM_EINVAL with the message
 * naming each parameter's value count. */
int stu_points_count(const scn_scenario_t *s, char *err, size_t errlen);

/* Fills study->points with the cross product of the scenario's values, the last parameter varying fastest, each
 * point's p from parameter p_index. 0, or SIM_ENOMEM (what was made is freed by stu_free). */
int stu_points_build(stu_study_t *study, size_t p_index);

/* Whether p is zipped with other parameters (scn_param_t.zip): a scaled sweep (stu_scaled.h). */
int stu_points_scaled(const scn_scenario_t *s, size_t p_index);

/* For a scaled sweep (study->facts.scaled), adds after the zip's points its fixed-size points: at each p of the zip
 * but the first, the other parameters of p's zip at their first values, everything else as the zip's point at that p
 * (fixed_size = 1). 0, or SIM_ENOMEM. */
int stu_points_add_fixed(stu_study_t *study, size_t p_index);
/* Drops the fixed-size points the skeleton refused (fixed_size = -1): a scaled sweep may outgrow its first values. */
void stu_points_drop_refused(stu_study_t *study);

/* For a study with a process grid (SCN_ROLE_GRID_ROWS: rows x (p / rows)): keeps the points whose rows divide p, then
 * checks that every value of the rows and of p keeps a point (p = 1 is exempt: every group has its sequential run).
 * 0, or SIM_EPARAM with a message and the parameter to blame. */
int stu_points_keep_grid(stu_study_t *study, size_t p_index, const char **blame, char *err, size_t errlen);

/* --shard index/count: keeps every count-th point from the index-th (from 1), so that the shards' points together
 * are the study's, each once; count <= 1 keeps all. 0, or SIM_EPARAM with a message when the shard has none. */
int stu_points_keep_shard(stu_study_t *study, int index, int count, char *err, size_t errlen);

#endif
