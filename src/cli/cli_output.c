/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Output checks that leave the filesystem as they found it: an empty --svg folder made before a sweep that then fails
 * or is interrupted would be litter, so the folder is made for the check and removed until the pictures are drawn;
 * and no output may replace an input or another output of the same run (compared by device and inode, links
 * followed, or by resolved name for what does not exist yet). */
#define _DEFAULT_SOURCE /* realpath, rmdir, stat, dirent */

#include "cli_output.h"
#include "cli_exit.h"
#include "rep_pictures.h"
#include "rep_report.h"
#include "sim_ti.h"

#include <dirent.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The length of the longest prefix of `path` (cut at a '/') that exists, so that what lies beyond it is new. */
static size_t existing_prefix(const char *path)
{
  char copy[4096];
  struct stat st;
  snprintf(copy, sizeof copy, "%s", path);
  for (size_t len = strlen(copy); len > 0; len--) {
    if (copy[len] != '/' && copy[len] != '\0')
      continue;
    char kept = copy[len];
    copy[len] = '\0';
    int there = stat(copy, &st) == 0;
    copy[len] = kept;
    if (there)
      return len;
  }
  return 0;
}

/* Removes the folders of `path` beyond its first `keep` characters, deepest first. */
static void remove_new_folders(const char *path, size_t keep)
{
  char copy[4096];
  snprintf(copy, sizeof copy, "%s", path);
  for (size_t len = strlen(copy); len > keep; len--)
    if (copy[len] == '/' || copy[len] == '\0') {
      copy[len] = '\0';
      if (rmdir(copy) != 0 && errno != ENOENT)
        return;
    }
}

int cli_folder_probe(const char *dir, char *err, size_t errlen)
{
  size_t keep = existing_prefix(dir);
  int rc = rep_pictures_folder(dir, err, errlen);
  remove_new_folders(dir, keep);
  return rc;
}

/* The attributes of a platform that name a file SimGrid reads: file (<trace file>, <include file>) and *_file. */
#define NAMED_FILES "//@*[local-name() = 'file' or substring(local-name(), string-length(local-name()) - 4) = '_file']"

/* One file or folder of the run: an input, an output file, an output folder (writing the names that match `pattern`
 * beneath it) or the cache folder. */
typedef enum file_kind { FILE_INPUT = 0, FILE_OUTPUT, FILE_FOLDER, FILE_CACHE } file_kind_t;

typedef struct run_file {
  file_kind_t kind;
  char *what;     /* "the scenario", "--csv", ... */
  char *path;     /* as given, for messages */
  char *resolved; /* absolute, links resolved as far as the path exists */
  const char *pattern;
  int moved_whole; /* a sweep's folder, set aside whole while the sweep writes a new one (cli_results.c) */
  int exists;
  dev_t dev;
  ino_t ino;
} run_file_t;

struct cli_files {
  run_file_t *files;
  size_t n;
};

cli_files_t *cli_files_new(void)
{
  return calloc(1, sizeof(cli_files_t));
}

void cli_files_free(cli_files_t *files)
{
  for (size_t i = 0; files && i < files->n; i++) {
    free(files->files[i].what);
    free(files->files[i].path);
    free(files->files[i].resolved);
  }
  if (files)
    free(files->files);
  free(files);
}

/* `path` made absolute with its links resolved: realpath of its longest existing prefix, then the rest as written. A
 * new string, or NULL when out of memory. */
static char *resolve(const char *path)
{
  char copy[4096];
  char base[PATH_MAX];
  snprintf(copy, sizeof copy, "%s", path);
  size_t keep = existing_prefix(copy);
  char kept = copy[keep];
  copy[keep] = '\0';
  const char *prefix = realpath(keep ? copy : copy[0] == '/' ? "/" : ".", base) ? base : copy;
  copy[keep] = kept;
  const char *rest = copy + keep + (copy[keep] == '/');
  size_t len = strlen(prefix) + strlen(rest) + 2;
  char *out = malloc(len);
  if (out)
    snprintf(out, len, "%s%s%s", prefix, *rest && strcmp(prefix, "/") != 0 ? "/" : "", rest);
  return out;
}

static int add(cli_files_t *files, file_kind_t kind, const char *what, const char *path, const char *pattern)
{
  run_file_t *grown = realloc(files->files, (files->n + 1) * sizeof *grown);
  if (!grown)
    return -1;
  files->files = grown;
  struct stat st;
  run_file_t *f = &grown[files->n];
  *f = (run_file_t){.kind = kind, .pattern = pattern, .exists = stat(path, &st) == 0};
  f->dev = f->exists ? st.st_dev : 0;
  f->ino = f->exists ? st.st_ino : 0;
  f->what = strdup(what);
  f->path = strdup(path);
  f->resolved = resolve(path);
  files->n++;
  return f->what && f->path && f->resolved ? 0 : -1;
}

int cli_files_input(cli_files_t *files, const char *what, const char *path)
{
  return path ? add(files, FILE_INPUT, what, path, NULL) : 0;
}

int cli_files_input_folder(cli_files_t *files, const char *what, const char *dir)
{
  DIR *d = opendir(dir);
  int rc = 0;
  for (struct dirent *e; rc == 0 && d && (e = readdir(d));) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode))
      rc = add(files, FILE_INPUT, what, path, NULL);
  }
  if (d)
    closedir(d);
  return rc;
}

int cli_files_cache(cli_files_t *files, const char *dir)
{
  return dir ? add(files, FILE_CACHE, "the cache of finished points", dir, NULL) : 0;
}

/* Whether `inner` (resolved) lies beneath folder `outer` (resolved), its part below into *rest. */
static int beneath(const char *outer, const char *inner, const char **rest)
{
  size_t len = strlen(outer);
  if (strncmp(outer, inner, len) != 0 || (inner[len] != '/' && strcmp(outer, "/") != 0))
    return 0;
  *rest = inner + len + (inner[len] == '/');
  return 1;
}

/* Whether output folder `folder` writes the file at `path` (resolved): beneath it with a name of its pattern. */
static int writes_into(const run_file_t *folder, const char *path)
{
  const char *rest;
  return beneath(folder->resolved, path, &rest) && fnmatch(folder->pattern, rest, 0) == 0;
}

static int same_file(const run_file_t *a, const run_file_t *b)
{
  return (a->exists && b->exists && a->dev == b->dev && a->ino == b->ino) || strcmp(a->resolved, b->resolved) == 0;
}

/* Whether the new output `o` clashes with `f`, a file of the run added before it. */
static int clashes(const run_file_t *o, const run_file_t *f)
{
  const char *rest;
  if (f->kind == FILE_CACHE)
    return same_file(o, f) || beneath(f->resolved, o->resolved, &rest);
  if (o->moved_whole && f->kind == FILE_INPUT && beneath(o->resolved, f->resolved, &rest))
    return 1; /* the input would be moved aside with the folder while the sweep reads it */
  if (o->kind == FILE_FOLDER && f->kind == FILE_FOLDER) /* the same folder, overlapping names ("point-*" twice) */
    return same_file(o, f) && (fnmatch(o->pattern, f->pattern, 0) == 0 || fnmatch(f->pattern, o->pattern, 0) == 0);
  if (o->kind == FILE_FOLDER)
    return writes_into(o, f->resolved);
  if (f->kind == FILE_FOLDER)
    return writes_into(f, o->resolved);
  return same_file(o, f);
}

/* Whether `path` can be an output of `kind`: a folder output not a file; an output not there yet in a folder that
 * exists when `in_folder` (a file; a folder made without its parents). 0, or -1 with the message naming the option:
 * a usage error found before anything runs. */
static int check_shape(file_kind_t kind, const char *what, const char *path, int in_folder, char *err, size_t errlen)
{
  struct stat st;
  char parent[4096];
  snprintf(parent, sizeof parent, "%s", path);
  char *slash = strrchr(parent, '/');
  if (slash)
    slash[slash == parent] = '\0'; /* "/x" keeps "/" */
  int there = stat(path, &st) == 0;
  if (kind == FILE_FOLDER && there && !S_ISDIR(st.st_mode))
    snprintf(err, errlen, "%s '%s' is not a folder; give a folder, which is made if missing", what, path);
  else if (in_folder && !there && slash && (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)))
    snprintf(err, errlen, "%s '%s': '%s' %s; make that folder first or give another path", what, path, parent,
             stat(parent, &st) == 0 ? "is not a folder" : "does not exist");
  else
    return 0;
  return -1;
}

/* Output `path` added after its checks: shape (check_shape) and no clash with what was added before. `moved_whole`:
 * a sweep's folder, set aside whole while it is written. 0, or -1 with the message. */
static int add_output(cli_files_t *files, file_kind_t kind, const char *what, const char *path, const char *pattern,
                      int in_folder, int moved_whole, char *err, size_t errlen)
{
  if (!path || strcmp(path, "-") == 0) /* standard output replaces nothing */
    return 0;
  if (check_shape(kind, what, path, in_folder, err, errlen) != 0)
    return -1;
  if (add(files, kind, what, path, pattern) != 0) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  run_file_t *o = &files->files[files->n - 1];
  o->moved_whole = moved_whole;
  for (size_t i = 0; i + 1 < files->n; i++) {
    const run_file_t *f = &files->files[i];
    if (!clashes(o, f))
      continue;
    snprintf(err, errlen, "%s '%s' would %s %s '%s'; give %s another %s", o->what, o->path,
             f->kind == FILE_CACHE                     ? "write inside"
             : f->kind == FILE_INPUT && o->moved_whole ? "move aside, while the sweep reads it,"
             : f->kind == FILE_INPUT                   ? "replace"
                                                       : "write over",
             f->what, f->path, o->what, o->kind == FILE_FOLDER ? "folder" : "name");
    return -1;
  }
  return 0;
}

int cli_files_output(cli_files_t *files, const char *what, const char *path, char *err, size_t errlen)
{
  return add_output(files, FILE_OUTPUT, what, path, NULL, 1, 0, err, errlen);
}

int cli_files_output_folder(cli_files_t *files, const char *what, const char *dir, const char *pattern, char *err,
                            size_t errlen)
{
  return add_output(files, FILE_FOLDER, what, dir, pattern, 0, 0, err, errlen);
}

int cli_files_sweep_folder(cli_files_t *files, const char *what, const char *dir, const char *pattern, char *err,
                           size_t errlen)
{
  return add_output(files, FILE_FOLDER, what, dir, pattern, 1, 1, err, errlen);
}

/* The files a skeleton's path parameter names: the file, and when it is a TI trace's index, the files it lists. */
static int add_path_param(cli_files_t *files, const scn_param_t *param)
{
  char what[160];
  char err[1200];
  snprintf(what, sizeof what, "the file of parameter '%s'", param->name);
  int rc = 0;
  for (size_t v = 0; rc == 0 && v < param->nvalues; v++) {
    sim_ti_trace_t *trace = NULL;
    rc = cli_files_input(files, what, param->values[v]);
    if (sim_ti_open(param->values[v], &trace, err, sizeof err) != 0)
      continue; /* not a trace: the run says what is wrong with it */
    for (int i = 0; rc == 0 && i < sim_ti_trace_files(trace); i++)
      rc = cli_files_input(files, "a trace file it lists", sim_ti_trace_path(trace, i));
    sim_ti_trace_free(trace);
  }
  return rc;
}

/* A platform and the files it names (speed_file, bandwidth_file, state_file, <trace file>...), which SimGrid finds
 * beside the platform, else from the current folder. */
static int add_platform(cli_files_t *files, const char *platform)
{
  int rc = cli_files_input(files, "the platform", platform);
  xmlDoc *doc = rc == 0 ? xmlReadFile(platform, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING) : NULL;
  xmlXPathContext *xpath = doc ? xmlXPathNewContext(doc) : NULL;
  xmlXPathObject *found = xpath ? xmlXPathEvalExpression(BAD_CAST NAMED_FILES, xpath) : NULL;
  const char *slash = strrchr(platform, '/');
  for (int i = 0; rc == 0 && found && found->nodesetval && i < found->nodesetval->nodeNr; i++) {
    xmlChar *value = xmlNodeGetContent(found->nodesetval->nodeTab[i]);
    char path[4096];
    snprintf(path, sizeof path, "%.*s%s", value && value[0] != '/' && slash ? (int)(slash - platform + 1) : 0, platform,
             value ? (const char *)value : "");
    rc = cli_files_input(files, "a file the platform names", access(path, F_OK) == 0 ? path : (const char *)value);
    xmlFree(value);
  }
  xmlXPathFreeObject(found);
  xmlXPathFreeContext(xpath);
  xmlFreeDoc(doc);
  return rc;
}

int cli_files_scenario(cli_files_t *files, const scn_scenario_t *scenario)
{
  int rc = cli_files_input(files, "the scenario", scenario->path);
  rc = rc ? rc : add_platform(files, scenario->platform);
  for (size_t i = 0; rc == 0 && i < scenario->nparams; i++) {
    const scn_param_t *param = &scenario->params[i];
    for (size_t v = 0; rc == 0 && param->paths && v < param->nvalues; v++)
      rc = add_platform(files, param->paths[v]);
    if (rc == 0 && param->is_path)
      rc = add_path_param(files, param);
  }
  return rc;
}

int cli_files_output_csv(cli_files_t *files, const char *what, const char *csv, char *err, size_t errlen)
{
  int rc = cli_files_output(files, what, csv, err, errlen);
  for (size_t t = 0; rc == 0 && csv && strcmp(csv, "-") != 0 && rep_csv_table_name(t); t++) {
    char path[4096];
    char table[160];
    rep_csv_table_path(csv, rep_csv_table_name(t), path, sizeof path);
    snprintf(table, sizeof table, "%s's %s table", what, rep_csv_table_name(t));
    rc = cli_files_output(files, table, path, err, errlen);
  }
  return rc;
}

int cli_files_report(cli_files_t *files, const scn_scenario_t *scenario, const char *what, const char *path, char *err,
                     size_t errlen)
{
  char message[1200];
  int rc = strcmp(what, "<report csv>") == 0 ? cli_files_output_csv(files, what, path, message, sizeof message)
                                             : cli_files_output(files, what, path, message, sizeof message);
  if (rc != 0)
    snprintf(err, errlen, "%s:%d: %s", scenario->path, scenario->report_line, message);
  return rc;
}

/* The folders a run made (cli_folder_make), removed again when its outputs are rolled back. */
typedef struct made {
  char path[4096];
  size_t keep;
} made_t;

static int made_keep(void *state, char *err, size_t errlen)
{
  free(state);
  return 0;
}

static void made_remove(void *state)
{
  const made_t *made = state;
  remove_new_folders(made->path, made->keep);
  free(state);
}

int cli_folder_make(const char *dir, char *err, size_t errlen)
{
  made_t *made = malloc(sizeof *made);
  if (!made) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  snprintf(made->path, sizeof made->path, "%s", dir);
  made->keep = existing_prefix(dir);
  if (rep_pictures_folder(dir, err, errlen) != 0) {
    made_remove(made);
    return -1;
  }
  return rep_file_defer(made_keep, made_remove, made, err, errlen);
}

static int is_stdout(const char *path)
{
  return path && strcmp(path, "-") == 0;
}

/* Opens one output file (none when path is NULL). A folder is refused here: renaming onto it would fail only after
 * every point had been simulated. */
int cli_open_output(const char *path, rep_file_t **file)
{
  char message[1200];
  struct stat st;
  if (!path)
    return EXIT_OK;
  if (!*path)
    snprintf(message, sizeof message, "an output path is empty; give a file name");
  else if (!is_stdout(path) && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    snprintf(message, sizeof message, "cannot write '%s': it is a folder; give a file name", path);
  else if (!is_stdout(path) && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) /* renaming onto a device replaces it */
    snprintf(message, sizeof message, "cannot write '%s': not a regular file (a device, a FIFO); give a file name",
             path);
  else if ((*file = rep_file_open(path, message, sizeof message)))
    return EXIT_OK;
  fprintf(stderr, "simrun: error: %s\n", message);
  return EXIT_INPUT;
}

int cli_gate_output(const char *what, const char *output, const char *const inputs[][2], size_t ninputs,
                    rep_file_t **file)
{
  char err[2600] = "out of memory";
  cli_files_t *files = cli_files_new();
  int rc = !files;
  for (size_t i = 0; i < ninputs && !rc; i++)
    rc = cli_files_input(files, inputs[i][0], inputs[i][1]) != 0;
  rc = rc || cli_files_output(files, what, output, err, sizeof err) != 0;
  cli_files_free(files);
  if (rc) {
    fprintf(stderr, "simrun: error: %s\n", err);
    return EXIT_INPUT;
  }
  rep_file_t *opened = NULL;
  int status = cli_open_output(output, &opened);
  if (file)
    *file = opened;
  else
    rep_file_abort(opened); /* opened only to show that it can be */
  return status;
}
