/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An external merge sort (rep_sort.h): sorted runs in one unnamed temporary file, merged through a binary heap of the
 * runs' first records. Written here: Debian packages no C library for it (GNU sort works on text lines only). */
#define _XOPEN_SOURCE 700 /* pread */
#include "rep_sort.h"
#include "bas_error.h"
#include "bas_temp.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct rep_sort {
  size_t size, hold;
  int (*cmp)(const void *, const void *);
  unsigned char *buf; /* the records not yet in a run */
  size_t count, cap;
  FILE *file;   /* the runs, one after another, or NULL before the first */
  size_t nruns; /* runs written: `hold` records each (a full buffer), but the last one of a walk, `last` records */
  size_t last;
};

rep_sort_t *rep_sort_new(size_t size, size_t hold, int (*cmp)(const void *, const void *))
{
  rep_sort_t *sort = size > 0 && hold >= 2 ? calloc(1, sizeof *sort) : NULL;
  if (sort)
    *sort = (rep_sort_t){.size = size, .hold = hold, .cmp = cmp};
  return sort;
}

void rep_sort_free(rep_sort_t *sort)
{
  if (!sort)
    return;
  if (sort->file)
    fclose(sort->file);
  free(sort->buf);
  free(sort);
}

/* The buffer sorted and appended to the file as a run. 0 or BAS_EIO. */
static int write_run(rep_sort_t *sort)
{
  if (!sort->file && !(sort->file = bas_temp_file()))
    return BAS_EIO;
  qsort(sort->buf, sort->count, sort->size, sort->cmp);
  if (fwrite(sort->buf, sort->size, sort->count, sort->file) != sort->count)
    return BAS_EIO;
  sort->nruns++;
  sort->last = sort->count;
  sort->count = 0;
  return 0;
}

int rep_sort_add(rep_sort_t *sort, const void *record)
{
  if (sort->count == sort->cap && sort->cap < sort->hold) {
    size_t cap = sort->cap ? 2 * sort->cap : 1024;
    cap = cap < sort->hold ? cap : sort->hold;
    unsigned char *buf = sort->size <= SIZE_MAX / cap ? realloc(sort->buf, cap * sort->size) : NULL;
    if (!buf)
      return BAS_ENOMEM;
    sort->buf = buf;
    sort->cap = cap;
  }
  int rc = sort->count == sort->cap ? write_run(sort) : 0;
  if (rc == 0)
    memcpy(sort->buf + sort->count++ * sort->size, record, sort->size);
  return rc;
}

/* One run being merged: its records not yet read from the file, and those read but not yet given. */
typedef struct run_reader {
  off_t next;         /* the file offset of its next record to read */
  size_t left;        /* its records still in the file */
  unsigned char *buf; /* `chunk` records */
  size_t at, n;       /* the record given next, of the n read */
} run_reader_t;

typedef struct merge {
  rep_sort_t *sort;
  run_reader_t *runs;
  size_t chunk;
  int *heap; /* run indices, the one whose current record is least first */
  size_t nheap;
} merge_t;

static const void *current(const merge_t *m, int run)
{
  const run_reader_t *r = &m->runs[run];
  return r->buf + r->at * m->sort->size;
}

/* Whether run a's current record comes before run b's (the earlier run first among equals). */
static int before(const merge_t *m, int a, int b)
{
  int c = m->sort->cmp(current(m, a), current(m, b));
  return c < 0 || (c == 0 && a < b);
}

static void sift_down(merge_t *m, size_t i)
{
  for (;;) {
    size_t least = i, l = 2 * i + 1, r = l + 1;
    if (l < m->nheap && before(m, m->heap[l], m->heap[least]))
      least = l;
    if (r < m->nheap && before(m, m->heap[r], m->heap[least]))
      least = r;
    if (least == i)
      return;
    int t = m->heap[i];
    m->heap[i] = m->heap[least];
    m->heap[least] = t;
    i = least;
  }
}

/* Reads the run's next chunk. 0 with n records (0 once the run is over), or BAS_EIO. */
static int refill(merge_t *m, run_reader_t *r)
{
  size_t want = r->left < m->chunk ? r->left : m->chunk, bytes = want * m->sort->size;
  r->at = r->n = 0;
  if (want == 0)
    return 0;
  ssize_t got = pread(fileno(m->sort->file), r->buf, bytes, r->next);
  if (got < 0 || (size_t)got != bytes)
    return BAS_EIO;
  r->next += (off_t)bytes;
  r->left -= want;
  r->n = want;
  return 0;
}

/* Every run's records in order, given to fn. */
static int merge_runs(merge_t *m, int (*fn)(void *ctx, const void *record), void *ctx)
{
  rep_sort_t *sort = m->sort;
  off_t offset = 0;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < sort->nruns; i++) {
    size_t records = i + 1 < sort->nruns ? sort->hold : sort->last;
    m->runs[i] = (run_reader_t){.next = offset, .left = records, .buf = sort->buf + i * m->chunk * sort->size};
    offset += (off_t)(records * sort->size);
    rc = refill(m, &m->runs[i]);
    if (rc == 0 && m->runs[i].n > 0)
      m->heap[m->nheap++] = (int)i;
  }
  for (size_t i = m->nheap; i-- > 0;)
    sift_down(m, i);
  while (rc == 0 && m->nheap > 0) {
    run_reader_t *r = &m->runs[m->heap[0]];
    rc = fn(ctx, current(m, m->heap[0]));
    if (rc == 0 && ++r->at == r->n)
      rc = refill(m, r);
    if (r->n == 0)
      m->heap[0] = m->heap[--m->nheap];
    sift_down(m, 0);
  }
  return rc;
}

int rep_sort_each(rep_sort_t *sort, int (*fn)(void *ctx, const void *record), void *ctx)
{
  int rc = 0;
  if (sort->nruns == 0) { /* all in memory */
    if (sort->count > 0)  /* buf may be NULL */
      qsort(sort->buf, sort->count, sort->size, sort->cmp);
    for (size_t i = 0; rc == 0 && i < sort->count; i++)
      rc = fn(ctx, sort->buf + i * sort->size);
    sort->count = 0;
    return rc;
  }
  if (sort->count > 0 && (rc = write_run(sort)) != 0)
    return rc;
  if (fflush(sort->file) != 0)
    return BAS_EIO;
  /* the buffer, `hold` records, is shared out among the runs: memory stays bounded however many there are */
  merge_t m = {.sort = sort, .chunk = sort->cap / sort->nruns ? sort->cap / sort->nruns : 1};
  if (m.chunk == 1 && sort->cap < sort->nruns) {
    unsigned char *buf = realloc(sort->buf, sort->nruns * sort->size);
    if (!buf)
      return BAS_ENOMEM;
    sort->buf = buf;
    sort->cap = sort->nruns;
  }
  m.runs = calloc(sort->nruns, sizeof *m.runs);
  m.heap = calloc(sort->nruns, sizeof *m.heap);
  rc = m.runs && m.heap ? merge_runs(&m, fn, ctx) : BAS_ENOMEM;
  free(m.runs);
  free(m.heap);
  free(sort->buf); /* grown past `hold` for the merge, maybe: a run written later must hold `hold` records again */
  sort->buf = NULL;
  sort->cap = 0;
  sort->nruns = 0;
  if (sort->file) {
    fclose(sort->file);
    sort->file = NULL;
  }
  return rc;
}
