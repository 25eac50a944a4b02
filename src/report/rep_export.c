/* Machine-readable results: CSV (one row per point) and JSON (points with their per-process views), carrying the
 * scenario and platform names with the same figures as the terminal report. */
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

int rep_csv(FILE *out, const stu_study_t *study)
{
  const scn_scenario_t *s = study->scenario;
  fprintf(out, "scenario,platform,skeleton");
  for (size_t j = 0; j < s->nparams; j++)
    fprintf(out, ",%s", s->params[j].name);
  fprintf(out, ",t_seq,t_par,speedup,efficiency,overhead");
  for (int j = 0; j < MET_OVH_COUNT; j++)
    fprintf(out, ",ovh_%s", met_overhead_name(j));
  fprintf(out, ",granularity\n");
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    const met_eppa_t *e = &point->eppa;
    csv_field(out, s->name);
    fputc(',', out);
    csv_field(out, base_name(s->platform));
    fputc(',', out);
    csv_field(out, s->skeleton);
    for (size_t j = 0; j < s->nparams; j++) {
      fputc(',', out);
      csv_field(out, point->values[j]);
    }
    fprintf(out, ",%.9g,%.9g,%.9g,%.9g,%.9g", e->t_seq, e->t_par, e->speedup, e->efficiency, e->overhead);
    for (int j = 0; j < MET_OVH_COUNT; j++)
      fprintf(out, ",%.9g", e->ovh_ratio[j]);
    fprintf(out, isinf(e->granularity) ? ",inf\n" : ",%.9g\n", e->granularity);
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

static void json_processes(FILE *out, const stu_point_t *point)
{
  fprintf(out, ",\n     \"per_process\": [");
  for (int rank = 0; rank < point->p; rank++) {
    const met_eppa_proc_t *proc = &point->procs[rank];
    fprintf(out, "%s\n       {\"rank\": %d, \"work\": ", rank ? "," : "", rank);
    json_number(out, proc->work);
    fprintf(out, ", \"overhead_ratios\": ");
    json_ratios(out, proc->ovh_ratio);
    fputc('}', out);
  }
  fprintf(out, "]");
}

static void json_point(FILE *out, const stu_study_t *study, const stu_point_t *point)
{
  const scn_scenario_t *s = study->scenario;
  const met_eppa_t *e = &point->eppa;
  fprintf(out, "    {\"params\": {");
  for (size_t j = 0; j < s->nparams; j++) {
    fprintf(out, "%s", j ? ", " : "");
    json_string(out, s->params[j].name);
    fprintf(out, ": ");
    json_string(out, point->values[j]);
  }
  fprintf(out, "},\n     \"p\": %d, \"t_seq\": ", point->p);
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
  if (point->procs)
    json_processes(out, point);
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
