/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A rank's trace file (trc_out.h): text gathered in a buffer of its own and written with write(2) when full, so that
 * a traced call costs a few stores, and a failed write (ENOSPC) is seen, said once, and stops the file. A file allowed
 * to (trc_out_compress_beyond) becomes zstd once its text outgrows a bound: the text written so far is read back and
 * compressed with the rest (libzstd's level 1, some 360 MB/s here, twice zlib's level 1, to files 19% smaller), so
 * small files stay plain text and cost nothing. */
#include "trc_out.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

/* zstd's level 1 (its fastest before the negative ones: level -1 writes xdlu's timeline 77% larger for 15% fewer
 * instructions) with a window of 2^16 bytes: 0.4% larger than level 1's own 2^19 there, 14% fewer instructions, and
 * less than half the memory simrun keeps per open file when it reads one (met_zread.c: libzstd's 0.42 MB instead of
 * 1 MB; 2^15 would save a quarter of that for 10% more CPU). A checksum ends the frame, so that damage is told. */
enum { ZSTD_LEVEL = 1, ZSTD_WINDOW_LOG = 16 };

struct trc_out {
  int fd;
  int rank;
  int failed;
  char *buf;
  size_t len;
  size_t cap;
  long long written;       /* bytes of text handed to the file so far */
  long long compress_from; /* the file becomes zstd when its text would pass this many bytes; 0: never */
  ZSTD_CCtx *zstd;         /* not NULL: the file is zstd */
  unsigned char *zbuf;     /* the compressed bytes, before their write: zcap of them */
  size_t zcap;
  char path[4200];
};

trc_out_t *trc_out_open(const char *path, int rank, size_t buffer)
{
  trc_out_t *out = calloc(1, sizeof *out);
  char *buf = out ? malloc(buffer) : NULL;
  int fd = buf ? open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : -1; /* read back to become zstd */
  if (fd < 0) {
    fprintf(stderr, "simrun-trace: warning: rank %d cannot write %s: %s; this run is not traced\n", rank, path,
            buf ? strerror(errno) : "out of memory");
    free(buf);
    free(out);
    return NULL;
  }
  *out = (trc_out_t){.fd = fd, .rank = rank, .buf = buf, .cap = buffer};
  snprintf(out->path, sizeof out->path, "%s", path);
  return out;
}

/* Stops the file with one warning saying why. */
static void stop(trc_out_t *out, const char *why)
{
  out->failed = 1;
  fprintf(stderr,
          "simrun-trace: warning: rank %d cannot write %s: %s; its trace stops here (no index.txt), the program runs "
          "on\n",
          out->rank, out->path, why);
}

/* The write(2) calls of every file so far (trc_out_writes). */
static long writes;

long trc_out_writes(void)
{
  return writes;
}

/* Writes `len` bytes at `data` whole; on failure, the file stops with one warning. */
static void write_all(trc_out_t *out, const void *data, size_t len)
{
  writes++;
  while (!out->failed && len > 0) {
    ssize_t done = write(out->fd, data, len);
    if (done < 0 && errno == EINTR)
      continue;
    if (done <= 0) {
      stop(out, done < 0 ? strerror(errno) : "nothing written");
      return;
    }
    data = (const char *)data + done;
    len -= (size_t)done;
  }
}

void trc_out_compress_beyond(trc_out_t *out, long long bytes)
{
  if (out && !out->zstd)
    out->compress_from = bytes;
}

/* Compresses `len` bytes at `data` into the file; `mode` is libzstd's (ZSTD_e_continue; ZSTD_e_flush: what was
 * written so far can be read back whole; ZSTD_e_end: the end of the frame, its checksum). */
static void compress_all(trc_out_t *out, const char *data, size_t len, ZSTD_EndDirective mode)
{
  ZSTD_inBuffer in = {data, len, 0};
  size_t left;
  do {
    ZSTD_outBuffer zout = {out->zbuf, out->zcap, 0};
    left = ZSTD_compressStream2(out->zstd, &zout, &in, mode);
    if (ZSTD_isError(left)) {
      stop(out, ZSTD_getErrorName(left));
      return;
    }
    write_all(out, out->zbuf, zout.pos);
  } while (!out->failed && (mode == ZSTD_e_continue ? in.pos < in.size : left != 0));
}

/* A compressor of level ZSTD_LEVEL, or NULL when out of memory. */
static ZSTD_CCtx *new_compressor(void)
{
  ZSTD_CCtx *zstd = ZSTD_createCCtx();
  if (zstd && (ZSTD_isError(ZSTD_CCtx_setParameter(zstd, ZSTD_c_compressionLevel, ZSTD_LEVEL)) ||
               ZSTD_isError(ZSTD_CCtx_setParameter(zstd, ZSTD_c_windowLog, ZSTD_WINDOW_LOG)) ||
               ZSTD_isError(ZSTD_CCtx_setParameter(zstd, ZSTD_c_checksumFlag, 1)))) {
    ZSTD_freeCCtx(zstd);
    return NULL;
  }
  return zstd;
}

/* The file becomes zstd: its text so far is read back and compressed first. When it cannot (out of memory), the file
 * stays plain text. */
static void start_zstd(trc_out_t *out)
{
  out->compress_from = 0;
  size_t prefix = (size_t)out->written;
  char *text = malloc(prefix + 1);
  out->zcap = ZSTD_CStreamOutSize();
  out->zbuf = malloc(out->zcap);
  out->zstd = new_compressor();
  int ok = text && out->zstd && out->zbuf && pread(out->fd, text, prefix, 0) == (ssize_t)prefix &&
           ftruncate(out->fd, 0) == 0 && lseek(out->fd, 0, SEEK_SET) == 0;
  if (ok)
    compress_all(out, text, prefix, ZSTD_e_continue);
  free(text);
  if (!ok) {
    ZSTD_freeCCtx(out->zstd);
    free(out->zbuf);
    out->zstd = NULL;
    out->zbuf = NULL;
  }
}

/* Hands `len` bytes of text to the file, plain or compressed (`mode` as compress_all's). */
static void put(trc_out_t *out, const char *data, size_t len, ZSTD_EndDirective mode)
{
  if (out->compress_from > 0 && out->written + (long long)len > out->compress_from && !out->failed)
    start_zstd(out);
  out->written += (long long)len;
  if (out->zstd)
    compress_all(out, data, len, mode);
  else
    write_all(out, data, len);
}

/* Writes out the buffer; `mode` as compress_all's. */
static int flush_buffer(trc_out_t *out, ZSTD_EndDirective mode)
{
  put(out, out->buf, out->len, mode);
  out->len = 0;
  return out->failed ? -1 : 0;
}

int trc_out_flush(trc_out_t *out)
{
  return flush_buffer(out, ZSTD_e_flush);
}

/* Room for `need` more bytes in the buffer (writing it out first when short); 0 when the text is longer than the
 * buffer. */
static int room(trc_out_t *out, size_t need)
{
  if (out->len + need > out->cap)
    flush_buffer(out, ZSTD_e_continue);
  return need <= out->cap && !out->failed;
}

/* Writes `v` in decimal, with its sign, so that it ends just before `end`; returns where it starts. Two digits at a
 * time: a division by 100 per pair. */
static char *whole_before(char *end, long long v)
{
  static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";
  unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
  while (u >= 100) {
    unsigned pair = (unsigned)(u % 100) * 2;
    u /= 100;
    *--end = pairs[pair + 1];
    *--end = pairs[pair];
  }
  if (u >= 10) {
    *--end = pairs[u * 2 + 1];
    *--end = pairs[u * 2];
  } else
    *--end = (char)('0' + u);
  if (v < 0)
    *--end = '-';
  return end;
}

/* Appends `v` in decimal at buf[*n], within `room`; 0, or -1 when it does not fit. Its few bytes copied one by one,
 * as trc_format copies its text: a call to memcpy or strcspn per field was a third of a call's formatting. */
static int put_whole(char *buf, size_t room, size_t *n, long long v)
{
  char digits[24];
  const char *from = whole_before(digits + sizeof digits, v), *end = digits + sizeof digits;
  if (*n + (size_t)(end - from) >= room)
    return -1;
  while (from < end)
    buf[(*n)++] = *from++;
  return 0;
}

int trc_format(char *buf, size_t room, const char *format, va_list ap)
{
  size_t n = 0;
  for (const char *f = format; *f; f++) {
    int ok = 0;
    if (*f != '%') { /* the text up to the next conversion: a few bytes between fields */
      for (; *f && *f != '%' && n + 1 < room; f++)
        buf[n++] = *f;
      ok = *f == '\0' || *f == '%'; /* all of it fit */
      f--;
    } else if (f[1] == 'd') {
      ok = put_whole(buf, room, &n, va_arg(ap, int)) == 0;
      f++;
    } else if (f[1] == 'l' && f[2] == 'd') {
      ok = put_whole(buf, room, &n, va_arg(ap, long)) == 0;
      f += 2;
    } else if (f[1] == 's') {
      const char *s = va_arg(ap, const char *);
      size_t len = strlen(s);
      ok = n + len < room;
      if (ok) {
        memcpy(buf + n, s, len);
        n += len;
      }
      f++;
    } else if (strncmp(f + 1, ".0f", 3) == 0) { /* a whole number of bytes; other values go to vsnprintf */
      double v = va_arg(ap, double);
      ok = v == floor(v) && fabs(v) < 1e15 && !signbit(v) && put_whole(buf, room, &n, (long long)v) == 0;
      f += 3;
    }
    if (!ok)
      return -1;
  }
  buf[n] = '\0';
  return (int)n;
}

void trc_out_vprintf(trc_out_t *out, const char *format, va_list ap)
{
  va_list fast;
  va_copy(fast, ap);
  int n = trc_format(out->buf + out->len, out->cap - out->len, format, fast);
  va_end(fast);
  if (n >= 0) {
    out->len += (size_t)n;
    return;
  }
  va_list again;
  va_copy(again, ap);
  n = vsnprintf(out->buf + out->len, out->cap - out->len, format, ap);
  if (n >= 0 && (size_t)n < out->cap - out->len) {
    out->len += (size_t)n;
  } else if (n >= 0 && room(out, (size_t)n + 1)) {
    out->len += (size_t)vsnprintf(out->buf + out->len, out->cap - out->len, format, again);
  } else if (n >= 0 && !out->failed) { /* longer than the buffer: written alone */
    char *text = malloc((size_t)n + 1);
    if (text) {
      vsnprintf(text, (size_t)n + 1, format, again);
      flush_buffer(out, ZSTD_e_continue);
      put(out, text, (size_t)n, ZSTD_e_continue);
    }
    free(text);
  }
  va_end(again);
}

void trc_out_printf(trc_out_t *out, const char *format, ...)
{
  va_list ap;
  va_start(ap, format);
  trc_out_vprintf(out, format, ap);
  va_end(ap);
}

void trc_out_bytes(trc_out_t *out, const char *data, size_t len)
{
  if (room(out, len)) {
    memcpy(out->buf + out->len, data, len);
    out->len += len;
  }
}

void trc_out_str(trc_out_t *out, const char *text)
{
  trc_out_bytes(out, text, strlen(text));
}

void trc_out_char(trc_out_t *out, char c)
{
  if (room(out, 1))
    out->buf[out->len++] = c;
}

void trc_out_long(trc_out_t *out, long long value)
{
  char digits[24];
  char *from = whole_before(digits + sizeof digits, value);
  trc_out_bytes(out, from, (size_t)(digits + sizeof digits - from));
}

void trc_out_line(trc_out_t *out, const long long *values, int n)
{
  char line[32 * 8];
  char *end = line + sizeof line;
  char *from = end;
  *--from = '\n';
  for (int i = n - 1; i >= 0; i--) {
    from = whole_before(from, values[i]);
    if (i > 0)
      *--from = ' ';
  }
  trc_out_bytes(out, from, (size_t)(end - from));
}

void trc_out_seconds(trc_out_t *out, long long ns)
{
  trc_out_long(out, ns / 1000000000);
  if (!room(out, 10))
    return;
  out->buf[out->len++] = '.';
  long long frac = ns % 1000000000;
  for (int i = 8; i >= 0; i--, frac /= 10)
    out->buf[out->len + (size_t)i] = (char)('0' + frac % 10);
  out->len += 9;
}

int trc_out_failed(const trc_out_t *out)
{
  return out->failed;
}

int trc_out_close(trc_out_t *out)
{
  if (!out)
    return -1;
  int ok = flush_buffer(out, ZSTD_e_end) == 0;
  ok = close(out->fd) == 0 && ok;
  ZSTD_freeCCtx(out->zstd);
  free(out->zbuf);
  free(out->buf);
  free(out);
  return ok ? 0 : -1;
}
