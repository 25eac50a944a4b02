/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun characterise FILE.csv: fits Table 2's piecewise message time (seed 001 eq. 4) to measured ping-pong times and
 * prints the platform properties to paste, with the fit's residuals. */
#ifndef CLI_CHARACTERISE_H
#define CLI_CHARACTERISE_H

#include "met_msgfit.h"

#include <stddef.h>

/* The subcommand, with argv[0] = "characterise". Returns the exit status: 0, or 2 for bad input or usage (a file that
 * cannot be read included). */
int cli_characterise_main(int argc, char **argv);

/* Reads the samples of ping-pong CSV `file` into a new array *samples (the caller frees it, also on failure) of *count:
 * a regular file of at most 1 GiB, lines of at most 1022 characters, at most 10^7 samples. Returns 0, or 2 after
 * printing the one error line (SHOWN:LINE: `shown` names the file there: the user's path, or what made a temporary
 * file). */
int cli_characterise_read(const char *file, const char *shown, met_msg_sample_t **samples, size_t *count);

#endif
