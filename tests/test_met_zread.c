/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The reader of plain, zstd and gzip trace files (src/metrics/met_zread.c): the same text from each, by chunk and by
 * line; a zstd or gzip stream cut short gives its text up to where its data stops and says it was cut; damaged data
 * and a window wider than a trace file may ask are refused with a message. The compressed files are made here with
 * libzstd and zlib themselves, or written byte by byte from the zstd format (RFC 8878). */
#define _DEFAULT_SOURCE /* mkstemp */
#include "met_zread.h"
#include "tu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

/* A text of `lines` lines of varied numbers, each under 40 bytes, NUL-terminated (free it). */
static char *text_of(int lines, size_t *len)
{
  char *text = malloc((size_t)lines * 40 + 1);
  size_t n = 0;
  for (int i = 0; text && i < lines; i++)
    n += (size_t)sprintf(text + n, "%d %d %u\n", i, i % 7, (unsigned)i * 2654435761u % 100003u);
  *len = n;
  return text;
}

/* Writes data[0..len) to a new temporary file: its path into path[0..64). */
static void write_temp(char path[64], const void *data, size_t len)
{
  snprintf(path, 64, "/tmp/simrun-zread-XXXXXX");
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  CU_ASSERT_FATAL(write(fd, data, len) == (ssize_t)len);
  close(fd);
}

/* Compresses text[0..len) as the tracer does (libzstd's streaming API, level 1, a checksum): `cut` bytes into
 * out[0..cap), with a flush (a block end) after the first `first` bytes; the frame is ended only when `end`. How many
 * bytes; *flushed gets the size of the frame up to the flush. */
static size_t zstd_of(const char *text, size_t len, size_t first, int end, unsigned char *out, size_t cap,
                      size_t *flushed)
{
  ZSTD_CCtx *c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1);
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  ZSTD_outBuffer to = {out, cap, 0};
  ZSTD_inBuffer a = {text, first, 0};
  CU_ASSERT_FATAL(ZSTD_compressStream2(c, &to, &a, ZSTD_e_flush) == 0);
  *flushed = to.pos;
  ZSTD_inBuffer b = {text + first, len - first, 0};
  CU_ASSERT_FATAL(ZSTD_compressStream2(c, &to, &b, end ? ZSTD_e_end : ZSTD_e_flush) == 0);
  ZSTD_freeCCtx(c);
  return to.pos;
}

/* gzip of text[0..len) (zlib's level 1, as earlier tracers wrote) into out[0..cap): how many bytes. */
static size_t gzip_of(const char *text, size_t len, unsigned char *out, size_t cap)
{
  z_stream z = {0};
  CU_ASSERT_FATAL(deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  z.next_in = (unsigned char *)(size_t)text;
  z.avail_in = (unsigned)len;
  z.next_out = out;
  z.avail_out = (unsigned)cap;
  CU_ASSERT_FATAL(deflate(&z, Z_FINISH) == Z_STREAM_END);
  deflateEnd(&z);
  return cap - z.avail_out;
}

/* The whole text of file `path` read by chunks of `chunk` bytes (free it): NULL when a read fails; its length and
 * whether it was cut. */
static char *read_all(const char *path, size_t chunk, size_t *len, int *cut)
{
  met_zread_t *in = met_zread_open(path);
  CU_ASSERT_PTR_NOT_NULL_FATAL(in);
  size_t cap = 1 << 16, n = 0;
  char *text = malloc(cap + 1);
  long got = 0;
  while (text && (got = met_zread_read(in, text + n, chunk)) > 0) {
    n += (size_t)got;
    if (n + chunk > cap)
      text = realloc(text, (cap *= 2) + 1);
  }
  *len = n;
  *cut = met_zread_cut(in);
  met_zread_close(in);
  if (got < 0)
    free(text);
  return got < 0 ? NULL : text;
}

/* A text of 20000 lines (some 300 KB, several zstd blocks and reads) comes out the same from a plain, a zstd and a
 * gzip file, by chunks of 1 and 4099 bytes, and by lines, whole or in pieces of 15 bytes without their '\n'; none is
 * cut. */
static void test_met_zread_formats_read_alike(void)
{
  size_t len, flushed;
  char *text = text_of(20000, &len);
  size_t cap = len + 1024;
  unsigned char *packed = malloc(cap);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_PTR_NOT_NULL_FATAL(packed);
  char paths[3][64];
  write_temp(paths[0], text, len);
  write_temp(paths[1], packed, zstd_of(text, len, 100, 1, packed, cap, &flushed));
  write_temp(paths[2], packed, gzip_of(text, len, packed, cap));
  for (int f = 0; f < 3; f++) {
    static const size_t chunks[] = {1, 4099};
    for (int c = 0; c < 2; c++) {
      size_t got;
      int cut;
      char *back = read_all(paths[f], chunks[c], &got, &cut);
      CU_ASSERT_PTR_NOT_NULL_FATAL(back);
      CU_ASSERT(got == len && memcmp(back, text, len) == 0);
      CU_ASSERT_FALSE(cut);
      free(back);
    }
    static const size_t sizes[] = {64, 16};
    for (int s = 0; s < 2; s++) {
      met_zread_t *in = met_zread_open(paths[f]);
      char line[64];
      size_t at = 0;
      int ok = 1;
      for (long n; (n = met_zread_gets(in, line, sizes[s])) > 0; at += (size_t)n)
        ok = ok && at + (size_t)n <= len && memcmp(line, text + at, (size_t)n) == 0 &&
             (line[n - 1] == '\n' || (size_t)n == sizes[s] - 1) && !met_zread_eof(in) == (at + (size_t)n < len);
      CU_ASSERT(ok);
      CU_ASSERT_EQUAL(at, len);
      CU_ASSERT(met_zread_eof(in));
      met_zread_close(in);
    }
    unlink(paths[f]);
  }
  free(packed);
  free(text);
}

/* A run killed while writing a zstd file leaves it cut mid-frame: 10 bytes after a flush (into the next block) it
 * reads as the text up to the flush; ended by a flush but not by the frame's end, as all of it. Both are cut; the whole
 * frame is not. A gzip stream cut in its middle gives a beginning of the text and is cut. */
static void test_met_zread_cut_streams(void)
{
  size_t len, flushed;
  char *text = text_of(20000, &len);
  size_t first = (size_t)(strchr(text + len / 3, '\n') - text) + 1; /* whole lines: the tracer flushes its buffer */
  unsigned char *unended = malloc(len), *whole = malloc(len);
  size_t whole_len = zstd_of(text, len, first, 1, whole, len, &flushed);
  size_t unended_len = zstd_of(text, len, first, 0, unended, len, &flushed);
  CU_ASSERT_FATAL(unended_len < whole_len && flushed + 10 < unended_len);
  const struct {
    const unsigned char *bytes;
    size_t len, text;
    int cut;
  } cases[] = {{unended, flushed + 10, first, 1}, {unended, unended_len, len, 1}, {whole, whole_len, len, 0}};
  for (int k = 0; k < 3; k++) {
    char path[64];
    write_temp(path, cases[k].bytes, cases[k].len);
    size_t got;
    int cut;
    char *back = read_all(path, 65536, &got, &cut);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    CU_ASSERT_EQUAL(got, cases[k].text);
    CU_ASSERT(memcmp(back, text, got) == 0);
    CU_ASSERT_EQUAL(cut, cases[k].cut);
    free(back);
    unlink(path);
  }
  size_t gz = gzip_of(text, len, whole, len);
  char path[64];
  write_temp(path, whole, gz / 2);
  size_t got;
  int cut;
  char *back = read_all(path, 65536, &got, &cut);
  CU_ASSERT_PTR_NOT_NULL_FATAL(back);
  CU_ASSERT(got > 0 && got < len && memcmp(back, text, got) == 0);
  CU_ASSERT(cut);
  free(back);
  unlink(path);
  free(unended);
  free(whole);
  free(text);
}

/* Reads `path` of `len` bytes at `data` to its end by lines: the error of the read that failed, or "ok" (free it). */
static char *error_of(const void *data, size_t len)
{
  char path[64];
  write_temp(path, data, len);
  met_zread_t *in = met_zread_open(path);
  char line[128];
  long n;
  while ((n = met_zread_gets(in, line, sizeof line)) > 0)
    ;
  char *error = strdup(n < 0 ? met_zread_error(in) : "ok");
  CU_ASSERT(n == 0 || met_zread_gets(in, line, sizeof line) < 0); /* an error stays */
  met_zread_close(in);
  unlink(path);
  return error;
}

/* Damaged data is refused with what is wrong: a zstd frame whose last byte (its checksum's) is changed, a gzip stream
 * whose CRC is. A zstd frame written by hand (RFC 8878: magic, a header of one byte of flags and a window descriptor,
 * one raw block of the byte 'x') is read with a window of 2^23 bytes (descriptor (23 - 10) << 3) and refused with
 * 2^27 (a ti-replay keeps one window per open file); blocks of one byte repeated, which could stand for gigabytes of
 * empty lines, are refused once the text passes 1032 times the bytes read. Bytes too few to be a magic number are
 * plain text. */
static void test_met_zread_damaged_refused(void)
{
  size_t len, flushed;
  char *text = text_of(2000, &len);
  unsigned char *packed = malloc(len);
  size_t n = zstd_of(text, len, 10, 1, packed, len, &flushed);
  packed[n - 1] ^= 1;
  char *error = error_of(packed, n);
  CU_ASSERT_STRING_EQUAL(error, "damaged zstd data (Restored data doesn't match checksum)");
  free(error);
  n = gzip_of(text, len, packed, len);
  packed[n - 8] ^= 1; /* the trailer: CRC-32, then the length */
  error = error_of(packed, n);
  CU_ASSERT_STRING_EQUAL(error, "damaged gzip data (incorrect data check)");
  free(error);
  unsigned char frame[] = {0x28, 0xb5, 0x2f, 0xfd, 0x00, (23 - 10) << 3, 0x09, 0x00, 0x00, 'x'};
  error = error_of(frame, sizeof frame);
  CU_ASSERT_STRING_EQUAL(error, "ok");
  free(error);
  frame[5] = (27 - 10) << 3;
  error = error_of(frame, sizeof frame);
  CU_ASSERT_STRING_EQUAL(error, "a zstd frame with a window over 8 MiB, more than a trace file may have (compress it "
                                "with zstd -19 or a lower level)");
  free(error);
  /* 4096 blocks of one byte repeated (RLE, type 1) 65536 times: 16 KiB for 256 MiB of empty lines, refused after its
   * first 17 MiB or so (1032 times its bytes read, 64 KiB at a time, and a MiB) */
  size_t blocks = 4096;
  unsigned char *bomb = malloc(6 + 4 * blocks);
  memcpy(bomb, frame, 4);
  bomb[4] = 0x00;
  bomb[5] = (16 - 10) << 3;
  for (size_t b = 0; b < blocks; b++) {
    unsigned header = (65536u << 3) | (1u << 1) | (b == blocks - 1); /* size, type RLE, last block */
    unsigned char *at = bomb + 6 + 4 * b;
    at[0] = (unsigned char)header;
    at[1] = (unsigned char)(header >> 8);
    at[2] = (unsigned char)(header >> 16);
    at[3] = '\n';
  }
  error = error_of(bomb, 6 + 4 * blocks);
  CU_ASSERT_STRING_EQUAL(error, "compressed data expanding more than 1032 times, as no trace does");
  free(error);
  free(bomb);
  char path[64];
  write_temp(path, frame, 3);
  size_t got;
  int cut;
  char *back = read_all(path, 10, &got, &cut);
  CU_ASSERT(back && got == 3 && memcmp(back, frame, 3) == 0 && !cut);
  free(back);
  unlink(path);
  free(packed);
  free(text);
}

int main(void)
{
  const tu_case_t cases[] = {{"test_met_zread_formats_read_alike", test_met_zread_formats_read_alike},
                             {"test_met_zread_cut_streams", test_met_zread_cut_streams},
                             {"test_met_zread_damaged_refused", test_met_zread_damaged_refused},
                             {NULL, NULL}};
  return tu_run("met_zread", cases);
}
