/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reads a trace file that may be compressed (met_zread.c): zstd or gzip, told by their magic numbers, or plain text,
 * by chunk or by line, the one reader of simrun analyse's timelines and of ti-replay's TI traces. */
#ifndef MET_ZREAD_H
#define MET_ZREAD_H

#include <stddef.h>

typedef struct met_zread met_zread_t;

/* Reads the open file `fd`, which the reader takes (met_zread_close closes it; so does a failed open). NULL when out
 * of memory. */
met_zread_t *met_zread_fdopen(int fd);
/* Opens `path` for reading: NULL with errno when it cannot be opened (ENOMEM when out of memory). */
met_zread_t *met_zread_open(const char *path);
/* Closes the file and frees the reader (accepts NULL). */
void met_zread_close(met_zread_t *in);

/* Reads up to `len` bytes of text into buf: how many (at least 1), 0 at the end of the text, -1 when the file cannot
 * be read or its compressed data is damaged (met_zread_error says which). A compressed stream cut short (a run killed
 * while writing it) ends with the text of its last whole block, and met_zread_cut then says so. */
long met_zread_read(met_zread_t *in, char *buf, size_t len);

/* As fgets: the next line into buf[0..size) (size > 1), NUL-terminated, with its '\n' when it has one; returns its
 * length (NUL bytes included), 0 at the end of the text, -1 as met_zread_read. A line longer than size - 1 bytes comes
 * in pieces of size - 1 bytes without '\n'; so does the last line of a text that does not end with one. */
long met_zread_gets(met_zread_t *in, char *buf, size_t size);

/* Whether the whole text has been read (the next read returns 0, or -1 for damaged data). */
int met_zread_eof(met_zread_t *in);
/* Whether the compressed stream ended before its end: a file cut short. */
int met_zread_cut(const met_zread_t *in);
/* What went wrong after a read returned -1 ("damaged zstd data (Corrupted block detected)", a system error), else
 * "". Owned by the reader. */
const char *met_zread_error(const met_zread_t *in);

#endif
