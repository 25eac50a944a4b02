/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz targets' shared help: each input is written to a file at a fixed place, for loaders that take a path. */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

/* Makes a new folder NAME-XXXXXX in $TMPDIR (else /tmp), removed with all it holds when the fuzzer exits (libFuzzer's
 * end of a campaign, or of a -fork job, is exit()); its path. Aborts when it cannot be made. */
const char *fuzz_temp_folder(const char *name);

/* Makes, once, a folder tree where the relative paths of the shipped scenarios resolve (fuzz_temp_folder):
 * DIR/d1/d2/d3/input.xml with
 * ../platforms, ../../../platforms and two-hosts.xml beside it and one level up. Returns the input's path. */
const char *fuzz_input_path(void);

/* Writes `data` to the input file; 0, or -1. */
int fuzz_write_input(const uint8_t *data, size_t size);

#endif
