/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unnamed temporary files (bas_temp.h). tmpfile(3) is not used: glibc's ignores $TMPDIR. Linux's O_TMPFILE makes a
 * file that never has a name; a file system without it (NFS, overlayfs before Linux 6.6) gets mkstemp and unlink with
 * the catchable signals held between them. Before, every file was named by mkstemp until its unlink: a process killed
 * between them left an empty simrun-temp-* behind (two in /tmp after a day of suites here). */
#define _GNU_SOURCE /* mkstemp, fdopen, O_TMPFILE */
#include "bas_temp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

const char *bas_temp_dir(void)
{
  const char *dir = getenv("TMPDIR");
  return dir && dir[0] ? dir : "/tmp";
}

/* A file named by mkstemp in `dir` and unlinked, no catchable signal delivered between: its descriptor, or -1. */
static int named_then_unlinked(const char *dir)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/simrun-temp-XXXXXX", dir);
  sigset_t all, was;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &was);
  int fd = mkstemp(path);
  int saved = errno;
  if (fd >= 0)
    unlink(path);
  pthread_sigmask(SIG_SETMASK, &was, NULL);
  errno = saved;
  return fd;
}

FILE *bas_temp_file(void)
{
  const char *dir = bas_temp_dir();
  int fd = open(dir, O_TMPFILE | O_RDWR, 0600);
  if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
    fd = named_then_unlinked(dir);
  if (fd < 0)
    return NULL;
  FILE *file = fdopen(fd, "w+b");
  if (!file) {
    int saved = errno;
    close(fd);
    errno = saved;
  }
  return file;
}
