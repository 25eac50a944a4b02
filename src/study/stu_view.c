/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The views a study reports, one descriptor each: the lost-cycle view (seed 000 §1.1, with the bottleneck breakdown of
 * seed 001 Table 5), the message view (durations by size and distance) and the cause-effect view (met_carnival.h). */
#include "stu_view.h"
#include "sim_error.h"
#include "stu_codec.h"

#include <math.h>
#include <stdlib.h>

typedef struct view {
  unsigned flag;  /* MET_VIEW_*: what skeletons register and studies have */
  unsigned needs; /* STU_NEED_* */
  /* Optional: analyses a point's trace in the simulating child (POINT tasks only); 0 or a SIM_E* status. */
  int32_t (*analyse)(stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in);
  /* Optional: analyses a finished point's whole trace in the study; 0 or SIM_ENOMEM. */
  int (*finish)(stu_point_t *point);
  /* Optional (with analyse): writes the view's results of a point, empty when it has none; 0 or -1. */
  int (*encode)(stu_point_t *r, FILE *out);
  /* With encode: reads them back into point; 0, or -1 (what was read stays in point, for release). */
  int (*decode)(stu_point_t *point, FILE *in);
  /* Frees the view's results of a point and leaves them empty. */
  void (*release)(stu_point_t *point);
} view_t;

/* Rank `rank`'s per-process view: its anomaly left unsplit (NAN) when the input says so. */
static void process(const met_trace_t *trace, double t_seq, int rank, const stu_view_input_t *in, met_eppa_proc_t *proc)
{
  met_eppa_process(trace, t_seq, rank, proc);
  if (in->unsplit_anomaly)
    proc->anomaly = proc->imbalance = proc->anomaly_ratio = proc->imbalance_ratio = NAN;
}

/* The lost-cycle and bottleneck views against the group's sequential time, and the per-process view if asked for.
 * Returns the analysis status: 0, SIM_EINVAL (undefined: no sequential time) or SIM_ENOMEM. */
static int32_t lost_cycles(stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in)
{
  double t_seq = in->t_seq > 0 ? in->t_seq : r->t_par;
  if (met_eppa_compute(trace, t_seq, &r->eppa) != 0 ||
      (!in->no_breakdown && met_bottleneck(trace, in->phases, &r->breakdown) != 0))
    return SIM_EINVAL;
  if (!in->keep_procs)
    return 0;
  r->procs = calloc((size_t)r->p, sizeof *r->procs);
  for (int rank = 0; r->procs && rank < r->p; rank++)
    process(trace, t_seq, rank, in, &r->procs[rank]);
  return r->procs ? 0 : SIM_ENOMEM;
}

/* [eppa][breakdown][nprocs][procs], their padding (after the leading int) zeroed. */
static int lost_cycles_encode(stu_point_t *r, FILE *out)
{
  STU_ZERO_GAP(&r->eppa, p, t_seq);
  STU_ZERO_GAP(&r->breakdown, p, t_par);
  for (int i = 0; r->procs && i < r->p; i++)
    STU_ZERO_GAP(&r->procs[i], rank, work);
  uint64_t nprocs = r->procs ? (uint64_t)r->p : 0;
  return stu_codec_put(out, &r->eppa, sizeof r->eppa) | stu_codec_put(out, &r->breakdown, sizeof r->breakdown) |
         stu_codec_put(out, &nprocs, sizeof nprocs) | stu_codec_put(out, r->procs, nprocs * sizeof *r->procs);
}

static int lost_cycles_decode(stu_point_t *point, FILE *in)
{
  uint64_t nprocs = 0;
  void *procs = NULL;
  int rc = stu_codec_get(in, &point->eppa, sizeof point->eppa) ||
           stu_codec_get(in, &point->breakdown, sizeof point->breakdown) || stu_codec_get(in, &nprocs, sizeof nprocs) ||
           stu_codec_get_array(in, nprocs, sizeof *point->procs, &procs);
  point->procs = procs;
  return rc ? -1 : 0;
}

static void lost_cycles_release(stu_point_t *point)
{
  free(point->procs);
  point->procs = NULL;
}

/* The message durations by size and distance. */
static int32_t messages(stu_point_t *r, const met_trace_t *trace, const stu_view_input_t *in)
{
  (void)in;
  long groups = met_comm_stats(trace, &r->msgs);
  r->nmsgs = groups < 0 ? 0 : (size_t)groups;
  return groups < 0 ? SIM_ENOMEM : 0;
}

/* [nmsgs][msgs], their padding (after hops) zeroed. */
static int messages_encode(stu_point_t *r, FILE *out)
{
  for (size_t i = 0; i < r->nmsgs; i++)
    STU_ZERO_GAP(&r->msgs[i], hops, count);
  uint64_t nmsgs = r->nmsgs;
  return stu_codec_put(out, &nmsgs, sizeof nmsgs) | stu_codec_put(out, r->msgs, nmsgs * sizeof *r->msgs);
}

static int messages_decode(stu_point_t *point, FILE *in)
{
  uint64_t nmsgs = 0;
  void *msgs = NULL;
  int rc = stu_codec_get(in, &nmsgs, sizeof nmsgs) || stu_codec_get_array(in, nmsgs, sizeof *point->msgs, &msgs);
  point->msgs = msgs;
  point->nmsgs = msgs ? (size_t)nmsgs : 0;
  return rc ? -1 : 0;
}

static void messages_release(stu_point_t *point)
{
  free(point->msgs);
  point->msgs = NULL;
  point->nmsgs = 0;
}

/* The cause-effect view of a point's trace (a DSM run). */
static int cause_effect(stu_point_t *point)
{
  point->carnival = met_carnival_new(point->trace);
  return point->carnival ? 0 : SIM_ENOMEM;
}

static void cause_effect_release(stu_point_t *point)
{
  met_carnival_free(point->carnival);
  point->carnival = NULL;
}

static const view_t views[] = {
    {MET_VIEW_LOST_CYCLES, STU_NEED_SEQ | STU_NEED_PROCS, lost_cycles, NULL, lost_cycles_encode, lost_cycles_decode,
     lost_cycles_release},
    {MET_VIEW_MESSAGES, STU_NEED_HOPS, messages, NULL, messages_encode, messages_decode, messages_release},
    {MET_VIEW_CAUSE_EFFECT, STU_NEED_TRACE, NULL, cause_effect, NULL, NULL, cause_effect_release},
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

int stu_view_encode(stu_point_t *r, FILE *out)
{
  int rc = 0;
  for (size_t v = 0; rc == 0 && v < NVIEWS; v++)
    if (views[v].encode)
      rc = views[v].encode(r, out);
  return rc;
}

int stu_view_decode(stu_point_t *point, FILE *in)
{
  int rc = 0;
  for (size_t v = 0; rc == 0 && v < NVIEWS; v++)
    if (views[v].decode)
      rc = views[v].decode(point, in);
  if (rc != 0)
    stu_view_release(point);
  return rc;
}

void stu_view_release(stu_point_t *point)
{
  for (size_t v = 0; v < NVIEWS; v++)
    views[v].release(point);
}
