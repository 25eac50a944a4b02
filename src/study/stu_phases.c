/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The phases view (seed 000 §1.2): a measured run's time per phase label and category, summed over the ranks, from
 * its trace as the study is made. Time outside every recorded interval (after a rank's end) is in no phase. */
#include "stu_phases.h"
#include "sim_error.h"
#include "stu_view.h"

#include <stdlib.h>
#include <string.h>

const met_category_t stu_phase_cats[STU_PHASE_CATS] = {MET_CAT_COMPUTE, MET_CAT_COMM, MET_CAT_IDLE, MET_CAT_CTRL};

const stu_phases_t *stu_phases(const stu_point_t *point)
{
  return point->view[STU_SLOT_PHASES].data;
}

static void release(void *data)
{
  stu_phases_t *s = data;
  for (size_t k = 0; s->phases && k < s->count; k++)
    free(s->phases[k].name);
  free(s->phases);
  free(s);
}

/* Phase `id`'s seconds per category over the ranks, their sum into *total, and its share of `all`
 * processor-seconds. 0, or -1 out of memory. */
static int sum_phase(const met_trace_t *trace, int id, double all, stu_phase_t *out, double *total)
{
  *total = 0;
  for (size_t c = 0; c < STU_PHASE_CATS; c++) {
    for (int rank = 0; rank < met_trace_nranks(trace); rank++)
      out->seconds[c] += met_trace_phase_time(trace, rank, id, stu_phase_cats[c]);
    *total += out->seconds[c];
  }
  out->share = all > 0 ? 100 * *total / all : 0.0;
  out->name = strdup(met_trace_phase_name(trace, id));
  return out->name ? 0 : -1;
}

static int32_t analyse(stu_point_t *point, const met_trace_t *trace, const stu_view_input_t *in)
{
  (void)in;
  stu_phases_t *s = stu_slot_make(&point->view[STU_SLOT_PHASES], sizeof *s, release);
  int n = met_trace_phase_count(trace);
  if (!s || (n > 0 && !(s->phases = calloc((size_t)n, sizeof *s->phases))))
    return SIM_ENOMEM;
  double all = met_trace_nranks(trace) * met_trace_end(trace);
  double labelled = 0;
  for (int id = 0; id < n; id++, s->count++) {
    double total; /* the sum the share is of: the end-of-run wait has the same rounding */
    if (sum_phase(trace, id, all, &s->phases[id], &total) != 0)
      return SIM_ENOMEM;
    labelled += total;
  }
  s->end_wait = all - labelled > 0 ? all - labelled : 0;
  s->end_share = all > 0 ? 100 * s->end_wait / all : 0.0;
  return 0;
}

const stu_view_row_t stu_phases_view = {
    .flag = MET_VIEW_PHASES,
    .analyse = analyse,
};
