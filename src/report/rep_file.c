/* Output files that appear whole or not at all: written under a temporary name, renamed on success. */
#include "rep_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct rep_file {
  char *path;
  char *temp;
  FILE *stream;
};

rep_file_t *rep_file_open(const char *path, char *err, size_t errlen)
{
  rep_file_t *file = calloc(1, sizeof *file);
  size_t len = strlen(path);
  if (!file || !(file->path = strdup(path)) || !(file->temp = malloc(len + 16))) {
    snprintf(err, errlen, "out of memory");
    goto fail;
  }
  snprintf(file->temp, len + 16, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(file->temp);
  if (fd < 0) {
    snprintf(err, errlen, "cannot write '%s': %s; check that its folder exists and is writable", path, strerror(errno));
    free(file->temp);
    file->temp = NULL;
    goto fail;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask); /* as a plain fopen would have made it, not mkstemp's 0600 */
  file->stream = fdopen(fd, "w");
  if (!file->stream) {
    snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    close(fd);
    goto fail;
  }
  return file;
fail:
  if (file && file->temp)
    unlink(file->temp);
  if (file) {
    free(file->temp);
    free(file->path);
  }
  free(file);
  return NULL;
}

FILE *rep_file_stream(rep_file_t *file)
{
  return file->stream;
}

static void release(rep_file_t *file)
{
  free(file->temp);
  free(file->path);
  free(file);
}

int rep_file_commit(rep_file_t *file, char *err, size_t errlen)
{
  int failed = ferror(file->stream);
  failed = fclose(file->stream) != 0 || failed;
  if (!failed && rename(file->temp, file->path) == 0) {
    release(file);
    return 0;
  }
  snprintf(err, errlen, "cannot write '%s': %s", file->path, strerror(errno ? errno : EIO));
  unlink(file->temp);
  release(file);
  return -1;
}

void rep_file_abort(rep_file_t *file)
{
  if (!file)
    return;
  fclose(file->stream);
  unlink(file->temp);
  release(file);
}
