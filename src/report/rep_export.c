/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Machine-readable results: CSV (one row per point, the same core columns first for every skeleton; per-process,
 * per-message and wait-map rows in tables of their own) and JSON (points with their per-process views), carrying the
 * scenario and platform names with the same figures as the terminal report. Data dictionary: docs/results.md. */
#include "rep_carnival.h"
#include "rep_factors.h"
#include "rep_fits.h"
#include "bas_error.h"
#include "rep_dsm_tables.h"
#include "rep_group.h"
#include "rep_json.h"
#include "rep_phases.h"
#include "rep_pictures.h"
#include "rep_points.h"
#include "rep_messages.h"
#include "rep_processes.h"
#include "rep_references.h"
#include "rep_report.h"
#include "rep_wait.h"
#include "stu_cause_effect.h"
#include "stu_factors.h"
#include "stu_lost_cycles.h"
#include "stu_messages.h"
#include "stu_model.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static rep_provenance_t provenance; /* rep_set_provenance */

void rep_set_provenance(const rep_provenance_t *from)
{
  provenance = *from;
}

/* The FNV-1a hash (64 bits) of the scenario file's bytes, as 16 hex digits in `hex`; "" when it cannot be read. */
static void scenario_hash(const char *path, char hex[17])
{
  FILE *in = path ? fopen(path, "rb") : NULL;
  uint64_t h = 14695981039346656037u;
  hex[0] = '\0';
  if (!in)
    return;
  for (int c; (c = getc(in)) != EOF;)
    h = (h ^ (uint64_t)c) * 1099511628211u;
  if (!ferror(in))
    snprintf(hex, 17, "%016" PRIx64, h);
  fclose(in);
}

static const char *base_name(const char *path)
{
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* A column name: `prefix`, then `name` in lower case with '-' as '_' (so that it is an identifier in pandas, R and
 * SQL), then `unit`. */
static void csv_name(FILE *out, const char *prefix, const char *name, const char *unit)
{
  fprintf(out, ",%s", prefix);
  for (const char *c = name; *c; c++)
    fputc(*c == '-' ? '_' : (*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c), out);
  fputs(unit, out);
}

/* The key columns of every table: scenario, the point's platform, skeleton, the scenario's parameters but p (the
 * "platform" parameter as platform_file, its path as written), then p. */
static void csv_key_header(FILE *out, const stu_study_t *study)
{
  const scn_scenario_t *s = study->scenario;
  fprintf(out, "scenario,platform,skeleton");
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].role != SCN_ROLE_PROCESSES)
      csv_name(out, "", s->params[j].name, s->params[j].role == SCN_ROLE_PLATFORM ? "_file" : "");
  fprintf(out, ",p");
}

static void csv_key(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  const scn_scenario_t *s = study->scenario;
  rep_csv_field(out, s->name);
  fputc(',', out);
  rep_csv_field(out, base_name(stu_platform(study, point)));
  fputc(',', out);
  rep_csv_field(out, s->skeleton);
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].role != SCN_ROLE_PROCESSES) {
      fputc(',', out);
      rep_csv_field(out, point->values[j]);
    }
  fprintf(out, ",%d", point->p);
}

int rep_csv(FILE *out, const stu_study_t *study)
{
  csv_key_header(out, study);
  rep_schema_csv_head(out, &rep_points_schema, study);
  fputc('\n', out);
  for (size_t i = 0; i < study->npoints; i++) {
    const rep_at_t at = {study, &study->points[i], -1, NULL};
    csv_key(out, study, at.point);
    rep_schema_csv_row(out, &rep_points_schema, &at);
    fputc('\n', out);
  }
  return ferror(out) ? BAS_EIO : 0;
}

/* A table declared as data (rep_schema.h): the key columns, then the schema's, over its `count` rows (freed here). */
static void csv_schema_table(FILE *out, const stu_study_t *study, const rep_schema_t *schema, rep_at_t *rows,
                             size_t count)
{
  csv_key_header(out, study);
  rep_schema_csv_head(out, schema, study);
  fputc('\n', out);
  for (size_t r = 0; r < count; r++) {
    csv_key(out, study, rows[r].point);
    rep_schema_csv_row(out, schema, &rows[r]);
    fputc('\n', out);
  }
  free(rows);
}

/* The per-process table (rep_processes.h): one row per (point with a per-process view, rank). */
static void csv_processes(FILE *out, const stu_study_t *study)
{
  size_t count;
  rep_at_t *rows = rep_processes_rows(study, NULL, &count);
  csv_schema_table(out, study, &rep_processes_schema, rows, count);
}

/* The message-time table (rep_messages.h): one row per (point, size, distance). */
static void csv_messages(FILE *out, const stu_study_t *study)
{
  size_t count;
  rep_at_t *rows = rep_messages_rows(study, NULL, &count);
  csv_schema_table(out, study, &rep_messages_schema, rows, count);
}

/* The wait-map table (rep_dsm_tables.h): one row per (point, wait-map line). */
static void csv_waits(FILE *out, const stu_study_t *study)
{
  size_t count;
  rep_at_t *rows = rep_waits_rows(study, NULL, &count);
  csv_schema_table(out, study, &rep_waits_schema, rows, count);
}

/* The DSM time profiles (rep_dsm_tables.h; CARNIVAL's views, seed 002 Fig. 4): per point, a row per node and one for
 * all, a row per code scope and a row per DSM operation. */
static void csv_profiles(FILE *out, const stu_study_t *study)
{
  size_t count;
  rep_at_t *rows = rep_profiles_rows(study, NULL, NULL, &count);
  csv_schema_table(out, study, &rep_profiles_schema, rows, count);
}

/* The request table (rep_dsm_tables.h): one row per (point, request), every request with its 13 intervals. */
static void csv_requests(FILE *out, const stu_study_t *study)
{
  size_t count;
  rep_at_t *rows = rep_requests_rows(study, &count);
  csv_schema_table(out, study, &rep_requests_schema, rows, count);
}

/* The wait-state table (rep_wait.h): one row per (point with wait states, rank). */
static void csv_wait_states(FILE *out, const stu_study_t *study)
{
  size_t count;
  rep_at_t *rows = rep_wait_states_rows(study, NULL, 0, &count);
  csv_schema_table(out, study, &rep_wait_states_schema, rows, count);
}

/* The fits table (issue 27): one row per regression fit of the report, shown or not (met_fit_honest). */
typedef struct fit_out {
  FILE *out;
  const stu_study_t *study;
  int count;
} fit_out_t;

static void csv_fit_row(void *ctx, const rep_fit_row_t *row)
{
  fit_out_t *f = ctx;
  rep_fit_item_t item;
  const rep_at_t at = rep_fits_at(f->study, row, &item);
  rep_csv_field(f->out, f->study->scenario->name);
  rep_schema_csv_row(f->out, &rep_fits_schema, &at);
  fputc('\n', f->out);
}

static void csv_fits(FILE *out, const stu_study_t *study)
{
  fit_out_t f = {out, study, 0};
  fprintf(out, "scenario");
  rep_schema_csv_head(out, &rep_fits_schema, study);
  fputc('\n', out);
  rep_fits_each(study, csv_fit_row, &f);
}

static void count_fit(void *ctx, const rep_fit_row_t *row)
{
  (void)row;
  ((fit_out_t *)ctx)->count++;
}

/* Whether the study's report has a fit (shown or not): then its CSV gets the fits table. */
static int has_fits(const stu_study_t *study)
{
  fit_out_t f = {NULL, study, 0};
  return stu_has_view(study, MET_VIEW_LOST_CYCLES) && rep_fits_each(study, count_fit, &f) == 0 && f.count > 0;
}

/* The reference table (rep_references.h): one row per (point, reference figure that applies there at its p). */
static void csv_references(FILE *out, const stu_study_t *study)
{
  rep_references_t refs;
  csv_key_header(out, study);
  rep_schema_csv_head(out, &rep_references_schema, study);
  fputc('\n', out);
  if (rep_references_make(study, NULL, &refs) != 0)
    return;
  for (size_t r = 0; r < refs.count; r++) {
    csv_key(out, study, refs.at[r].point);
    rep_schema_csv_row(out, &rep_references_schema, &refs.at[r]);
    fputc('\n', out);
  }
  rep_references_free(&refs);
}

/* ",\n "references": [...]": the point's reference figures, as the reference table's rows (an empty list without). */
static void json_references(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  rep_references_t refs;
  fprintf(out, ",\n     \"references\": [");
  if (rep_references_make(study, point, &refs) == 0)
    for (size_t r = 0; r < refs.count; r++) {
      fprintf(out, "%s\n       {", r ? "," : "");
      rep_schema_json_row(out, &rep_references_schema, &refs.at[r], 1);
      fputc('}', out);
    }
  rep_references_free(&refs);
  fputc(']', out);
}

/* Whether a point before point `i` names the network model `net` (the same text whole: one model's text may begin
 * another's, as "cross-traffic off" begins "cross-traffic off; messages take the platform's eq. 4"). */
static int network_named_before(const stu_study_t *study, size_t i, const char *net)
{
  for (size_t k = 0; k < i; k++)
    if (strcmp(stu_model_network(&study->points[k]), net) == 0)
      return 1;
  return 0;
}

/* The network models the study's runs priced messages with (stu_model_network), each distinct one once, joined by
 * " | " (a sweep over platforms may have several), into out; "" when no point names one (a measured run). */
static void network_models(const stu_study_t *study, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < study->npoints; i++) {
    const char *net = stu_model_network(&study->points[i]);
    if (!*net || network_named_before(study, i, net))
      continue;
    int n = snprintf(out + used, len - used, "%s%s", used ? " | " : "", net);
    if (n < 0 || (size_t)n >= len - used)
      return;
    used += (size_t)n;
  }
}

/* The provenance keys of the JSON object (null where unknown). */
static void json_provenance(FILE *out, const stu_study_t *study)
{
  char hash[17];
  char networks[2048];
  scenario_hash(study->scenario->path, hash);
  network_models(study, networks, sizeof networks);
  const char *keys[] = {"simrun_version", "simgrid_version", "command", "scenario_hash", "network_model"};
  const char *values[] = {provenance.simrun_version, provenance.simgrid_version, provenance.command, hash, networks};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    fprintf(out, ",\n  \"%s\": ", keys[i]);
    if (values[i] && values[i][0])
      rep_json_string(out, values[i]);
    else
      fputs("null", out);
  }
}

/* The provenance table: one row for the run (the results' making is one observation, not one per point), keyed by
 * the scenario's name as the other tables. Kept apart so that the main table of two runs of the same scenario by
 * different command lines stays byte-identical. */
static void csv_provenance(FILE *out, const stu_study_t *study)
{
  char hash[17];
  char networks[2048];
  scenario_hash(study->scenario->path, hash);
  network_models(study, networks, sizeof networks);
  fprintf(out, "scenario,simrun_version,simgrid_version,command,scenario_hash,network_model\n");
  const char *fields[] = {
      study->scenario->name, provenance.simrun_version, provenance.simgrid_version, provenance.command, hash, networks};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    fputs(i ? "," : "", out);
    rep_csv_field(out, fields[i] ? fields[i] : "");
  }
  fputc('\n', out);
}

static int has_processes(const stu_study_t *study)
{
  for (size_t i = 0; i < study->npoints; i++)
    if (stu_procs(&study->points[i]))
      return 1;
  return 0;
}

static int has_messages(const stu_study_t *study)
{
  return stu_has_view(study, MET_VIEW_MESSAGES);
}

static int has_cause_effect(const stu_study_t *study)
{
  return stu_has_view(study, MET_VIEW_CAUSE_EFFECT);
}

/* The request table: asked for (--requests), every request of every point. */
static int has_requests(const stu_study_t *study)
{
  return has_cause_effect(study) && study->facts.requests;
}

static int has_references(const stu_study_t *study)
{
  return study->scenario->nrefs > 0;
}

/* The factor x factor view's rows (stu_factors.h) for the CSV and the JSON: head once, then row for each cell with a
 * point, p by p, then tail; nothing without the view. */
typedef struct factors_writer {
  void (*head)(FILE *out, const stu_study_t *study, const stu_factors_t *f);
  void (*row)(FILE *out, const stu_study_t *study, const stu_factors_t *f, const stu_factor_cell_t *cell, int first);
  const char *tail;
} factors_writer_t;

static void write_factors(FILE *out, const stu_study_t *study, const factors_writer_t *w)
{
  stu_factors_t f;
  if (stu_factors_collect(study, &f) == 1) {
    w->head(out, study, &f);
    int first = 1;
    for (size_t k = 0; k < f.np; k++)
      for (size_t b = 0; b < f.rows * f.cols; b++) {
        const stu_factor_cell_t *cell = stu_factors_cell(&f, k, b / f.cols, b % f.cols);
        if (cell->point)
          w->row(out, study, &f, cell, first);
        first = first && !cell->point;
      }
    fputs(w->tail, out);
  }
  stu_factors_free(&f);
}

static void csv_factors_head(FILE *out, const stu_study_t *study, const stu_factors_t *f)
{
  const scn_param_t *params = study->scenario->params;
  fprintf(out, "scenario");
  for (size_t i = 0; i < f->nfactors; i++)
    csv_name(out, "", params[f->param[i]].name, params[f->param[i]].role == SCN_ROLE_PLATFORM ? "_file" : "");
  rep_schema_csv_head(out, &rep_factors_schema, study);
  fputc('\n', out);
}

static void csv_factors_row(FILE *out, const stu_study_t *study, const stu_factors_t *f, const stu_factor_cell_t *cell,
                            int first)
{
  (void)first;
  const rep_at_t at = rep_factors_at(study, cell);
  rep_csv_field(out, study->scenario->name);
  for (size_t i = 0; i < f->nfactors; i++) {
    fputc(',', out);
    rep_csv_field(out, cell->point->values[f->param[i]]);
  }
  rep_schema_csv_row(out, &rep_factors_schema, &at);
  fputc('\n', out);
}

/* The factor x factor view, tidy: a row per point, a column per factor (named as in the key columns), then p, T_par,
 * speedup, the rank by T_par at that p and whether it is the best there (1; ties all 1). */
static void csv_factors(FILE *out, const stu_study_t *study)
{
  static const factors_writer_t csv = {csv_factors_head, csv_factors_row, ""};
  write_factors(out, study, &csv);
}

static int has_factors(const stu_study_t *study)
{
  stu_factors_t f;
  int has = stu_factors_collect(study, &f) == 1;
  stu_factors_free(&f);
  return has;
}

static int always(const stu_study_t *study)
{
  (void)study;
  return 1;
}

/* Every extra table, in the order they are written: its name, whether a study has it, its writer. */
static const struct csv_table {
  const char *suffix;
  int (*has)(const stu_study_t *);
  void (*write)(FILE *, const stu_study_t *);
} csv_tables[] = {{"processes", has_processes, csv_processes},
                  {"messages", has_messages, csv_messages},
                  {"waits", has_cause_effect, csv_waits},
                  {"profiles", has_cause_effect, csv_profiles},
                  {"requests", has_requests, csv_requests},
                  {"wait-states", rep_wait_any, csv_wait_states},
                  {"fits", has_fits, csv_fits},
                  {"references", has_references, csv_references},
                  {"factors", has_factors, csv_factors},
                  {"provenance", always, csv_provenance}};
enum { NTABLES = sizeof csv_tables / sizeof csv_tables[0] };

const char *rep_csv_table_name(size_t i)
{
  return i < NTABLES ? csv_tables[i].suffix : NULL;
}

void rep_csv_table_path(const char *csv_path, const char *table, char *path, size_t len)
{
  size_t stem = strlen(csv_path);
  if (stem > 4 && strcmp(csv_path + stem - 4, ".csv") == 0)
    stem -= 4;
  snprintf(path, len, "%.*s-%s.csv", (int)stem, csv_path, table);
}

int rep_csv_tables(const stu_study_t *study, const char *csv_path, char *err, size_t errlen)
{
  rep_file_t *files[NTABLES] = {NULL};
  char path[4096];
  int rc = 0;
  for (size_t t = 0; t < NTABLES && rc == 0; t++) {
    if (!csv_tables[t].has(study))
      continue;
    rep_csv_table_path(csv_path, csv_tables[t].suffix, path, sizeof path);
    if (!(files[t] = rep_file_open(path, err, errlen)))
      rc = -1;
    else
      csv_tables[t].write(rep_file_stream(files[t]), study);
  }
  for (size_t t = 0; t < NTABLES; t++) {
    if (rc == 0 && files[t])
      rc = rep_file_commit(files[t], err, errlen);
    else if (files[t])
      rep_file_abort(files[t]);
  }
  return rc;
}

/* ",\n "key": [{...}, ...]" with one object per item, written by item(out, study, point, index). */
static void json_array(FILE *out, const char *key, const stu_study_t *study, const stu_point_t *point, size_t count,
                       void (*item)(FILE *, const stu_study_t *, const stu_point_t *, size_t))
{
  fprintf(out, ",\n     \"%s\": [", key);
  for (size_t i = 0; i < count; i++) {
    fprintf(out, "%s\n       {", i ? "," : "");
    item(out, study, point, i);
    fputc('}', out);
  }
  fprintf(out, "]");
}

static void json_process(FILE *out, const stu_study_t *study, const stu_point_t *point, size_t rank)
{
  const rep_at_t at = {study, point, (int)rank, NULL};
  rep_schema_json_row(out, &rep_processes_schema, &at, 1);
}

static void json_message(FILE *out, const stu_study_t *study, const stu_point_t *point, size_t group)
{
  size_t count;
  const rep_at_t at = {study, point, -1, &stu_msgs(point, &count)[group]};
  rep_schema_json_row(out, &rep_messages_schema, &at, 1);
}

static void json_point(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  const scn_scenario_t *s = study->scenario;
  fprintf(out, "    {\"params\": {");
  for (size_t j = 0; j < s->nparams; j++) {
    fprintf(out, "%s", j ? ", " : "");
    rep_json_key(out, s->params[j].name);
    rep_json_value(out, point->values[j]);
  }
  fprintf(out, "},\n     \"platform\": ");
  rep_json_string(out, base_name(stu_platform(study, point)));
  fprintf(out, ", \"p\": %d", point->p);
  if (stu_has_view(study, MET_VIEW_CAUSE_EFFECT))
    rep_carnival_json(out, study, point);
  size_t nmsgs;
  stu_msgs(point, &nmsgs);
  json_array(out, "messages_by_size", study, point, stu_has_view(study, MET_VIEW_MESSAGES) ? nmsgs : 0, json_message);
  const rep_at_t at = {study, point, -1, NULL};
  rep_schema_json_row(out, &rep_points_schema, &at, 0);
  if (stu_has_view(study, MET_VIEW_LOST_CYCLES))
    json_array(out, "per_process", study, point, stu_procs(point) ? (size_t)point->p : 0, json_process);
  if (*point->t_seq_source) {
    fprintf(out, ", \"t_seq_source\": ");
    rep_json_string(out, point->t_seq_source);
  }
  if (rep_wait_any(study))
    rep_wait_json(out, study, point);
  if (rep_phases_any(study))
    rep_phases_json(out, study, point);
  json_references(out, study, point);
  fprintf(out, "}");
}

/* One fit as a JSON object in the top-level "fits" array: the fits table's row. */
static void json_fit(void *ctx, const rep_fit_row_t *row)
{
  fit_out_t *f = ctx;
  rep_fit_item_t item;
  const rep_at_t at = rep_fits_at(f->study, row, &item);
  fprintf(f->out, "%s\n    {", f->count++ ? "," : "");
  rep_schema_json_row(f->out, &rep_fits_schema, &at, 1);
  fputc('}', f->out);
}

static void json_factors_head(FILE *out, const stu_study_t *study, const stu_factors_t *f)
{
  fprintf(out, ",\n  \"factors\": {\"names\": [");
  for (size_t i = 0; i < f->nfactors; i++) {
    fputs(i ? ", " : "", out);
    rep_json_string(out, study->scenario->params[f->param[i]].name);
  }
  fprintf(out, "],\n   \"problem\": ["); /* the factors a rank holds equal (scn_param_sets_problem) */
  int first = 1;
  for (size_t i = 0; i < f->nfactors; i++)
    if (scn_param_sets_problem(study->scenario, f->param[i])) {
      fputs(first ? "" : ", ", out);
      rep_json_string(out, study->scenario->params[f->param[i]].name);
      first = 0;
    }
  fprintf(out, "],\n   \"rows\": [");
}

static void json_factors_row(FILE *out, const stu_study_t *study, const stu_factors_t *f, const stu_factor_cell_t *cell,
                             int first)
{
  fprintf(out, "%s\n    {", first ? "" : ",");
  for (size_t i = 0; i < f->nfactors; i++) {
    rep_json_key(out, study->scenario->params[f->param[i]].name);
    rep_json_value(out, cell->point->values[f->param[i]]);
    fputs(", ", out);
  }
  const rep_at_t at = rep_factors_at(study, cell);
  rep_schema_json_row(out, &rep_factors_schema, &at, 1);
  fputc('}', out);
}

/* ",\n "factors": {...}": the factor x factor view as csv_factors' rows, with the factors' names; nothing without it.
 */
static void json_factors(FILE *out, const stu_study_t *study)
{
  static const factors_writer_t json = {json_factors_head, json_factors_row, "]}"};
  write_factors(out, study, &json);
}

int rep_json(FILE *out, const stu_study_t *study)
{
  const scn_scenario_t *s = study->scenario;
  fprintf(out, "{\n  \"scenario\": ");
  rep_json_string(out, s->name);
  fprintf(out, ",\n  \"platform\": ");
  rep_json_string(out, base_name(s->platform));
  fprintf(out, ",\n  \"skeleton\": ");
  rep_json_string(out, s->skeleton);
  json_provenance(out, study);
  const char *left_out[] = {study->facts.no_breakdown, study->facts.no_anomaly_split};
  const char *views[] = {"bottleneck", "anomaly_split"};
  for (size_t v = 0; v < 2; v++)
    if (left_out[v]) { /* a view the study cannot give: its reason, never zeros */
      fprintf(out, ",\n  \"left_out_%s\": ", views[v]);
      rep_json_string(out, left_out[v]);
    }
  fprintf(out, ",\n  \"points\": [\n");
  for (size_t i = 0; i < study->npoints; i++) {
    json_point(out, study, &study->points[i]);
    fprintf(out, "%s\n", i + 1 < study->npoints ? "," : "");
  }
  fprintf(out, "  ]");
  if (rep_has_model(study)) {
    const rep_at_t at = {study, NULL, -1, NULL};
    fprintf(out, ",\n  \"model_summary\": {");
    rep_schema_json_row(out, &rep_model_schema, &at, 1);
    fputc('}', out);
  }
  json_factors(out, study);
  fprintf(out, ",\n  \"fits\": [");
  fit_out_t f = {out, study, 0};
  if (stu_has_view(study, MET_VIEW_LOST_CYCLES))
    rep_fits_each(study, json_fit, &f);
  fprintf(out, "%s]\n}\n", f.count ? "\n  " : "");
  return ferror(out) ? BAS_EIO : 0;
}
