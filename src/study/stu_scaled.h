/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Scaled sweeps (docs/scenarios.md "Scaled sweeps"): where p is zipped with other parameters (the problem grows with
 * p), each point's speedup against T_seq of its own parameters is Gustafson's scaled speedup (Gustafson 1988, work
 * per process held constant); the fixed-size point at the same p (the zip's first values, stu_points_add_fixed) gives
 * Amdahl's fixed-size speedup beside it. */
#ifndef STU_SCALED_H
#define STU_SCALED_H

#include "stu_study.h"

/* A point of the zip with its fixed-size twin. Speedups are T_seq / T_par, efficiencies speedup / p (fractions). */
typedef struct stu_scaled {
  const stu_point_t *fixed; /* the point at the same p with the zip's first values: the point itself at the zip's
                             * first p, else its fixed-size point; NULL when the skeleton refused it */
  double speedup;           /* scaled: the point's own, against T_seq of its own parameters */
  double efficiency;
  double fixed_speedup; /* the fixed point's; NaN without one */
  double fixed_efficiency;
} stu_scaled_t;

/* The scaled and fixed-size figures of `point` in *out: 0 for a point of a scaled study's zip (not a fixed-size point,
 * and the study has the lost-cycle view); -1 otherwise, *out untouched. Pointers borrowed from the study. */
int stu_scaled_of(const stu_study_t *study, const stu_point_t *point, stu_scaled_t *out);

#endif
