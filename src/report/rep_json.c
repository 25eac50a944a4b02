/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* JSON strings, numbers, snake_case keys and typed parameter values for the report's writers (rep_json.h). */
#include "rep_json.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

void rep_json_string(FILE *out, const char *text)
{
  fputc('"', out);
  for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
    if (*c == '"' || *c == '\\')
      fprintf(out, "\\%c", *c);
    else if (*c < 0x20)
      fprintf(out, "\\u%04x", *c);
    else
      fputc(*c, out);
  }
  fputc('"', out);
}

void rep_json_number(FILE *out, double x)
{
  if (isfinite(x))
    fprintf(out, "%.9g", x);
  else
    fputs("null", out);
}

/* Whether a '_' goes before capital name[i]: after a lower-case letter or digit ("CPComp": "cp_comp"), or after a
 * capital when a lower-case letter follows ("CPLWait": "cpl_wait"). */
static int word_starts(const char *name, size_t i)
{
  if (i == 0 || !isupper((unsigned char)name[i]))
    return 0;
  unsigned char before = (unsigned char)name[i - 1], after = (unsigned char)name[i + 1];
  return islower(before) || isdigit(before) || (isupper(before) && islower(after));
}

void rep_json_snake(char *buf, size_t len, const char *name)
{
  size_t n = 0;
  for (size_t i = 0; name[i] && n + 2 < len; i++) {
    unsigned char c = (unsigned char)name[i];
    if (word_starts(name, i))
      buf[n++] = '_';
    buf[n++] = (char)(c == '-' || c == ' ' ? '_' : tolower(c));
  }
  if (len)
    buf[n < len ? n : len - 1] = '\0';
}

void rep_json_key(FILE *out, const char *name)
{
  char key[128];
  rep_json_snake(key, sizeof key, name);
  fprintf(out, "\"%s\": ", key);
}

/* Skips digits from *at; how many. */
static size_t digits(const char **at)
{
  size_t n = 0;
  while (isdigit((unsigned char)**at))
    (*at)++, n++;
  return n;
}

/* Whether `text` is a number as JSON writes them: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, and finite. */
static int json_numeral(const char *text)
{
  const char *at = text + (*text == '-');
  if (*at == '0' && isdigit((unsigned char)at[1]))
    return 0;
  if (digits(&at) == 0)
    return 0;
  if (*at == '.' && (at++, digits(&at) == 0))
    return 0;
  if (*at == 'e' || *at == 'E') {
    at++;
    at += *at == '+' || *at == '-';
    if (digits(&at) == 0)
      return 0;
  }
  return *at == '\0' && isfinite(strtod(text, NULL));
}

void rep_json_value(FILE *out, const char *value)
{
  if (json_numeral(value))
    fputs(value, out);
  else
    rep_json_string(out, value);
}
