/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The external merge sort (rep_sort.h) against qsort on the same records: held in memory, in many runs on disk (one
 * record a run's buffer at the merge), with equal keys told apart by the comparison; a walk stopped by its callback;
 * a second walk giving nothing, then a sort again; no temporary file to write a run to. */
#include "bas_error.h"
#include "rep_sort.h"
#include "tu.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct record {
  double key;
  unsigned id; /* its order of addition: the comparison's last word, so that every pair is ordered */
} record_t;

static int by_key(const void *a, const void *b)
{
  const record_t *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* The records given back, in order. */
typedef struct given {
  record_t *records;
  size_t n, stop_at; /* the walk stops (returns 7) after stop_at records; SIZE_MAX: never */
} given_t;

static int take(void *ctx, const void *record)
{
  given_t *g = ctx;
  g->records[g->n++] = *(const record_t *)record;
  return g->n == g->stop_at ? 7 : 0;
}

/* `n` records with keys from a small range (many equal), sorted with `hold` records in memory (runs on disk: as many
 * buffers as filled before the last): the same order as qsort's. */
static void sorted_as_qsort(size_t n, size_t hold)
{
  record_t *in = malloc(n * sizeof *in);
  given_t g = {malloc(n * sizeof *g.records), 0, SIZE_MAX};
  CU_ASSERT_FATAL(in && g.records);
  rep_sort_t *sort = rep_sort_new(sizeof(record_t), hold, by_key);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sort);
  srand(47);
  for (size_t i = 0; i < n; i++) {
    in[i] = (record_t){(double)(rand() % 97), (unsigned)i};
    CU_ASSERT_EQUAL(rep_sort_add(sort, &in[i]), 0);
  }
  CU_ASSERT_EQUAL(rep_sort_each(sort, take, &g), 0);
  qsort(in, n, sizeof *in, by_key);
  CU_ASSERT_EQUAL(g.n, n);
  CU_ASSERT(g.n == n && memcmp(g.records, in, n * sizeof *in) == 0);
  g.n = 0; /* emptied by the walk: a second one gives nothing */
  CU_ASSERT_EQUAL(rep_sort_each(sort, take, &g), 0);
  CU_ASSERT_EQUAL(g.n, 0);
  for (size_t i = 0; i < n; i++) /* and it sorts again (its merge may have grown its buffer past `hold`) */
    CU_ASSERT_EQUAL(rep_sort_add(sort, &in[n - 1 - i]), 0);
  CU_ASSERT_EQUAL(rep_sort_each(sort, take, &g), 0);
  CU_ASSERT(g.n == n && memcmp(g.records, in, n * sizeof *in) == 0);
  rep_sort_free(sort);
  free(in);
  free(g.records);
}

static void test_rep_sort_as_qsort(void)
{
  sorted_as_qsort(1000, 4096);  /* in memory */
  sorted_as_qsort(10000, 1000); /* ten runs, 100 records of each in memory at the merge */
  sorted_as_qsort(10007, 2);    /* 5004 runs of 2 (the last of 1), merged a record at a time */
  sorted_as_qsort(4096, 1024);  /* the last buffer full: written as the fourth run at the walk */
}

/* A callback's code stops the walk there and is returned; the sorter then frees what it held. */
static void test_rep_sort_stopped(void)
{
  for (size_t hold = 16; hold <= 4096; hold *= 256) {
    rep_sort_t *sort = rep_sort_new(sizeof(record_t), hold, by_key);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sort);
    for (unsigned i = 0; i < 1000; i++)
      CU_ASSERT_EQUAL(rep_sort_add(sort, &(record_t){1000.0 - i, i}), 0);
    record_t out[1000];
    given_t g = {out, 0, 10};
    CU_ASSERT_EQUAL(rep_sort_each(sort, take, &g), 7);
    CU_ASSERT_EQUAL(g.n, 10);
    CU_ASSERT(out[0].key == 1.0 && out[9].key == 10.0);
    rep_sort_free(sort);
  }
  CU_ASSERT_PTR_NULL(rep_sort_new(sizeof(record_t), 1, by_key)); /* no room to sort in */
  CU_ASSERT_PTR_NULL(rep_sort_new(0, 16, by_key));
}

/* A full buffer goes to a temporary file: where none can be made ($TMPDIR a folder that is not there), the add that
 * needs one fails with BAS_EIO, and those that fit in memory do not. */
static void test_rep_sort_no_temporary_file(void)
{
  char *saved = tu_env_swap("TMPDIR", "/nonexistent/simrun-test");
  rep_sort_t *sort = rep_sort_new(sizeof(record_t), 2, by_key);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sort);
  CU_ASSERT_EQUAL(rep_sort_add(sort, &(record_t){2, 0}), 0);
  CU_ASSERT_EQUAL(rep_sort_add(sort, &(record_t){1, 1}), 0);
  CU_ASSERT_EQUAL(rep_sort_add(sort, &(record_t){0, 2}), BAS_EIO);
  rep_sort_free(sort);
  tu_env_restore("TMPDIR", saved);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_rep_sort_as_qsort", test_rep_sort_as_qsort},
                                    {"test_rep_sort_stopped", test_rep_sort_stopped},
                                    {"test_rep_sort_no_temporary_file", test_rep_sort_no_temporary_file},
                                    {NULL, NULL}};
  return tu_run("rep_sort", cases);
}
