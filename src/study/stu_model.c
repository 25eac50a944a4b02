/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The skeleton's analytic model and advice on each point of a study, on the point's machine as its platform describes
 * it (sim_run_describe), each platform and p described once. */
#include "stu_model.h"
#include "sim_error.h"
#include "sim_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stu_models {
  met_platform_t *machines; /* the platform descriptions made so far */
  const char **platforms;   /* the platform file of each */
  size_t count;
};

stu_models_t *stu_models_new(void)
{
  return calloc(1, sizeof(stu_models_t));
}

void stu_models_free(stu_models_t *models)
{
  if (!models)
    return;
  free(models->machines);
  free(models->platforms);
  free(models);
}

/* The description of the point's platform for its p, from the list or made once; NULL with the reason in err when it
 * cannot be made. */
static const met_platform_t *describe(stu_models_t *models, const stu_study_t *study, const stu_point_t *point,
                                      char *err, size_t errlen)
{
  const char *platform = stu_platform(study, point);
  for (size_t i = 0; i < models->count; i++)
    if (models->machines[i].p == point->p && strcmp(models->platforms[i], platform) == 0)
      return &models->machines[i];
  met_platform_t *m = realloc(models->machines, (models->count + 1) * sizeof *m);
  if (m)
    models->machines = m;
  const char **names = realloc(models->platforms, (models->count + 1) * sizeof *names);
  if (names)
    models->platforms = names;
  if (!m || !names) {
    snprintf(err, errlen, "%s", sim_strerror(SIM_ENOMEM));
    return NULL;
  }
  if (sim_run_describe(platform, point->p, &models->machines[models->count], err, errlen) != 0)
    return NULL;
  models->platforms[models->count] = platform;
  return &models->machines[models->count++];
}

void stu_models_keep(stu_models_t *models, const app_skeleton_t *skeleton, const stu_study_t *study,
                     const char *const *names, stu_point_t *point)
{
  app_point_t at = {.count = study->scenario->nparams, .names = names, .values = point->values};
  point->t_model = NAN;
  point->warning[0] = point->model_missing[0] = point->p2p[0] = '\0';
  const met_platform_t *m = describe(models, study, point, point->machine, sizeof point->machine);
  if (!m) {
    snprintf(point->model_missing, sizeof point->model_missing, "the platform could not be described");
    return;
  }
  if (m->uniform)
    snprintf(point->machine, sizeof point->machine, "%s", m->origin);
  else
    snprintf(point->machine, sizeof point->machine,
             "%.380s; the ranks' hosts differ (%d characterisations): the models take each rank's own host, the "
             "slowest setting the pace",
             m->origin, m->nkinds);
  met_platform_p2p_describe(m, 1024, point->p2p, sizeof point->p2p);
  if (skeleton->model)
    point->t_model = skeleton->model(&at, point->p, m, point->model_missing, sizeof point->model_missing);
  if (!skeleton->advise || !skeleton->advise(&at, point->p, m, point->warning, sizeof point->warning))
    point->warning[0] = '\0';
}
