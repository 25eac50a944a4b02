/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the measured-timeline reader of simrun analyse (met_timeline.h). The input is split at form feeds
 * ('\f') into the files timeline-0.txt, timeline-1.txt, ... of one folder (at most 8), which is read as a traced run:
 * any bytes must be read or refused with a message, never crash, hang or read without bound. */
#include "fuzz_input.h"
#include "met_timeline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_FILES = 8 };

/* Makes the folder once (removed at exit); its path. */
static const char *folder(void)
{
  static const char *dir;
  if (!dir)
    dir = fuzz_temp_folder("simrun-fuzz-timeline");
  return dir;
}

/* Writes data[0..size) to file `rank` of the folder. */
static void write_rank(int rank, const uint8_t *data, size_t size)
{
  char path[256];
  snprintf(path, sizeof path, "%s/timeline-%d.txt", folder(), rank);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  int files = 0;
  for (size_t start = 0; files < MAX_FILES;) {
    const uint8_t *cut = memchr(data + start, '\f', size - start);
    size_t end = cut && files < MAX_FILES - 1 ? (size_t)(cut - data) : size;
    write_rank(files++, data + start, end - start);
    if (end == size)
      break;
    start = end + 1;
  }
  for (int rank = files; rank < MAX_FILES; rank++) { /* what an earlier input left */
    char path[256];
    snprintf(path, sizeof path, "%s/timeline-%d.txt", folder(), rank);
    unlink(path);
  }
  char err[8400];
  met_trace_free(met_timeline_stream(folder(), MET_TL_KEEP, NULL, err, sizeof err));
  return 0;
}
