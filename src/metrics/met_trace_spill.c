/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A spilled trace's file (met_trace.h; made by met_trace_new_spilled in met_trace.c): the sums of an aggregate trace
 * and its collective spans stay in memory, its intervals go to an unnamed temporary file, 40 bytes each, for a run
 * whose timeline is drawn but whose every interval need not be held (the per-process p's: met_pixels.h, met_wait.h's
 * walk). */
#define _GNU_SOURCE /* mkstemp, fdopen */

#include "met_trace_internal.h"
#include "bas_error.h"

#include <stddef.h>
#include <string.h>
#include <unistd.h>

/* An interval as spilled: what the pictures and the wait states read of it. */
typedef struct spilled {
  double start;
  double end;
  double sent;
  double bytes;
  int32_t rank;
  int32_t phase;
  int32_t peer;
  uint8_t category;
  uint8_t dir;
  uint8_t unused[2]; /* zero: written raw */
} spilled_t;

FILE *met_trace_spill_open(void)
{
  const char *dir = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/simrun-timeline-XXXXXX", dir && dir[0] ? dir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0)
    return NULL;
  unlink(path); /* unnamed from now on: closing it, or the process's end, frees its blocks */
  FILE *file = fdopen(fd, "w+b");
  if (!file)
    close(fd);
  return file;
}

int met_trace_spill(met_trace_t *trace, int rank, const met_interval_t *iv)
{
  spilled_t s = {.start = iv->start,
                 .end = iv->end,
                 .sent = iv->sent,
                 .bytes = iv->bytes,
                 .rank = rank,
                 .phase = iv->phase,
                 .peer = iv->peer,
                 .category = (uint8_t)iv->category,
                 .dir = (uint8_t)iv->dir};
  if (fwrite(&s, sizeof s, 1, trace->spill) != 1)
    return BAS_EIO;
  trace->nspilled++;
  return 0;
}

int met_trace_spill_sent(met_trace_t *trace, size_t at, double sent)
{
  long where = (long)(at * sizeof(spilled_t) + offsetof(spilled_t, sent));
  if (fseek(trace->spill, where, SEEK_SET) != 0 || fwrite(&sent, sizeof sent, 1, trace->spill) != 1)
    return BAS_EIO;
  return fseek(trace->spill, 0, SEEK_END) == 0 ? 0 : BAS_EIO;
}

size_t met_trace_spilled(const met_trace_t *trace)
{
  return trace->spill ? trace->nspilled : 0;
}

int met_trace_spill_walk(const met_trace_t *trace, met_spill_fn fn, void *ctx)
{
  enum { CHUNK = 4096 };
  static spilled_t chunk[CHUNK]; /* 160 KiB: off the stack */
  if (!trace->spill || trace->spill_failed || fflush(trace->spill) != 0 || fseek(trace->spill, 0, SEEK_SET) != 0)
    return BAS_EIO;
  int rc = 0;
  size_t left = trace->nspilled;
  while (rc == 0 && left > 0) {
    size_t n = fread(chunk, sizeof *chunk, left < CHUNK ? left : CHUNK, trace->spill);
    rc = n == 0 ? BAS_EIO : 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
      met_interval_t iv = {.start = chunk[i].start,
                           .end = chunk[i].end,
                           .sent = chunk[i].sent,
                           .bytes = chunk[i].bytes,
                           .phase = chunk[i].phase,
                           .peer = chunk[i].peer,
                           .category = (met_category_t)chunk[i].category,
                           .dir = (met_dir_t)chunk[i].dir};
      rc = fn(ctx, chunk[i].rank, &iv);
    }
    left -= n;
  }
  return fseek(trace->spill, 0, SEEK_END) == 0 ? rc : BAS_EIO;
}
