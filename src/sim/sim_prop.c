/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The table of simrun's platform properties (rows in sim_prop_table.h) and the checks of a value by its row. */
#include "sim_prop.h"
#include "sim_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_PROP(id, ...) [SIM_PROP_##id] = {__VA_ARGS__},
static const sim_prop_t props[SIM_PROP_COUNT] = {
#include "sim_prop_table.h"
};
#undef SIM_PROP

const sim_prop_t *sim_prop_row(sim_prop_id_t id)
{
  return &props[id];
}

const char *sim_prop_name(sim_prop_id_t id)
{
  return props[id].name;
}

int sim_prop_find(const char *name)
{
  for (int i = 0; i < SIM_PROP_COUNT; i++)
    if (strcmp(props[i].name, name) == 0)
      return i;
  return -1;
}

const char *sim_prop_scope_text(const sim_prop_t *prop)
{
  static const char *const scopes[] = {"root zone", "host or zone", "host", "link", "zone"};
  return scopes[prop->scope];
}

const char *sim_prop_type_text(const sim_prop_t *prop)
{
  static const char *const types[] = {"number", "integer", "power of two", "pairs",
                                      "word",   "host",    "grid shape",   "SimGrid value"};
  static const char *const numbers[] = {"", "number", "2 numbers", "3 numbers", "4 numbers"};
  return prop->type == SIM_TYPE_NUMBER && prop->count < 5 ? numbers[prop->count] : types[prop->type];
}

/* A bound as the docs write it: 1e12, not 1e+12. */
static void bound_text(double x, char *buf, size_t len)
{
  char raw[32];
  snprintf(raw, sizeof raw, "%.10g", x);
  char *plus = strstr(raw, "e+");
  if (plus)
    memmove(plus + 1, plus + 2, strlen(plus + 2) + 1);
  snprintf(buf, len, "%s", raw);
}

void sim_prop_range_text(const sim_prop_t *prop, char *buf, size_t len)
{
  if (prop->type == SIM_TYPE_WORD) {
    snprintf(buf, len, "%s", prop->words);
    return;
  }
  if (prop->type > SIM_TYPE_WORD) {
    snprintf(buf, len, "-");
    return;
  }
  char lo[32];
  char hi[32];
  bound_text(prop->lo, lo, sizeof lo);
  bound_text(prop->hi, hi, sizeof hi);
  snprintf(buf, len, "%s%s, %s]", prop->open ? "(" : "[", lo, hi);
}

static int in_range(const sim_prop_t *prop, double x)
{
  return isfinite(x) && (prop->open ? x > prop->lo : x >= prop->lo) && x <= prop->hi;
}

/* The next number of `*cursor` into *x, moving the cursor past it; 0, or -1 when there is none. */
static int next_number(const char **cursor, double *x)
{
  char *end = NULL;
  *x = strtod(*cursor, &end);
  if (end == *cursor)
    return -1;
  *cursor = end;
  return 0;
}

/* Whether `text` holds `count` numbers (count 0: any even count of pairs), each fitting its role. */
static int numbers_fit(const sim_prop_t *prop, const char *text)
{
  if (text[strspn(text, "0123456789.+-eE \t")] != '\0') /* strtod takes hexadecimal, inf and nan too */
    return 0;
  const char *cursor = text;
  double seen[64];
  int n = 0;
  double x;
  for (; n < 64 && next_number(&cursor, &x) == 0; n++) {
    int pair_p = prop->type == SIM_TYPE_PAIRS && n % 2 == 0;
    int whole = prop->type == SIM_TYPE_INTEGER || prop->type == SIM_TYPE_POW2 || pair_p;
    if (!(pair_p ? x >= 1 && x <= 1e9 : in_range(prop, x)) || (whole && x != floor(x)))
      return 0;
    if (prop->type == SIM_TYPE_POW2 && ((long)x & ((long)x - 1)) != 0)
      return 0;
    for (int i = 0; pair_p && i < n; i += 2)
      if (seen[i] == x)
        return 0;
    seen[n] = x;
  }
  cursor += strspn(cursor, " \t");
  return *cursor == '\0' && (prop->type == SIM_TYPE_PAIRS ? n > 0 && n % 2 == 0 : n == prop->count);
}

/* Whether `text` is one of the words of `prop`, separated by " | ". */
static int is_word(const sim_prop_t *prop, const char *text)
{
  size_t len = strlen(text);
  for (const char *w = prop->words; w; w = strstr(w, " | ") ? strstr(w, " | ") + 3 : NULL)
    if (strncmp(w, text, len) == 0 && (w[len] == '\0' || w[len] == ' '))
      return len > 0;
  return 0;
}

int sim_prop_check_value(const sim_prop_t *prop, const char *text, char *err, size_t errlen)
{
  if (prop->type == SIM_TYPE_WORD ? is_word(prop, text) : prop->type > SIM_TYPE_WORD || numbers_fit(prop, text))
    return 0; /* the range's text only for the message: a platform's hosts each carry their zone's properties */
  char range[64];
  sim_prop_range_text(prop, range, sizeof range);
  if (prop->type == SIM_TYPE_WORD) {
    snprintf(err, errlen, "expected %s", range);
    return SIM_EPLATFORM;
  }
  if (prop->type == SIM_TYPE_PAIRS)
    snprintf(err, errlen, "expected pairs \"p value\", each p a whole number >= 1 given once, each value in %s", range);
  else
    snprintf(err, errlen, "expected %s%s in %s, written in decimal digits",
             prop->count > 1                                ? ""
             : strchr("aeiou", sim_prop_type_text(prop)[0]) ? "an "
                                                            : "a ",
             sim_prop_type_text(prop), range);
  return SIM_EPLATFORM;
}

int sim_prop_line(const char *path, const char *name, const char *value)
{
  FILE *in = fopen(path, "r");
  if (!in)
    return 0;
  char line[4096];
  char quoted_name[256];
  char quoted_value[256];
  snprintf(quoted_name, sizeof quoted_name, "\"%s\"", name);
  snprintf(quoted_value, sizeof quoted_value, "\"%s\"", value);
  int number = 0;
  int found = 0;
  while (!found && fgets(line, sizeof line, in)) {
    number++;
    found = strstr(line, quoted_name) && strstr(line, quoted_value);
  }
  fclose(in);
  return found ? number : 0;
}
