/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The views a study reports, one row each (stu_study_views.h), defined by the view's own module: the lost-cycle view
 * (seed 000 §1.1, with the bottleneck breakdown of seed 001 Table 5), the message view (durations by size and
 * distance), the cause-effect view (met_carnival.h), the wait states of every study's kept traces (met_wait.h), the
 * skeleton's analytic model of every simulated point (stu_model.h) and a measured run's phases (stu_phases.h). */
#include "stu_view.h"

#define STU_VIEW(slot, row) &row,
static const stu_view_row_t *const views[] = {
/* in stu_study_views.h's order */
#include "stu_study_views.h"
};
#undef STU_VIEW

#define NVIEWS (sizeof views / sizeof views[0])

/* Whether view row v is one of `flags`'s (a row of flag 0 is every study's). */
static int has(size_t v, unsigned flags)
{
  return views[v]->flag == 0 || (flags & views[v]->flag) != 0;
}

/* Whether a skeleton may register view row v: its analysis, if any, crosses from the simulating child (encode). */
static int crosses_fork(size_t v)
{
  return !views[v]->analyse || views[v]->encode;
}

unsigned stu_view_flags(unsigned app_views)
{
  unsigned flags = 0;
  for (size_t v = 0; v < NVIEWS; v++)
    flags |= crosses_fork(v) ? app_views & views[v]->flag : 0;
  return app_views ? flags : MET_VIEW_LOST_CYCLES;
}

int stu_view_needs(unsigned flags, unsigned need)
{
  for (size_t v = 0; v < NVIEWS; v++)
    if (has(v, flags) && (views[v]->needs & need))
      return 1;
  return 0;
}

int32_t stu_view_analyse(unsigned flags, stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in)
{
  int32_t status = 0;
  for (size_t v = 0; status == 0 && v < NVIEWS; v++)
    if (has(v, flags) && views[v]->analyse)
      status = views[v]->analyse(r, trace, in);
  return status;
}

int stu_view_finish(unsigned flags, stu_point_t *point, const stu_view_context_t *ctx)
{
  int rc = 0;
  for (size_t v = 0; rc == 0 && v < NVIEWS; v++)
    if (has(v, flags) && views[v]->finish)
      rc = views[v]->finish(point, ctx);
  return rc;
}

int stu_view_summarise(stu_study_t *study)
{
  int rc = 0;
  stu_summaries_release(study); /* a study summarised again (stu_measured_set_breakdowns) starts afresh */
  for (size_t v = 0; rc == 0 && v < NVIEWS; v++)
    if (has(v, study->facts.views) && views[v]->summarise)
      rc = views[v]->summarise(study);
  return rc;
}

int stu_view_encode(stu_point_t *r, FILE *out)
{
  int rc = 0;
  for (size_t v = 0; rc == 0 && v < NVIEWS; v++)
    if (views[v]->encode)
      rc = views[v]->encode(r, out);
  return rc;
}

int stu_view_decode(stu_point_t *point, FILE *in)
{
  int rc = 0;
  for (size_t v = 0; rc == 0 && v < NVIEWS; v++)
    if (views[v]->decode)
      rc = views[v]->decode(point, in);
  if (rc != 0)
    stu_slots_release(point);
  return rc;
}
