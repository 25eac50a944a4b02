/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Wait states as a summary of the study: computed once per point whose whole trace is kept, before anything is
 * reported, so that every output (terminal table, CSV, JSON, pictures) reads the same figures. */
#include "stu_waits.h"
#include "sim_error.h"
#include "stu_view.h"

#include <stdlib.h>

const met_waits_t *stu_waits(const stu_point_t *point)
{
  return point->view[STU_SLOT_WAITS].data;
}

static void release(void *data)
{
  met_wait_free(data);
  free(data);
}

/* The point's wait states into its slot when some rank lost time. 0, or SIM_ENOMEM. */
static int point_waits(stu_point_t *point)
{
  met_waits_t w = {0};
  stu_slot_t *slot = &point->view[STU_SLOT_WAITS];
  if (!point->trace) /* nothing to sum from: what an earlier summary found stays */
    return 0;
  if (slot->data) { /* a study summarised again (stu_measured_set_breakdowns) starts afresh */
    slot->release(slot->data);
    *slot = (stu_slot_t){0};
  }
  if (met_trace_is_aggregate(point->trace) && !met_trace_wait_sums(point->trace))
    return 0; /* an aggregate trace has wait states only when summed while read (a measured run's) */
  if (met_wait_compute(point->trace, &w) != 0)
    return SIM_ENOMEM;
  double lost = met_wait_total(&w, MET_WAIT_PATTERNS);
  met_waits_t *kept = lost > 0 ? stu_slot_make(slot, sizeof *kept, release) : NULL;
  if (kept) {
    *kept = w;
    return 0;
  }
  met_wait_free(&w);
  return lost > 0 ? SIM_ENOMEM : 0;
}

static int summarise(stu_study_t *study)
{
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < study->npoints; i++)
    rc = point_waits(&study->points[i]);
  return rc;
}

const stu_view_row_t stu_waits_view = {
    .summarise = summarise,
};
