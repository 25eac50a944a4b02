/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A fixed place for fuzz inputs that loaders read by path, with the shipped scenarios' relative platform paths in
 * reach (see fuzz_input.h). */
#define _GNU_SOURCE /* mkdtemp, symlink, nftw */

#include "fuzz_input.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char input[4096];

/* The folders fuzz_temp_folder made, removed at exit: every run of the suite left 14 in /tmp before. */
enum { MAX_FOLDERS = 4 };
static char made[MAX_FOLDERS][4096];
static int nmade;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *at)
{
  (void)st, (void)flag, (void)at;
  remove(path);
  return 0;
}

static void remove_made(void)
{
  for (int i = 0; i < nmade; i++)
    nftw(made[i], remove_entry, 16, FTW_DEPTH | FTW_PHYS); /* links removed, never followed */
}

const char *fuzz_temp_folder(const char *name)
{
  const char *tmp = getenv("TMPDIR");
  if (nmade == MAX_FOLDERS)
    abort();
  char *dir = made[nmade];
  snprintf(dir, sizeof made[nmade], "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
  if (!mkdtemp(dir))
    abort();
  if (nmade++ == 0)
    atexit(remove_made);
  return dir;
}

static void link_to(const char *target, const char *dir, const char *name)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (symlink(target, path) != 0)
    perror(path);
}

const char *fuzz_input_path(void)
{
  if (input[0])
    return input;
  const char *root = fuzz_temp_folder("simrun-fuzz");
  char dir[4096];
  const char *levels[] = {"d1", "d1/d2", "d1/d2/d3"};
  for (size_t i = 0; i < 3; i++) {
    snprintf(dir, sizeof dir, "%s/%s", root, levels[i]);
    if (mkdir(dir, 0700) != 0)
      abort();
  }
  snprintf(dir, sizeof dir, "%s/d1/d2", root);
  link_to(SIMRUN_SOURCE_DIR "/platforms", root, "platforms");
  link_to(SIMRUN_SOURCE_DIR "/platforms", dir, "platforms");
  link_to(SIMRUN_SOURCE_DIR "/tests/data/cli/two-hosts.xml", dir, "two-hosts.xml");
  snprintf(dir, sizeof dir, "%s/d1/d2/d3", root);
  link_to(SIMRUN_SOURCE_DIR "/tests/data/cli/two-hosts.xml", dir, "two-hosts.xml");
  snprintf(input, sizeof input, "%s/input.xml", dir);
  return input;
}

int fuzz_write_input(const uint8_t *data, size_t size)
{
  FILE *f = fopen(fuzz_input_path(), "wb");
  if (!f)
    return -1;
  int rc = fwrite(data, 1, size, f) == size ? 0 : -1;
  return fclose(f) == 0 ? rc : -1;
}
