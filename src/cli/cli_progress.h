/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The progress bar of a sweep on a terminal, with the time left the study estimated (stu_progress_t). */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include "stu_sweep.h"

#include <stddef.h>

/* The time left shows once the simulations have run this long (seconds): a sweep over sooner has ended before a user
 * could read it, and its first measurements, a few milliseconds of simulation, say little. */
#define CLI_PROGRESS_QUIET 1.0

/* "simrun: [##########....................]  12/48 points, 3m00s left" into buf, `elapsed` seconds after the
 * simulations started: the bar filled by the share of the time done, elapsed / (elapsed + at->left), once the study
 * has estimated the time left (stu_progress_t.left: from the operations each simulation reports as it runs, against
 * its predicted count, at the pace measured so far), by the share of the predicted schedule done before; the points
 * done of all; and the time left, once elapsed is CLI_PROGRESS_QUIET or more and while some is left. Points taken
 * from the cache cost nothing, so a resumed study's time left counts only what it simulates. */
void cli_progress_line(char *buf, size_t len, const stu_progress_t *at, double elapsed);

/* For bench/eta.sh and the tests: when the environment's SIMRUN_TEST_PROGRESS names a file, each state of the progress
 * is logged there as "elapsed left done total" (seconds to the microsecond; left -1 while the study has no estimate),
 * whether a bar shows it or not (piped, -q, in the first second), so that short sweeps' estimates can be judged too.
 * A file that cannot be written is one warning, and no log. */
void cli_progress_log(const stu_progress_t *at, double elapsed);

#endif
