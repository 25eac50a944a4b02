/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The skeleton catalogue (app_catalogue.h) as the layers above the study see it: a skeleton found by the name a
 * scenario gives is only passed through to the study (stu_sweep.h), so that the command line never sees the skeletons'
 * interface. */
#ifndef STU_CATALOGUE_H
#define STU_CATALOGUE_H

#include "scn_scenario.h"
#include "stu_sweep.h"

/* The skeleton called `name`, or NULL. */
const app_skeleton_t *stu_catalogue_find(const char *name);

/* What a scenario of `skeleton` may set (its parameters, their roles and ranges). */
const scn_skeleton_spec_t *stu_catalogue_spec(const app_skeleton_t *skeleton);

/* The names of all skeletons, comma-separated, for messages and --help. A static string. */
const char *stu_catalogue_names(void);

#endif
