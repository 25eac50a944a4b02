/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Scaled and fixed-size speedups of a scaled sweep (stu_scaled.h): Gustafson's scaled speedup beside Amdahl's. */
#include "stu_scaled.h"
#include "stu_lost_cycles.h"

#include <math.h>

/* Whether `other` is the fixed-size point at `point`'s p: the same values but for p's zip, which has its first ones. */
static int fixed_twin(const scn_scenario_t *s, size_t p_index, const stu_point_t *point, const stu_point_t *other)
{
  int zip = s->params[p_index].zip;
  if (other->p != point->p)
    return 0;
  for (size_t j = 0; j < s->nparams; j++) {
    int zipped = j != p_index && s->params[j].zip == zip;
    if (other->values[j] != (zipped ? s->params[j].values[0] : point->values[j]))
      return 0;
  }
  return 1;
}

/* The fixed-size point at point's p: itself when it has the zip's first values (values are the scenario's, borrowed,
 * so they compare as pointers), else the fixed-size point added for it, or NULL. */
static const stu_point_t *fixed_of(const stu_study_t *study, size_t p_index, const stu_point_t *point)
{
  if (fixed_twin(study->scenario, p_index, point, point))
    return point;
  for (size_t i = 0; i < study->npoints; i++)
    if (study->points[i].fixed_size && fixed_twin(study->scenario, p_index, point, &study->points[i]))
      return &study->points[i];
  return NULL;
}

int stu_scaled_of(const stu_study_t *study, const stu_point_t *point, stu_scaled_t *out)
{
  if (!study->facts.scaled || point->fixed_size || !stu_has_view(study, MET_VIEW_LOST_CYCLES))
    return -1;
  size_t p_index = scn_role_index(study->scenario, SCN_ROLE_PROCESSES);
  const stu_point_t *fixed = fixed_of(study, p_index, point);
  *out = (stu_scaled_t){.fixed = fixed,
                        .speedup = stu_eppa(point)->speedup,
                        .efficiency = stu_eppa(point)->efficiency,
                        .fixed_speedup = fixed ? stu_eppa(fixed)->speedup : NAN,
                        .fixed_efficiency = fixed ? stu_eppa(fixed)->efficiency : NAN};
  return 0;
}
