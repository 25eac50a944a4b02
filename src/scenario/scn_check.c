/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Scenario parameters against a skeleton's specification: known names, no duplicates, required ones present, integers
 * and choices well formed, and a per-process report for a p that is run. */
#include "scn_scenario.h"
#include "bas_error.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every skeleton takes the number of processes, whether or not its spec lists it. */
static const scn_param_spec_t p_spec = {"p", SCN_INT, 1, NULL, 1, "the number of processes", SCN_ROLE_PROCESSES};
/* And a platform file replacing <platform> (scn_load resolved and checked its values). */
static const scn_param_spec_t platform_spec = {"platform", SCN_PATH, 0, NULL, 0, "a platform file", SCN_ROLE_PLATFORM};
/* And the network that prices its messages (docs/scale.md), unless the skeleton has a network parameter of its own. */
static const char *const network_names[] = {"simgrid", SCN_NETWORK_ANALYTIC, NULL};
static const scn_param_spec_t network_spec = {
    "network",
    SCN_CHOICE,
    0,
    network_names,
    0,
    "simgrid (default: SimGrid's network, with contention) or analytic (each message priced alone, no contention)",
    SCN_ROLE_NETWORK};

typedef enum number { NUMBER_OK = 0, NUMBER_NEGATIVE, NUMBER_JUNK, NUMBER_TOO_LARGE } number_t;

static int all_digits(const char *s)
{
  if (!*s)
    return 0;
  for (; *s; s++)
    if (!isdigit((unsigned char)*s))
      return 0;
  return 1;
}

/* Reads a decimal integer written with digits only, no larger than INT_MAX: every skeleton and the sweep keep
 * parameters in an int (p, grid-rows, n), so a larger value would wrap (4294967298 would run as 2). */
static number_t parse_number(const char *text, long *out)
{
  if (text[0] == '-' && all_digits(text + 1))
    return NUMBER_NEGATIVE;
  if (!all_digits(text))
    return NUMBER_JUNK;
  errno = 0;
  *out = strtol(text, NULL, 10);
  return errno == ERANGE || *out > INT_MAX ? NUMBER_TOO_LARGE : NUMBER_OK;
}

/* Appends `item` to the string in `buf`, after `sep` unless `buf` is empty; truncates silently. */
static void append(char *buf, size_t size, const char *sep, const char *item)
{
  size_t used = strlen(buf);
  snprintf(buf + used, size - used, "%s%s", used ? sep : "", item);
}

static const scn_param_spec_t *find_spec(const scn_skeleton_spec_t *spec, const char *name)
{
  for (size_t i = 0; i < spec->nparams; i++)
    if (strcmp(spec->params[i].name, name) == 0)
      return &spec->params[i];
  if (strcmp(name, platform_spec.name) == 0)
    return &platform_spec;
  if (strcmp(name, network_spec.name) == 0)
    return &network_spec;
  return strcmp(name, p_spec.name) == 0 ? &p_spec : NULL;
}

static int fail_unknown(const scn_scenario_t *s, const scn_param_t *p, const scn_skeleton_spec_t *spec,
                        scn_error_t *err)
{
  char known[512] = "";
  if (find_spec(spec, p_spec.name) == &p_spec)
    append(known, sizeof known, ", ", p_spec.name);
  for (size_t i = 0; i < spec->nparams; i++)
    append(known, sizeof known, ", ", spec->params[i].name);
  append(known, sizeof known, ", ", platform_spec.name);
  append(known, sizeof known, ", ", network_spec.name);
  return scn_fail(err, s->path, p->line, "unknown parameter '%s' for skeleton '%s'; known parameters: %s", p->name,
                  spec->name, known);
}

static int check_int(const scn_scenario_t *s, const scn_param_t *p, const scn_param_spec_t *ps, const char *text,
                     scn_error_t *err)
{
  long value = 0;
  switch (parse_number(text, &value)) {
  case NUMBER_NEGATIVE:
    return scn_fail(err, s->path, p->line, "%s=\"%s\": a size cannot be negative; give a whole number >= %ld", p->name,
                    text, ps->min);
  case NUMBER_JUNK:
    return scn_fail(err, s->path, p->line, "%s=\"%s\" is not a whole number; use decimal digits only, for example %ld",
                    p->name, text, ps->min);
  case NUMBER_TOO_LARGE:
    return scn_fail(err, s->path, p->line, "%s=\"%s\" is too large; the largest accepted value is %d", p->name, text,
                    INT_MAX);
  case NUMBER_OK:
    break;
  }
  if (value < ps->min)
    return scn_fail(err, s->path, p->line, "%s=\"%s\" is below the minimum %ld; give %ld or more", p->name, text,
                    ps->min, ps->min);
  return 0;
}

/* A time in seconds: a finite decimal number > 0, nothing after it. */
static int check_seconds(const scn_scenario_t *s, const scn_param_t *p, const char *text, scn_error_t *err)
{
  char *end = NULL;
  errno = 0;
  double value = strtod(text, &end);
  int decimal = text[strspn(text, "0123456789.+-eE")] == '\0'; /* strtod takes hexadecimal too */
  if (end == text || *end != '\0' || !decimal || errno == ERANGE || !isfinite(value) || !(value > 0))
    return scn_fail(err, s->path, p->line,
                    "%s=\"%s\" is not a time in seconds; give a decimal number > 0, for example 2.5", p->name, text);
  return 0;
}

static int check_choice(const scn_scenario_t *s, const scn_param_t *p, const scn_param_spec_t *ps, const char *text,
                        scn_error_t *err)
{
  char allowed[512] = "";
  for (const char *const *c = ps->choices; *c; c++) {
    if (strcmp(*c, text) == 0)
      return 0;
    append(allowed, sizeof allowed, ", ", *c);
  }
  return scn_fail(err, s->path, p->line, "unknown %s '%s'; choose one of: %s", p->name, text, allowed);
}

/* A path parameter of the skeleton's: its values resolved in place against the scenario's folder ("platform", which
 * scn_load resolved into paths, keeps its values as written). */
static int resolve_paths(const scn_scenario_t *s, scn_param_t *p, scn_error_t *err)
{
  for (size_t v = 0; p->role != SCN_ROLE_PLATFORM && v < p->nvalues; v++) {
    char *resolved = scn_resolve(s->path, p->values[v]);
    if (!resolved)
      return scn_fail(err, s->path, p->line, "out of memory while reading the scenario");
    free(p->values[v]);
    p->values[v] = resolved;
  }
  return 0;
}

static int compare_text(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A value listed twice would run its points twice (20000 copies of 32 p values kept simrun busy for minutes): each
 * value once. Sorted copies, so that long lists cost n log n. */
static int check_distinct(const scn_scenario_t *s, const scn_param_t *p, scn_error_t *err)
{
  char **sorted = malloc(p->nvalues * sizeof *sorted);
  if (!sorted)
    return scn_fail(err, s->path, p->line, "out of memory while reading the scenario");
  memcpy(sorted, p->values, p->nvalues * sizeof *sorted);
  qsort(sorted, p->nvalues, sizeof *sorted, compare_text);
  const char *twice = NULL;
  for (size_t v = 1; !twice && v < p->nvalues; v++)
    twice = strcmp(sorted[v - 1], sorted[v]) == 0 ? sorted[v] : NULL;
  int rc = twice ? scn_fail(err, s->path, p->line, "parameter '%s' lists '%s' more than once; list each value once",
                            p->name, twice)
                 : 0;
  free(sorted);
  return rc;
}

static int check_param(const scn_scenario_t *s, scn_param_t *p, const scn_skeleton_spec_t *spec, scn_error_t *err)
{
  const scn_param_t *first = scn_param(s, p->name);
  if (first != p)
    return scn_fail(err, s->path, p->line, "parameter '%s' is given twice (first at line %d); keep only one of them",
                    p->name, first->line);
  const scn_param_spec_t *ps = find_spec(spec, p->name);
  if (!ps)
    return fail_unknown(s, p, spec, err);
  p->role = ps->role;
  p->is_path = ps->kind == SCN_PATH && p->role != SCN_ROLE_PLATFORM;
  if (!p->swept && p->nvalues != 1)
    return scn_fail(err, s->path, p->line,
                    "parameter '%s' has %zu values but a fixed parameter takes exactly one; to run several, move it "
                    "to <sweep> as <param name=\"%s\" values=\"...\"/>",
                    p->name, p->nvalues, p->name);
  /* a zip's points are checked whole (scn_zip_resolve), but p's values are distinct in any case */
  if (p->nvalues > 1 && (!p->zip || p->role == SCN_ROLE_PROCESSES) && check_distinct(s, p, err) != 0)
    return -1;
  if (ps->kind == SCN_PATH)
    return resolve_paths(s, p, err);
  for (size_t v = 0; v < p->nvalues; v++) {
    const char *text = p->values[v];
    if (ps->kind == SCN_SECONDS  ? check_seconds(s, p, text, err)
        : ps->kind == SCN_CHOICE ? check_choice(s, p, ps, text, err)
                                 : check_int(s, p, ps, text, err))
      return -1;
  }
  return 0;
}

static int check_required(const scn_scenario_t *s, const scn_skeleton_spec_t *spec, scn_error_t *err)
{
  for (size_t i = 0; i < spec->nparams; i++) {
    const scn_param_spec_t *ps = &spec->params[i];
    if (ps->required && !scn_param(s, ps->name))
      return scn_fail(err, s->path, s->skeleton_line,
                      "skeleton '%s' needs parameter '%s' (%s); add <param name=\"%s\" value=\"...\"/> to <program>, "
                      "or <param name=\"%s\" values=\"...\"/> to <sweep>",
                      spec->name, ps->name, ps->help, ps->name, ps->name);
  }
  return 0;
}

/* The per-process table shows one of the runs, so its p must be one that is run. p's values are checked already. */
static int check_per_process(const scn_scenario_t *s, scn_error_t *err)
{
  const scn_param_t *p = scn_param(s, p_spec.name);
  if (!s->per_process || !p)
    return 0;
  char values[512] = "";
  for (size_t v = 0; v < p->nvalues; v++) {
    if (strtol(p->values[v], NULL, 10) == s->per_process)
      return 0;
    append(values, sizeof values, " ", p->values[v]);
  }
  return scn_fail(err, s->path, s->report_line,
                  "per-process=\"%d\" is not among the values of p (%s); choose one of them, or drop per-process",
                  s->per_process, values);
}

int scn_check(scn_scenario_t *s, const scn_skeleton_spec_t *spec, scn_error_t *err)
{
  if (scn_zip_resolve(s, err))
    return BAS_EINVAL;
  for (size_t i = 0; i < s->nparams; i++)
    if (check_param(s, &s->params[i], spec, err))
      return BAS_EINVAL;
  if (check_required(s, spec, err))
    return BAS_EINVAL;
  return check_per_process(s, err);
}

/* The folder of `path` with every symbolic link and "." or ".." resolved, into `out` (PATH_MAX bytes); for a folder
 * not made yet, its nearest existing ancestor (a path through a missing folder cannot climb out: the system refuses
 * it). 0, or -1. */
static int real_folder(const char *path, char *out)
{
  char folder[PATH_MAX];
  snprintf(folder, sizeof folder, "%s", path);
  char *slash = strrchr(folder, '/');
  if (!slash)
    snprintf(folder, sizeof folder, ".");
  else
    slash[slash == folder] = '\0'; /* "/x" keeps "/" */
  if (realpath(folder, out))
    return 0;
  return errno == ENOENT && strcmp(folder, ".") != 0 ? real_folder(folder, out) : -1;
}

int scn_check_output(const scn_scenario_t *s, const char *path, const char *what, scn_error_t *err)
{
  char home[PATH_MAX];
  char there[PATH_MAX];
  if (!path)
    return 0;
  char *own = scn_resolve(s->path, "x");
  int known = own && real_folder(own, home) == 0 && real_folder(path, there) == 0;
  free(own);
  size_t len = strlen(home);
  if (known && strncmp(there, home, len) == 0 && (there[len] == '\0' || there[len] == '/' || len == 1))
    return 0;
  return scn_fail(err, s->path, s->report_line,
                  "<report %s=...> writes '%s', outside the scenario's folder; a scenario writes only beside itself: "
                  "give a path inside its folder, or --%s '%s' on the command line to write there",
                  what, path, what, path);
}

/* Whether the sweep runs p = `value`. */
static int sweep_runs(const scn_param_t *p, int value)
{
  for (size_t v = 0; p && v < p->nvalues; v++)
    if (strtol(p->values[v], NULL, 10) == value)
      return 1;
  return 0;
}

int scn_unrun_reference(const scn_scenario_t *s, char *message, size_t len)
{
  const scn_param_t *p = scn_role_param(s, SCN_ROLE_PROCESSES);
  for (size_t i = 0; i < s->nrefs; i++)
    for (size_t k = 0; k < s->refs[i].count; k++)
      if (!sweep_runs(p, s->refs[i].p[k])) {
        snprintf(
            message, len,
            "%s:%d: <reference> gives a figure at p = %d, which the sweep never runs, so it is never shown; add %d "
            "to the p values or remove the figure",
            s->path, s->refs[i].line, s->refs[i].p[k], s->refs[i].p[k]);
        return 1;
      }
  return 0;
}
