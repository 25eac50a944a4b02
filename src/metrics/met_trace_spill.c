/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A spilled trace's file (met_trace.h; made by met_trace_new_spilled in met_trace.c): the sums of an aggregate trace
 * and its collective spans stay in memory, its intervals go to an unnamed temporary file, 64 bytes each, for a run
 * whose timeline is drawn or exported but whose every interval need not be held (the per-process p's: met_pixels.h,
 * met_wait.h's walk; a long measured run's Paje trace and OTF2 archive). */
#include "met_trace_internal.h"
#include "bas_error.h"

#include <stddef.h>
#include <string.h>

/* An interval as spilled: what the pictures, the wait states and the exports read of it. */
typedef struct spilled {
  double start;
  double end;
  double sent;
  double bytes;
  int32_t rank;
  int32_t phase;
  int32_t peer;
  int32_t tag;
  uint32_t comm;
  int32_t call;
  uint8_t category;
  uint8_t dir;
  uint8_t unused[6]; /* zero: written raw */
} spilled_t;

_Static_assert(sizeof(spilled_t) == 64, "the file's record is 64 bytes (met_trace.h)");

int met_trace_spill(met_trace_t *trace, int rank, const met_interval_t *iv)
{
  spilled_t s = {.start = iv->start,
                 .end = iv->end,
                 .sent = iv->sent,
                 .bytes = iv->bytes,
                 .rank = rank,
                 .phase = iv->phase,
                 .peer = iv->peer,
                 .tag = iv->tag,
                 .comm = iv->comm,
                 .call = iv->call,
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

int met_trace_is_spilled(const met_trace_t *trace)
{
  return trace->spill != NULL;
}

int met_trace_spill_ok(const met_trace_t *trace)
{
  return !trace->spill_failed;
}

int met_trace_spill_sync(met_trace_t *trace)
{
  if (trace->spill && fflush(trace->spill) != 0)
    trace->spill_failed = 1;
  return trace->spill_failed ? BAS_EIO : 0;
}

size_t met_trace_spilled(const met_trace_t *trace)
{
  return trace->spill ? trace->nspilled : 0;
}

int met_trace_spill_walk(const met_trace_t *trace, met_spill_fn fn, void *ctx)
{
  enum { CHUNK = 4096 };
  static spilled_t chunk[CHUNK]; /* 256 KiB: off the stack */
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
                           .tag = chunk[i].tag,
                           .comm = chunk[i].comm,
                           .call = chunk[i].call,
                           .category = (met_category_t)chunk[i].category,
                           .dir = (met_dir_t)chunk[i].dir};
      rc = fn(ctx, chunk[i].rank, &iv);
    }
    left -= n;
  }
  return fseek(trace->spill, 0, SEEK_END) == 0 ? rc : BAS_EIO;
}

/* A spilled trace's walk over some ranks: fn's for the ranks in [first, last], the others skipped. */
typedef struct ranks_walk {
  int first, last;
  met_spill_fn fn;
  void *ctx;
} ranks_walk_t;

static int walk_ranks(void *ctx, int rank, const met_interval_t *iv)
{
  const ranks_walk_t *w = ctx;
  return rank < w->first || rank > w->last ? 0 : w->fn(w->ctx, rank, iv);
}

int met_trace_walk(const met_trace_t *trace, int first, int last, met_spill_fn fn, void *ctx)
{
  if (trace->spill) {
    ranks_walk_t w = {first, last, fn, ctx};
    return met_trace_spill_walk(trace, walk_ranks, &w);
  }
  if (trace->aggregate)
    return BAS_EIO;
  int rc = 0;
  for (int rank = first < 0 ? 0 : first; rc == 0 && rank <= last && rank < trace->nranks; rank++)
    for (size_t i = 0; rc == 0 && i < trace->ranks[rank].count; i++)
      rc = fn(ctx, rank, &trace->ranks[rank].items[i]);
  return rc;
}
