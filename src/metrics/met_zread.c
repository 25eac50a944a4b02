/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One reader for the tracer's files (met_zread.h): its first bytes say zstd (libsimrun-trace.so's large files), gzip
 * (those of earlier versions) or plain text, and the text comes out by chunk through libzstd's or zlib's streaming
 * decoder, so that a file cut short gives the text of its last whole block and damaged data is told from the end. */
#include "met_zread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

/* Compressed bytes read at a time; the text gets reads ahead. */
enum { RAW = 1 << 16, TEXT = 1 << 16 };
/* The widest zstd window read, 2^23 bytes (zstd -19's for large files): the decoder keeps one window per open file,
 * and a ti-replay may open thousands (the tracer writes 2^16, trc_out.c). */
enum { WINDOW_LOG_MAX = 23 };
/* The most text a compressed file may give per byte, beyond its first MiB: gzip's own limit (1032), far above a
 * trace's (xdlu's timelines: 4); zstd's blocks of one repeated byte go to 30000, so that a 64 KiB file could stand for
 * gigabytes of empty lines and keep a reader busy for minutes. */
enum { EXPANSION_MAX = 1032 };

typedef enum { UNKNOWN, PLAIN, ZSTD, GZIP } format_t;

struct met_zread {
  int fd;
  format_t format;
  int eof;     /* the file has no more bytes */
  int failed;  /* a read error or damaged data: error[] */
  int open;    /* a compressed frame is begun and not ended */
  int pending; /* the decoder filled its last output: it may hold more without input */
  int cut;
  ZSTD_DCtx *zstd;
  z_stream *gzip;
  unsigned char raw[RAW]; /* the file's bytes, raw[raw_pos..raw_len) not yet decoded */
  size_t raw_pos;
  size_t raw_len;
  long long raw_total;  /* bytes read from the file */
  long long text_total; /* bytes of text decoded */
  char *text;           /* decoded text that gets reads ahead, text[text_pos..text_len): TEXT bytes once gets is used */
  size_t text_pos;
  size_t text_len;
  char error[256];
};

met_zread_t *met_zread_fdopen(int fd)
{
  met_zread_t *in = malloc(sizeof *in);
  if (!in) {
    close(fd);
    return NULL;
  }
  *in = (met_zread_t){.fd = fd};
  return in;
}

met_zread_t *met_zread_open(const char *path)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  met_zread_t *in = met_zread_fdopen(fd);
  if (!in)
    errno = ENOMEM;
  return in;
}

void met_zread_close(met_zread_t *in)
{
  if (!in)
    return;
  close(in->fd);
  ZSTD_freeDCtx(in->zstd);
  if (in->gzip)
    inflateEnd(in->gzip);
  free(in->gzip);
  free(in->text);
  free(in);
}

/* Stops the reader with a message: -1. */
static int fail(met_zread_t *in, const char *what, const char *detail)
{
  in->failed = 1;
  snprintf(in->error, sizeof in->error, "%s%s%s%s", what, *detail ? " (" : "", detail, *detail ? ")" : "");
  return -1;
}

/* Reads up to `len` bytes of the file at `to`: how many, 0 at its end (in->eof), -1 on an error. */
static long read_file(met_zread_t *in, void *to, size_t len)
{
  ssize_t n;
  do
    n = read(in->fd, to, len);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return fail(in, "cannot read it", strerror(errno));
  in->eof = n == 0;
  return (long)n;
}

/* Refills raw[] when it is all decoded: 1 with bytes to decode, 0 at the end of the file, -1 on an error. */
static int refill(met_zread_t *in)
{
  if (in->raw_pos < in->raw_len)
    return 1;
  in->raw_pos = in->raw_len = 0;
  long n = in->eof ? 0 : read_file(in, in->raw, RAW);
  in->raw_len = n > 0 ? (size_t)n : 0;
  in->raw_total += (long long)in->raw_len;
  return n > 0 ? 1 : (int)n;
}

/* Tells the format from the first bytes (4 of them, or the whole file when shorter) and sets up its decoder: 0, or -1
 * when out of memory. */
static int detect(met_zread_t *in)
{
  while (in->raw_len < 4 && !in->eof) {
    long n = read_file(in, in->raw + in->raw_len, RAW - in->raw_len);
    if (n < 0)
      return -1;
    in->raw_len += (size_t)n;
    in->raw_total += n;
  }
  static const unsigned char zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd}, gzip_magic[2] = {0x1f, 0x8b};
  in->format = in->raw_len >= 4 && memcmp(in->raw, zstd_magic, 4) == 0   ? ZSTD
               : in->raw_len >= 2 && memcmp(in->raw, gzip_magic, 2) == 0 ? GZIP
                                                                         : PLAIN;
  if (in->format == ZSTD) {
    in->zstd = ZSTD_createDCtx();
    if (!in->zstd || ZSTD_isError(ZSTD_DCtx_setParameter(in->zstd, ZSTD_d_windowLogMax, WINDOW_LOG_MAX)))
      return fail(in, "out of memory", "");
  } else if (in->format == GZIP) {
    in->gzip = calloc(1, sizeof *in->gzip);
    if (!in->gzip || inflateInit2(in->gzip, 15 + 16) != Z_OK) { /* 15 + 16: a gzip stream, 32 KiB window */
      free(in->gzip);
      in->gzip = NULL;
      return fail(in, "out of memory", "");
    }
  }
  return 0;
}

/* One step of the zstd decoder from raw[] into `out`: 0, or -1 for damaged data. A step that neither reads nor
 * writes (after the end of a frame, with nothing more to read) leaves in->open as it was. */
static int step_zstd(met_zread_t *in, ZSTD_outBuffer *out)
{
  ZSTD_inBuffer from = {in->raw, in->raw_len, in->raw_pos};
  size_t wrote = out->pos;
  size_t rc = ZSTD_decompressStream(in->zstd, out, &from);
  int moved = from.pos > in->raw_pos || out->pos > wrote;
  in->raw_pos = from.pos;
  if (ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge)
    return fail(in, "a zstd frame with a window over 8 MiB, more than a trace file may have",
                "compress it with zstd -19 or a lower level");
  if (ZSTD_isError(rc))
    return fail(in, "damaged zstd data", ZSTD_getErrorName(rc));
  in->open = moved ? rc != 0 : in->open;
  return 0;
}

/* One step of the gzip decoder from raw[] into `out` (a gzip stream followed by another goes on with it): 0, or -1
 * for damaged data. A step that can do nothing (Z_BUF_ERROR) leaves in->open as it was. */
static int step_gzip(met_zread_t *in, ZSTD_outBuffer *out)
{
  z_stream *z = in->gzip;
  z->next_in = in->raw + in->raw_pos;
  z->avail_in = (unsigned)(in->raw_len - in->raw_pos);
  z->next_out = (unsigned char *)out->dst + out->pos;
  z->avail_out = (unsigned)(out->size - out->pos);
  int rc = inflate(z, Z_NO_FLUSH);
  in->raw_pos = in->raw_len - z->avail_in;
  out->pos = out->size - z->avail_out;
  if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
    return fail(in, "damaged gzip data", z->msg ? z->msg : "");
  in->open = rc == Z_BUF_ERROR ? in->open : rc != Z_STREAM_END;
  if (rc == Z_STREAM_END)
    inflateReset(z);
  return 0;
}

/* Decodes into buf[0..len) (len > 0): how many bytes, 0 at the end of the text, -1 on an error. */
static long decode(met_zread_t *in, char *buf, size_t len)
{
  ZSTD_outBuffer out = {buf, len, 0};
  while (out.pos == 0) {
    int more = in->pending ? 1 : refill(in);
    if (more < 0)
      return -1;
    if (more == 0) {
      in->cut = in->open;
      return 0;
    }
    if ((in->format == ZSTD ? step_zstd(in, &out) : step_gzip(in, &out)) != 0)
      return -1;
    in->pending = out.pos == out.size;
  }
  in->text_total += (long long)out.pos;
  if (in->text_total > EXPANSION_MAX * in->raw_total + (1LL << 20))
    return fail(in, "compressed data expanding more than 1032 times, as no trace does", "");
  return (long)out.pos;
}

/* Reads text into buf[0..len) (len > 0) from the file, not from text[]: as met_zread_read. */
static long read_text(met_zread_t *in, char *buf, size_t len)
{
  if (in->failed)
    return -1;
  if (in->format == UNKNOWN && detect(in) != 0)
    return -1;
  if (in->format != PLAIN)
    return decode(in, buf, len);
  if (in->raw_pos < in->raw_len) { /* the bytes read to tell the format */
    size_t n = in->raw_len - in->raw_pos < len ? in->raw_len - in->raw_pos : len;
    memcpy(buf, in->raw + in->raw_pos, n);
    in->raw_pos += n;
    return (long)n;
  }
  return in->eof ? 0 : read_file(in, buf, len);
}

long met_zread_read(met_zread_t *in, char *buf, size_t len)
{
  if (in->text_pos < in->text_len) { /* what gets or eof read ahead */
    size_t n = in->text_len - in->text_pos < len ? in->text_len - in->text_pos : len;
    memcpy(buf, in->text + in->text_pos, n);
    in->text_pos += n;
    return (long)n;
  }
  return len == 0 ? 0 : read_text(in, buf, len);
}

/* Refills text[] when it is all taken: 1 with text in it, 0 at the end of the text, -1 on an error. */
static int refill_text(met_zread_t *in)
{
  if (in->text_pos < in->text_len)
    return 1;
  if (!in->text && !(in->text = malloc(TEXT)))
    return fail(in, "out of memory", "");
  long n = read_text(in, in->text, TEXT);
  in->text_pos = 0;
  in->text_len = n > 0 ? (size_t)n : 0;
  return n > 0 ? 1 : (int)n;
}

long met_zread_gets(met_zread_t *in, char *buf, size_t size)
{
  size_t n = 0;
  for (int more; n + 1 < size && (more = refill_text(in)) != 0;) {
    if (more < 0)
      return -1;
    const char *at = in->text + in->text_pos;
    size_t avail = in->text_len - in->text_pos;
    size_t want = avail < size - 1 - n ? avail : size - 1 - n;
    const char *newline = memchr(at, '\n', want);
    size_t take = newline ? (size_t)(newline - at) + 1 : want;
    memcpy(buf + n, at, take);
    n += take;
    in->text_pos += take;
    if (newline)
      break;
  }
  buf[n] = '\0';
  return (long)n;
}

int met_zread_eof(met_zread_t *in)
{
  return refill_text(in) <= 0;
}

int met_zread_cut(const met_zread_t *in)
{
  return in->cut;
}

const char *met_zread_error(const met_zread_t *in)
{
  return in->error;
}
