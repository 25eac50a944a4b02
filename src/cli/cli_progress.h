/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The progress bar of a sweep on a terminal, with the time left estimated from the points done so far. */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stddef.h>

/* "simrun: [##########....................]  12/48 points, 3m00s left" into buf: `done` of `total` points after
 * `elapsed` seconds; the estimate (elapsed / done per point left) only once a point is done and while some are
 * left. */
void cli_progress_line(char *buf, size_t len, size_t done, size_t total, double elapsed);

#endif
