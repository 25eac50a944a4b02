/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun compare (docs/compare.md): two tables of results, such as two runs' main CSV tables or a run's and a
 * measurement's, paired point by point (rep_pairing.h), the chosen metrics compared under a relative and an absolute
 * tolerance, a summary of one screen first and every point on request; and a picture of one metric of both against
 * p. */
#ifndef REP_COMPARE_H
#define REP_COMPARE_H

#include "rep_pairing.h"

#include <stddef.h>
#include <stdio.h>

/* Two values A and B are equal when |B - A| <= atol + rtol max(|A|, |B|) (numpy's isclose, made symmetric). */
typedef struct rep_compare_opts {
  double rtol, atol;
  const char *const *metrics; /* the metrics compared (--metric), or none: t_par_s and speedup where both tables have
                                 them, else every metric both have */
  size_t nmetrics;
  int all;  /* every metric both tables have (--metric all) */
  int full; /* after the summary, every point's values (--full) */
} rep_compare_opts_t;

/* The defaults (docs/compare.md says why): 5% relative, --tolerance's default before; 1e-9 absolute, a nanosecond: 1000
 * times the rounding left where a difference of sums of doubles of up to 10^4 s (simrun's longest studies) should be
 * 0, 1000 times below the microsecond, the shortest times (a message's latency) that simrun's figures hold. */
#define REP_COMPARE_RTOL 0.05
#define REP_COMPARE_ATOL 1e-9

/* What a comparison found. */
typedef struct rep_compare_result {
  size_t values;      /* pairs of numbers compared */
  size_t beyond;      /* of those, beyond the tolerance */
  size_t not_numbers; /* pairs of cells of which one is not a number, their texts unequal */
} rep_compare_result_t;

/* Prints the comparison of b against a: a summary of at most 20 lines of at most 80 columns (the points paired, the
 * metrics compared, the tolerance, how many values are beyond it, the largest relative and absolute differences with
 * their points, the first cells beyond it and the first that are not numbers, the verdict), then with opts->full
 * every paired point's values and the points in one table only. Returns 0; BAS_EINVAL with the message in err when
 * the input is wrong (rep_pairing_make's errors, a --metric that is not a metric column of both, no metric in common);
 * BAS_ENOMEM when out of memory, BAS_EIO on a write error. */
int rep_compare_print(FILE *out, const rep_table_t *a, const rep_table_t *b, const rep_compare_opts_t *opts,
                      rep_compare_result_t *result, char *err, size_t errlen);

/* A line chart of the first metric compared (as rep_compare_print chooses them) against p: a curve per table and
 * group of points (equal key values but p), a's and b's side by side on the same axes. Returns 0, or a code with a
 * message in err: BAS_EINVAL (no such metric, nothing to draw), BAS_ENOMEM or BAS_EIO (a write error). */
int rep_compare_svg(FILE *out, const rep_table_t *a, const rep_table_t *b, const rep_compare_opts_t *opts, char *err,
                    size_t errlen);

#endif
