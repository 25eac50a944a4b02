/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Scenario files: read the fields of a document that scn_xml.c parsed and validated into an scn_scenario_t, and check
 * what the schema cannot say (platform files, p, references), each failure a message with the file, line and fix. */
#define _POSIX_C_SOURCE 200809L /* strdup, strndup */

#include "scn_scenario.h"
#include "bas_error.h"
#include "scn_xml.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PLATFORM_HINT "check the path, which is relative to the scenario file"

/* The largest scenario and platform files simrun reads (docs/hostile-input.md): a scenario is a page of XML; a
 * platform of a million hosts written out host by host is a few hundred MiB. */
#define MAX_SCENARIO_BYTES (16L << 20)
#define MAX_PLATFORM_BYTES (1L << 30)

/* Returns 0 when `path` is a regular file of at most `max_bytes` that can be opened and read, else the errno: EISDIR
 * for a folder, ENODEV for a FIFO or a device, which would never end or block the run (opened without blocking, to
 * tell), EFBIG for a larger file. */
static int check_readable(const char *path, long max_bytes)
{
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  struct stat st;
  if (fd < 0)
    return errno;
  int e = fstat(fd, &st) != 0      ? errno
          : S_ISDIR(st.st_mode)    ? EISDIR
          : !S_ISREG(st.st_mode)   ? ENODEV
          : st.st_size > max_bytes ? EFBIG
                                   : 0;
  char byte;
  if (e == 0 && read(fd, &byte, 1) < 0)
    e = errno;
  close(fd);
  return e;
}

/* What check_readable's error means, for a message. */
static const char *unreadable(int e)
{
  return e == ENODEV  ? "it is not a regular file (a FIFO or a device)"
         : e == EFBIG ? "it is larger than simrun reads: 16 MiB for a scenario, 1 GiB for a platform"
                      : strerror(e);
}

static const char *data_dir; /* scn_set_data_dir */

void scn_set_data_dir(const char *dir)
{
  data_dir = dir;
}

/* `resolved` when it exists, else DATA/scenarios/FILE when that does (a shipped scenario's relative path, from a copy
 * of it elsewhere). Frees the one not returned; NULL when out of memory. */
static char *in_data_dir(char *resolved, const char *file)
{
  size_t len = strlen(data_dir) + strlen(file) + 16;
  char *shipped = access(resolved, F_OK) != 0 ? malloc(len) : NULL;
  if (shipped)
    snprintf(shipped, len, "%s/scenarios/%s", data_dir, file);
  if (!shipped || access(shipped, F_OK) != 0) {
    free(shipped);
    return resolved;
  }
  free(resolved);
  return shipped;
}

char *scn_resolve(const char *scenario_path, const char *file)
{
  const char *slash = strrchr(scenario_path, '/');
  if (file[0] == '/')
    return strdup(file);
  size_t dirlen = slash ? (size_t)(slash - scenario_path) + 1 : 0;
  char *out = malloc(dirlen + strlen(file) + 1);
  if (out) {
    memcpy(out, scenario_path, dirlen);
    strcpy(out + dirlen, file);
  }
  return out && data_dir ? in_data_dir(out, file) : out;
}

/* Copies attribute `name` of `node` into *out: a new string, or NULL when the attribute is absent.
 * Returns 0, or -1 when out of memory. */
static int get_attr(const xmlNode *node, const char *name, char **out)
{
  xmlChar *value = xmlGetProp(node, (const xmlChar *)name);
  *out = NULL;
  if (!value)
    return xmlHasProp(node, (const xmlChar *)name) ? -1 : 0;
  *out = strdup((const char *)value);
  xmlFree(value);
  return *out ? 0 : -1;
}

/* Like get_attr, then resolves the path against the scenario's folder. */
static int get_path_attr(const xmlNode *node, const char *name, const char *scenario_path, char **out)
{
  char *raw;
  if (get_attr(node, name, &raw))
    return -1;
  *out = raw ? scn_resolve(scenario_path, raw) : NULL;
  int rc = (raw && !*out) ? -1 : 0;
  free(raw);
  return rc;
}

/* Splits `text` at XML whitespace into new strings. Returns 0, or -1 when out of memory (*tokens then holds the
 * *ntokens strings made so far, for the caller to free). */
static int split_tokens(const char *text, char ***tokens, size_t *ntokens)
{
  static const char space[] = " \t\r\n";
  *tokens = NULL;
  *ntokens = 0;
  for (const char *s = text + strspn(text, space); *s; s += strspn(s, space)) {
    size_t len = strcspn(s, space);
    char **grown = realloc(*tokens, (*ntokens + 1) * sizeof *grown);
    if (!grown)
      return -1;
    *tokens = grown;
    if (!(grown[*ntokens] = strndup(s, len)))
      return -1;
    ++*ntokens;
    s += len;
  }
  return 0;
}

static int read_param(const xmlNode *el, int swept, scn_scenario_t *s)
{
  scn_param_t *grown = realloc(s->params, (s->nparams + 1) * sizeof *grown);
  if (!grown)
    return -1;
  s->params = grown;
  scn_param_t *p = &s->params[s->nparams++];
  *p = (scn_param_t){.line = scn_xml_line(el), .swept = swept};
  char *raw = NULL;
  if (get_attr(el, "name", &p->name))
    return -1;
  p->role = scn_builtin_role(p->name);
  if (swept && xmlHasProp(el, (const xmlChar *)"expr")) /* its values come from scn_zip_resolve */
    return get_attr(el, "expr", &p->expr);
  if (get_attr(el, swept ? "values" : "value", &raw))
    return -1;
  int rc = split_tokens(raw, &p->values, &p->nvalues);
  free(raw);
  return rc;
}

/* The <param> children of `parent`; those of a <zip> child (a sweep's) get the zip's number. */
static int read_params(const xmlNode *parent, int swept, scn_scenario_t *s)
{
  for (const xmlNode *el = parent->children; el; el = el->next) {
    if (scn_xml_is_element(el, "param") && read_param(el, swept, s))
      return -1;
    if (!scn_xml_is_element(el, "zip"))
      continue;
    size_t first = s->nparams;
    if (read_params(el, swept, s))
      return -1;
    s->nzips++;
    for (size_t j = first; j < s->nparams; j++)
      s->params[j].zip = s->nzips;
  }
  return 0;
}

static int read_description(const xmlNode *el, scn_scenario_t *s)
{
  xmlChar *text = xmlNodeGetContent(el);
  s->description = text ? strdup((const char *)text) : NULL;
  xmlFree(text);
  return s->description ? 0 : -1;
}

static int read_report(const xmlNode *el, scn_scenario_t *s)
{
  char *per_process;
  s->report_line = scn_xml_line(el);
  if (get_path_attr(el, "csv", s->path, &s->csv) || get_path_attr(el, "json", s->path, &s->json) ||
      get_attr(el, "per-process", &per_process))
    return -1;
  /* The schema allows 1 to 999999999 only. */
  s->per_process = per_process ? (int)strtol(per_process, NULL, 10) : 0;
  free(per_process);
  return 0;
}

/* Parses the validated numbers of `text` (a list of doubles or positive integers). Returns 0, or -1 (memory). */
static int read_numbers(const char *text, double **out, size_t *count)
{
  char **tokens = NULL;
  size_t n = 0;
  int rc = split_tokens(text, &tokens, &n);
  *out = rc == 0 ? calloc(n ? n : 1, sizeof **out) : NULL;
  for (size_t i = 0; i < n; i++) {
    if (*out)
      (*out)[i] = strtod(tokens[i], NULL);
    free(tokens[i]);
  }
  free(tokens);
  *count = n;
  return *out ? 0 : -1;
}

/* The first thing wrong with a <reference> that the schema lets through: its line and what to say (0 when none). */
typedef struct ref_problem {
  int line;
  char what[256];
} ref_problem_t;

__attribute__((format(printf, 3, 4))) static void flag(ref_problem_t *problem, int line, const char *fmt, ...)
{
  if (problem->line)
    return;
  problem->line = line;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem->what, sizeof problem->what, fmt, ap);
  va_end(ap);
}

/* The figures are times in seconds: finite and not negative (the schema's xsd:double also takes NaN, INF and -1). */
static void check_reference_values(const scn_reference_t *r, ref_problem_t *problem)
{
  for (size_t i = 0; i < r->count; i++)
    if (!isfinite(r->values[i]) || signbit(r->values[i])) /* -0 too: a time is not negative */
      flag(problem, r->line, "<reference> value %g is not a time; give finite numbers of seconds >= 0", r->values[i]);
}

/* Converts the p list `p` (positive integers by the schema, of any size) into r->p, flagging one above INT_MAX. */
static int convert_reference_p(scn_reference_t *r, const double *p, size_t np, ref_problem_t *problem)
{
  r->p = calloc(np ? np : 1, sizeof *r->p);
  for (size_t i = 0; r->p && i < np; i++) {
    if (p[i] > INT_MAX)
      flag(problem, r->line,
           "<reference> p = %.0f is larger than any p simrun runs (2147483647); give the p values "
           "of the scenario",
           p[i]);
    r->p[i] = p[i] > INT_MAX ? 0 : (int)p[i];
  }
  return r->p ? 0 : -1;
}

/* Reads <reference>; p stays NULL when the attribute is absent, for default_reference_p to fill. A p list whose length
 * differs from the values', a p too large or a value that is not a time is flagged in *problem. */
static int read_reference(const xmlNode *el, scn_scenario_t *s, ref_problem_t *problem)
{
  scn_reference_t *grown = realloc(s->refs, (s->nrefs + 1) * sizeof *grown);
  if (!grown)
    return -1;
  s->refs = grown;
  scn_reference_t *r = &s->refs[s->nrefs++];
  *r = (scn_reference_t){.line = scn_xml_line(el)};
  char *where = NULL;
  char *values = NULL;
  char *ps = NULL;
  int rc = get_attr(el, "quantity", &r->quantity) || get_attr(el, "source", &r->source) ||
           get_attr(el, "note", &r->note) || get_attr(el, "where", &where) || get_attr(el, "values", &values) ||
           get_attr(el, "p", &ps);
  if (rc == 0 && where) {
    char *eq = strchr(where, '='); /* the schema guarantees NAME=VALUE */
    r->where_name = strndup(where, (size_t)(eq - where));
    r->where_value = strdup(eq + 1);
    rc = r->where_name && r->where_value ? 0 : -1;
  }
  rc = rc ? rc : read_numbers(values, &r->values, &r->count);
  double *p = NULL;
  size_t np = 0;
  if (rc == 0 && ps)
    rc = read_numbers(ps, &p, &np) || convert_reference_p(r, p, np, problem);
  if (rc == 0 && ps && np != r->count)
    flag(problem, r->line, "<reference> gives a different number of p and values; give one value per p");
  if (rc == 0)
    check_reference_values(r, problem);
  free(p);
  free(where);
  free(values);
  free(ps);
  return rc;
}

/* Copies the validated document into `s`. Returns 0, or -1 when out of memory. *problem gets the first <reference>
 * the schema lets through but simrun cannot use (line 0 when none). */
static int read_scenario(const xmlNode *root, scn_scenario_t *s, ref_problem_t *problem)
{
  if (get_attr(root, "name", &s->name))
    return -1;
  for (const xmlNode *el = root->children; el; el = el->next) {
    int rc = 0;
    if (scn_xml_is_element(el, "description"))
      rc = read_description(el, s);
    else if (scn_xml_is_element(el, "platform")) {
      s->platform_line = scn_xml_line(el);
      rc = get_path_attr(el, "file", s->path, &s->platform);
    } else if (scn_xml_is_element(el, "program")) {
      s->skeleton_line = scn_xml_line(el);
      rc = get_attr(el, "skeleton", &s->skeleton) || read_params(el, 0, s);
    } else if (scn_xml_is_element(el, "sweep"))
      rc = read_params(el, 1, s);
    else if (scn_xml_is_element(el, "report"))
      rc = read_report(el, s);
    else if (scn_xml_is_element(el, "reference"))
      rc = read_reference(el, s, problem);
    if (rc)
      return -1;
  }
  return 0;
}

/* A platform file named at `line` must be there and readable. */
static int check_platform_file(const scn_scenario_t *s, const char *platform, int line, scn_error_t *err)
{
  int e = check_readable(platform, MAX_PLATFORM_BYTES);
  if (e == ENOENT)
    return scn_fail(err, s->path, line, "platform file '%s' not found; " PLATFORM_HINT, platform);
  if (e)
    return scn_fail(err, s->path, line, "platform file '%s' cannot be read (%s); %s", platform, unreadable(e),
                    e == EFBIG    ? "write a machine that large as a <cluster> or a native zone (simrun platform "
                                    "--routing native), not host by host"
                    : e == ENODEV ? "give a platform file"
                                  : PLATFORM_HINT);
  return 0;
}

/* What the schema cannot say: the platform file is there, and "p" is given. */
static int check_loaded(const scn_scenario_t *s, scn_error_t *err)
{
  if (check_platform_file(s, s->platform, s->platform_line, err))
    return -1;
  if (!scn_role_param(s, SCN_ROLE_PROCESSES))
    return scn_fail(err, s->path, s->skeleton_line,
                    "parameter 'p' (the number of processes) is missing; add <param name=\"p\" value=\"...\"/> "
                    "to <program>, or <param name=\"p\" values=\"...\"/> to <sweep>");
  for (size_t j = 0; j < s->nparams; j++) /* what the rest of scn_load reads: given as written */
    if (s->params[j].expr && (s->params[j].role == SCN_ROLE_PROCESSES || s->params[j].role == SCN_ROLE_PLATFORM))
      return scn_fail(err, s->path, s->params[j].line,
                      "parameter '%s' cannot be an expression; list its values, and write the parameters that "
                      "depend on it as expressions of it",
                      s->params[j].name);
  return 0;
}

/* A swept or fixed "platform" parameter replaces <platform> for its points: each value is a platform file, resolved
 * like <platform file> and checked the same way, at the parameter's line. */
static int resolve_platform_param(scn_scenario_t *s, scn_error_t *err)
{
  scn_param_t *p = (scn_param_t *)scn_role_param(s, SCN_ROLE_PLATFORM);
  if (!p)
    return 0;
  p->paths = calloc(p->nvalues, sizeof *p->paths);
  for (size_t v = 0; p->paths && v < p->nvalues; v++) {
    if (!(p->paths[v] = scn_resolve(s->path, p->values[v])))
      return scn_fail(err, s->path, 0, "out of memory while reading the scenario");
    if (check_platform_file(s, p->paths[v], p->line, err))
      return -1;
  }
  return p->paths ? 0 : scn_fail(err, s->path, 0, "out of memory while reading the scenario");
}

/* Gives reference `r` the scenario's p values when it has no p list of its own. Returns 0, or -1 (memory). */
static int default_reference_p(scn_reference_t *r, const scn_param_t *p)
{
  r->p = calloc(p->nvalues, sizeof *r->p);
  for (size_t i = 0; r->p && i < p->nvalues; i++) {
    long value = strtol(p->values[i], NULL, 10); /* checked later by scn_check: a wrapped value must not slip in */
    r->p[i] = value > 0 && value <= INT_MAX ? (int)value : 0;
  }
  return r->p ? 0 : -1;
}

/* Every <reference> gives one value per p and restricts itself, if at all, by a parameter of the scenario. */
static int check_references(scn_scenario_t *s, const ref_problem_t *problem, scn_error_t *err)
{
  const scn_param_t *p = scn_role_param(s, SCN_ROLE_PROCESSES);
  if (problem->line)
    return scn_fail(err, s->path, problem->line, "%s", problem->what);
  for (size_t i = 0; i < s->nrefs; i++) {
    scn_reference_t *r = &s->refs[i];
    if (r->where_name && !scn_param(s, r->where_name))
      return scn_fail(err, s->path, r->line,
                      "<reference where=\"%s=...\">: this scenario has no parameter '%s'; "
                      "name one of its parameters",
                      r->where_name, r->where_name);
    const scn_param_t *where = r->where_name ? scn_param(s, r->where_name) : NULL;
    int known = !where;
    for (size_t v = 0; where && v < where->nvalues; v++)
      known |= strcmp(where->values[v], r->where_value) == 0;
    if (!known)
      return scn_fail(err, s->path, r->line,
                      "<reference where=\"%s=%s\">: '%s' is not a value of %s in this "
                      "scenario (line %d); use one of its values",
                      r->where_name, r->where_value, r->where_value, r->where_name, where->line);
    if (!r->p && r->count != p->nvalues)
      return scn_fail(err, s->path, r->line,
                      "<reference> gives %zu values for the %zu p values of line %d; give one "
                      "value per p, or list the p they are for in p=\"...\"",
                      r->count, p->nvalues, p->line);
    if (!r->p && default_reference_p(r, p) != 0)
      return scn_fail(err, s->path, 0, "out of memory while reading the scenario");
  }
  return 0;
}

int scn_load(const char *path, scn_scenario_t **out, scn_error_t *err)
{
  scn_sink_t sink = {.err = err, .path = path};
  scn_scenario_t *s = NULL;
  *out = NULL;
  int e = check_readable(path, MAX_SCENARIO_BYTES);
  if (e)
    return scn_fail(err, path, 0, "cannot open scenario: %s; %s", unreadable(e),
                    e == EFBIG    ? "give the scenario file itself (a scenario names its platform and traces)"
                    : e == ENODEV ? "give a scenario file"
                                  : "check the path, which is relative to the current folder");
  /* Every libxml2 message goes to the sink, never to stderr; the default handler is back on return. */
  xmlDoc *doc = scn_xml_load(path, &sink);
  if (!doc)
    goto restore;
  s = calloc(1, sizeof *s);
  ref_problem_t problem = {0};
  if (!s || !(s->path = strdup(path)) || read_scenario(xmlDocGetRootElement(doc), s, &problem)) {
    scn_fail(err, path, 0, "out of memory while reading the scenario");
    goto free_doc;
  }
  if (check_loaded(s, err) || resolve_platform_param(s, err) || check_references(s, &problem, err))
    goto free_doc;
  *out = s;
  s = NULL;
free_doc:
  xmlFreeDoc(doc);
restore:
  scn_free(s);
  xmlSetStructuredErrorFunc(NULL, NULL);
  return *out ? 0 : BAS_EINVAL;
}

static void free_param(scn_param_t *p)
{
  free(p->expr);
  for (size_t v = 0; v < p->nvalues; v++) {
    free(p->values[v]);
    free(p->paths ? p->paths[v] : NULL);
  }
  free(p->paths);
  free(p->values);
  free(p->name);
}

static void free_reference(scn_reference_t *r)
{
  free(r->quantity);
  free(r->source);
  free(r->note);
  free(r->where_name);
  free(r->where_value);
  free(r->p);
  free(r->values);
}

void scn_references_drop_unless_where(scn_scenario_t *s, const char *name)
{
  size_t kept = 0;
  for (size_t i = 0; i < s->nrefs; i++)
    if (s->refs[i].where_name && strcmp(s->refs[i].where_name, name) == 0)
      s->refs[kept++] = s->refs[i];
    else
      free_reference(&s->refs[i]);
  s->nrefs = kept;
}

void scn_free(scn_scenario_t *s)
{
  if (!s)
    return;
  for (size_t i = 0; i < s->nparams; i++)
    free_param(&s->params[i]);
  free(s->params);
  free(s->path);
  free(s->name);
  free(s->description);
  free(s->platform);
  free(s->skeleton);
  free(s->csv);
  free(s->json);
  for (size_t i = 0; i < s->nrefs; i++)
    free_reference(&s->refs[i]);
  free(s->refs);
  free(s);
}

const scn_param_t *scn_param(const scn_scenario_t *s, const char *name)
{
  for (size_t i = 0; i < s->nparams; i++)
    if (strcmp(s->params[i].name, name) == 0)
      return &s->params[i];
  return NULL;
}

scn_role_t scn_builtin_role(const char *name)
{
  static const struct {
    const char *name;
    scn_role_t role;
  } builtin[] = {{"p", SCN_ROLE_PROCESSES}, {"platform", SCN_ROLE_PLATFORM}, {"network", SCN_ROLE_NETWORK}};
  for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
    if (strcmp(builtin[i].name, name) == 0)
      return builtin[i].role;
  return SCN_ROLE_NONE;
}

size_t scn_role_index(const scn_scenario_t *s, scn_role_t role)
{
  size_t j = 0;
  while (j < s->nparams && (role == SCN_ROLE_NONE || s->params[j].role != role))
    j++;
  return j;
}

const scn_param_t *scn_role_param(const scn_scenario_t *s, scn_role_t role)
{
  size_t j = scn_role_index(s, role);
  return j < s->nparams ? &s->params[j] : NULL;
}

int scn_param_sets_problem(const scn_scenario_t *s, size_t j)
{
  const scn_param_t *param = &s->params[j];
  return param->role != SCN_ROLE_PROCESSES && (param->zip || param->role == SCN_ROLE_SIZE);
}

int scn_spec_has_role(const scn_skeleton_spec_t *spec, scn_role_t role)
{
  for (size_t i = 0; i < spec->nparams; i++)
    if (spec->params[i].role == role)
      return 1;
  return 0;
}
