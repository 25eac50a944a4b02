/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The points of two results tables paired for simrun compare (docs/compare.md): a row of one table goes with the row
 * of the other whose key columns (the parameters, p, and the columns after p that name a row, such as rank) hold the
 * same values. Both tables are sorted on their keys, so that 10^6 rows pair in O(n log n); a key seen twice in one
 * table is an error, never paired silently. */
#ifndef REP_PAIRING_H
#define REP_PAIRING_H

#include <stddef.h>

/* A table as read from a CSV or JSON file: the header's names and the rows' fields, all borrowed. */
typedef struct rep_table {
  const char *label; /* the file's name, for the output */
  char **names;
  size_t ncols;
  char ***rows; /* rows[i][j]: row i's field of column j */
  size_t nrows;
  size_t *lines; /* lines[i]: the file's line where row i starts, or NULL when not known */
} rep_table_t;

/* The key columns of a table: in simrun's tables the parameters and p (the columns after `skeleton` up to `p`), in any
 * other the columns up to `p`; then the columns right after `p` that name a row of simrun's other tables (rank, node,
 * by, name, scope, waiter, operation, bytes, hops, quantity, source). The scenario's, platform's and skeleton's names
 * are not keys. Writes up to `max` column indexes to keys; their number, or 0 when the table has no column `p`. */
size_t rep_pairing_keys(const rep_table_t *t, size_t *keys, size_t max);

/* Whether column j of t is one of its keys. */
int rep_pairing_is_key(const rep_table_t *t, size_t j);

/* A field as a finite decimal number: 1 with *x set, else 0 (hexadecimal, inf and nan are text). */
int rep_pairing_number(const char *text, double *x);

/* The rows of two tables paired on the key columns both have. */
typedef struct rep_pairing {
  size_t nkeys;
  size_t *ka, *kb; /* the shared key columns: a's and b's index */
  long *partner;   /* partner[i]: the row of b paired with row i of a, or -1 */
  size_t points;   /* rows of a that have a partner */
} rep_pairing_t;

/* Pairs a's rows with b's. Returns 0; BAS_EINVAL with the message in err when the input is wrong (no column p, no key
 * column in common, a point twice in one table: "FILE:LINE: ...", no point in common); BAS_ENOMEM when out of memory.
 * *pr is to be freed with rep_pairing_free in every case. */
int rep_pairing_make(const rep_table_t *a, const rep_table_t *b, rep_pairing_t *pr, char *err, size_t errlen);

/* Frees what rep_pairing_make made of *pr, whether it succeeded or not. */
void rep_pairing_free(rep_pairing_t *pr);

/* Writes "n = 256, broadcast = neighbour, p = 4", row `row` of t's values of the paired keys (`keys`: pr->ka for a,
 * pr->kb for b), into buf. */
void rep_pairing_point(const rep_table_t *t, const size_t *keys, size_t nkeys, size_t row, char *buf, size_t len);

#endif
