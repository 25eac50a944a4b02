/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The views a study reports, one descriptor each: the lost-cycle view (seed 000 §1.1, with the bottleneck breakdown of
 * seed 001 Table 5), the message view (durations by size and distance) and the cause-effect view (met_carnival.h). */
#include "stu_view.h"
#include "sim_error.h"

#include <stdlib.h>

typedef struct view {
  unsigned flag;  /* MET_VIEW_*: what skeletons register and studies have */
  unsigned needs; /* STU_NEED_* */
  /* Optional: analyses a point's trace in the simulating child (POINT tasks only); 0 or a SIM_E* status. */
  int32_t (*analyse)(stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in);
  /* Optional: analyses a finished point's whole trace in the study; 0 or SIM_ENOMEM. */
  int (*finish)(stu_point_t *point);
} view_t;

/* The lost-cycle and bottleneck views against the group's sequential time, and the per-process view if asked for.
 * Returns the analysis status: 0, SIM_EINVAL (undefined: no sequential time) or SIM_ENOMEM. */
static int32_t lost_cycles(stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in)
{
  double t_seq = in->t_seq > 0 ? in->t_seq : r->t_par;
  if (met_eppa_compute(trace, t_seq, &r->eppa) != 0 || met_bottleneck(trace, in->phases, &r->breakdown) != 0)
    return SIM_EINVAL;
  if (!in->keep_procs)
    return 0;
  r->procs = calloc((size_t)r->p, sizeof *r->procs);
  for (int rank = 0; r->procs && rank < r->p; rank++)
    met_eppa_process(trace, t_seq, rank, &r->procs[rank]);
  return r->procs ? 0 : SIM_ENOMEM;
}

/* The message durations by size and distance. */
static int32_t messages(stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in)
{
  (void)in;
  long groups = met_comm_stats(trace, &r->msgs);
  r->nmsgs = groups < 0 ? 0 : (size_t)groups;
  return groups < 0 ? SIM_ENOMEM : 0;
}

/* The cause-effect view of a point's trace (a DSM run). */
static int cause_effect(stu_point_t *point)
{
  point->carnival = met_carnival_new(point->trace);
  return point->carnival ? 0 : SIM_ENOMEM;
}

static const view_t views[] = {
    {MET_VIEW_LOST_CYCLES, STU_NEED_SEQ | STU_NEED_PROCS, lost_cycles, NULL},
    {MET_VIEW_MESSAGES, STU_NEED_HOPS, messages, NULL},
    {MET_VIEW_CAUSE_EFFECT, STU_NEED_TRACE, NULL, cause_effect},
};

#define NVIEWS (sizeof views / sizeof views[0])

unsigned stu_view_flags(unsigned app_views)
{
  unsigned flags = 0;
  for (size_t v = 0; v < NVIEWS; v++)
    flags |= app_views & views[v].flag;
  return app_views ? flags : MET_VIEW_LOST_CYCLES;
}

int stu_view_needs(unsigned flags, unsigned need)
{
  for (size_t v = 0; v < NVIEWS; v++)
    if ((flags & views[v].flag) && (views[v].needs & need))
      return 1;
  return 0;
}

int32_t stu_view_analyse(unsigned flags, stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in)
{
  int32_t status = 0;
  for (size_t v = 0; status == 0 && v < NVIEWS; v++)
    if ((flags & views[v].flag) && views[v].analyse)
      status = views[v].analyse(r, trace, in);
  return status;
}

int stu_view_finish(unsigned flags, stu_point_t *point)
{
  int rc = 0;
  for (size_t v = 0; rc == 0 && v < NVIEWS; v++)
    if ((flags & views[v].flag) && views[v].finish)
      rc = views[v].finish(point);
  return rc;
}
