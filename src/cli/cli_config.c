/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --cfg and --log for SimGrid, --set for the scenario's parameters, --shard for the points (cli_config.h). */
#define _DEFAULT_SOURCE /* mkstemps */
#include "cli_config.h"
#include "bas_temp.h"
#include "sim_check.h"
#include "sim_engine.h"
#include "sim_run.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The least platform on which SimGrid sets its models up: one zone, one host. */
static const char probe_platform[] = "<?xml version=\"1.0\"?>\n"
                                     "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                                     "<platform version=\"4.1\"><zone id=\"probe\" routing=\"Full\">"
                                     "<host id=\"probe\" speed=\"1f\"/></zone></platform>\n";

/* SimGrid's own words in a probe's failure: what it said as it died, or its objection to an option, without simrun's
 * wording around them (sim_run_probe, sim_engine_start), and without a final full stop. */
static void simgrid_words(const char *message, char *words, size_t len)
{
  static const char *const heads[] = {"SimGrid said: ", "a --cfg or --log option: "};
  const char *start = message;
  for (size_t i = 0; i < 2; i++)
    if (strstr(message, heads[i]))
      start = strstr(message, heads[i]) + strlen(heads[i]);
  const char *tail = strstr(start, "; see SimGrid's --help-cfg");
  size_t n = tail ? (size_t)(tail - start) : strlen(start);
  while (n > 0 && (start[n - 1] == '.' || start[n - 1] == ' '))
    n--;
  snprintf(words, len, "%.*s", (int)n, start);
}

/* How to fix the option SimGrid refused with `words`. */
static const char *cfg_hint(const char *words)
{
  static const struct {
    const char *said, *hint;
  } hints[] = {
      {"Bad config key", "give an option name that SimGrid knows (any SimGrid program lists them with --help-cfg)"},
      {"invalid integer", "give a whole number"},
      {"invalid double", "give a number"},
      {"cannot parse number", "give a number, with its unit where the option takes one (such as 1Gf or 10MBps)"},
      {"not a boolean", "give yes or no"},
  };
  for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
    if (strstr(words, hints[i].said))
      return hints[i].hint;
  return "give a value that SimGrid accepts for it (any SimGrid program lists the options and their values with "
         "--help-cfg)";
}

/* Writes the least platform into a new temporary file, its name in path. Returns 0, or -1. */
static int write_probe_platform(char *path, size_t len)
{
  snprintf(path, len, "%s/simrun-cfg-XXXXXX.xml", bas_temp_dir());
  int fd = mkstemps(path, 4);
  if (fd < 0)
    return -1;
  FILE *file = fdopen(fd, "w");
  int written = file && fputs(probe_platform, file) >= 0;
  if ((file ? fclose(file) : close(fd)) == 0 && written)
    return 0;
  unlink(path);
  return -1;
}

/* Sets SimGrid up, in a child process, on the least platform with the options given so far, the newest being
 * --`option`=`value` (cfg or log): SimGrid refuses an unknown name, a value of the wrong type or a log setting it
 * cannot parse as it starts, and a model or factory it does not have (it dies) as it builds the platform. Returns 0,
 * or -1 with "--cfg=NAME:VALUE: what; how to fix" in err. Nothing is simulated. */
static int cfg_probe(const char *option, const char *value, char *err, size_t errlen)
{
  char path[1024], message[1024], words[768];
  if (write_probe_platform(path, sizeof path) != 0) {
    snprintf(err, errlen, "--%s=%s: cannot write a probe platform for checking it; set TMPDIR to a writable folder",
             option, value);
    return -1;
  }
  /* what SimGrid logs as it starts (--log=...) is for the runs, not for the probe: its stderr goes nowhere */
  size_t hosts = 0;
  fflush(stderr);
  int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
  if (saved >= 0 && null >= 0)
    dup2(null, STDERR_FILENO);
  int rc = sim_run_probe(path, &hosts, message, sizeof message);
  if (saved >= 0 && null >= 0)
    dup2(saved, STDERR_FILENO);
  if (null >= 0)
    close(null);
  if (saved >= 0)
    close(saved);
  unlink(path);
  if (rc == 0)
    return 0;
  simgrid_words(message, words, sizeof words);
  snprintf(err, errlen, "--%s=%s: SimGrid refuses it: %s; %s", option, value, words,
           strcmp(option, "log") == 0 ? "give a log setting such as root.thres:info or sim_engine.thres:verbose "
                                        "(CATEGORY.thres:PRIORITY; any SimGrid program lists them with --help-logs)"
                                      : cfg_hint(words));
  return -1;
}

int cli_simgrid_option(cli_config_t *config, const char *option, const char *value, char *err, size_t errlen)
{
  int cfg = strcmp(option, "cfg") == 0;
  const char *colon = strchr(value, ':');
  if (!*value || (cfg && (!colon || colon == value || !colon[1]))) {
    snprintf(err, errlen, "--%s takes %s, not '%s'", option,
             cfg ? "NAME:VALUE, such as network/model:CM02" : "a SimGrid log setting, such as root.thres:info", value);
    return -1;
  }
  if (cfg && strcmp(value, "network/model:Constant") == 0) { /* SimGrid would abort on the platform's first link */
    snprintf(err, errlen,
             "--cfg=%s: %s; give network/model CM02, LV08 or SMPI (such as --cfg=network/model:CM02), or leave it to "
             "the platform",
             value, sim_check_constant_reason);
    return -1;
  }
  char arg[1200];
  snprintf(arg, sizeof arg, "--%s=%s", option, value);
  if (sim_engine_add_option(arg) != 0) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  config->simgrid_cfg |= cfg;
  return cfg_probe(option, value, err, errlen); /* a bad --log too is blamed on itself, not on the platform */
}

/* Whether `name` (its first `len` characters) could name a parameter: letters, digits, '-' and '_'. */
static int is_name(const char *name, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (!isalnum((unsigned char)name[i]) && name[i] != '-' && name[i] != '_')
      return 0;
  return len > 0;
}

/* `text` as it can be shown on the error's one line: control characters written as \n, \t or \xNN. */
static void visible(const char *text, char *out, size_t len)
{
  size_t n = 0;
  for (const unsigned char *c = (const unsigned char *)text; *c && n + 5 < len; c++)
    if (iscntrl(*c))
      n += (size_t)snprintf(out + n, len - n, *c == '\n' ? "\\n" : *c == '\t' ? "\\t" : "\\x%02x", *c);
    else
      out[n++] = (char)*c;
  out[n] = '\0';
}

int cli_set_add(cli_config_t *config, const char *text, char *err, size_t errlen)
{
  const char *eq = strchr(text, '=');
  const char *value = eq ? eq + 1 : "";
  char shown[600];
  visible(text, shown, sizeof shown);
  if (!eq || !is_name(text, (size_t)(eq - text)) || value[strspn(value, " \t")] == '\0') {
    snprintf(err, errlen, "--set takes NAME=VALUE, such as n=512, or NAME=\"V1 V2 ...\" to sweep, not '%s'", shown);
    return -1;
  }
  for (const char *c = value; *c; c++)
    if (iscntrl((unsigned char)*c) && *c != '\t') {
      snprintf(err, errlen, "--set '%s': the value holds a control character; separate values with spaces", shown);
      return -1;
    }
  if (config->nsets == CLI_MAX_SETS) {
    snprintf(err, errlen, "at most %d --set options", CLI_MAX_SETS);
    return -1;
  }
  config->sets[config->nsets++] = text;
  return 0;
}

int cli_shard_parse(cli_config_t *config, const char *text, char *err, size_t errlen)
{
  char *end = NULL;
  long index = strtol(text, &end, 10), count = 0;
  if (end && *end == '/' && isdigit((unsigned char)end[1]))
    count = strtol(end + 1, &end, 10);
  if (!isdigit((unsigned char)*text) || *end || count < 1 || count > 1000000 || index < 1 || index > count) {
    snprintf(err, errlen, "--shard takes I/N with 1 <= I <= N, such as 2/8 for the second of 8 shards, not '%s'", text);
    return -1;
  }
  config->shard_index = (int)index;
  config->shard_count = (int)count;
  return 0;
}

/* The scenario's parameter `name` (the first `len` characters), added empty when there is none; NULL when out of
 * memory. */
static scn_param_t *param_named(scn_scenario_t *s, const char *name, size_t len)
{
  for (size_t j = 0; j < s->nparams; j++)
    if (strlen(s->params[j].name) == len && strncmp(s->params[j].name, name, len) == 0)
      return &s->params[j];
  scn_param_t *more = realloc(s->params, (s->nparams + 1) * sizeof *more);
  if (!more)
    return NULL;
  s->params = more;
  scn_param_t *p = &s->params[s->nparams];
  *p = (scn_param_t){.name = strndup(name, len)};
  if (!p->name)
    return NULL;
  p->role = scn_builtin_role(p->name); /* a skeleton's own role is set by scn_check */
  s->nparams++;
  return p;
}

static void free_values(scn_param_t *p)
{
  for (size_t v = 0; v < p->nvalues; v++) {
    free(p->values[v]);
    if (p->paths)
      free(p->paths[v]);
  }
  free(p->values);
  free(p->paths);
  p->values = p->paths = NULL;
  p->nvalues = 0;
}

/* The whitespace-separated values of `text` into p (emptied first); paths too for the platform parameter, as given
 * (relative to the current folder). 0, or -1 when out of memory. */
static int set_values(scn_param_t *p, const char *text)
{
  free_values(p);
  int platform = p->role == SCN_ROLE_PLATFORM;
  for (const char *at = text + strspn(text, " \t"); *at; at += strspn(at, " \t")) {
    size_t len = strcspn(at, " \t");
    char **more = realloc(p->values, (p->nvalues + 1) * sizeof *more);
    char **paths = platform ? realloc(p->paths, (p->nvalues + 1) * sizeof *paths) : NULL;
    p->values = more ? more : p->values;
    p->paths = paths ? paths : p->paths;
    if (!more || (platform && !paths) || !(more[p->nvalues] = strndup(at, len)))
      return -1;
    if (platform && !(paths[p->nvalues] = strndup(at, len))) {
      free(more[p->nvalues]);
      return -1;
    }
    p->nvalues++;
    at += len;
  }
  return 0;
}

/* Whether every whitespace-separated value of `text` is already one of p's. */
static int among_values(const scn_param_t *p, const char *text)
{
  for (const char *at = text + strspn(text, " \t"); *at; at += strspn(at, " \t")) {
    size_t len = strcspn(at, " \t"), found = 0;
    for (size_t v = 0; v < p->nvalues && !found; v++)
      found = strlen(p->values[v]) == len && strncmp(p->values[v], at, len) == 0;
    if (!found)
      return 0;
    at += len;
  }
  return 1;
}

int cli_set_apply(const cli_config_t *config, scn_scenario_t *scenario, scn_error_t *err)
{
  for (size_t k = 0; k < config->nsets; k++) {
    const char *text = config->sets[k];
    const char *eq = strchr(text, '=');
    scn_param_t *p = param_named(scenario, text, (size_t)(eq - text));
    /* the file's references were measured on its own values: p picks among their figures, a subset of a parameter's
     * values keeps them, anything else leaves out those that do not name the parameter */
    if (p && p->role != SCN_ROLE_PROCESSES && !among_values(p, eq + 1))
      scn_references_drop_unless_where(scenario, p->name);
    if (!p || set_values(p, eq + 1) != 0)
      return scn_fail(err, scenario->path, 0, "out of memory");
    scn_zip_leave(p);      /* its own values now: neither paired nor computed */
    p->line = -(int)k - 1; /* cli_set_blame's mark */
    p->swept = p->nvalues > 1 || p->swept;
    for (size_t v = 0; p->paths && v < p->nvalues; v++)
      if (access(p->paths[v], R_OK) != 0)
        return scn_fail(err, scenario->path, p->line,
                        "cannot read platform file '%s'; check the path, which is "
                        "relative to the current folder",
                        p->paths[v]);
  }
  return 0;
}

int cli_set_gave(const scn_param_t *p)
{
  return p && p->line < 0;
}

void cli_set_blame(const cli_config_t *config, scn_error_t *err)
{
  if (err->line >= 0 || (size_t)(-err->line - 1) >= config->nsets)
    return;
  snprintf(err->file, sizeof err->file, "--set %s", config->sets[-err->line - 1]);
  err->line = 0;
}
