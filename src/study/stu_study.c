/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A study's data: the points and what can be asked of them without simulating anything (values, platforms, which
 * points differ only in one parameter). */
#include "stu_study.h"

#include <stdlib.h>
#include <string.h>

int stu_has_view(const stu_study_t *study, unsigned view)
{
  return (study->facts.views & view) != 0;
}

size_t stu_param_index(const stu_study_t *study, const char *name)
{
  size_t j = 0;
  while (j < study->scenario->nparams && strcmp(study->scenario->params[j].name, name) != 0)
    j++;
  return j;
}

int stu_same_except(const stu_study_t *study, const stu_point_t *a, const stu_point_t *b, size_t except)
{
  for (size_t j = 0; j < study->scenario->nparams; j++)
    if (j != except && strcmp(a->values[j], b->values[j]) != 0)
      return 0;
  return 1;
}

/* The value of the parameter with role `role` at `point`, or NULL. */
static const char *role_value(const scn_scenario_t *scenario, const stu_point_t *point, scn_role_t role)
{
  size_t j = scn_role_index(scenario, role);
  return j < scenario->nparams ? point->values[j] : NULL;
}

void stu_resolve_roles(const scn_scenario_t *scenario, stu_point_t *point)
{
  const char *rows = role_value(scenario, point, SCN_ROLE_GRID_ROWS);
  const char *network = role_value(scenario, point, SCN_ROLE_NETWORK);
  const char *variant = role_value(scenario, point, SCN_ROLE_VARIANT);
  point->role = (stu_roles_t){.broadcast = role_value(scenario, point, SCN_ROLE_BROADCAST),
                              .grid_rows = rows ? atoi(rows) : 0,
                              .analytic = network && strcmp(network, SCN_NETWORK_ANALYTIC) == 0,
                              .baseline = !variant || strcmp(variant, SCN_VARIANT_BASELINE) == 0};
}

const char *stu_platform(const stu_study_t *study, const stu_point_t *point)
{
  size_t j = scn_role_index(study->scenario, SCN_ROLE_PLATFORM);
  const scn_param_t *param = j < study->scenario->nparams ? &study->scenario->params[j] : NULL;
  for (size_t v = 0; param && param->paths && v < param->nvalues; v++)
    if (strcmp(param->values[v], point->values[j]) == 0)
      return param->paths[v];
  return study->scenario->platform;
}

const char *stu_value(const stu_study_t *study, const stu_point_t *point, const char *name)
{
  size_t j = stu_param_index(study, name);
  return j < study->scenario->nparams ? point->values[j] : NULL;
}

void *stu_slot_make(stu_slot_t *slot, size_t size, void (*release)(void *data))
{
  if (!slot->data && (slot->data = calloc(1, size)))
    slot->release = release;
  return slot->data;
}

/* Frees what the slots hold and leaves them empty. */
static void release_slots(stu_slot_t *slots)
{
  for (int id = 0; id < STU_SLOTS; id++)
    if (slots[id].data)
      slots[id].release(slots[id].data);
  memset(slots, 0, STU_SLOTS * sizeof *slots);
}

void stu_slots_release(stu_point_t *point)
{
  release_slots(point->view);
}

void stu_summaries_release(stu_study_t *study)
{
  release_slots(study->summary);
}

void stu_free(stu_study_t *study)
{
  if (!study)
    return;
  for (size_t i = 0; study->points && i < study->npoints; i++) {
    free(study->points[i].values);
    stu_slots_release(&study->points[i]);
    met_trace_free(study->points[i].trace);
    met_pixels_free(study->points[i].pixels);
  }
  stu_summaries_release(study);
  free(study->points);
  free(study->runs_text);
  free(study->owned);
  free(study);
}
