/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: the work between a rank's polls that the caps of its runs of polls cut
 * (trc_carry.c), carried to the next runs that hold work. A run's work is estimated from a sample of the times between
 * its polls, at most its span and processor time: the cap cuts over-estimates only, so where few times hold the work
 * the runs' sum was low (docs/tracer.md, "Runs of polls"). */
#ifndef TRC_CARRY_H
#define TRC_CARRY_H

typedef struct trc_carry {
  double cut; /* seconds of work the caps cut, not yet given to a run */
} trc_carry_t;

/* A run's work: `estimate` seconds at most `cap` (negative: 0), what the cap cuts kept in *c; below the cap, when the
 * run `holds` work beside its polls, as much more of what was cut before as the cap leaves room for. */
double trc_carry_work(trc_carry_t *c, double estimate, double cap, int holds);

/* Forgets what was cut (a call other than a poll: the runs after it are another loop's). */
void trc_carry_drop(trc_carry_t *c);

#endif
