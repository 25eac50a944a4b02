/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The progress bar of a sweep on a terminal, with the time left reckoned from the predicted cost of the simulations
 * done and left (stu_progress_t). */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include "stu_sweep.h"

#include <stddef.h>

/* "simrun: [##########....................]  12/48 points, 3m00s left" into buf: the bar filled by the share of the
 * predicted schedule done, the points done of all, and, `elapsed` seconds after the simulations started, the time left
 * at the pace so far along the schedule, elapsed * (work_total - work_done) / work_done, once some is done and while
 * some is left. The schedule lays the simulations out on the jobs (stu_work.h), so a large one left running alone at
 * the end counts its whole length; points taken from the cache cost nothing, so a resumed study's time left counts
 * only what it simulates. */
void cli_progress_line(char *buf, size_t len, const stu_progress_t *at, double elapsed);

#endif
