/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --html FILE: the study as one self-contained HTML page (rep_html), written whole or not at all. */
#ifndef CLI_HTML_H
#define CLI_HTML_H

#include "stu_study.h"

/* Writes the page to `path` (nothing when path is NULL). Returns 0, or 1 (runtime failure) after printing the one
 * error line. */
int cli_html_write(const stu_study_t *study, const char *path);

#endif
