/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The timeline of a traced run (seed 000 Fig. 1.4) as SVG: a row per rank, a pixel column per slice of time coloured
 * by the category that took most of it, a line per message from its sender to its receiver. */
#ifndef REP_TIMELINE_H
#define REP_TIMELINE_H

#include "met_pixels.h"

#include <stdio.h>

/* The timeline of a run from its pixels (met_pixels_new of its trace) as one SVG document on `out`, headed `title`.
 * Returns 0, or -1 on a write error or when out of memory. */
int rep_timeline(FILE *out, const met_pixels_t *pixels, const char *title);

#endif
