/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A recursive-descent evaluator for the expressions of scaled sweeps (scn_expr.h). Written here because Debian's one
 * library for this, libmatheval (GPL-3, which an LGPL simrun cannot link), has no round, floor or ceil and keeps its
 * parser's state in globals. */
#include "scn_expr.h"
#include "bas_error.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
  const char *text;
  const char *at;
  int depth;
  scn_expr_lookup_fn lookup;
  void *ctx;
  char *err;
  size_t len;
  int failed;
  char shown[16]; /* shown()'s text */
} parser_t;

typedef struct function {
  const char *name;
  double (*apply)(double);
  int positive; /* its argument must be >= 0 (sqrt), or > 0 (log2: 2) */
} function_t;

static const function_t functions[] = {
    {"sqrt", sqrt, 1},   {"cbrt", cbrt, 0},   {"log2", log2, 2},
    {"round", round, 0}, {"floor", floor, 0}, {"ceil", ceil, 0},
};

static double fail(parser_t *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records the first error; every later step returns at once. */
static double fail(parser_t *ps, const char *fmt, ...)
{
  if (!ps->failed) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err, ps->len, fmt, ap);
    va_end(ap);
  }
  ps->failed = 1;
  return 0;
}

static void skip_space(parser_t *ps)
{
  while (*ps->at == ' ' || *ps->at == '\t' || *ps->at == '\n' || *ps->at == '\r')
    ps->at++;
}

/* The next character after white space, not consumed. */
static char peek(parser_t *ps)
{
  skip_space(ps);
  return *ps->at;
}

static int column(const parser_t *ps)
{
  return (int)(ps->at - ps->text) + 1;
}

/* An intermediate value must stay a finite number. */
static double checked(parser_t *ps, double value, const char *what)
{
  if (isnan(value))
    return fail(ps, "%s is not a number (NaN); keep it defined at every value", what);
  if (isinf(value))
    return fail(ps, "%s overflows (beyond the largest double, %g); make it smaller", what, DBL_MAX);
  return value;
}

static double expression(parser_t *ps);

/* Character c for a message: quoted when printable, else its code, so that the message stays one printable line. */
static const char *shown(parser_t *ps, char c)
{
  if (isprint((unsigned char)c))
    snprintf(ps->shown, sizeof ps->shown, "'%c'", c);
  else
    snprintf(ps->shown, sizeof ps->shown, "byte 0x%02x", (unsigned char)c);
  return ps->shown;
}

static double number(parser_t *ps)
{
  char *end = NULL;
  double value = strtod(ps->at, &end);
  const char *digits = ps->at + strspn(ps->at, "0123456789.eE+-");
  if (end == ps->at || end > digits) /* strtod reads hexadecimal, "inf" and "nan" too: not ours */
    return fail(ps, "column %d: '%.8s' is not a number; write decimal digits", column(ps), ps->at);
  ps->at = end;
  return checked(ps, value, "a number");
}

/* A name: [a-z][a-z0-9]* with hyphens inside when a letter follows ("grid-rows"; "p-1" is p minus 1). */
static size_t name_length(const char *at)
{
  size_t n = 1;
  while (islower((unsigned char)at[n]) || isdigit((unsigned char)at[n]) ||
         (at[n] == '-' && islower((unsigned char)at[n + 1])))
    n++;
  return n;
}

static double call(parser_t *ps, const char *name, size_t n)
{
  for (size_t f = 0; f < sizeof functions / sizeof functions[0]; f++) {
    if (strlen(functions[f].name) != n || strncmp(functions[f].name, name, n) != 0)
      continue;
    ps->at++; /* '(' */
    double arg = expression(ps);
    if (ps->failed) /* where it failed may be the text's end: nothing more is read */
      return 0;
    if (peek(ps) != ')')
      return fail(ps, "column %d: expected ')' to close %s(", column(ps), functions[f].name);
    ps->at++;
    if (arg < 0 || (functions[f].positive == 2 && arg == 0))
      return fail(ps, "%s(%g) is not a number (NaN); keep its argument %s 0 at every value", functions[f].name, arg,
                  functions[f].positive == 2 ? ">" : ">=");
    return checked(ps, functions[f].apply(arg), functions[f].name);
  }
  return fail(ps, "unknown function '%.*s'; use sqrt, cbrt, log2, round, floor or ceil", (int)n, name);
}

static double variable(parser_t *ps)
{
  const char *name = ps->at;
  size_t n = name_length(name);
  ps->at += n;
  if (peek(ps) == '(')
    return call(ps, name, n);
  char copy[128];
  if (n >= sizeof copy)
    return fail(ps, "column %d: name '%.20s...' is too long; name a parameter of the scenario",
                (int)(name - ps->text) + 1, name);
  memcpy(copy, name, n);
  copy[n] = '\0';
  double value = 0;
  if (ps->lookup(ps->ctx, copy, &value, ps->err, ps->len) != 0)
    ps->failed = 1;
  return value;
}

static double primary(parser_t *ps)
{
  char c = peek(ps);
  if (c == '(') {
    ps->at++;
    double value = expression(ps);
    if (ps->failed) /* where it failed may be the text's end: nothing more is read */
      return 0;
    if (peek(ps) != ')')
      return fail(ps, "column %d: expected ')'", column(ps));
    ps->at++;
    return value;
  }
  if (isdigit((unsigned char)c) || c == '.')
    return number(ps);
  if (islower((unsigned char)c))
    return variable(ps);
  if (c == '\0')
    return fail(ps, "the expression ends where a number, a name or '(' was expected");
  return fail(ps, "column %d: unexpected %s; expected a number, a name or '('", column(ps), shown(ps, c));
}

static double unary(parser_t *ps);

/* a ^ b, right-associative: 2^3^2 is 2^9. */
static double power(parser_t *ps)
{
  double base = primary(ps);
  if (ps->failed || peek(ps) != '^')
    return base;
  ps->at++;
  double exponent = unary(ps);
  return ps->failed ? 0 : checked(ps, pow(base, exponent), "a power");
}

static double unary(parser_t *ps)
{
  if (++ps->depth > SCN_EXPR_MAX_DEPTH)
    return fail(ps, "the expression nests deeper than %d levels; simplify it", SCN_EXPR_MAX_DEPTH);
  char c = peek(ps);
  double value = 0;
  if (c == '-' || c == '+') {
    ps->at++;
    value = unary(ps);
    value = c == '-' ? -value : value;
  } else
    value = power(ps);
  ps->depth--;
  return value;
}

static double term(parser_t *ps)
{
  double value = unary(ps);
  for (char c = peek(ps); !ps->failed && (c == '*' || c == '/'); c = peek(ps)) {
    ps->at++;
    double right = unary(ps);
    if (ps->failed)
      break;
    if (c == '/' && right == 0)
      return fail(ps, "division by zero; keep the divisor non-zero at every value");
    value = checked(ps, c == '*' ? value * right : value / right, c == '*' ? "a product" : "a quotient");
  }
  return value;
}

static double expression(parser_t *ps)
{
  if (++ps->depth > SCN_EXPR_MAX_DEPTH)
    return fail(ps, "the expression nests deeper than %d levels; simplify it", SCN_EXPR_MAX_DEPTH);
  double value = term(ps);
  for (char c = peek(ps); !ps->failed && (c == '+' || c == '-'); c = peek(ps)) {
    ps->at++;
    double right = term(ps);
    value = ps->failed ? 0 : checked(ps, c == '+' ? value + right : value - right, c == '+' ? "a sum" : "a difference");
  }
  ps->depth--;
  return value;
}

int scn_expr_eval(const char *text, scn_expr_lookup_fn lookup, void *ctx, double *out, char *err, size_t len)
{
  parser_t ps = {.text = text, .at = text, .lookup = lookup, .ctx = ctx, .err = err, .len = len};
  double value = expression(&ps);
  if (!ps.failed && peek(&ps) != '\0')
    fail(&ps, "column %d: unexpected %s after a complete expression", column(&ps), shown(&ps, *ps.at));
  *out = value;
  return ps.failed ? BAS_EINVAL : 0;
}
