/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ti-replay's trace reader: a line split into fields, each field checked (numbers, ranks, datatypes, counts)
 * with the reason of a failure, and a bad line reported as FILE:LINE (app_ti_trace.h). */
#include "app_ti_trace.h"
#include "sim_error.h"
#include "sim_ti.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int app_ti_fail(app_ti_rank_t *tr, const char *format, ...)
{
  va_list ap;
  va_start(ap, format);
  vsnprintf(tr->why, sizeof tr->why, format, ap);
  va_end(ap);
  return BAS_EDATA;
}

int app_ti_decimal(const char *text)
{
  return text[strspn(text, "0123456789.+-eE")] == '\0';
}

/* Field i as a finite number in [low, high]: 0, or -1 with the reason. */
int app_ti_number(app_ti_rank_t *tr, int i, const char *what, double low, double high, double *value)
{
  if (i >= tr->nfields)
    return app_ti_fail(tr, "field %d (%s) is missing", i + 1, what);
  char *end;
  errno = 0;
  double v = sim_ti_number(tr->field[i], &end);
  int decimal = app_ti_decimal(tr->field[i]);
  if (end == tr->field[i] || *end || !decimal || !isfinite(v) || errno == ERANGE)
    return app_ti_fail(tr, "field %d (%s) '%s' is not a finite number%s", i + 1, what, tr->field[i],
                       decimal ? "" : " in decimal");
  if (v < low || v > high)
    return app_ti_fail(tr, "field %d (%s) %s is outside [%g, %g]", i + 1, what, tr->field[i], low, high);
  *value = v;
  return 0;
}

/* Field i as a whole number in [low, high] (SMPI truncates sizes given as 1e6). */
int app_ti_whole(app_ti_rank_t *tr, int i, const char *what, double low, double high, long long *value)
{
  double v;
  if (app_ti_number(tr, i, what, low, high, &v) != 0)
    return BAS_EDATA;
  *value = (long long)trunc(v);
  return 0;
}

/* Field i as a rank of MPI_COMM_WORLD (the only communicator a TI trace names). */
int app_ti_peer(app_ti_rank_t *tr, int i, int *value)
{
  long long v;
  if (app_ti_whole(tr, i, "rank", INT_MIN, INT_MAX, &v) != 0)
    return BAS_EDATA;
  if (v < 0 || v >= tr->n)
    return app_ti_fail(tr,
                       "rank %lld does not exist: the trace's communicator, MPI_COMM_WORLD, has ranks 0 to %d (p = %d)",
                       v, tr->n - 1, tr->n);
  *value = (int)v;
  return 0;
}

/* Optional field i as an SMPI datatype code (the default datatype when absent): its size in bytes. */
int app_ti_type_size(app_ti_rank_t *tr, int i, int *size)
{
  *size = tr->type_size;
  if (i >= tr->nfields)
    return 0;
  long long code;
  if (app_ti_whole(tr, i, "datatype", -1, INT_MAX, &code) != 0)
    return BAS_EDATA;
  *size = sim_ti_type_size((int)code);
  if (*size < 0)
    return app_ti_fail(tr, "datatype code %lld is not one of SMPI 3.32's predefined types (-1 to 59)", code);
  return 0;
}

/* Field i as a count of elements of `size` bytes: their bytes. */
int app_ti_amount(app_ti_rank_t *tr, int i, int size, double *bytes)
{
  long long count;
  if (app_ti_whole(tr, i, "count", 0, APP_TI_MAX_BYTES, &count) != 0)
    return BAS_EDATA;
  *bytes = (double)count * size;
  if (*bytes > APP_TI_MAX_BYTES)
    return app_ti_fail(tr, "%lld elements of %d bytes exceed %g bytes", count, size, APP_TI_MAX_BYTES);
  return 0;
}

/* Fields first..first+n-1 as counts of `size`-byte elements into out[]. */
int app_ti_amounts(app_ti_rank_t *tr, int first, int size, double *out)
{
  for (int i = 0; i < tr->n; i++)
    if (app_ti_amount(tr, first + i, size, &out[i]) != 0)
      return BAS_EDATA;
  return 0;
}

int app_ti_min_fields(app_ti_rank_t *tr, int count)
{
  if (tr->nfields < count + 2)
    return app_ti_fail(tr, "%d fields after the action are needed, there are %d", count, tr->nfields - 2);
  return 0;
}

static int blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

const char *app_ti_after_action(const char *text, const char *action)
{
  size_t n = strlen(action);
  const char *c = text;
  for (int field = 0; field < 2; field++) {
    while (blank(*c))
      c++;
    if (field == 1 && (strncmp(c, action, n) != 0 || (c[n] && !blank(c[n]))))
      return NULL;
    while (*c && !blank(*c))
      c++;
  }
  while (blank(*c))
    c++;
  return c;
}

/* Splits `text` on blanks in place; -1 when it has more than max_fields fields. */
int app_ti_split(app_ti_rank_t *tr, char *text)
{
  tr->nfields = 0;
  for (char *c = text; *c;) {
    while (blank(*c))
      c++;
    if (!*c)
      break;
    if (tr->nfields == tr->max_fields)
      return app_ti_fail(tr, "more than %d fields (2 p + 6 at most)", tr->max_fields);
    tr->field[tr->nfields++] = c;
    while (*c && !blank(*c))
      c++;
    if (*c)
      *c++ = '\0';
  }
  return 0;
}

/* Undoes split on the line's `len` characters, without trailing blanks: the text for a message. */
void app_ti_unsplit(char *text, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\0')
      text[i] = ' ';
  while (len > 0 && blank(text[len - 1]))
    len--;
  text[len] = '\0';
}

/* Reports the current line's problem as "FILE:LINE: 'text': why; how to fix", or without text, as a file that is
 * not a trace. */
void app_ti_report(app_ti_rank_t *tr, const char *path, int number, const char *text)
{
  char message[1024];
  if (text)
    snprintf(message, sizeof message, "%s:%d: '%.200s': %s; see docs/ti-replay.md for the actions and their fields",
             path, number, text, tr->why);
  else
    snprintf(message, sizeof message,
             "%s:%d: not a time-independent trace: its first line is not '<rank> <action> [fields]'; check that the "
             "trace's index names the ranks' trace files (docs/ti-replay.md)",
             path, number);
  sim_rank_fail(tr->rank, SIM_EPARAM, message);
}

int app_ti_body_start(app_ti_rank_t *tr, app_ti_body_t *body, int number)
{
  long long count;
  long long lines;
  if (app_ti_min_fields(tr, 2) != 0 || app_ti_whole(tr, 2, "count", 1, APP_TI_MAX_LOOP_COUNT, &count) != 0 ||
      app_ti_whole(tr, 3, "lines", 1, APP_TI_MAX_LOOP_LINES, &lines) != 0)
    return BAS_EDATA;
  if (tr->nfields > 4)
    return app_ti_fail(tr, "a loop line is '<rank> loop <count> <lines>'");
  app_ti_body_free(body);
  *body = (app_ti_body_t){.count = count, .want = (int)lines, .number = number};
  body->at = malloc((size_t)lines * sizeof *body->at);
  body->numbers = malloc((size_t)lines * sizeof *body->numbers);
  if (!body->at || !body->numbers)
    return app_ti_fail(tr, "out of memory for a loop of %lld lines", lines);
  return 0;
}

int app_ti_body_add(app_ti_body_t *body, const char *text, size_t len, int number)
{
  if (body->len + len + 1 > body->cap) {
    size_t cap = 2 * (body->len + len + 1) + 256;
    char *more = realloc(body->text, cap);
    if (!more)
      return BAS_ENOMEM;
    body->text = more;
    body->cap = cap;
  }
  memcpy(body->text + body->len, text, len);
  body->text[body->len + len] = '\0';
  body->at[body->nlines] = body->len;
  body->numbers[body->nlines++] = number;
  body->len += len + 1;
  body->longest = len > body->longest ? len : body->longest;
  body->want--;
  return 0;
}

void app_ti_body_free(app_ti_body_t *body)
{
  free(body->text);
  free(body->at);
  free(body->numbers);
  *body = (app_ti_body_t){0};
}
