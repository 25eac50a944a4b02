/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The skeleton catalogue seen from above the study (stu_catalogue.h). */
#include "stu_catalogue.h"

#include "app_catalogue.h"

const app_skeleton_t *stu_catalogue_find(const char *name)
{
  return app_find(name);
}

const scn_skeleton_spec_t *stu_catalogue_spec(const app_skeleton_t *skeleton)
{
  return skeleton->spec;
}

const char *stu_catalogue_names(void)
{
  return app_names();
}
