/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* This library out of the rank's LD_PRELOAD (trc_preload.h). An entry is this library when it names the same file
 * (a path: its device and inode) or, a bare name that ld.so looked up, the same file name. */
#define _GNU_SOURCE /* dladdr */
#include "trc_preload.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ld.so splits LD_PRELOAD at spaces and colons (ld.so(8)). */
static const char SEPARATORS[] = " :";

static const char *base_name(const char *path)
{
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Whether `entry` (`len` bytes, not terminated) names the library loaded from `self` (whose stat is `*own`). */
static int names_self(const char *entry, size_t len, const char *self, const struct stat *own)
{
  char path[4096];
  if (len == 0 || len >= sizeof path)
    return 0;
  memcpy(path, entry, len);
  path[len] = '\0';
  if (!strchr(path, '/'))
    return strcmp(path, base_name(self)) == 0;
  struct stat st;
  return stat(path, &st) == 0 && st.st_dev == own->st_dev && st.st_ino == own->st_ino;
}

void trc_preload_drop(void)
{
  const char *preload = getenv("LD_PRELOAD");
  Dl_info info;
  struct stat own;
  if (!preload || !dladdr((void *)trc_preload_drop, &info) || !info.dli_fname || stat(info.dli_fname, &own) != 0)
    return;
  size_t size = strlen(preload) + 1;
  char *kept = malloc(size);
  if (!kept)
    return;
  size_t n = 0;
  int dropped = 0;
  for (const char *at = preload; *at;) {
    at += strspn(at, SEPARATORS);
    size_t len = strcspn(at, SEPARATORS);
    if (names_self(at, len, info.dli_fname, &own)) {
      dropped = 1;
    } else if (len > 0) {
      if (n > 0)
        kept[n++] = ':';
      memcpy(kept + n, at, len);
      n += len;
    }
    at += len;
  }
  kept[n] = '\0';
  if (dropped && n > 0)
    setenv("LD_PRELOAD", kept, 1);
  else if (dropped)
    unsetenv("LD_PRELOAD");
  free(kept);
}
