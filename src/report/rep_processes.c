/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The per-process table's declaration (rep_processes.h): each column once, with where its figure comes from
 * (met_eppa_proc_t). docs/results.md's -processes row must name every CSV column (tests/test_rep_schema.c). */
#include "rep_processes.h"
#include "stu_lost_cycles.h"

#include <stdlib.h>

/* The anomaly's split into true anomaly and imbalance, where the study can give it (not a measurement). */
static int split(const stu_study_t *study, unsigned in)
{
  (void)in;
  return !study->facts.no_anomaly_split;
}

/* Its third part, the host's speed, when the ranks' hosts differ. */
static int hosts(const stu_study_t *study, unsigned in)
{
  return split(study, in) && stu_hosts_differ(study);
}

static const met_eppa_proc_t *proc(const rep_at_t *at)
{
  return &stu_procs(at->point)[at->rank];
}

static rep_cell_t rank(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(at->rank);
}

static rep_cell_t work(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(proc(at)->work);
}

static rep_cell_t ovh_ratio(const rep_at_t *at, int j)
{
  return rep_cell_num(proc(at)->ovh_ratio[j]);
}

static rep_cell_t anomaly(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(proc(at)->anomaly_ratio);
}

static rep_cell_t imbalance(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(proc(at)->imbalance_ratio);
}

static rep_cell_t host_speed(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(proc(at)->host_speed_ratio);
}

static const char *ovh_label(int j)
{
  return met_overhead_name((met_overhead_t)j);
}

enum { ALL = REP_IN_ALL };

/* csv, json, head, unit, meaning, format, key, in, each, label, has, get */
static const rep_column_t columns[] = {
    {"rank", "rank", "rank", "", "the rank", REP_FMT_INT, 1, ALL, 0, NULL, NULL, rank},
    {"rank_work_s", "work_s", "work", "s", "the rank's useful work", REP_FMT_TIME, 0, ALL, 0, NULL, NULL, work},
    {"rank_ovh_%s", "overhead_ratios.%s", "%s", "", "the rank's T_ovh^{i,j} / T_seq", REP_FMT_RATIO, 0, ALL,
     MET_OVH_COUNT, ovh_label, NULL, ovh_ratio},
    {"rank_anomaly", "anomaly", "true anomaly", "",
     "work_i - the cost of the same operations on the rank's host as the sequential run does them, / T_seq",
     REP_FMT_RATIO, 0, ALL, 0, NULL, split, anomaly},
    {"rank_imbalance", "imbalance", "imbalance", "", "that cost - T_seq / p, / T_seq", REP_FMT_RATIO, 0, ALL, 0, NULL,
     split, imbalance},
    {"rank_host_speed", "host_speed", "host speed", "",
     "the same operations on the rank's host - on rank 0's, where T_seq runs, / T_seq", REP_FMT_RATIO, 0, ALL, 0, NULL,
     hosts, host_speed},
};

const rep_schema_t rep_processes_schema = {"processes", columns, sizeof columns / sizeof columns[0], NULL};

rep_at_t *rep_processes_rows(const stu_study_t *study, const stu_point_t *only, size_t *count)
{
  size_t n = 0;
  for (size_t i = 0; i < study->npoints; i++)
    if (stu_procs(&study->points[i]) && (!only || only == &study->points[i]))
      n += (size_t)study->points[i].p;
  rep_at_t *rows = n ? malloc(n * sizeof *rows) : NULL;
  *count = rows ? n : 0;
  n = 0;
  for (size_t i = 0; rows && i < study->npoints; i++)
    for (int r = 0; stu_procs(&study->points[i]) && (!only || only == &study->points[i]) && r < study->points[i].p; r++)
      rows[n++] = (rep_at_t){study, &study->points[i], r, NULL};
  return rows;
}
