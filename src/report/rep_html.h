/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One self-contained HTML page of a study (--html): the terminal report's tables (and a measured study's lines on its
 * runs, stu_study_t.runs_text), every picture of --svg inline, and a timeline of the per-process point that pans and
 * zooms, all without any network access (inline CSS, JS and SVG). */
#ifndef REP_HTML_H
#define REP_HTML_H

#include "stu_study.h"

#include <stddef.h>
#include <stdio.h>

/* Writes the page on `out`. The pictures are drawn by rep_pictures into a temporary folder under $TMPDIR (or /tmp),
 * read back inline and removed. Returns 0, or BAS_EIO with a message in err. */
int rep_html(FILE *out, const stu_study_t *study, char *err, size_t errlen);

#endif
