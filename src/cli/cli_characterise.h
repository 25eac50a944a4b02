/* simrun characterise FILE.csv: fits Table 2's piecewise message time (seed 001 eq. 4) to measured ping-pong times and
 * prints the platform properties to paste, with the fit's residuals. */
#ifndef CLI_CHARACTERISE_H
#define CLI_CHARACTERISE_H

#include "met_msgfit.h"

#include <stddef.h>

/* The subcommand, with argv[0] = "characterise". Returns the exit status: 0, 2 for bad input or usage, 1 when the file
 * cannot be read. */
int cli_characterise_main(int argc, char **argv);

/* Reads every "bytes,hops,time_us" sample of `file` (an optional header line, '#' comments and blank lines skipped)
 * into *samples (malloc'd, the caller frees it; appended to, with *count). Returns 0, or the exit status after printing
 * the error: 2 for a malformed line (file:line), 1 when the file cannot be read. */
int cli_characterise_read(const char *file, met_msg_sample_t **samples, size_t *count);

#endif
