/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Wait states of a study's points: a simulated point's computed in its simulating process, where its whole trace is
 * (the per-process p's), and carried in its result; a measured run's once the study is complete, from the trace it
 * lends the study, before anything is reported, so that every output (terminal table, CSV, JSON, pictures) reads the
 * same figures. */
#include "stu_waits.h"
#include "sim_error.h"
#include "stu_codec.h"
#include "stu_view.h"

#include <stdint.h>
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

/* Empties the point's slot: a study summarised again (stu_measured_set_breakdowns) starts afresh. */
static void forget(stu_point_t *point)
{
  stu_slot_t *slot = &point->view[STU_SLOT_WAITS];
  if (slot->data)
    slot->release(slot->data);
  *slot = (stu_slot_t){0};
}

int stu_waits_keep(stu_point_t *point, met_waits_t *w)
{
  double lost = met_wait_total(w, MET_WAIT_PATTERNS);
  met_waits_t *kept = lost > 0 ? stu_slot_make(&point->view[STU_SLOT_WAITS], sizeof *kept, release) : NULL;
  if (kept) {
    *kept = *w;
    return 0;
  }
  met_wait_free(w);
  return lost > 0 ? SIM_ENOMEM : 0;
}

int stu_waits_compute(stu_point_t *point, const met_trace_t *trace)
{
  met_waits_t w = {0};
  forget(point);
  if (met_trace_is_aggregate(trace) && !met_trace_wait_sums(trace))
    return 0; /* an aggregate trace has wait states only when summed while read (a measured run's) */
  if (met_wait_compute(trace, &w) != 0)
    return SIM_ENOMEM;
  return stu_waits_keep(point, &w);
}

static int summarise(stu_study_t *study)
{
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < study->npoints; i++) /* without a trace, what the point brought stays */
    rc = study->points[i].trace ? stu_waits_compute(&study->points[i], study->points[i].trace) : 0;
  return rc;
}

/* The ranks (0: none), then their seconds by rank and pattern. */
static int encode(stu_point_t *point, FILE *out)
{
  const met_waits_t *w = stu_waits(point);
  int32_t n = w ? w->nranks : 0;
  return stu_codec_put(out, &n, sizeof n) |
         stu_codec_put(out, w ? w->time : NULL, (size_t)n * MET_WAIT_PATTERNS * sizeof *w->time);
}

static int decode(stu_point_t *point, FILE *in)
{
  int32_t n = 0;
  void *time = NULL;
  if (stu_codec_get(in, &n, sizeof n) || n < 0 ||
      stu_codec_get_array(in, (size_t)n * MET_WAIT_PATTERNS, sizeof(double), &time)) {
    free(time);
    return -1;
  }
  met_waits_t w = {.nranks = n, .time = time};
  return time ? stu_waits_keep(point, &w) : 0;
}

const stu_view_row_t stu_waits_view = {
    .encode = encode,
    .decode = decode,
    .summarise = summarise,
};
