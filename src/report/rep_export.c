/* Machine-readable results: CSV (one row per point) and JSON (points with their per-process views), carrying the
 * scenario and platform names with the same figures as the terminal report. */
#include "rep_carnival.h"
#include "rep_report.h"

#include <math.h>
#include <string.h>

static const char *base_name(const char *path)
{
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
static void csv_field(FILE *out, const char *text)
{
  if (!strpbrk(text, ",\"\r\n")) {
    fputs(text, out);
    return;
  }
  fputc('"', out);
  for (const char *c = text; *c; c++)
    fprintf(out, *c == '"' ? "\"\"" : "%c", *c);
  fputc('"', out);
}

/* The leading fields of a row: scenario, the point's platform, skeleton and the point's parameter values. */
static void csv_point(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  const scn_scenario_t *s = study->scenario;
  csv_field(out, s->name);
  fputc(',', out);
  csv_field(out, base_name(stu_platform(study, point)));
  fputc(',', out);
  csv_field(out, s->skeleton);
  for (size_t j = 0; j < s->nparams; j++) {
    fputc(',', out);
    csv_field(out, point->values[j]);
  }
}

static void csv_header(FILE *out, const stu_study_t *study)
{
  const scn_scenario_t *s = study->scenario;
  fprintf(out, "scenario,platform,skeleton");
  for (size_t j = 0; j < s->nparams; j++)
    fprintf(out, ",%s", s->params[j].name);
}

/* The message view: one row per (point, size, distance). */
static int csv_messages(FILE *out, const stu_study_t *study)
{
  csv_header(out, study);
  fprintf(out, ",bytes,hops,count,mean_s,min_s,max_s\n");
  for (size_t i = 0; i < study->npoints; i++)
    for (size_t g = 0; g < study->points[i].nmsgs; g++) {
      const met_msg_stat_t *m = &study->points[i].msgs[g];
      csv_point(out, study, &study->points[i]);
      fprintf(out, ",%.0f,%d,%zu,%.9g,%.9g,%.9g\n", m->bytes, m->hops, m->count, m->mean, m->min, m->max);
    }
  return ferror(out) ? -1 : 0;
}

/* The bottleneck columns (seed 001 §3.5): components, sub-components, B-ratios, ratios, utilisation, verdict. */
static void csv_breakdown_header(FILE *out)
{
  for (int c = 0; c < MET_COMP_COUNT; c++)
    fprintf(out, ",%s", met_component_name(c));
  for (int s = 0; s < MET_SUB_COUNT; s++)
    fprintf(out, ",%s", met_sub_name(s));
  for (int c = 0; c < MET_COMP_COUNT; c++)
    fprintf(out, ",b_%s", met_component_name(c));
  fprintf(out, ",comm_comp_ratio,mem_proc_ratio,utilisation,dominant,bottleneck,cause");
}

static void csv_breakdown(FILE *out, const met_breakdown_t *b)
{
  for (int c = 0; c < MET_COMP_COUNT; c++)
    fprintf(out, ",%.9g", b->component[c]);
  for (int s = 0; s < MET_SUB_COUNT; s++)
    fprintf(out, ",%.9g", b->sub[s]);
  for (int c = 0; c < MET_COMP_COUNT; c++)
    fprintf(out, ",%.9g", b->b_ratio[c]);
  met_sub_t cause;
  met_component_t dominant = met_bottleneck_dominant(b, &cause);
  fprintf(out, ",%.9g,%.9g,%.9g,%s,%s,%s", b->comm_comp_ratio, b->mem_proc_ratio, b->utilisation,
          met_component_name(dominant), b->b_ratio[dominant] > 1 ? "yes" : "no", met_sub_name(cause));
}

/* The model's columns and the skeleton's warning, for skeletons that have a model or give advice. */
static int has_model_columns(const stu_study_t *study)
{
  return study->skeleton && (study->skeleton->model || study->skeleton->advise);
}

/* A number, or an empty field where there is none. */
static void csv_number(FILE *out, double x)
{
  if (isfinite(x))
    fprintf(out, ",%.9g", x);
  else
    fputc(',', out);
}

static void csv_model(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  if (!has_model_columns(study))
    return;
  csv_number(out, point->t_model);
  csv_number(out, rep_model_diff(point));
  fputc(',', out);
  csv_field(out, point->warning);
}

/* The cause-effect view: one row per (point, wait-map line). */
static int csv_cause_effect(FILE *out, const stu_study_t *study)
{
  csv_header(out, study);
  rep_carnival_csv_head(out);
  for (size_t i = 0; i < study->npoints; i++)
    rep_carnival_csv_rows(out, study, &study->points[i], csv_point);
  return ferror(out) ? -1 : 0;
}

int rep_csv(FILE *out, const stu_study_t *study)
{
  if (study->view == APP_VIEW_CAUSE_EFFECT)
    return csv_cause_effect(out, study);
  if (study->view == APP_VIEW_MESSAGES)
    return csv_messages(out, study);
  csv_header(out, study);
  fprintf(out, ",t_seq,t_par,speedup,efficiency,overhead");
  for (int j = 0; j < MET_OVH_COUNT; j++)
    fprintf(out, ",ovh_%s", met_overhead_name(j));
  fprintf(out, ",granularity,messages");
  csv_breakdown_header(out);
  if (has_model_columns(study))
    fprintf(out, ",t_model,model_diff,warning");
  fputc('\n', out);
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    const met_eppa_t *e = &point->eppa;
    csv_point(out, study, point);
    fprintf(out, ",%.9g,%.9g,%.9g,%.9g,%.9g", e->t_seq, e->t_par, e->speedup, e->efficiency, e->overhead);
    for (int j = 0; j < MET_OVH_COUNT; j++)
      fprintf(out, ",%.9g", e->ovh_ratio[j]);
    fprintf(out, isinf(e->granularity) ? ",inf" : ",%.9g", e->granularity);
    fprintf(out, ",%zu", point->messages);
    csv_breakdown(out, &point->breakdown);
    csv_model(out, study, point);
    fputc('\n', out);
  }
  return ferror(out) ? -1 : 0;
}

static void json_string(FILE *out, const char *text)
{
  fputc('"', out);
  for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
    if (*c == '"' || *c == '\\')
      fprintf(out, "\\%c", *c);
    else if (*c < 0x20)
      fprintf(out, "\\u%04x", *c);
    else
      fputc(*c, out);
  }
  fputc('"', out);
}

/* A number, or null where JSON has no value for it (infinite granularity). */
static void json_number(FILE *out, double x)
{
  if (isfinite(x))
    fprintf(out, "%.9g", x);
  else
    fputs("null", out);
}

static void json_ratios(FILE *out, const double *ratio)
{
  fputc('{', out);
  for (int j = 0; j < MET_OVH_COUNT; j++) {
    fprintf(out, "%s\"%s\": ", j ? ", " : "", met_overhead_name(j));
    json_number(out, ratio[j]);
  }
  fputc('}', out);
}

/* ",\n "key": [{...}, ...]" with one object per item, written by item(out, point, index). */
static void json_array(FILE *out, const char *key, const stu_point_t *point, size_t count,
                       void (*item)(FILE *, const stu_point_t *, size_t))
{
  fprintf(out, ",\n     \"%s\": [", key);
  for (size_t i = 0; i < count; i++) {
    fprintf(out, "%s\n       {", i ? "," : "");
    item(out, point, i);
    fputc('}', out);
  }
  fprintf(out, "]");
}

static void json_process(FILE *out, const stu_point_t *point, size_t rank)
{
  const met_eppa_proc_t *proc = &point->procs[rank];
  fprintf(out, "\"rank\": %zu, \"work\": ", rank);
  json_number(out, proc->work);
  fprintf(out, ", \"overhead_ratios\": ");
  json_ratios(out, proc->ovh_ratio);
}

static void json_message(FILE *out, const stu_point_t *point, size_t group)
{
  const met_msg_stat_t *m = &point->msgs[group];
  fprintf(out, "\"bytes\": %.0f, \"hops\": %d, \"count\": %zu, \"mean\": ", m->bytes, m->hops, m->count);
  json_number(out, m->mean);
  fprintf(out, ", \"min\": ");
  json_number(out, m->min);
  fprintf(out, ", \"max\": ");
  json_number(out, m->max);
}

/* "name": {"key": number, ...} for `count` named numbers. */
static void json_numbers(FILE *out, const char *name, const char *(*key)(int), const double *values, int count)
{
  fprintf(out, "\"%s\": {", name);
  for (int i = 0; i < count; i++) {
    fprintf(out, "%s\"%s\": ", i ? ", " : "", key(i));
    json_number(out, values[i]);
  }
  fputc('}', out);
}

static const char *component_key(int c)
{
  return met_component_name((met_component_t)c);
}

static const char *sub_key(int s)
{
  return met_sub_name((met_sub_t)s);
}

/* The bottleneck view of a point. */
static void json_breakdown(FILE *out, const met_breakdown_t *b)
{
  fprintf(out, ",\n     \"bottleneck\": {");
  json_numbers(out, "components", component_key, b->component, MET_COMP_COUNT);
  fprintf(out, ",\n       ");
  json_numbers(out, "subcomponents", sub_key, b->sub, MET_SUB_COUNT);
  fprintf(out, ",\n       ");
  json_numbers(out, "b_ratios", component_key, b->b_ratio, MET_COMP_COUNT);
  met_sub_t cause;
  met_component_t dominant = met_bottleneck_dominant(b, &cause);
  fprintf(out, ",\n       \"idle\": %.9g, \"comm_comp_ratio\": %.9g, \"mem_proc_ratio\": %.9g, "
               "\"utilisation\": %.9g, \"dominant\": \"%s\", \"bottleneck\": %s, \"cause\": \"%s\"}",
          b->idle, b->comm_comp_ratio, b->mem_proc_ratio, b->utilisation, met_component_name(dominant),
          b->b_ratio[dominant] > 1 ? "true" : "false", met_sub_name(cause));
}

/* The lost-cycle figures of a point. */
static void json_lost_cycles(FILE *out, const stu_point_t *point)
{
  const met_eppa_t *e = &point->eppa;
  fprintf(out, ", \"t_seq\": ");
  json_number(out, e->t_seq);
  const char *names[] = {"t_par", "speedup", "efficiency", "overhead"};
  const double values[] = {e->t_par, e->speedup, e->efficiency, e->overhead};
  for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) {
    fprintf(out, ", \"%s\": ", names[k]);
    json_number(out, values[k]);
  }
  fprintf(out, ",\n     \"overhead_ratios\": ");
  json_ratios(out, e->ovh_ratio);
  fprintf(out, ", \"granularity\": ");
  json_number(out, e->granularity);
  json_breakdown(out, &point->breakdown);
  if (point->procs)
    json_array(out, "per_process", point, (size_t)point->p, json_process);
}

/* The model's time, its difference from T_par and the skeleton's warning (null where there is none). */
static void json_model(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  if (!has_model_columns(study))
    return;
  fprintf(out, ",\n     \"t_model\": ");
  json_number(out, point->t_model);
  fprintf(out, ", \"model_diff\": ");
  json_number(out, rep_model_diff(point));
  fprintf(out, ", \"warning\": ");
  if (point->warning[0])
    json_string(out, point->warning);
  else
    fputs("null", out);
}

static void json_point(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  const scn_scenario_t *s = study->scenario;
  fprintf(out, "    {\"params\": {");
  for (size_t j = 0; j < s->nparams; j++) {
    fprintf(out, "%s", j ? ", " : "");
    json_string(out, s->params[j].name);
    fprintf(out, ": ");
    json_string(out, point->values[j]);
  }
  fprintf(out, "},\n     \"p\": %d, \"messages\": %zu", point->p, point->messages);
  if (study->view == APP_VIEW_CAUSE_EFFECT) {
    rep_carnival_json(out, point, json_string);
  } else if (study->view == APP_VIEW_MESSAGES) {
    fprintf(out, ", \"t_par\": ");
    json_number(out, point->t_par);
    json_array(out, "messages_by_size", point, point->nmsgs, json_message);
  } else {
    json_lost_cycles(out, point);
    json_model(out, study, point);
  }
  fprintf(out, "}");
}

int rep_json(FILE *out, const stu_study_t *study)
{
  const scn_scenario_t *s = study->scenario;
  fprintf(out, "{\n  \"scenario\": ");
  json_string(out, s->name);
  fprintf(out, ",\n  \"platform\": ");
  json_string(out, base_name(s->platform));
  fprintf(out, ",\n  \"skeleton\": ");
  json_string(out, s->skeleton);
  fprintf(out, ",\n  \"points\": [\n");
  for (size_t i = 0; i < study->npoints; i++) {
    json_point(out, study, &study->points[i]);
    fprintf(out, "%s\n", i + 1 < study->npoints ? "," : "");
  }
  fprintf(out, "  ]\n}\n");
  return ferror(out) ? -1 : 0;
}
