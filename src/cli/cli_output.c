/* Output checks that leave the filesystem as they found it: an empty --svg folder made before a sweep that then fails
 * or is interrupted would be litter, so the folder is made for the check and removed until the pictures are drawn. */
#define _POSIX_C_SOURCE 200809L /* rmdir, stat */

#include "cli_output.h"
#include "rep_pictures.h"
#include "rep_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The length of the longest prefix of `path` (cut at a '/') that exists, so that what lies beyond it is new. */
static size_t existing_prefix(const char *path)
{
  char copy[4096];
  struct stat st;
  snprintf(copy, sizeof copy, "%s", path);
  for (size_t len = strlen(copy); len > 0; len--) {
    if (copy[len] != '/' && copy[len] != '\0')
      continue;
    char kept = copy[len];
    copy[len] = '\0';
    int there = stat(copy, &st) == 0;
    copy[len] = kept;
    if (there)
      return len;
  }
  return 0;
}

/* Removes the folders of `path` beyond its first `keep` characters, deepest first. */
static void remove_new_folders(const char *path, size_t keep)
{
  char copy[4096];
  snprintf(copy, sizeof copy, "%s", path);
  for (size_t len = strlen(copy); len > keep; len--)
    if (copy[len] == '/' || copy[len] == '\0') {
      copy[len] = '\0';
      if (rmdir(copy) != 0 && errno != ENOENT)
        return;
    }
}

int cli_folder_probe(const char *dir, char *err, size_t errlen)
{
  size_t keep = existing_prefix(dir);
  int rc = rep_pictures_folder(dir, err, errlen);
  remove_new_folders(dir, keep);
  return rc;
}

/* The folders a run made (cli_folder_make), removed again when its outputs are rolled back. */
typedef struct made {
  char path[4096];
  size_t keep;
} made_t;

static int made_keep(void *state, char *err, size_t errlen)
{
  free(state);
  return 0;
}

static void made_remove(void *state)
{
  const made_t *made = state;
  remove_new_folders(made->path, made->keep);
  free(state);
}

int cli_folder_make(const char *dir, char *err, size_t errlen)
{
  made_t *made = malloc(sizeof *made);
  if (!made) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  snprintf(made->path, sizeof made->path, "%s", dir);
  made->keep = existing_prefix(dir);
  if (rep_pictures_folder(dir, err, errlen) != 0) {
    made_remove(made);
    return -1;
  }
  return rep_file_defer(made_keep, made_remove, made, err, errlen);
}
