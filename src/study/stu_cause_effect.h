/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cause-effect view (MET_VIEW_CAUSE_EFFECT: the DSM's CARNIVAL analysis, met_carnival.h): its results at a point
 * and their accessor, read by the report; its row of the views table is stu_cause_effect_view (stu_view.h). */
#ifndef STU_CAUSE_EFFECT_H
#define STU_CAUSE_EFFECT_H

#include "met_carnival.h"
#include "stu_study.h"

/* The point's cause-effect analysis, or NULL when it has none. Borrowed from the point. */
const met_carnival_t *stu_carnival(const stu_point_t *point);

#endif
