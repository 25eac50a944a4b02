/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one table of simrun's platform properties (docs/properties.md): each property's name, where a
 * platform gives it, its type, range, unit, default and reader. Readers take a name from here by its enum, the
 * probe (sim_check) checks every simrun:* property of a platform against it, and the generators' presets write
 * from it. The rows are in sim_prop_table.h. */
#ifndef SIM_PROP_H
#define SIM_PROP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sim_prop_scope {
  SIM_SCOPE_ROOT,      /* the platform's root zone */
  SIM_SCOPE_HOST,      /* a host, or a zone around it (the innermost that has it holds) */
  SIM_SCOPE_HOST_ONLY, /* a host itself */
  SIM_SCOPE_LINK,      /* a link */
  SIM_SCOPE_ZONE,      /* a zone, for what is inside it */
} sim_prop_scope_t;

typedef enum sim_prop_type {
  SIM_TYPE_NUMBER,  /* `count` decimal numbers, each in the range */
  SIM_TYPE_INTEGER, /* a whole number in the range */
  SIM_TYPE_POW2,    /* a power of two in the range */
  SIM_TYPE_PAIRS,   /* pairs "p value": p a whole number >= 1 given once, value in the range */
  SIM_TYPE_WORD,    /* one of `words` */
  SIM_TYPE_HOST,    /* the name of a host of the platform */
  SIM_TYPE_SHAPE,   /* a native grid's shape (sim_grid) */
  SIM_TYPE_SIMGRID, /* a SimGrid value with its unit, checked by SimGrid */
} sim_prop_type_t;

typedef struct sim_prop {
  const char *name; /* "simrun:..." */
  sim_prop_scope_t scope;
  sim_prop_type_t type;
  int count;            /* numbers in a value (SIM_TYPE_NUMBER; 2 for pairs) */
  double lo, hi;        /* each number's range */
  int open;             /* 1 when lo itself is out of range */
  const char *words;    /* SIM_TYPE_WORD: the words, separated by " | " */
  const char *unit;     /* of each number, in order; "-" when none */
  const char *fallback; /* what holds when the property is absent ("-": required where it is used) */
  const char *reader;   /* the module(s) that read it */
  const char *example;  /* an unusual but legal value, which changes a run (NULL: the change is leaving it out) */
  const char *meaning;  /* one line */
} sim_prop_t;

#define SIM_PROP(id, ...) SIM_PROP_##id,
typedef enum sim_prop_id {
#include "sim_prop_table.h"
  SIM_PROP_COUNT
} sim_prop_id_t;
#undef SIM_PROP

/* The row of property `id`. Static data. */
const sim_prop_t *sim_prop_row(sim_prop_id_t id);

/* The name of property `id`, such as "simrun:clock-hz". Static data. */
const char *sim_prop_name(sim_prop_id_t id);

/* The id of the property called `name`, or -1 when simrun has none of that name. */
int sim_prop_find(const char *name);

/* The scope, the type and the range of `prop` as docs/properties.md writes them, such as "host or zone", "4 numbers",
 * "[-1e12, 1e12]". Static data. */
const char *sim_prop_scope_text(const sim_prop_t *prop);
const char *sim_prop_type_text(const sim_prop_t *prop);

/* The range of `prop` into buf, such as "(0, 1e18]" or "piecewise"; "-" for what SimGrid or sim_grid check. */
void sim_prop_range_text(const sim_prop_t *prop, char *buf, size_t len);

/* Whether `text` is a legal value of `prop` by its type and range (SIM_TYPE_HOST, _SHAPE, _SIMGRID: any text, checked
 * where they are read). Returns 0, or SIM_EPLATFORM with "expected ..." (what a value must be) in err. */
int sim_prop_check_value(const sim_prop_t *prop, const char *text, char *err, size_t errlen);

/* The line of file `path` that sets property `name` to `value` (the first line with both quoted), or 0 when not found:
 * SimGrid keeps no line numbers for properties. */
int sim_prop_line(const char *path, const char *name, const char *value);

#ifdef __cplusplus
}
#endif

#endif
