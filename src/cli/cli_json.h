/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun's results JSON (simrun --json, simrun analyse --json; docs/results.md) read back as the main CSV table's
 * rows, for simrun compare: a row per element of "points", its columns named as the CSV's (scenario, platform,
 * skeleton, the parameters, p, then every number, string or flag of the point: "overhead_ratios": {"ctrl"} as
 * ovh_ctrl, the bottleneck's components and sub-components as NAME_s, its "b_ratios" as b_NAME, other objects'
 * members as OBJECT_NAME; lists are left out, null is an empty field, true and false are yes and no). */
#ifndef CLI_JSON_H
#define CLI_JSON_H

#include "rep_pairing.h"

#include <stddef.h>

/* Reads `len` bytes of JSON `text` into *t (its names, fields and each point's line malloc'd; t->label untouched). The
 * first point's members are the columns; a later point's missing member is an empty field. Returns 0, or -1 with *line
 * (1-based) and a message in err ("no points", a syntax error, out of memory); then *t holds nothing to free. */
int cli_json_table(const char *text, size_t len, rep_table_t *t, int *line, char *err, size_t errlen);

/* Frees what cli_json_table put in *t (accepts an empty table). */
void cli_json_table_free(rep_table_t *t);

#endif
