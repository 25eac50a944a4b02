/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lost-cycle analysis of a trace (EPPA, seed 000 §1.1): speedup, efficiency and overhead (eqs. 1.1-1.3), overhead
 * times per class and the parallel anomaly (eqs. 1.5-1.6), overhead ratios (eqs. 1.13-1.15), granularity (eq. 1.16). */
#include "met_eppa.h"
#include "bas_error.h"

#include <math.h>
#include <stdbool.h>

static const char *const overhead_names[MET_OVH_COUNT] = {"ctrl", "comm", "idle", "anomaly"};

/* The trace category measuring each overhead class but the anomaly, which is derived from the useful work. */
static const met_category_t overhead_category[MET_OVH_ANOMALY] = {
    [MET_OVH_CTRL] = MET_CAT_CTRL, [MET_OVH_COMM] = MET_CAT_COMM, [MET_OVH_IDLE] = MET_CAT_IDLE};

static bool valid_input(const met_trace_t *trace, double t_seq)
{
  return t_seq > 0 && met_trace_end(trace) > 0;
}

/* Rank `rank`'s useful work T_work^i (returned) and its measured overheads T_ovh^{i,j}, all classes but the anomaly. */
static double rank_times(const met_trace_t *trace, int rank, double ovh_time[MET_OVH_COUNT])
{
  for (int j = 0; j < MET_OVH_ANOMALY; j++)
    ovh_time[j] = met_trace_category_time(trace, rank, overhead_category[j]);
  return met_trace_category_time(trace, rank, MET_CAT_COMPUTE) + met_trace_category_time(trace, rank, MET_CAT_IO);
}

static void fill_ratios(const double ovh_time[MET_OVH_COUNT], double t_seq, double ovh_ratio[MET_OVH_COUNT])
{
  for (int j = 0; j < MET_OVH_COUNT; j++)
    ovh_ratio[j] = ovh_time[j] / t_seq;
}

int met_eppa_compute(const met_trace_t *trace, double t_seq, met_eppa_t *out)
{
  if (!valid_input(trace, t_seq))
    return BAS_EINVAL;
  met_eppa_t e = {.p = met_trace_nranks(trace), .t_seq = t_seq, .t_par = met_trace_end(trace)};
  for (int r = 0; r < e.p; r++) {
    double ovh_time[MET_OVH_COUNT];
    e.work += rank_times(trace, r, ovh_time);
    for (int j = 0; j < MET_OVH_ANOMALY; j++)
      e.ovh_time[j] += ovh_time[j];
  }
  e.ovh_time[MET_OVH_ANOMALY] = met_time_difference(e.work, t_seq);
  fill_ratios(e.ovh_time, t_seq, e.ovh_ratio);
  e.speedup = t_seq / e.t_par;
  e.efficiency = e.speedup / e.p;
  e.overhead = e.p * e.t_par - t_seq;
  e.granularity = e.ovh_time[MET_OVH_COMM] > 0 ? 1.0 / e.ovh_ratio[MET_OVH_COMM] : INFINITY;
  *out = e;
  return 0;
}

int met_eppa_process(const met_trace_t *trace, double t_seq, int rank, met_eppa_proc_t *out)
{
  if (!valid_input(trace, t_seq) || rank < 0 || rank >= met_trace_nranks(trace))
    return BAS_EINVAL;
  met_eppa_proc_t proc = {.rank = rank};
  proc.work = rank_times(trace, rank, proc.ovh_time);
  proc.ovh_time[MET_OVH_ANOMALY] = met_time_difference(proc.work, t_seq / met_trace_nranks(trace));
  fill_ratios(proc.ovh_time, t_seq, proc.ovh_ratio);
  proc.anomaly = met_trace_anomaly(trace, rank);
  proc.host_speed = met_trace_host_speed(trace, rank);
  proc.imbalance = met_time_difference(proc.ovh_time[MET_OVH_ANOMALY], proc.anomaly + proc.host_speed);
  proc.anomaly_ratio = proc.anomaly / t_seq;
  proc.imbalance_ratio = proc.imbalance / t_seq;
  proc.host_speed_ratio = proc.host_speed / t_seq;
  *out = proc;
  return 0;
}

double met_time_difference(double a, double b)
{
  double d = a - b;
  return fabs(d) < MET_TIME_RESOLUTION ? 0 : d;
}

const char *met_overhead_name(met_overhead_t ovh)
{
  return (unsigned)ovh < MET_OVH_COUNT ? overhead_names[ovh] : NULL;
}
