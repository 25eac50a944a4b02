/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The lost-cycle view: a point's EPPA metrics against its group's sequential time (seed 000 §1.1), the bottleneck
 * breakdown of seed 001 Table 5 and the per-process view, computed in the simulating child and carried in the result
 * stream. */
#include "stu_lost_cycles.h"
#include "sim_error.h"
#include "stu_codec.h"
#include "stu_view.h"

#include <math.h>
#include <stdlib.h>

static const stu_lost_cycles_t none; /* what a point without the view shows */

static const stu_lost_cycles_t *results(const stu_point_t *point)
{
  const stu_lost_cycles_t *r = stu_slot(point, STU_SLOT_LOST_CYCLES);
  return r ? r : &none;
}

const met_eppa_t *stu_eppa(const stu_point_t *point)
{
  return &results(point)->eppa;
}

const met_breakdown_t *stu_breakdown(const stu_point_t *point)
{
  return &results(point)->breakdown;
}

const met_eppa_proc_t *stu_procs(const stu_point_t *point)
{
  return results(point)->procs;
}

static void release(void *data)
{
  stu_lost_cycles_t *r = data;
  free(r->procs);
  free(r);
}

stu_lost_cycles_t *stu_lost_cycles_make(stu_point_t *point)
{
  return stu_slot_make(point, STU_SLOT_LOST_CYCLES, sizeof(stu_lost_cycles_t), release);
}

/* Rank `rank`'s per-process view: its anomaly left unsplit (NAN) when the input says so. */
static void process(const met_trace_t *trace, double t_seq, int rank, const stu_view_input_t *in, met_eppa_proc_t *proc)
{
  met_eppa_process(trace, t_seq, rank, proc);
  if (in->unsplit_anomaly)
    proc->anomaly = proc->imbalance = proc->anomaly_ratio = proc->imbalance_ratio = NAN;
}

/* The lost-cycle and bottleneck views against the group's sequential time, and the per-process view if asked for.
 * Returns the analysis status: 0, SIM_EINVAL (undefined: no sequential time) or SIM_ENOMEM. */
static int32_t analyse(stu_point_t *point, const met_trace_t *trace, const stu_view_input_t *in)
{
  double t_seq = in->t_seq > 0 ? in->t_seq : point->t_par;
  stu_lost_cycles_t *r = stu_lost_cycles_make(point);
  if (!r)
    return SIM_ENOMEM;
  if (met_eppa_compute(trace, t_seq, &r->eppa) != 0 ||
      (!in->no_breakdown && met_bottleneck(trace, in->phases, &r->breakdown) != 0))
    return SIM_EINVAL;
  if (!in->keep_procs)
    return 0;
  r->procs = calloc((size_t)point->p, sizeof *r->procs);
  for (int rank = 0; r->procs && rank < point->p; rank++)
    process(trace, t_seq, rank, in, &r->procs[rank]);
  return r->procs ? 0 : SIM_ENOMEM;
}

/* [eppa][breakdown][nprocs][procs], their padding (after the leading int) zeroed; all zero for a point without the
 * view. */
static int encode(stu_point_t *point, FILE *out)
{
  stu_lost_cycles_t zero = {0};
  stu_lost_cycles_t *r = stu_slot(point, STU_SLOT_LOST_CYCLES);
  r = r ? r : &zero;
  STU_ZERO_GAP(&r->eppa, p, t_seq);
  STU_ZERO_GAP(&r->breakdown, p, t_par);
  for (int i = 0; r->procs && i < point->p; i++)
    STU_ZERO_GAP(&r->procs[i], rank, work);
  uint64_t nprocs = r->procs ? (uint64_t)point->p : 0;
  return stu_codec_put(out, &r->eppa, sizeof r->eppa) | stu_codec_put(out, &r->breakdown, sizeof r->breakdown) |
         stu_codec_put(out, &nprocs, sizeof nprocs) | stu_codec_put(out, r->procs, nprocs * sizeof *r->procs);
}

static int decode(stu_point_t *point, FILE *in)
{
  uint64_t nprocs = 0;
  void *procs = NULL;
  stu_lost_cycles_t *r = stu_lost_cycles_make(point);
  int rc = !r || stu_codec_get(in, &r->eppa, sizeof r->eppa) || stu_codec_get(in, &r->breakdown, sizeof r->breakdown) ||
           stu_codec_get(in, &nprocs, sizeof nprocs) || stu_codec_get_array(in, nprocs, sizeof *r->procs, &procs);
  if (r)
    r->procs = procs;
  return rc ? -1 : 0;
}

const stu_view_row_t stu_lost_cycles_view = {
    .flag = MET_VIEW_LOST_CYCLES,
    .needs = STU_NEED_SEQ | STU_NEED_PROCS,
    .analyse = analyse,
    .encode = encode,
    .decode = decode,
};
