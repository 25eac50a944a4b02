/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: the skeleton's analytic model of each point and its advice on it, on the machine the
 * point's platform describes for its p (sim_run_describe, made once per platform and p), for the report. */
#ifndef STU_MODEL_H
#define STU_MODEL_H

#include "app_skeleton.h"
#include "stu_study.h"

typedef struct stu_models stu_models_t;

/* NULL when out of memory. Free with stu_models_free (accepts NULL). */
stu_models_t *stu_models_new(void);
void stu_models_free(stu_models_t *models);

/* Fills point's t_model, model_missing, warning and machine (which characterisation rank 0's host used); a platform
 * that cannot be described leaves the model NAN, saying so. `names` are the scenario's parameter names. */
void stu_models_keep(stu_models_t *models, const app_skeleton_t *skeleton, const stu_study_t *study,
                     const char *const *names, stu_point_t *point);

#endif
