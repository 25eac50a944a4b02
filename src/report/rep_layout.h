/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The terminal report's layout within a width (issue 45 item 2): the width chosen, text wrapped at word boundaries,
 * and tables split into column groups that repeat their key columns, so that no line is wider than the terminal. */
#ifndef REP_LAYOUT_H
#define REP_LAYOUT_H

#include <stddef.h>
#include <stdio.h>

/* The narrowest and widest widths --width takes. */
#define REP_WIDTH_MIN 40
#define REP_WIDTH_MAX 1000

/* The report's width: `option` (--width N) when positive, else $COLUMNS when it is a whole number in
 * [REP_WIDTH_MIN, REP_WIDTH_MAX] (`columns` may be NULL), else `terminal` (the terminal's columns, 0 when the output is
 * no terminal) when positive, else 80. Widths below REP_WIDTH_MIN become REP_WIDTH_MIN. */
int rep_width_pick(int option, const char *columns, int terminal);

/* Writes `text` (one paragraph, no newline) in lines of at most `width` columns, broken at spaces, the lines after the
 * first indented by `indent` spaces; a word longer than a line is cut. Ends with a newline. */
void rep_wrap(FILE *out, const char *text, int width, int indent);
/* Writes `text` (lines ending in newlines) within `width`: a run of table lines (two spaces in a row inside each) whose
 * first is wider is split at the columns blank in all of them into groups that repeat the first column; any other
 * wider line is wrapped by rep_wrap, indented by its own leading spaces plus two. */
void rep_fit_lines(FILE *out, const char *text, int width);

/* A table of text cells whose first `nkeys` columns (p, a rank, a row's label) are repeated in each group of columns
 * when the table is wider than the line. */
typedef struct rep_cols rep_cols_t;
/* NULL when out of memory. Free with rep_cols_free (accepts NULL). */
rep_cols_t *rep_cols_new(size_t ncols, size_t nkeys);
void rep_cols_free(rep_cols_t *cols);
/* The header of each column in order, then the cells row by row, each left-aligned when it starts with '<' (the '<'
 * is not shown), else right-aligned. Returns 0, or BAS_ENOMEM when out of memory (the table is then left as it was). */
int rep_cols_add(rep_cols_t *cols, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes the table, each line starting with `indent`, columns one space apart (two before the first non-key one), in
 * as many groups of columns as `width` needs, a blank line between groups. */
void rep_cols_print(FILE *out, const rep_cols_t *cols, const char *indent, int width);

#endif
