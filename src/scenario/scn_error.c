/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Errors against a scenario file (scn_error.h): the message, folded onto one line. */
#include "scn_error.h"
#include "bas_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Folds `text` onto one line in place: each run of white space holding a line break (libxml2's and SimGrid's messages
 * may span several lines) becomes one space, none before punctuation or at the end. */
static void fold(char *text)
{
  char *out = text;
  for (const char *in = text; *in;) {
    size_t run = strspn(in, " \t\r\n");
    if (run == 0 || (!memchr(in, '\n', run) && !memchr(in, '\r', run))) {
      memmove(out, in, run ? run : 1);
      out += run ? run : 1;
      in += run ? run : 1;
      continue;
    }
    in += run;
    if (out > text && *in && !strchr(";,.:", *in))
      *out++ = ' ';
  }
  *out = '\0';
}

int scn_fail(scn_error_t *err, const char *file, int line, const char *fmt, ...)
{
  snprintf(err->file, sizeof err->file, "%s", file ? file : "");
  err->line = line;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  fold(err->file);
  fold(err->message);
  return BAS_EINVAL;
}
