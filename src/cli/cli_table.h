/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A results table read for simrun compare: a CSV file (RFC 4180: quoted fields may hold commas, quotes and line
 * breaks) or a results JSON file (cli_json.h), with each row's line, within bounds (docs/results.md): a regular file
 * of at most 1 GiB, fields of at most 4096 characters, at most 5 x 10^7 cells, no NUL byte. The CSV's fields are
 * kept in large blocks, a row's pointers in one array, so that 10^6 rows cost their text and 8 bytes a cell. */
#ifndef CLI_TABLE_H
#define CLI_TABLE_H

#include "rep_pairing.h"

#include <stddef.h>

/* A table and the storage behind it. */
typedef struct cli_table {
  rep_table_t t;
  int json;            /* read by cli_json_table, which frees it */
  char **cells;        /* a CSV's: nrows x ncols pointers into the blocks */
  struct block *block; /* a CSV's fields, newest block first */
} cli_table_t;

/* Reads file `path` (a JSON file when its first byte is '{' or '[') into *table, t.label = path (borrowed). Returns 0;
 * -1 with "FILE:LINE: what is wrong; how to fix" (or "FILE: ...") in err when the file is not a table compare reads;
 * -2 when out of memory. *table is to be freed with cli_table_free in every case. */
int cli_table_read(const char *path, cli_table_t *table, char *err, size_t errlen);

/* Frees what cli_table_read made (accepts a zeroed table). */
void cli_table_free(cli_table_t *table);

#endif
