/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The metrics of a study against p and against a swept work size, a curve per series with its regression fit (seed
 * 000 Figs 1.7-1.8). */
#ifndef REP_CURVES_H
#define REP_CURVES_H

#include "rep_picture.h"

/* Every metric (run time, speedup, efficiency, the overhead ratios, granularity) against the parameter at x_index
 * ("p" or a work size such as "n"): a picture each, or with pics->fits_only the fits printed on pics->log. Returns 0
 * or -1 with pics->err filled. */
int rep_metric_pictures(rep_pictures_t *pics, size_t x_index);

#endif
