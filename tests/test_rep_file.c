/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of rep_file's ending by another thread (rep_file_close_all, called by the signal watchdog of cli_signal.c
 * while the main thread may be writing): the temporaries and the guarded folders are gone, nothing is renamed into
 * place, and the stream the writer holds is still its own to write to and close (it was closed and freed under the
 * writer before: a use after free that AddressSanitizer reports in this test). Later opens fail. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "rep_report.h"
#include "tu.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The number of entries of `dir` other than "." and "..". */
static int entries(const char *dir)
{
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  if (d)
    closedir(d);
  return n;
}

static void test_rep_file_close_all_leaves_the_writer_its_stream(void)
{
  char dir[] = "/tmp/test_rep_file.XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  char path[256], err[512];
  snprintf(path, sizeof path, "%s/out.csv", dir);
  rep_file_begin();
  rep_file_t *file = rep_file_open(path, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(file);
  CU_ASSERT(fprintf(rep_file_stream(file), "first line\n") > 0);
  char tree[256], kept[256], inside[300];
  snprintf(tree, sizeof tree, "%s/archive", dir); /* a folder being written, as an OTF2 archive is */
  snprintf(kept, sizeof kept, "%s/kept", dir);    /* one no longer guarded */
  snprintf(inside, sizeof inside, "%s/events", tree);
  CU_ASSERT_EQUAL_FATAL(mkdir(tree, 0700), 0);
  CU_ASSERT_EQUAL_FATAL(mkdir(kept, 0700), 0);
  FILE *events = fopen(inside, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(events);
  fclose(events);
  CU_ASSERT_EQUAL(rep_file_guard_tree(tree), 0);
  CU_ASSERT_EQUAL(rep_file_guard_tree(kept), 0);
  rep_file_unguard_tree(kept);
  CU_ASSERT_EQUAL(entries(dir), 3); /* the temporary, the two folders */

  CU_ASSERT_EQUAL(rep_file_close_all(), 0); /* nothing written: the transaction had not ended */
  CU_ASSERT_EQUAL(entries(dir), 1);         /* the temporary and the guarded folder gone, nothing renamed */
  CU_ASSERT_EQUAL(access(kept, F_OK), 0);
  rep_file_unguard_tree(tree);
  CU_ASSERT_EQUAL(rmdir(kept), 0);
  CU_ASSERT(fprintf(rep_file_stream(file), "the writer goes on\n") > 0);
  CU_ASSERT_EQUAL(fflush(rep_file_stream(file)), 0);
  CU_ASSERT_EQUAL(rep_file_commit(file, err, sizeof err), -1); /* too late: refused, and freed */
  CU_ASSERT_EQUAL(entries(dir), 0);

  CU_ASSERT_PTR_NULL(rep_file_open(path, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot write"));
  CU_ASSERT_EQUAL(entries(dir), 0);
  rmdir(dir);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_rep_file_close_all_leaves_the_writer_its_stream", test_rep_file_close_all_leaves_the_writer_its_stream},
      {NULL, NULL}};
  return tu_run("rep_file", cases);
}
