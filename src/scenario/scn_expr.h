/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Arithmetic expressions of a scaled sweep (docs/scenarios.md "Scaled sweeps"): a parameter given as a function of
 * another, such as n = round(256 * sqrt(p)) for a constant work per process (Gustafson's scaled problem). Numbers,
 * parameter names, + - * / ^, parentheses and the functions sqrt, cbrt, log2, round, floor and ceil. */
#ifndef SCN_EXPR_H
#define SCN_EXPR_H

#include <stddef.h>

/* The value of parameter `name` (a NUL-ended copy, borrowed for the call): 0 with *value set, or -1 with a reason in
 * err (len bytes) when the expression cannot use it (an unknown name, a value that is not a number). */
typedef int (*scn_expr_lookup_fn)(void *ctx, const char *name, double *value, char *err, size_t len);

/* The deepest nesting of parentheses, signs and powers an expression may have: a hostile one cannot exhaust the
 * stack. */
#define SCN_EXPR_MAX_DEPTH 64

/* Evaluates `text`, asking `lookup` for each name it meets. Returns 0 with *out finite, or BAS_EINVAL with one line in
 * err: a syntax error (with the column), a name lookup refuses, a division by zero, a function outside its domain (sqrt
 * or log2 of a negative number: NaN), a result or intermediate value too large for a double (overflow), or nesting
 * deeper than SCN_EXPR_MAX_DEPTH. */
int scn_expr_eval(const char *text, scn_expr_lookup_fn lookup, void *ctx, double *out, char *err, size_t len);

#endif
