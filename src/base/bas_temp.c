/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unnamed temporary files (bas_temp.h). tmpfile(3) is not used: glibc's ignores $TMPDIR. */
#define _GNU_SOURCE /* mkstemp, fdopen */
#include "bas_temp.h"

#include <stdlib.h>
#include <unistd.h>

const char *bas_temp_dir(void)
{
  const char *dir = getenv("TMPDIR");
  return dir && dir[0] ? dir : "/tmp";
}

FILE *bas_temp_file(void)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/simrun-temp-XXXXXX", bas_temp_dir());
  int fd = mkstemp(path);
  if (fd < 0)
    return NULL;
  unlink(path); /* unnamed from now on */
  FILE *file = fdopen(fd, "w+b");
  if (!file)
    close(fd);
  return file;
}
