/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the results files record about their making (rep_set_provenance): simrun's and SimGrid's versions and the
 * command line, as a shell would take it back. */
#ifndef CLI_PROVENANCE_H
#define CLI_PROVENANCE_H

/* Builds the strings (static storage) from `argv` (argv[0] as its file name only) and hands them to the report. */
void cli_provenance_set(int argc, char **argv);

#endif
