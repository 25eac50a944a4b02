/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the reader of a simulation's result, as the child writes it into its channel and the cache keeps
 * it (stu_result_read, with the trace reader behind it). A cache entry as a whole is a valid input too: its header
 * is skipped, so that entries of a real cache make the seed corpus. Any bytes must be read or refused, never crash. */
#include "met_trace.h"
#include "stu_task.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Past "simrun-cache 3\n", the key up to its NUL and the 16-byte seal, when `data` is a cache entry. */
static size_t payload_start(const uint8_t *data, size_t size)
{
  static const char magic[] = "simrun-cache ";
  if (size < sizeof magic || memcmp(data, magic, sizeof magic - 1) != 0)
    return 0;
  const uint8_t *nul = memchr(data, '\0', size);
  return nul && (size_t)(nul - data) + 17 <= size ? (size_t)(nul - data) + 17 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  size_t start = payload_start(data, size);
  if (size == start)
    return 0;
  FILE *in = tmpfile(); /* a file, as the child's channel and the cache are: readers may ask for its size */
  if (!in || fwrite(data + start, 1, size - start, in) != size - start || fseek(in, 0, SEEK_SET) != 0)
    abort();
  stu_point_t point = {0};
  int32_t status = 0;
  if (stu_result_read(&point, &status, in) == 0) {
    stu_slots_release(&point);
    met_trace_free(point.trace);
    met_pixels_free(point.pixels);
  }
  fclose(in);
  return 0;
}
