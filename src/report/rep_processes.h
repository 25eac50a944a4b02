/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The per-process table, one row per (point with a per-process view, rank) (docs/results.md "-processes"): the rank's
 * useful work, its overhead ratios T_ovh^{i,j} / T_seq (seed 000 eq. 1.13 per rank) and its anomaly split into true
 * anomaly, load imbalance and host speed (met_eppa_proc_t), as a table declaration (rep_schema.h) every writer walks.
 */
#ifndef REP_PROCESSES_H
#define REP_PROCESSES_H

#include "rep_schema.h"

extern const rep_schema_t rep_processes_schema;

/* The rows of the per-process table: (point, rank) for every point with a per-process view and each of its ranks, or
 * of point `only` alone when it is not NULL. *count of them; NULL when there is none or out of memory (free it). */
rep_at_t *rep_processes_rows(const stu_study_t *study, const stu_point_t *only, size_t *count);

#endif
