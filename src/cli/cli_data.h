/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun's data folder (platforms/, scenarios/ with the schema, docs/ with the labs): where an installed simrun finds
 * the shipped scenarios by name and the platforms a copied scenario names relatively; --list and --version. */
#ifndef CLI_DATA_H
#define CLI_DATA_H

#include <stddef.h>
#include <stdio.h>

/* The data folder: $SIMRUN_DATA_DIR when set; else the installed share/simrun beside this executable
 * (BINDIR/../DATADIR/simrun), or where it was to be installed; else the source tree this simrun was built from. The
 * first that holds scenarios/; NULL when none does. Borrowed (static storage). */
const char *cli_data_dir(void);

/* The scenario file `arg` names: `arg` itself when it is a file, else, for a bare name (no '/'), the shipped
 * scenarios/NAME or scenarios/NAME.xml of the data folder when there is one, and for a relative path, that path in
 * the data folder (scenarios/gj256.xml, docs/labs/matmul-n.xml: the man page's examples work from any folder). Writes
 * the path to `path`; returns 0, or -1 (path = arg) when neither exists, for the loader to report. */
int cli_find_scenario(const char *arg, char *path, size_t len);

/* --list: the shipped scenarios, one a line: name, skeleton and platform, and the data folder they are in. Returns
 * the exit status (0, or 1 when there is no data folder). */
int cli_list(FILE *out);

/* --version, one line: simrun's version (CMake's project version, the one source) and SimGrid's, both the library's
 * that runs and the one built against. */
void cli_version(FILE *out);

#endif
