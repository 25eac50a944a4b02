/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The main table, one row per point (docs/results.md "The main table"): T_par and the lost-cycle figures of seed 000
 * (speedup, efficiency, overhead ratios eq. 1.13, granularity eq. 1.16), a scaled sweep's fixed-size figures, a DSM
 * study's time profile, the bottleneck view of seed 001 §3.5, the analytic model and a measured run's replay, as a
 * table declaration (rep_schema.h) that every writer walks. */
#ifndef REP_POINTS_H
#define REP_POINTS_H

#include "rep_schema.h"

extern const rep_schema_t rep_points_schema;

#endif
