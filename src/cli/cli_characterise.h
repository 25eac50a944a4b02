/* simrun characterise FILE.csv: fits Table 2's piecewise message time (seed 001 eq. 4) to measured ping-pong times and
 * prints the platform properties to paste, with the fit's residuals. */
#ifndef CLI_CHARACTERISE_H
#define CLI_CHARACTERISE_H

/* The subcommand, with argv[0] = "characterise". Returns the exit status: 0, 2 for bad input or usage, 1 when the file
 * cannot be read. */
int cli_characterise_main(int argc, char **argv);

#endif
