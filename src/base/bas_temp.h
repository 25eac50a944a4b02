/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unnamed temporary files, for what a command holds beside its memory (a long run's intervals, an export's events
 * being sorted): made in $TMPDIR (else /tmp) without a name (O_TMPFILE; where the file system cannot, named and
 * unlinked at once, no catchable signal between), so that closing the file or the process's end, however it comes,
 * frees its blocks and leaves no name behind. */
#ifndef BAS_TEMP_H
#define BAS_TEMP_H

#include <stdio.h>

/* The folder for temporary files: $TMPDIR when set and not empty, else /tmp (borrowed from the environment). */
const char *bas_temp_dir(void);

/* A new unnamed temporary file open for reading and writing in bas_temp_dir(); NULL (errno set) when none can be
 * made. */
FILE *bas_temp_file(void);

#endif
