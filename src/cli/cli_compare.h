/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare A B: two results tables (the main CSV of two runs, or a run's and a measurement's) compared point by
 * point and metric by metric (rep_compare.h), optionally drawn side by side. */
#ifndef CLI_COMPARE_H
#define CLI_COMPARE_H

/* argv[0] is "compare". Returns the exit status: 0 when no difference exceeds the tolerance, 1 when some does (as
 * diff and cmp do) or on a write error, 2 for bad input or usage. */
int cli_compare_main(int argc, char **argv);

#endif
