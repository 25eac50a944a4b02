/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Errors of the scenario layer, and of every caller that reports against a scenario file: where and what, folded onto
 * one line. */
#ifndef SCN_ERROR_H
#define SCN_ERROR_H

/* Where and what: the command line prints it as "simrun: error: FILE:LINE: MESSAGE". line is 0 when unknown. */
typedef struct scn_error {
  char file[1024];
  int line;
  char message[1024];
} scn_error_t;

/* Fills *err with printf-style message for `file`:`line` and returns BAS_EINVAL: a helper for callers that report
 * errors against a scenario (for instance a skeleton's cross-parameter checks). The message is folded onto one line
 * (line breaks in what it quotes, such as SimGrid's or libxml2's words, become spaces). */
int scn_fail(scn_error_t *err, const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
