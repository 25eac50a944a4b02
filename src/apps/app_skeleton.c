/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sweep-point accessors of the skeletons' interface (app_skeleton.h). */
#include "app_skeleton.h"
#include "sim_coll.h"

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

static void count_op(void *ctx, const sim_coll_op_t *op)
{
  (void)op;
  ++*(double *)ctx;
}

double app_bcast_ops(const app_point_t *point, int members, double bytes)
{
  const char *name = app_point_value(point, "broadcast");
  int alg = name ? sim_bcast_parse(name) : -1;
  sim_coll_plan_t plan = {
      .alg = alg >= 0 ? (sim_bcast_alg_t)alg : SIM_BCAST_ONE_TO_ALL, .count = members, .bytes = bytes};
  double ops = 0;
  for (int me = 0; me < members; me++)
    sim_coll_plan(&plan, me, count_op, &ops);
  return ops;
}
