/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reading a figure back from a CSV table that simrun writes (docs/results.md), for tests that compare it with what
 * another output shows: a row chosen by key columns, a column by name. */
#ifndef TU_CSV_H
#define TU_CSV_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Field `index` of the CSV line at `line` (quoted fields may hold commas) into out; -1 when the line has fewer. */
static inline int tu_csv_field(const char *line, int index, char *out, size_t len)
{
  int field = 0, quoted = 0;
  size_t n = 0;
  for (const char *c = line; *c && *c != '\n'; c++) {
    if (*c == '"')
      quoted = !quoted;
    else if (*c == ',' && !quoted)
      field++;
    else if (field == index && n + 1 < len)
      out[n++] = *c;
  }
  out[n] = '\0';
  return field >= index ? 0 : -1;
}

/* The column's index in the header line of csv, or -1. */
static inline int tu_csv_column(const char *csv, const char *column)
{
  char name[128];
  for (int i = 0; tu_csv_field(csv, i, name, sizeof name) == 0; i++)
    if (strcmp(name, column) == 0)
      return i;
  return -1;
}

/* The number in `column` of the first row whose key columns hold the given values: `keys` is "broadcast=neighbour,p=2"
 * (values compared as text). NAN when the row or the column is missing. */
static inline double tu_csv_value(const char *csv, const char *keys, const char *column)
{
  char key[16][64], want[16][64], field[256];
  int nkeys = 0, col[16];
  for (const char *k = keys; k && *k && nkeys < 16; nkeys++) {
    sscanf(k, "%63[^=]=%63[^,]", key[nkeys], want[nkeys]);
    col[nkeys] = tu_csv_column(csv, key[nkeys]);
    k = strchr(k, ',') ? strchr(k, ',') + 1 : NULL;
  }
  int target = tu_csv_column(csv, column);
  for (const char *row = strchr(csv, '\n'); target >= 0 && row && row[1]; row = strchr(row + 1, '\n')) {
    int match = 1;
    for (int i = 0; i < nkeys && match; i++)
      match = col[i] >= 0 && tu_csv_field(row + 1, col[i], field, sizeof field) == 0 && strcmp(field, want[i]) == 0;
    if (match && tu_csv_field(row + 1, target, field, sizeof field) == 0)
      return strtod(field, NULL);
  }
  return NAN;
}

#endif
