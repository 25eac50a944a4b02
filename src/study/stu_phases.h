/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The phases view of a measured run (MET_VIEW_PHASES: EPPA's phases, seed 000 §1.2): per label the program gave
 * (simrun_phase.h), the seconds of each category summed over the ranks and the phase's share of the p T_par
 * processor-seconds, drawn from the run's trace (whole or per-rank sums) when the study is made; read by the report
 * through stu_phases. Its row of the views table is stu_phases_view (stu_view.h). */
#ifndef STU_PHASES_H
#define STU_PHASES_H

#include "met_trace.h"
#include "stu_study.h"

#include <stddef.h>

/* The categories a phase shows, in this order. */
#define STU_PHASE_CATS 4
extern const met_category_t stu_phase_cats[STU_PHASE_CATS];

typedef struct stu_phase {
  char *name;                     /* the label */
  double seconds[STU_PHASE_CATS]; /* of each of stu_phase_cats, summed over the ranks */
  double share;                   /* of p T_par, in % (0 when the run lasted no time) */
} stu_phase_t;

typedef struct stu_phases {
  size_t count;
  stu_phase_t *phases; /* in the trace's order of labels */
  double end_wait;     /* idle time in no phase (a rank that reached MPI_Finalize before the last one), s */
  double end_share;    /* its share of p T_par, in % */
} stu_phases_t;

/* The point's phases, or NULL when it has none (a study without the view). Borrowed from the point. */
const stu_phases_t *stu_phases(const stu_point_t *point);

#endif
