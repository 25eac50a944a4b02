/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The terminal report's layout options of simrun run and simrun analyse: --width N and --full (rep_print_options_t),
 * the width falling back on $COLUMNS, then the terminal's (when the report goes to one), then 80. */
#ifndef CLI_LAYOUT_H
#define CLI_LAYOUT_H

#include "rep_report.h"

#include <stddef.h>
#include <stdio.h>

/* The help lines of both options. */
void cli_layout_usage(FILE *out);
/* --width's value: 0 with *width set, or -1 with a message in err (not a whole number in [40, 1000]). */
int cli_layout_width(const char *text, int *width, char *err, size_t errlen);
/* The options to print the report on `out` with: `width` (--width, 0 when not given) else $COLUMNS else the terminal
 * of `out` (ioctl TIOCGWINSZ, when it is one) else 80, and `full`. */
rep_print_options_t cli_layout_options(FILE *out, int width, int full);
/* The regression fits (rep_print_fits) within `width` columns, each line wider wrapped. 0, or -1 when out of memory. */
int cli_layout_fits(FILE *out, const stu_study_t *study, int width);

#endif
