/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Groups of points and the references that apply to them, shared by the report's tables. */
#include "rep_group.h"
#include "stu_lost_cycles.h"

#include <math.h>
#include <string.h>

int rep_same_group(const stu_study_t *study, const stu_point_t *a, const stu_point_t *b)
{
  return stu_same_except(study, a, b, scn_role_index(study->scenario, SCN_ROLE_PROCESSES));
}

int rep_sweeps_more_than_p(const stu_study_t *study)
{
  const scn_scenario_t *s = study->scenario;
  for (size_t j = 0; j < s->nparams; j++)
    if (s->params[j].nvalues > 1 && s->params[j].role != SCN_ROLE_PROCESSES)
      return 1;
  return 0;
}

int rep_opens_group(const stu_study_t *study, size_t i)
{
  for (size_t k = 0; k < i; k++)
    if (rep_same_group(study, &study->points[k], &study->points[i]))
      return 0;
  return 1;
}

int rep_print_params(FILE *out, const stu_study_t *study, const stu_point_t *point, int swept)
{
  const scn_scenario_t *s = study->scenario;
  int printed = 0;
  for (size_t j = 0; j < s->nparams; j++) {
    if (s->params[j].role == SCN_ROLE_PROCESSES || (s->params[j].nvalues > 1) != swept)
      continue;
    fprintf(out, "%s%s = %s", printed ? ", " : "", s->params[j].name, point->values[j]);
    printed++;
  }
  return printed;
}

const char *rep_value_shown(const char *value, int *len)
{
  const char *name = strrchr(value, '/') ? strrchr(value, '/') + 1 : value;
  size_t n = strlen(name);
  *len = (int)(n > 4 && strcmp(name + n - 4, ".xml") == 0 ? n - 4 : n);
  return name;
}

void rep_point_label(const stu_study_t *study, const stu_point_t *point, char *buf, size_t len)
{
  const scn_scenario_t *s = study->scenario;
  buf[0] = '\0';
  for (size_t j = 0; j < s->nparams; j++) {
    if (s->params[j].role == SCN_ROLE_PROCESSES || s->params[j].nvalues < 2)
      continue;
    int shown;
    const char *name = rep_value_shown(point->values[j], &shown);
    int number = *name >= '0' && *name <= '9'; /* "grid-rows = 4", where "4" alone would say nothing */
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s%s%.*s", used ? ", " : "", number ? s->params[j].name : "",
             number ? " = " : "", shown, name);
  }
}

int rep_reference_applies(const stu_study_t *study, const scn_reference_t *ref, const stu_point_t *point)
{
  if (!ref->where_name)
    return 1;
  const char *value = stu_value(study, point, ref->where_name);
  return value && strcmp(value, ref->where_value) == 0;
}

double rep_reference_at(const scn_reference_t *ref, int p)
{
  for (size_t i = 0; i < ref->count; i++)
    if (ref->p[i] == p)
      return ref->values[i];
  return NAN;
}

double rep_quantity_value(const met_breakdown_t *b, const char *quantity)
{
  if (strcmp(quantity, "t_par") == 0)
    return b->t_par;
  for (int c = 0; c < MET_COMP_COUNT; c++)
    if (strcmp(quantity, met_component_name(c)) == 0)
      return b->component[c];
  for (int s = 0; s < MET_SUB_COUNT; s++)
    if (strcmp(quantity, met_sub_name(s)) == 0)
      return b->sub[s];
  return NAN;
}

int rep_reference_row(const stu_study_t *study, const stu_point_t *point, const scn_reference_t *ref,
                      rep_ref_row_t *row)
{
  double reference = rep_reference_at(ref, point->p);
  if (!rep_reference_applies(study, ref, point) || isnan(reference))
    return 0;
  double simrun = rep_quantity_value(stu_breakdown(point), ref->quantity);
  *row = (rep_ref_row_t){.quantity = ref->quantity,
                         .source = ref->source,
                         .reference = reference,
                         .simrun = simrun,
                         .difference = reference != 0 ? (simrun - reference) / reference : NAN};
  return 1;
}
