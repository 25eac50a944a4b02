/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: the measured timeline's lines (trc_timeline.c), in format 2 (docs/tracer.md, "The
 * measured timeline"): each call's fields (category, phase, partner, bytes, call, tag, communicator, request) are
 * written once as a numbered definition, and each record is then that number and three whole numbers of nanoseconds
 * (the gap since the previous interval, the computation, the call), so that a call costs about 20 bytes instead of the
 * two lines of about 48 each that format 1 wrote. */
#ifndef TRC_TIMELINE_H
#define TRC_TIMELINE_H

#include "trc_fold.h"
#include "trc_out.h"

typedef struct trc_timeline trc_timeline_t;

/* A writer of timeline lines into `out`, its previous interval ending at time 0; NULL when out of memory. */
trc_timeline_t *trc_timeline_new(trc_out_t *out);
void trc_timeline_free(trc_timeline_t *t); /* accepts NULL */

/* The phase label the following records carry (a string the caller keeps until the next call). */
void trc_timeline_phase(trc_timeline_t *t, const char *phase);

/* One record: its computation (when c_end > c_start) and its call (when has_call). */
void trc_timeline_record(trc_timeline_t *t, const trc_rec_t *r);

/* A loop: "loop COUNT SLOTS FIRST LAST" and one "= COMPUTE DURATION fields" line per slot; the next record's gap is
 * counted from LAST. */
void trc_timeline_loop(trc_timeline_t *t, const trc_loop_t *l);

#endif
