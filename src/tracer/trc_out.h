/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: one rank's output file with its own buffer, written in large writes (trc_out.c).
 * A write that fails (a full disk) stops the file with one warning; the program goes on. */
#ifndef TRC_OUT_H
#define TRC_OUT_H

#include <stdarg.h>
#include <stddef.h>

typedef struct trc_out trc_out_t;

/* Creates (truncates) `path` for rank `rank`, with a buffer of `buffer` bytes. NULL with a warning on stderr when it
 * cannot. */
trc_out_t *trc_out_open(const char *path, int rank, size_t buffer);

/* vsnprintf into buf[0..room) for formats of the conversions %d, %ld, %s and %.0f of a whole number below 1e15 only,
 * without vsnprintf's cost (a traced call formats its TI actions so); -1 for any other conversion, a value %.0f would
 * round or a negative, or text that does not fit (nothing usable in buf: the caller then uses vsnprintf with its own
 * va_list). */
int trc_format(char *buf, size_t room, const char *format, va_list ap);

/* Appends text. After a failed write, nothing more is written. */
void trc_out_vprintf(trc_out_t *out, const char *format, va_list ap);
void trc_out_printf(trc_out_t *out, const char *format, ...) __attribute__((format(printf, 2, 3)));
void trc_out_str(trc_out_t *out, const char *text);
void trc_out_char(trc_out_t *out, char c);
void trc_out_bytes(trc_out_t *out, const char *data, size_t len);
/* llround(seconds * 1e9) without its call (a tenth of a timeline record's cost): the fraction of a value under 2^53 is
 * exact. */
static inline long long trc_ns(double seconds)
{
  double x = seconds * 1e9;
  long long whole = (long long)x;
  double fraction = x - (double)whole;
  return whole + (fraction >= 0.5) - (fraction <= -0.5);
}

/* A whole number, and a time in nanoseconds as seconds with 9 decimals ("%.9f" of the seconds, without its cost). */
void trc_out_long(trc_out_t *out, long long value);
void trc_out_seconds(trc_out_t *out, long long ns);
/* The `n` (at most 8) whole numbers of `values`, separated by blanks, and a line end: one call per timeline record. */
void trc_out_line(trc_out_t *out, const long long *values, int n);

/* Lets the file become zstd (libzstd's level 1) once its text would pass `bytes` (0: never): the text written until
 * then is read back and compressed with the rest, so that the whole file is one zstd frame. */
void trc_out_compress_beyond(trc_out_t *out, long long bytes);

/* How many times the files, all of them together, were written so far (each buffer's, each compressed block's): the
 * recorder's work that may take long (trc_record.c's own_time). */
long trc_out_writes(void);

/* Writes out what is buffered (a zstd file: so that all of it can be read back); -1 when the file failed (now or
 * before). */
int trc_out_flush(trc_out_t *out);

/* Whether a write failed. */
int trc_out_failed(const trc_out_t *out);

/* Flushes and closes (accepts NULL); 0 when the whole file was written, -1 otherwise. */
int trc_out_close(trc_out_t *out);

#endif
