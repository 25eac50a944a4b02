/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Time-independent traces (SimGrid's SMPI replay format): a writer that keeps each rank's actions in memory and saves
 * one file per rank plus the index, and the index reader of the ti-replay skeleton (src/apps/app_ti.c). */
#define _GNU_SOURCE /* open_memstream, realpath */
#include "sim_ti.h"
#include "sim_error.h"
#include "met_zread.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct ti_stream {
  FILE *out;
  char *text;
  size_t len;
} ti_stream_t;

struct sim_ti_writer {
  int nranks;
  ti_stream_t *ranks;
};

/* SimGrid 3.32's predefined datatypes by code (src/smpi/mpi/smpi_datatype.cpp, CREATE_MPI_DATATYPE), their sizes on
 * x86-64 Linux: sizeof of the C type each is declared with. Code -1 (MPI_DATATYPE_NULL, also what SMPI writes for a
 * derived datatype) and 55-56 (MPI_UB, MPI_LB) have size 0. */
static const signed char type_sizes[] = {
    8,  4,  1,  2,  8,  4,
    1,  8,  1,  1, /* 0 double, int, char, short, long, float, byte, long long, signed char, uchar */
    2,  4,  8,  8,  16, 4,
    1,  1,  2,  4, /* 10 ushort, unsigned, ulong, ull, long double, wchar, C bool, int8-32 */
    8,  1,  2,  4,  8,  8,
    16, 32, 8,  8, /* 20 int64, uint8-64, C float/double/long double complex, aint, offset */
    8,  16, 16, 8,  8,  8,
    16, 16, 4,  4, /* 30 float_int, long_int, double_int, short_int, 2int, 2float, 2double, 2long,
                      real, real4 */
    8,  16, 8,  16, 16, 4,
    2,  4,  8,  16, /* 40 real8, real16, complex8/16/32, integer1/2/4/8/16 */
    32, 1,  8,  16, 32, 0,
    0,  1,  8,  8}; /* 50 long_double_int, C++ bool/complexes, UB, LB, packed, ptr, count */

double sim_ti_number(const char *text, char **end)
{
  const char *digits = text + (*text == '-');
  const char *c = digits;
  long long whole = 0;
  while (*c >= '0' && *c <= '9' && c - digits < 15)
    whole = 10 * whole + (*c++ - '0');
  if (c == digits || *c) /* not a whole number, or more than 15 digits, or more than a number */
    return strtod(text, end);
  *end = (char *)c;
  return digits == text ? (double)whole : -(double)whole;
}

int sim_ti_type_size(int code)
{
  if (code == -1)
    return 0;
  return code >= 0 && code < (int)sizeof type_sizes ? type_sizes[code] : -1;
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
  return ok ? 0 : SIM_EIO;
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
    snprintf(err, errlen, "%s", bas_strerror(rc));
  return rc;
}

void sim_ti_paths_free(char **paths, int count)
{
  for (int i = 0; paths && i < count; i++)
    free(paths[i]);
  free(paths);
}

/* Input bounds: a trace file beyond SIM_TI_MAX_FILE bytes, an index or hostfile line beyond PATH_MAX or more than
 * SIM_TI_MAX_RANKS entries is refused rather than read on (a device such as /dev/zero never ends). */
#define SIM_TI_MAX_FILE  (64LL << 30)
#define SIM_TI_MAX_RANKS (1 << 20)

/* Checks that `path` is a regular file of at most SIM_TI_MAX_FILE bytes: 0, or SIM_EIO with a message naming
 * `where` (the file and line that named it, or the parameter). */
static int check_file(const char *path, const char *where, char *err, size_t errlen)
{
  struct stat st;
  if (stat(path, &st) != 0) {
    snprintf(err, errlen, "%scannot read %s: %s; check the path, which is relative to the %s's folder", where, path,
             strerror(errno), *where ? "index" : "scenario");
    return SIM_EIO;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s%s is not a regular file (a device or a folder); name a trace file", where, path);
    return SIM_EIO;
  }
  if (st.st_size > SIM_TI_MAX_FILE) {
    snprintf(err, errlen, "%s%s has %lld bytes, more than the %lld a trace file may have", where, path,
             (long long)st.st_size, SIM_TI_MAX_FILE);
    return SIM_EIO;
  }
  return 0;
}

struct sim_ti_reader {
  met_zread_t *in; /* plain text, zstd or gzip (libsimrun-trace.so compresses a large trace smpirun could not read) */
  char *path;
  char *buf;    /* SIM_TI_CHUNK bytes read at a time, after what is left of the last chunk: cap + SIM_TI_CHUNK + 1 */
  size_t cap;   /* a line has fewer characters */
  size_t start; /* the next line's first character in buf */
  size_t end;   /* the end of what was read */
  int eof;
  int number;
};

/* Bytes read from a trace file at a time: a few reads per file, and at most this much memory touched per open
 * reader beyond its longest line (thousands are open at once). */
enum { SIM_TI_CHUNK = 1 << 16 };

int sim_ti_reader_open(const char *path, size_t max_fields, sim_ti_reader_t **reader, char *err, size_t errlen)
{
  *reader = NULL;
  int rc = check_file(path, "", err, errlen);
  if (rc != 0)
    return rc;
  sim_ti_reader_t *r = calloc(1, sizeof *r);
  if (!r)
    return SIM_ENOMEM;
  r->cap = 4096 + 32 * max_fields; /* every field of a line of at most max_fields up to 31 characters */
  r->buf = malloc(r->cap + SIM_TI_CHUNK + 1);
  r->path = strdup(path);
  r->in = met_zread_open(path);
  if (!r->buf || !r->path || !r->in) {
    rc = r->buf && r->path ? SIM_EIO : SIM_ENOMEM;
    snprintf(err, errlen, "cannot read %s: %s%s", path, rc == SIM_EIO ? strerror(errno) : bas_strerror(rc),
             rc == SIM_EIO ? "; check the path" : "");
    sim_ti_reader_close(r);
    return rc;
  }
  *reader = r;
  return 0;
}

void sim_ti_reader_close(sim_ti_reader_t *reader)
{
  if (!reader)
    return;
  met_zread_close(reader->in);
  free(reader->buf);
  free(reader->path);
  free(reader);
}

/* Reads the next chunk after what is left of the last one (moved to the front): 0, or SIM_TI_READ_ERROR (damaged
 * compressed data, or a compressed stream cut short: a run killed while writing it). */
static int refill(sim_ti_reader_t *reader)
{
  memmove(reader->buf, reader->buf + reader->start, reader->end - reader->start);
  reader->end -= reader->start;
  reader->start = 0;
  long got = met_zread_read(reader->in, reader->buf + reader->end, SIM_TI_CHUNK);
  if (got < 0 || (got == 0 && met_zread_cut(reader->in)))
    return SIM_TI_READ_ERROR;
  reader->eof = got == 0;
  reader->end += (size_t)got;
  return 0;
}

/* A line is decided once its newline, the end of the file or `cap` of its characters are in the buffer: a NUL byte
 * among its first `cap` characters makes it binary, else `cap` characters make it too long (as a reader of one
 * character at a time, which stops at the first of the two, decides). */
int sim_ti_reader_next(sim_ti_reader_t *reader, char **text, size_t *len)
{
  reader->number++;
  for (;;) {
    char *at = reader->buf + reader->start;
    size_t avail = reader->end - reader->start;
    char *newline = memchr(at, '\n', avail);
    size_t n = newline ? (size_t)(newline - at) : avail;
    if (newline || reader->eof || n >= reader->cap) {
      if (memchr(at, '\0', n < reader->cap ? n : reader->cap))
        return SIM_TI_BINARY;
      if (n >= reader->cap)
        return SIM_TI_LONG_LINE;
      if (!newline && n == 0)
        return 1;
      at[n] = '\0'; /* the newline, or the byte after the last one read (buf has room for it) */
      reader->start += n + (newline != NULL);
      *text = at;
      *len = n;
      return 0;
    }
    int rc = refill(reader);
    if (rc != 0)
      return rc;
  }
}

void sim_ti_reader_error(const sim_ti_reader_t *reader, int rc, char *err, size_t errlen)
{
  const char *why = rc == SIM_TI_BINARY         ? "a NUL byte: this is not a text trace; name a TI trace file"
                    : rc == SIM_TI_LONG_LINE    ? "the line is longer than any action of this many ranks can be (a "
                                                  "corrupt trace, or p is smaller than the trace's)"
                    : met_zread_cut(reader->in) ? "cut short: the compressed trace ends mid-stream (its run was killed "
                                                  "before MPI_Finalize)"
                                                : met_zread_error(reader->in);
  snprintf(err, errlen, "%s:%d: %s%s", reader->path, reader->number, why,
           rc == SIM_TI_READ_ERROR ? "; trace the run again" : "");
}

struct sim_ti_trace {
  char **paths;
  int count;
};

void sim_ti_trace_free(sim_ti_trace_t *trace)
{
  if (trace)
    sim_ti_paths_free(trace->paths, trace->count);
  free(trace);
}

int sim_ti_trace_files(const sim_ti_trace_t *trace)
{
  return trace->count;
}

const char *sim_ti_trace_path(const sim_ti_trace_t *trace, int i)
{
  return trace->paths[i];
}

/* Whether `line` is an action ("<rank> <action> ..."), not a path: the file holds the trace itself. */
static int is_action(const char *line)
{
  const char *c = line;
  while (isdigit((unsigned char)*c))
    c++;
  return c > line && (*c == ' ' || *c == '\t') && isalpha((unsigned char)c[strspn(c, " \t")]);
}

/* Reads the non-blank lines of `path`, blanks around them trimmed, into a new array (at most SIM_TI_MAX_RANKS lines
 * of at most PATH_MAX characters), or its first one alone when that is an action (the file is the trace itself, whose
 * lines the ranks read as they replay: kept whole, its memory grew with the trace's length, and a trace of more than
 * SIM_TI_MAX_RANKS lines was refused): 0, or SIM_EIO / SIM_ENOMEM with a message. */
static int read_lines(const char *path, char ***lines, int *count, char *err, size_t errlen)
{
  *lines = NULL;
  *count = 0;
  sim_ti_reader_t *in = NULL;
  int rc = sim_ti_reader_open(path, PATH_MAX / 32, &in, err, errlen);
  char *text;
  size_t len;
  while (rc == 0 && (rc = sim_ti_reader_next(in, &text, &len)) == 0) {
    while (len > 0 && isspace((unsigned char)text[len - 1]))
      text[--len] = '\0';
    text += strspn(text, " \t");
    if (!*text)
      continue;
    char **more = *count < SIM_TI_MAX_RANKS ? realloc(*lines, (size_t)(*count + 1) * sizeof *more) : NULL;
    if (*count == SIM_TI_MAX_RANKS) {
      snprintf(err, errlen, "%s:%d: more than %d lines; name a trace of fewer ranks", path, in->number,
               SIM_TI_MAX_RANKS);
      rc = SIM_EIO;
    } else if (!more || !(more[*count] = strdup(text))) {
      *lines = more ? more : *lines;
      rc = SIM_ENOMEM;
    } else {
      *lines = more;
      if (++*count == 1 && is_action(more[0]))
        break;
    }
  }
  if (rc < 0 && rc != SIM_ENOMEM && rc != SIM_EIO && in) {
    sim_ti_reader_error(in, rc, err, errlen);
    rc = SIM_EIO;
  }
  if (rc == SIM_ENOMEM)
    snprintf(err, errlen, "%s", bas_strerror(rc));
  sim_ti_reader_close(in);
  if (rc > 0)
    rc = 0;
  if (rc != 0) {
    sim_ti_paths_free(*lines, *count);
    *lines = NULL;
    *count = 0;
  }
  return rc;
}

/* `line`, a path listed in `index`: as it is when absolute; else from the index's folder, or when no such file exists
 * there, from the current folder (where smpirun opens it). A new string, or NULL. */
static char *resolve(const char *index, const char *line)
{
  const char *slash = strrchr(index, '/');
  size_t dir = line[0] == '/' || !slash ? 0 : (size_t)(slash - index) + 1;
  size_t len = strlen(line);
  char *path = malloc(dir + len + 1);
  if (!path)
    return NULL;
  memcpy(path, index, dir);
  memcpy(path + dir, line, len + 1);
  if (dir > 0 && access(path, F_OK) != 0 && access(line, F_OK) == 0)
    memmove(path, line, len + 1);
  return path;
}

/* Whether any of the first `count` lines of `index` names a file that exists: else the index is likely no index at all
 * (/etc/shadow), and its lines, which may be secrets, are not quoted. */
static int names_a_file(const char *index, char *const *lines, int count)
{
  struct stat st;
  for (int i = 0; i < count; i++) {
    char *path = resolve(index, lines[i]);
    int there = path && stat(path, &st) == 0;
    free(path);
    if (there)
      return 1;
  }
  return 0;
}

int sim_ti_open(const char *index, sim_ti_trace_t **trace, char *err, size_t errlen)
{
  *trace = calloc(1, sizeof **trace);
  if (!*trace)
    return SIM_ENOMEM;
  sim_ti_trace_t *t = *trace;
  char **lines = NULL;
  int count = 0;
  int rc = read_lines(index, &lines, &count, err, errlen);
  int paths = count; /* less the '#' lines at the end: libsimrun-trace.so's bindings, which smpirun -np P skips too */
  while (paths > 0 && lines[paths - 1][0] == '#')
    paths--;
  if (rc == 0 && paths == 0) {
    snprintf(err, errlen, "%s is empty; expected one trace file per rank, or one file with every rank's lines", index);
    rc = SIM_EIO;
  }
  if (rc == 0 && is_action(lines[0])) { /* the trace itself, every rank's lines in one file */
    t->paths = malloc(sizeof *t->paths);
    t->count = t->paths && (t->paths[0] = strdup(index)) ? 1 : 0;
    rc = t->count ? 0 : SIM_ENOMEM;
  } else if (rc == 0) {
    t->paths = calloc((size_t)paths, sizeof *t->paths);
    rc = t->paths ? 0 : SIM_ENOMEM;
    for (int i = 0; rc == 0 && i < paths; i++, t->count++) {
      char where[PATH_MAX + 32];
      snprintf(where, sizeof where, "%s:%d: ", index, i + 1);
      if (!(t->paths[i] = resolve(index, lines[i])))
        rc = SIM_ENOMEM;
      else
        rc = check_file(t->paths[i], where, err, errlen);
    }
    if (rc == SIM_EIO && !names_a_file(index, lines, paths))
      snprintf(err, errlen,
               "%s: not a trace index: none of its %d lines names a file that exists (an index lists one trace file "
               "per rank, or is itself a trace); give the index.txt libsimrun-trace.so or smpirun wrote",
               index, paths);
  }
  sim_ti_paths_free(lines, count);
  if (rc == SIM_ENOMEM)
    snprintf(err, errlen, "%s", bas_strerror(rc));
  if (rc != 0) {
    sim_ti_trace_free(t);
    *trace = NULL;
  }
  return rc;
}

int sim_ti_read_hostfile(const char *path, char ***hosts, int *count, char *err, size_t errlen)
{
  char **lines = NULL;
  int nlines = 0;
  int rc = read_lines(path, &lines, &nlines, err, errlen);
  *hosts = NULL;
  *count = 0;
  if (rc == 0 && nlines == 0) {
    snprintf(err, errlen, "%s lists no host; expected one host name per line (or host:n for n ranks)", path);
    rc = SIM_EIO;
  }
  for (int i = 0; rc == 0 && i < nlines; i++) {
    char *colon = strrchr(lines[i], ':');
    long repeat = 1;
    if (colon) {
      char *end;
      errno = 0;
      repeat = strtol(colon + 1, &end, 10);
      if (end == colon + 1 || *end || errno || repeat < 1 || repeat > SIM_TI_MAX_RANKS - *count) {
        snprintf(err, errlen, "%s:%d: '%s': the number after ':' must be a count of ranks from 1 to %d", path, i + 1,
                 lines[i], SIM_TI_MAX_RANKS - *count);
        rc = SIM_EIO;
        break;
      }
      *colon = '\0';
    }
    char **more = realloc(*hosts, (size_t)(*count + repeat) * sizeof *more);
    if (!more) {
      rc = SIM_ENOMEM;
      break;
    }
    *hosts = more;
    for (long k = 0; rc == 0 && k < repeat; k++, (*count)++)
      if (!((*hosts)[*count] = strdup(lines[i])))
        rc = SIM_ENOMEM;
  }
  sim_ti_paths_free(lines, nlines);
  if (rc == SIM_ENOMEM)
    snprintf(err, errlen, "%s", bas_strerror(rc));
  if (rc != 0) {
    sim_ti_paths_free(*hosts, *count);
    *hosts = NULL;
    *count = 0;
  }
  return rc;
}
