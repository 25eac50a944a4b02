/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Scenario files: XML read with libxml2, validated against the RELAX NG schema scenarios/scenario.rng (compiled into
 * the binary), then checked against the parameter specification of the chosen skeleton. Every error carries the file
 * and line it comes from and says how to fix it. */
#ifndef SCN_SCENARIO_H
#define SCN_SCENARIO_H

#include "scn_error.h"

#include <stddef.h>

/* What a parameter means beyond its skeleton. The layers above the scenario read a parameter by its role, never by its
 * name: the built-in ones get theirs here (scn_builtin_role), a skeleton's from its specification (scn_check). */
typedef enum scn_role {
  SCN_ROLE_NONE = 0,  /* the skeleton's own: only the skeleton reads it */
  SCN_ROLE_PROCESSES, /* "p", every skeleton's: the number of processes, a whole number */
  SCN_ROLE_PLATFORM,  /* "platform": a platform file replacing <platform> (its paths resolved) */
  SCN_ROLE_NETWORK,   /* what prices the messages: "analytic", or SimGrid's network (docs/scale.md) */
  SCN_ROLE_BROADCAST, /* the broadcast algorithm whose routes the engine builds ("one-to-all", "neighbour") */
  SCN_ROLE_GRID_ROWS, /* the rows of a process grid of rows x (p / rows): a sweep runs the points where it divides p */
  SCN_ROLE_VARIANT,   /* a machine variant, "yes" or "no": a report compares each point with its "no" twin */
  SCN_ROLE_SIZE,      /* the problem's size (N, a message's bytes, laps): points of different sizes solve different
                         problems, never ranked against each other */
} scn_role_t;

/* The values the layers above read a role's parameter as (the rest of its values are the skeleton's to parse). */
#define SCN_NETWORK_ANALYTIC "analytic" /* SCN_ROLE_NETWORK: each message priced alone, no contention */
#define SCN_VARIANT_BASELINE "no"       /* SCN_ROLE_VARIANT: the point the variant is compared with */

/* One parameter: a fixed one (<program><param value=...>) has one value; a swept one (<sweep><param values=...>) has
 * one or more, and the run is the cross product of all swept parameters in the order they are written, each zip
 * counting as one (its first parameter's place). */
typedef struct scn_param {
  char *name;
  char **values; /* as written, each a whitespace-free token (a skeleton's path parameters resolved by scn_check) */
  size_t nvalues;
  char **paths; /* "platform" only: each value resolved against the scenario file's folder; otherwise NULL */
  int line;     /* line of the <param> element */
  int swept;    /* 1 when given in <sweep> */
  int is_path;  /* its skeleton's spec gives it kind SCN_PATH: it names files the skeleton reads (the platform, whose
                 * files `paths` holds, aside); set by scn_check */
  scn_role_t role;
  int zip;    /* 0, or the zip it belongs to (from 1): the parameters of one zip vary together, the k-th point of the
               * zip taking each one's k-th value (docs/scenarios.md "Scaled sweeps") */
  char *expr; /* <sweep><param expr=...>, or NULL: its values are computed from the parameters it names by
               * scn_check, one per value of the swept one, and it joins that one's zip */
} scn_param_t;

/* Figures from elsewhere shown beside simrun's (<reference>): values[i] is the quantity at p[i]. */
typedef struct scn_reference {
  char *quantity;    /* "t_par", or a component or sub-component name of seed 001 Table 5 */
  char *source;      /* where the figures come from, shown in the report */
  char *note;        /* why they may differ from simrun's, or NULL */
  char *where_name;  /* with where_value: the figures apply only to points where this parameter has this value; */
  char *where_value; /* both NULL when they apply to every point */
  int *p;            /* the p of each value: <reference p=...>, or the scenario's p values in order */
  double *values;
  size_t count; /* number of values, and of p */
  int line;
} scn_reference_t;

typedef struct scn_scenario {
  char *path;        /* the scenario file as given */
  char *name;        /* <scenario name=...> */
  char *description; /* <description> text, or NULL */
  char *platform;    /* <platform file=...> resolved against the scenario file's folder */
  int platform_line;
  char *skeleton; /* <program skeleton=...> */
  int skeleton_line;
  scn_param_t *params; /* program parameters then sweep parameters, in file order; "p" is always present */
  size_t nparams;
  int per_process;       /* <report per-process=P>: the p whose per-process table is shown; 0 when absent */
  int report_line;       /* line of <report>, or 0 */
  char *csv;             /* <report csv=...> resolved against the scenario's folder, or NULL */
  char *json;            /* <report json=...> likewise, or NULL */
  scn_reference_t *refs; /* <reference> elements, in file order */
  size_t nrefs;
  int nzips; /* zips (scn_param_t.zip), numbered from 1 */
} scn_scenario_t;

/* What a skeleton accepts. kind INT takes a decimal integer >= min; CHOICE takes one of `choices` (NULL-ended); PATH
 * a file relative to the scenario's folder (the "platform" parameter every skeleton takes: checked by scn_load);
 * SECONDS a time in seconds, a finite decimal number > 0 ("2.5", "1e-3"). */
typedef enum scn_kind { SCN_INT = 0, SCN_CHOICE, SCN_PATH, SCN_SECONDS } scn_kind_t;

typedef struct scn_param_spec {
  const char *name;
  scn_kind_t kind;
  long min;                   /* INT only */
  const char *const *choices; /* CHOICE only, NULL-terminated */
  int required;
  const char *help; /* one line for error messages and --help */
  scn_role_t role;  /* what the layers above read it as; SCN_ROLE_NONE (the default) for the skeleton's own */
} scn_param_spec_t;

typedef struct scn_skeleton_spec {
  const char *name; /* as written in <program skeleton=...> */
  const scn_param_spec_t *params;
  size_t nparams;
} scn_skeleton_spec_t;

/* Reads and validates `path`: well-formed XML, the schema, the platform file's existence and readability, and that
 * every <reference> names a parameter of the scenario in `where` and gives one value per p.
 * On success returns 0 and a new scenario in *out (free with scn_free). On failure returns BAS_EINVAL, sets *out to
 * NULL and fills *err. */
int scn_load(const char *path, scn_scenario_t **out, scn_error_t *err);

/* Checks every parameter against `spec`: unknown names (listing the known ones), missing required ones, duplicates,
 * integers (rejecting signs, junk, and values below min) and choices (listing the allowed ones). "p" is checked here
 * too, as an INT >= 1 for every skeleton. The values of the skeleton's path parameters are resolved against the
 * scenario file's folder, as <platform file> is. Returns 0, or BAS_EINVAL with *err filled (file and line of the
 * offending <param>). */
int scn_check(scn_scenario_t *scenario, const scn_skeleton_spec_t *spec, scn_error_t *err);

/* Scaled sweeps, part of scn_check (after --set, before the values are checked): computes each expression
 * parameter's values from the parameters it names and pairs it with the swept one, then checks that the parameters of
 * each zip have as many values as each other and that no two points of a zip are the same. Returns 0, or BAS_EINVAL
 * with *err at the line of the parameter to blame: an expression that names an unknown parameter, another expression,
 * two swept parameters or a value that is not a number; a division by zero, NaN, overflow; a result that is not a whole
 * number or lies outside a C int. */
int scn_zip_resolve(scn_scenario_t *scenario, scn_error_t *err);
/* Takes parameter `param` out of its zip and drops its expression: --set gave it values of its own. */
void scn_zip_leave(scn_param_t *param);
/* The parameter that leads the zip of parameter j (the zip's first, whose place in the cross product the zip takes),
 * j itself when it is in none. */
size_t scn_zip_leader(const scn_scenario_t *scenario, size_t j);

/* Whether output `path` (the scenario's <report csv> or <report json>, resolved; NULL for none) lies inside the
 * scenario's folder once links and ".." are resolved: a scenario received from someone else must not overwrite files
 * elsewhere. `what` is "csv" or "json". Returns 0, or -1 with *err at the <report> line, naming the command-line
 * option that writes there on purpose. */
int scn_check_output(const scn_scenario_t *scenario, const char *path, const char *what, scn_error_t *err);

/* Whether a <reference> gives a figure at a p that no point of the sweep has (a typo, or a sweep cut by --set): 1 with
 * "FILE:LINE: ..." naming the first such p in `message`, for a warning; else 0. */
int scn_unrun_reference(const scn_scenario_t *scenario, char *message, size_t len);

/* `file` as written in the scenario at `scenario_path`, resolved against that file's folder unless absolute (or, when
 * that does not exist, against the data folder's scenarios/ if it exists there): a new string, or NULL when out of
 * memory. */
char *scn_resolve(const char *scenario_path, const char *file);
/* The data folder (share/simrun: scenarios/, platforms/) for scn_resolve's second try; NULL (the default): none. The
 * string is borrowed and must outlive every scn_resolve. */
void scn_set_data_dir(const char *dir);

void scn_free(scn_scenario_t *scenario); /* accepts NULL */
/* Drops the <reference> figures whose where="..." does not name parameter `name`: once --set has moved the scenario to
 * values of `name` its file never had (another machine, another n), figures measured on the file's values would
 * mislead beside simrun's (cli_set_apply). */
void scn_references_drop_unless_where(scn_scenario_t *scenario, const char *name);

/* The parameter called `name`, or NULL. Borrowed from the scenario. */
const scn_param_t *scn_param(const scn_scenario_t *scenario, const char *name);

/* The role of the parameters every skeleton takes ("p", "platform", "network"), SCN_ROLE_NONE for any other name. */
scn_role_t scn_builtin_role(const char *name);
/* The position of the scenario's parameter with role `role` (not SCN_ROLE_NONE), or nparams when it has none. */
size_t scn_role_index(const scn_scenario_t *scenario, scn_role_t role);
/* The scenario's parameter with role `role`, or NULL. Borrowed from the scenario. */
const scn_param_t *scn_role_param(const scn_scenario_t *scenario, scn_role_t role);
/* Whether points that differ in parameter j solve different problems, so that a report never ranks them against each
 * other: a size (SCN_ROLE_SIZE), or a parameter zipped with another (a scaled sweep's N, paired with p). Never p. */
int scn_param_sets_problem(const scn_scenario_t *scenario, size_t j);
/* Whether a skeleton's specification has a parameter with role `role`. */
int scn_spec_has_role(const scn_skeleton_spec_t *spec, scn_role_t role);

#endif
