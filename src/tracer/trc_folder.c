/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace folder's gate (trc_folder.h): a folder that is not one, a missing parent, a folder that cannot be written
 * or one that holds the user's own files is refused in one line before the tracer writes or removes anything there. */
#define _GNU_SOURCE /* strdup, dirname */
#include "trc_folder.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Says (when `say`) "simrun-trace: warning: SIMRUN_TRACE_DIR=" and the formatted reason on one line, that the run is
 * not traced; returns -1. */
__attribute__((format(printf, 2, 3))) static int refuse(int say, const char *format, ...)
{
  if (!say)
    return -1;
  char reason[PATH_MAX * 2 + 512];
  va_list ap;
  va_start(ap, format);
  vsnprintf(reason, sizeof reason, format, ap);
  va_end(ap);
  fprintf(stderr, "simrun-trace: warning: SIMRUN_TRACE_DIR=%s: this run is not traced, the program runs on\n", reason);
  return -1;
}

/* What a file of mode `mode` is, for a message. */
static const char *kind_of(mode_t mode)
{
  return S_ISREG(mode)    ? "a regular file"
         : S_ISFIFO(mode) ? "a FIFO"
         : S_ISCHR(mode)  ? "a character device"
         : S_ISBLK(mode)  ? "a block device"
         : S_ISSOCK(mode) ? "a socket"
                          : "not a folder";
}

int trc_folder_rank_file(const char *name)
{
  static const char *const forms[] = {"rank-%d.txt%n", "timeline-%d.txt%n", TRC_INCOMPLETE "-%d%n"};
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
    int rank = -1;
    int end = 0;
    if (sscanf(name, forms[i], &rank, &end) == 1 && rank >= 0 && name[end] == '\0')
      return rank;
  }
  return -1;
}

/* Whether `name` is one of the entries a trace folder holds (index.txt and trc_folder_rank_file's). */
static int trace_name(const char *name)
{
  return strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strcmp(name, "index.txt") == 0 ||
         trc_folder_rank_file(name) >= 0;
}

/* The first entry of folder `dir` that no trace holds into `found`; 0 when there is none. */
static int foreign_entry(const char *dir, char *found, size_t len)
{
  DIR *folder = opendir(dir);
  int any = 0;
  for (const struct dirent *e; folder && !any && (e = readdir(folder));)
    if (!trace_name(e->d_name))
      any = snprintf(found, len, "%s", e->d_name) >= 0;
  if (folder)
    closedir(folder);
  return any;
}

/* The checks of a folder that does not exist yet: its parent must be a writable folder. */
static int check_parent(const char *dir, int say)
{
  char *copy = strdup(dir);
  const char *parent = copy ? dirname(copy) : ".";
  struct stat st;
  int rc = 0;
  int exists = stat(parent, &st) == 0;
  if (!exists || !S_ISDIR(st.st_mode))
    rc = refuse(say, "%s: its folder %s %s; make that folder first or name another", dir, parent,
                exists ? "is not a folder" : "does not exist");
  else if (access(parent, W_OK | X_OK) != 0)
    rc = refuse(say, "%s: cannot make it in %s (%s); name a folder in one you can write", dir, parent, strerror(errno));
  free(copy);
  return rc;
}

/* Whether a rank's files in `dir` would have paths beyond PATH_MAX, which no call can open: `dir` made absolute (from
 * the working folder) and "/timeline-" a rank's number and ".txt", the longest name in a trace folder. Before, a folder
 * of 4,090 characters was made empty, and three warnings followed, of files that could not be removed or written. */
static int too_long(const char *dir)
{
  char cwd[PATH_MAX];
  size_t base = dir[0] == '/' ? 0 : getcwd(cwd, sizeof cwd) ? strlen(cwd) + 1 : 0;
  return base + strlen(dir) + sizeof "/timeline-2147483647.txt" > PATH_MAX;
}

int trc_folder_check(const char *dir, int say)
{
  struct stat st;
  char found[256];
  if (too_long(dir))
    return refuse(say, "%.60s... (%zu characters): its files' paths would pass PATH_MAX (%d); name a shorter folder",
                  dir, strlen(dir), PATH_MAX);
  if (stat(dir, &st) != 0)
    return errno == ENOENT || errno == ENOTDIR
               ? check_parent(dir, say)
               : refuse(say, "%s: cannot use it (%s); name another folder", dir, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return refuse(say, "%s is %s, not a folder; name a new folder or one simrun-trace wrote", dir, kind_of(st.st_mode));
  if (access(dir, W_OK | X_OK) != 0)
    return refuse(say, "%s: cannot write in it (%s); name a folder you can write", dir, strerror(errno));
  if (foreign_entry(dir, found, sizeof found))
    return refuse(say,
                  "%s holds %s, which no trace holds, and the tracer replaces and removes a trace folder's files; "
                  "name a new or empty folder",
                  dir, found);
  return 0;
}
