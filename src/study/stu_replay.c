/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay view (stu_replay.h): a measured run's predicted and measured T_par and how far apart they are, kept in the
 * point's slot. */
#include "stu_replay.h"
#include "sim_error.h"
#include "stu_view.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

const stu_replay_line_t stu_replay_lines[STU_REPLAY_LINES] = {
    {"Untraced", offsetof(stu_replay_t, untraced_note)}, {"Disturbed", offsetof(stu_replay_t, disturbance)},
    {"Blocked", offsetof(stu_replay_t, blocking)},       {"Placement", offsetof(stu_replay_t, placement)},
    {"Same host", offsetof(stu_replay_t, same_host)},    {"Speed", offsetof(stu_replay_t, speed)}};

const char *stu_replay_text(const stu_replay_t *replay, const stu_replay_line_t *line)
{
  return (const char *)replay + line->offset;
}

const stu_replay_t *stu_replay(const stu_point_t *point)
{
  return point->view[STU_SLOT_REPLAY].data;
}

int stu_replay_set(stu_point_t *point, const stu_replay_t *replay)
{
  stu_replay_t *r = stu_slot_make(&point->view[STU_SLOT_REPLAY], sizeof *r, free);
  if (!r)
    return SIM_ENOMEM;
  *r = *replay;
  return 0;
}

double stu_replay_diff(const stu_replay_t *replay)
{
  if (isnan(replay->predicted) || isnan(replay->measured) || isnan(replay->least))
    return NAN;
  if (replay->predicted > replay->measured)
    return (replay->predicted - replay->measured) / replay->measured;
  if (replay->predicted < replay->least)
    return (replay->predicted - replay->least) / replay->least;
  return 0;
}

int stu_has_replay(const stu_study_t *study)
{
  return study->npoints > 0 && stu_replay(&study->points[0]) != NULL;
}

const stu_view_row_t stu_replay_view = {.flag = 0};
