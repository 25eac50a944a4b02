/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* JSON pieces shared by the report's writers (rep_export.c, rep_carnival.c, rep_wait.c): strings, numbers and keys,
 * so that every key is snake_case whatever the name it comes from. */
#ifndef REP_JSON_H
#define REP_JSON_H

#include <stdio.h>

/* A JSON string, escaped. */
void rep_json_string(FILE *out, const char *text);
/* A number to 9 significant digits, or null where JSON has none (infinite, not a number). */
void rep_json_number(FILE *out, double x);
/* "key": with `name` made snake_case: lower case, '-' and ' ' as '_', and a '_' where a capital starts a word
 * ("CPLWait" gives "cpl_wait", "link-init" "link_init", "grid-rows" "grid_rows"). */
void rep_json_key(FILE *out, const char *name);
/* The same name made snake_case into buf, without quotes. */
void rep_json_snake(char *buf, size_t len, const char *name);
/* A parameter's value as written in the scenario: a JSON number when the whole token is a finite decimal number
 * ("512", "2.5e-3"), else a string ("neighbour", "t800.xml"). */
void rep_json_value(FILE *out, const char *value);

#endif
