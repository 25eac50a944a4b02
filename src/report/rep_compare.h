/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare (docs/results.md): two tables of results, such as two runs' main CSV tables or a run's and a
 * measurement's, matched point by point on the key columns they share, every metric they share side by side with its
 * difference and whether that exceeds a tolerance; and a picture of one metric of both against p. */
#ifndef REP_COMPARE_H
#define REP_COMPARE_H

#include <stddef.h>
#include <stdio.h>

/* A table as read from a CSV file: the header's names and the rows' fields, all borrowed. */
typedef struct rep_table {
  const char *label; /* the file's name, for the output */
  char **names;
  size_t ncols;
  char ***rows; /* rows[i][j]: row i's field of column j */
  size_t nrows;
} rep_table_t;

/* The key columns of a table: in simrun's tables the parameters and p (the columns after `skeleton` up to `p`, but
 * `platform_file`), in any other the columns up to `p`. Writes up to `max` column indexes to keys; their number, or 0
 * when the table has no column `p`. */
size_t rep_compare_keys(const rep_table_t *t, size_t *keys, size_t max);

/* Prints the comparison of b against a: per point of a found in b (equal key values, numbers compared as numbers) and
 * per metric both have (a column of both that is not a key, nor simrun's provenance or names, numeric in both rows):
 * the key values, the metric, both values, b - a and (b - a) / |a|, flagged where |b - a| > tolerance |a|; then a
 * summary. *exceeding counts the flagged differences. Returns 0, or -1 with a message in err when the tables share no
 * key column or no metric. */
int rep_compare_print(FILE *out, const rep_table_t *a, const rep_table_t *b, double tolerance, size_t *exceeding,
                      char *err, size_t errlen);

/* A line chart of `metric` against p: a curve per table and group of points (equal key values but p), a's and b's
 * side by side on the same axes. Returns 0, or -1 with a message in err (no such metric, no p, write error). */
int rep_compare_svg(FILE *out, const rep_table_t *a, const rep_table_t *b, const char *metric, char *err,
                    size_t errlen);

#endif
