/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sweep-point accessors of the skeletons' interface (app_skeleton.h). */
#include "app_skeleton.h"

#include <stdlib.h>
#include <string.h>

const char *app_point_value(const app_point_t *point, const char *name)
{
  for (size_t i = 0; i < point->count; i++)
    if (strcmp(point->names[i], name) == 0)
      return point->values[i];
  return NULL;
}

long app_point_long(const app_point_t *point, const char *name, long fallback)
{
  const char *value = app_point_value(point, name);
  return value ? strtol(value, NULL, 10) : fallback;
}
