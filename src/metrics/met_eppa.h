/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lost-cycle analysis (EPPA, Lemeire, seed 000 §1.1): speedup, efficiency, overhead, overhead ratios per class and
 * per process, parallel anomaly, granularity, computed from a trace and the sequential run time alone. */
#ifndef MET_EPPA_H
#define MET_EPPA_H

#include "met_trace.h"

/* The overhead classes of seed 000 §1.1.3; the anomaly may be negative. */
typedef enum met_overhead {
  MET_OVH_CTRL = 0, /* control of parallelism */
  MET_OVH_COMM,     /* communication */
  MET_OVH_IDLE,     /* idling */
  MET_OVH_ANOMALY,  /* sum of useful work - T_seq (eq. 1.6) */
  MET_OVH_COUNT
} met_overhead_t;

typedef struct met_eppa {
  int p;                           /* number of ranks in the trace */
  double t_seq;                    /* sequential run time (given) */
  double t_par;                    /* parallel run time: the end of the trace */
  double speedup;                  /* T_seq / T_par (eq. 1.1) */
  double efficiency;               /* speedup / p (eq. 1.2) */
  double overhead;                 /* p T_par - T_seq (eq. 1.3) */
  double work;                     /* sum over ranks of useful work (COMPUTE + IO) */
  double ovh_time[MET_OVH_COUNT];  /* T_ovh^j summed over ranks, seconds */
  double ovh_ratio[MET_OVH_COUNT]; /* Ovh_j = T_ovh^j / T_seq (eq. 1.13) */
  double granularity; /* T_comp / T_comm = 1 / Ovh_comm (eq. 1.16); INFINITY when there is no communication */
} met_eppa_t;

/* Per-process view (seed 000 Fig. 1.6): rank i's work and overheads, each overhead also as a ratio to T_seq.
 * The per-process anomaly class is work_i - T_seq / p, so that the ranks' values add up to the overall ones; it is
 * the sum of three parts, also given apart: the host's speed (the same operations on the rank's host less on the
 * sequential run's, rank 0's, met_trace_host_speed), the true anomaly (work_i less their cost on the rank's host as
 * the sequential run does them, met_trace_anomaly) and the load imbalance (their cost in the sequential run less the
 * fair share T_seq / p: the ranks' imbalances add up to 0 when they do the sequential run's operations between them).
 */
typedef struct met_eppa_proc {
  int rank;
  double work;
  double ovh_time[MET_OVH_COUNT];
  double ovh_ratio[MET_OVH_COUNT];
  double anomaly;          /* true anomaly, seconds */
  double imbalance;        /* load imbalance, seconds */
  double anomaly_ratio;    /* / T_seq */
  double imbalance_ratio;  /* / T_seq */
  double host_speed;       /* host speed, seconds */
  double host_speed_ratio; /* / T_seq */
} met_eppa_proc_t;

/* Fills `out` for `trace` against sequential time `t_seq` (> 0). Returns 0, or BAS_EINVAL when t_seq <= 0 or the trace
 * is empty. The identity speedup = p / (1 + sum_j Ovh_j) (eq. 1.14) holds by construction up to rounding. */
int met_eppa_compute(const met_trace_t *trace, double t_seq, met_eppa_t *out);

/* Fills `out` for one rank. Returns 0, or BAS_EINVAL on a bad rank, t_seq <= 0 or an empty trace. */
int met_eppa_process(const met_trace_t *trace, double t_seq, int rank, met_eppa_proc_t *out);

/* The resolution of a trace's times, seconds: SimGrid 3.32 updates simulated times to its precision (its option
 * surf/precision, 1e-9 s by default) and the tracer writes measured times in whole nanoseconds. */
#define MET_TIME_RESOLUTION 1e-9

/* a - b for two times, or two sums of a trace's times, that agree unless they differ by at least MET_TIME_RESOLUTION:
 * 0 when closer. Their rounding (each time within an ulp of the run's end, each sum within an ulp of its partial sums:
 * 1.4e-14 s at 78 s) leaves such sums up to 2e-12 s apart where they are equal in exact arithmetic (the useful work
 * of gj256's 16 points against T_seq, 134 ulps at p = 64), which printed as an anomaly of -2.4e-14 instead of 0; a
 * real difference under a nanosecond is one neither source of times resolves. */
double met_time_difference(double a, double b);

/* Short lower-case names ("ctrl", "comm", "idle", "anomaly"); NULL out of range. */
const char *met_overhead_name(met_overhead_t ovh);

#endif
