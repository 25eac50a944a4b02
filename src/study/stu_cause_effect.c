/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cause-effect view: the CARNIVAL analysis of a DSM run (seed 002), drawn in the study from each point's whole
 * trace, which the view has kept at every point. */
#include "stu_cause_effect.h"
#include "sim_error.h"
#include "stu_view.h"

#include <stdlib.h>

typedef struct cause_effect {
  met_carnival_t *carnival;
} cause_effect_t;

const met_carnival_t *stu_carnival(const stu_point_t *point)
{
  const cause_effect_t *c = point->view[STU_SLOT_CAUSE_EFFECT].data;
  return c ? c->carnival : NULL;
}

static void release(void *data)
{
  cause_effect_t *c = data;
  met_carnival_free(c->carnival);
  free(c);
}

static int finish(stu_point_t *point, const stu_view_context_t *ctx)
{
  (void)ctx;
  cause_effect_t *c = stu_slot_make(&point->view[STU_SLOT_CAUSE_EFFECT], sizeof *c, release);
  if (c && !c->carnival)
    c->carnival = met_carnival_new(point->trace);
  return c && c->carnival ? 0 : SIM_ENOMEM;
}

const stu_view_row_t stu_cause_effect_view = {
    .flag = MET_VIEW_CAUSE_EFFECT,
    .needs = STU_NEED_TRACE,
    .finish = finish,
};
