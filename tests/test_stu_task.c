/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the result a simulation child writes (stu_result_read): inputs the fuzzer found (fuzz/fuzz_result.c) are
 * refused at once, without the allocation their damaged counts asked for. Inputs in tests/data/cli/hostile/fuzz/,
 * their magic made SRR2 when the stream's layout changed (they were found as SRR1). */
#define _POSIX_C_SOURCE 200809L

#include "bas_error.h"
#include "met_trace.h"
#include "stu_task.h"
#include "tu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZED SIMRUN_SOURCE_DIR "/tests/data/cli/hostile/fuzz/"

/* Reads file `name` as a result: the return value of stu_result_read. */
static int read_result(const char *name)
{
  FILE *in = fopen(name, "rb");
  CU_ASSERT_FATAL(in != NULL);
  stu_point_t point = {0};
  int32_t status = 0;
  int rc = stu_result_read(&point, &status, in);
  fclose(in);
  stu_slots_release(&point);
  met_trace_free(point.trace);
  met_pixels_free(point.pixels);
  return rc;
}

/* A count of per-process entries of 2^44 bytes, malloc'd as read before the input ran out: ASan (scripts/test) aborted.
 */
static void test_task_result_refuses_huge_count(void)
{
  CU_ASSERT_EQUAL(read_result(FUZZED "result-huge-count.bin"), BAS_EIO);
}

/* A trace header claiming 2^30 ranks in a file of a few kilobytes: met_trace_read allocated them first (ASan: out of
 * memory). In a normal build both only cost time and memory, so these fail in the sanitizer build. */
static void test_task_result_refuses_huge_rank_count(void)
{
  CU_ASSERT_EQUAL(read_result(FUZZED "result-huge-nranks.bin"), BAS_EIO);
}

/* A per-process point's pixels whose stored length said 4 GiB and whose zstd frame said otherwise: met_pixels_read
 * asked malloc for the 4 GiB first (fuzz_result: out of memory). The frame's own content size is checked now, and no
 * length beyond 1 GiB is taken; scripts/fuzz seeds fuzz_result with this input, so the fuzzer fails on it at once if
 * the check goes. */
static void test_task_result_refuses_huge_pixels(void)
{
  CU_ASSERT_NOT_EQUAL(read_result(FUZZED "result-huge-pixels.bin"), 0);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_task_result_refuses_huge_count", test_task_result_refuses_huge_count},
      {"test_task_result_refuses_huge_pixels", test_task_result_refuses_huge_pixels},
      {"test_task_result_refuses_huge_rank_count", test_task_result_refuses_huge_rank_count},
      {NULL, NULL}};
  return tu_run("task", cases);
}
