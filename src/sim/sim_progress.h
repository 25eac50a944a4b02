/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Progress from inside a running simulation: the simulation process counts the operations it simulates (a message's
 * end, a computation, a DSM request or barrier arrival, as the skeletons' work counts weigh them) and writes the count
 * to its parent through a pipe as a line "ops <count>\n", at most every SIM_PROGRESS_PERIOD seconds (in its first
 * SIM_PROGRESS_EARLY seconds, every SIM_PROGRESS_EARLY_PERIOD), and as "end
 * <count>\n" once the simulation is over (its end's work, SimGrid's and the trace's, is then done: a pace is measured
 * between "ops" lines only); the parent reads the lines (sim_progress_feed) for the progress bar's time left. */
#ifndef SIM_PROGRESS_H
#define SIM_PROGRESS_H

#include <stddef.h>

/* The least time between two reports: ten a second at most, one write(2) each, nothing a simulation would notice. */
#define SIM_PROGRESS_PERIOD 0.1

/* In a simulation's first second, a hundred a second at most (a few microseconds of write(2) each, under 0.1% of that
 * second): so that the pace of a sweep of short simulations is measured within its first tenth, not after it. */
#define SIM_PROGRESS_EARLY        1.0
#define SIM_PROGRESS_EARLY_PERIOD 0.01

/* In the simulation process: count from 0 and report to `fd` (a pipe's write end, made non-blocking here: a report
 * the pipe has no room for is dropped, never waited for); -1: count without reporting (a simulation in simrun's own
 * process). */
void sim_progress_attach(int fd);

/* `ops` more operations simulated; a report when the period has passed (the clock is read every 256 calls). */
void sim_progress_count(double ops);

/* The count at the end of the simulation, reported as "end", whatever the period. */
void sim_progress_flush(void);

/* In the parent: one child's reports as they arrive, in pieces of any size. */
typedef struct sim_progress_reader {
  char line[48]; /* the line being read */
  size_t len;    /* its bytes so far; more than the line holds: a damaged line, skipped to its end */
  double ops;    /* the last count read, 0 before any */
  int reports;   /* the counts read so far */
  int ended;     /* the last was the "end" line */
} sim_progress_reader_t;

/* Reads `len` bytes of reports. A line that is not "ops " or "end " and a finite count no smaller than the last (a
 * damaged or cut one, or one too long), or any after "end", is skipped. Returns 1 when a new count was read, else 0. */
int sim_progress_feed(sim_progress_reader_t *reader, const char *bytes, size_t len);

#endif
