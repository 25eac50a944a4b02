/* Checks, before a sweep, that its outputs can be written, leaving nothing behind: the files and folders are made only
 * once the study is done, so that an interrupt, a failure or kill -9 in between leaves no trace. */
#ifndef CLI_OUTPUT_H
#define CLI_OUTPUT_H

#include <stddef.h>

/* Whether folder `dir` (for --svg) exists or can be made: the missing folders of its path are made, then removed
 * again. 0, or -1 with a message. */
int cli_folder_probe(const char *dir, char *err, size_t errlen);

/* Makes folder `dir` (for --svg, --otf2) inside the output transaction (rep_report.h): the folders of its path it
 * made are removed again when the transaction is rolled back. 0, or -1 with a message. */
int cli_folder_make(const char *dir, char *err, size_t errlen);

#endif
