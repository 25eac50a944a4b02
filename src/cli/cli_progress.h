/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The progress bar of a sweep on a terminal, with the time left reckoned from the predicted cost of the simulations
 * done and left (stu_progress_t). */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include "stu_sweep.h"

#include <stddef.h>

/* "simrun: [##########....................]  12/48 points, 3m00s left" into buf: the bar filled by the share of the
 * predicted work done, the points done of all, and, `elapsed` seconds after the simulations started, the time left at
 * the pace so far per unit of work, elapsed * W / (work done), once some is done and while some is left. W is the
 * work left, or, when more, `jobs` times the largest simulation left: at the pace of one job (the pace so far over
 * the jobs), that one alone outlasts the others. Points taken from the cache cost no work, so a resumed study's time
 * left counts only what it simulates. */
void cli_progress_line(char *buf, size_t len, const stu_progress_t *at, double elapsed);

#endif
