/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the table reader of simrun compare (cli_table.h) and the comparison (rep_compare.h). The input is
 * split at its first form feed ('\f') into tables A and B (B is A without one), each read as simrun compare reads a
 * file; two tables read are compared on every metric, with every point listed, and drawn when small. Any bytes must
 * be read or refused with a message, never crash, hang or read without bound. */
#include "cli_table.h"
#include "fuzz_input.h"
#include "rep_compare.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The picture pairs rows with their curves in O(n^2): drawn for small tables only, so that each input stays fast. */
enum { SVG_MAX_ROWS = 200 };

/* Writes data[0..size) to `path` (table B). */
static void write_file(const char *path, const uint8_t *data, size_t size)
{
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
    abort();
}

/* Compares a with b, every output to /dev/null. */
static void compare(const rep_table_t *a, const rep_table_t *b)
{
  static FILE *sink;
  if (!sink && !(sink = fopen("/dev/null", "w")))
    abort();
  char err[8400];
  rep_compare_result_t result;
  const rep_compare_opts_t opts = {.rtol = REP_COMPARE_RTOL, .atol = REP_COMPARE_ATOL, .all = 1, .full = 1};
  if (rep_compare_print(sink, a, b, &opts, &result, err, sizeof err) == 0 && a->nrows + b->nrows <= SVG_MAX_ROWS)
    rep_compare_svg(sink, a, b, &opts, err, sizeof err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static char b_path[4200];
  const char *a_path = fuzz_input_path();
  snprintf(b_path, sizeof b_path, "%s.b", a_path);
  const uint8_t *cut = memchr(data, '\f', size);
  size_t a_size = cut ? (size_t)(cut - data) : size;
  if (fuzz_write_input(data, a_size) != 0)
    abort();
  write_file(b_path, cut ? cut + 1 : data, cut ? size - a_size - 1 : size);
  cli_table_t a, b = {0};
  char err[8400];
  if (cli_table_read(a_path, &a, err, sizeof err) == 0 && cli_table_read(b_path, &b, err, sizeof err) == 0)
    compare(&a.t, &b.t);
  cli_table_free(&a);
  cli_table_free(&b);
  return 0;
}
