/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracer's trace files (src/tracer/trc_out.c, compiled into this test: it needs no MPI): trc_format, the fast
 * formatting of a traced call's TI actions, against what printf writes, and its refusals (a conversion it does not
 * take, a value %.0f would round, text beyond the room), which send the caller to vsnprintf; and a file's lines,
 * the fast ones and those vsnprintf writes, read back. */
#include "trc_out.h"
#include "tu.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

/* trc_format into `room` bytes: its return, the text in `buf`. */
static int format(char *buf, size_t room, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = trc_format(buf, room, fmt, ap);
  va_end(ap);
  return n;
}

/* The TI actions' formats give printf's text, the literal between and after the fields included. */
static void test_format_as_printf(void)
{
  char buf[128];
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "recv %d %d %d", 1, -5, 300), 13);
  CU_ASSERT_STRING_EQUAL(buf, "recv 1 -5 300");
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "isend %d %d %.0f", 2, 7, 1024.0), 14);
  CU_ASSERT_STRING_EQUAL(buf, "isend 2 7 1024");
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "a%ldb%sc", LONG_MIN, "MPI_Send"), 31);
  CU_ASSERT_STRING_EQUAL(buf, "a-9223372036854775808bMPI_Sendc");
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "%d", 0), 1);
  CU_ASSERT_STRING_EQUAL(buf, "0");
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "waitall"), 7);
  CU_ASSERT_STRING_EQUAL(buf, "waitall");
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "%.0f", 999999999999999.0), 15); /* 1e15 - 1: the largest taken */
  CU_ASSERT_STRING_EQUAL(buf, "999999999999999");
}

/* What it does not write as printf would is refused: another conversion, a value %.0f would round (1.5), a negative
 * zero's sign, 1e15; and text whose last byte would leave no room for the terminating null, in a literal or a field. */
static void test_format_refuses(void)
{
  char buf[16];
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "compute %.3f", 1.5), -1);
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "%.0f", 1.5), -1);
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "%.0f", -0.0), -1);
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "%.0f", 1e15), -1);
  CU_ASSERT_EQUAL(format(buf, sizeof buf, "%x", 5), -1);
  CU_ASSERT_EQUAL(format(buf, 7, "abcdef"), 6); /* six bytes and the null: room 7 */
  CU_ASSERT_STRING_EQUAL(buf, "abcdef");
  CU_ASSERT_EQUAL(format(buf, 6, "abcdef"), -1);
  CU_ASSERT_EQUAL(format(buf, 4, "ab%d", 5), 3);
  CU_ASSERT_EQUAL(format(buf, 4, "ab%d", 55), -1);
  CU_ASSERT_EQUAL(format(buf, 4, "a%dbc", 5), -1);
}

/* A file of lines written each way (trc_out_printf's fast formats and its vsnprintf ones, trc_out_line,
 * trc_out_seconds) reads back as printf would have written them. */
static void test_file_lines(void)
{
  char path[] = "/tmp/simrun-test-trc-out-XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  trc_out_t *out = trc_out_open(path, 0, 64); /* a small buffer: written out several times */
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  trc_out_printf(out, "0 isend %d %d %.0f\n", 1, 0, 4096.0);
  trc_out_printf(out, "0 compute %.3f\n", 2.5);
  const long long fields[] = {12, -3, 4500000000LL};
  trc_out_line(out, fields, 3);
  trc_out_seconds(out, 1500000001LL);
  trc_out_char(out, '\n');
  trc_out_printf(out, "%s\n", "a line longer than the buffer of sixty-four bytes, written alone by vsnprintf");
  CU_ASSERT_EQUAL(trc_out_close(out), 0);
  char text[512] = "";
  FILE *in = fopen(path, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(in);
  size_t got = fread(text, 1, sizeof text - 1, in);
  fclose(in);
  unlink(path);
  text[got] = '\0';
  CU_ASSERT_STRING_EQUAL(text, "0 isend 1 0 4096\n0 compute 2.500\n12 -3 4500000000\n1.500000001\n"
                               "a line longer than the buffer of sixty-four bytes, written alone by vsnprintf\n");
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_format_as_printf", test_format_as_printf},
                                    {"test_format_refuses", test_format_refuses},
                                    {"test_file_lines", test_file_lines},
                                    {NULL, NULL}};
  return tu_run("trc_out", cases);
}
