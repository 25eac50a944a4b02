/* Time-independent traces (SimGrid's SMPI replay format): a writer that keeps each rank's actions in memory and saves
 * one file per rank plus the index, and the index reader of the ti-replay skeleton (src/apps/app_ti.c). */
#define _GNU_SOURCE /* open_memstream, realpath */
#include "sim_ti.h"
#include "sim_error.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ti_stream {
  FILE *out;
  char *text;
  size_t len;
} ti_stream_t;

struct sim_ti_writer {
  int nranks;
  ti_stream_t *ranks;
};

int sim_ti_type_size(int code)
{
  static const int sizes[] = {[0] = 8, [1] = 4, [2] = 1, [3] = 2, [4] = 8, [5] = 4, [6] = 1, [7] = 0, [8] = 0, [9] = 1};
  return code >= 0 && code < (int)(sizeof sizes / sizeof sizes[0]) && sizes[code] > 0 ? sizes[code] : -1;
}

sim_ti_writer_t *sim_ti_writer_new(int nranks)
{
  if (nranks < 1)
    return NULL;
  sim_ti_writer_t *writer = calloc(1, sizeof *writer);
  if (!writer || !(writer->ranks = calloc((size_t)nranks, sizeof *writer->ranks))) {
    free(writer);
    return NULL;
  }
  writer->nranks = nranks;
  for (int r = 0; r < nranks; r++) {
    ti_stream_t *s = &writer->ranks[r];
    if (!(s->out = open_memstream(&s->text, &s->len))) {
      sim_ti_writer_free(writer);
      return NULL;
    }
  }
  return writer;
}

void sim_ti_writer_free(sim_ti_writer_t *writer)
{
  if (!writer)
    return;
  for (int r = 0; r < writer->nranks; r++) {
    if (writer->ranks[r].out)
      fclose(writer->ranks[r].out);
    free(writer->ranks[r].text);
  }
  free(writer->ranks);
  free(writer);
}

int sim_ti_action(sim_ti_writer_t *writer, int rank, const char *format, ...)
{
  FILE *out = writer->ranks[rank].out;
  va_list ap;
  va_start(ap, format);
  int ok = fprintf(out, "%d ", rank) > 0 && vfprintf(out, format, ap) >= 0 && putc('\n', out) != EOF;
  va_end(ap);
  return ok ? 0 : -1;
}

/* Writes `len` bytes of `text` to `path`; 0, or SIM_EIO with a message. */
static int save_file(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
  FILE *f = fopen(path, "w");
  int ok = f && fwrite(text, 1, len, f) == len;
  if (f)
    ok = fclose(f) == 0 && ok;
  if (!ok)
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
  return ok ? 0 : SIM_EIO;
}

/* Closes the in-memory list `stream` (over *text and *len) and, when rc is still 0, writes it to `root`/`name`. Frees
 * the text. Returns rc, or the first error of these. */
static int save_list(FILE *stream, char **text, size_t *len, const char *root, const char *name, int rc, char *err,
                     size_t errlen)
{
  if (stream && fclose(stream) != 0 && rc == 0)
    rc = SIM_ENOMEM;
  if (rc == 0) {
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", root, name);
    rc = save_file(path, *text, *len, err, errlen);
  }
  free(*text);
  return rc;
}

int sim_ti_writer_save(sim_ti_writer_t *writer, const char *const *hosts, const char *dir, char *err, size_t errlen)
{
  char root[PATH_MAX];
  if (!realpath(dir, root)) {
    snprintf(err, errlen, "cannot use folder %s: %s", dir, strerror(errno));
    return SIM_EIO;
  }
  char *index = NULL;
  size_t index_len = 0;
  char *hostfile = NULL;
  size_t hostfile_len = 0;
  FILE *list = open_memstream(&index, &index_len);
  FILE *host_list = open_memstream(&hostfile, &hostfile_len);
  int rc = list && host_list ? 0 : SIM_ENOMEM;
  for (int r = 0; rc == 0 && r < writer->nranks; r++) {
    ti_stream_t *s = &writer->ranks[r];
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/rank-%d.txt", root, r);
    rc = fflush(s->out) == 0 ? save_file(path, s->text, s->len, err, errlen) : SIM_ENOMEM;
    if (rc == 0 && (fprintf(list, "%s\n", path) < 0 || fprintf(host_list, "%s\n", hosts[r]) < 0))
      rc = SIM_ENOMEM;
  }
  rc = save_list(list, &index, &index_len, root, "index.txt", rc, err, errlen);
  rc = save_list(host_list, &hostfile, &hostfile_len, root, "hostfile.txt", rc, err, errlen);
  if (rc == SIM_ENOMEM)
    snprintf(err, errlen, "%s", sim_strerror(rc));
  return rc;
}

void sim_ti_paths_free(char **paths, int count)
{
  for (int i = 0; paths && i < count; i++)
    free(paths[i]);
  free(paths);
}

/* `line` without its trailing newline and blanks, prefixed with the index's folder when relative: a new string. */
static char *resolve(const char *index, const char *line)
{
  size_t len = strcspn(line, "\r\n");
  while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
    len--;
  const char *slash = strrchr(index, '/');
  size_t dir = line[0] == '/' || !slash ? 0 : (size_t)(slash - index) + 1;
  char *path = malloc(dir + len + 1);
  if (path) {
    memcpy(path, index, dir);
    memcpy(path + dir, line, len);
    path[dir + len] = '\0';
  }
  return path;
}

int sim_ti_read_index(const char *index, char ***paths, int *count, char *err, size_t errlen)
{
  *paths = NULL;
  *count = 0;
  FILE *in = fopen(index, "r");
  if (!in) {
    snprintf(err, errlen, "cannot read %s: %s", index, strerror(errno));
    return SIM_EIO;
  }
  char line[PATH_MAX + 2];
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, in)) {
    if (strspn(line, " \t\r\n") == strlen(line))
      continue; /* blank lines are allowed, as smpirun allows them */
    char **more = realloc(*paths, (size_t)(*count + 1) * sizeof *more);
    if (!more || !(more[*count] = resolve(index, line))) {
      if (more)
        *paths = more;
      rc = SIM_ENOMEM;
      break;
    }
    *paths = more;
    (*count)++;
  }
  fclose(in);
  if (rc == 0 && *count == 0) {
    snprintf(err, errlen, "%s lists no trace file; expected one path per rank", index);
    rc = SIM_EIO;
  }
  if (rc != 0) {
    if (rc == SIM_ENOMEM)
      snprintf(err, errlen, "%s", sim_strerror(rc));
    sim_ti_paths_free(*paths, *count);
    *paths = NULL;
    *count = 0;
  }
  return rc;
}
