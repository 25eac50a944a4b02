/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the report module: groups of points (equal values for every parameter but p) and the references that
 * apply to a group. */
#ifndef REP_GROUP_H
#define REP_GROUP_H

#include "met_bottleneck.h"
#include "stu_study.h"

#include <stdio.h>

/* Whether points a and b belong to the same group. */
int rep_same_group(const stu_study_t *study, const stu_point_t *a, const stu_point_t *b);
/* Whether the scenario sweeps a parameter other than p, so that points at equal p are compared (and name groups). */
int rep_sweeps_more_than_p(const stu_study_t *study);
/* Whether point i is the first of its group. */
int rep_opens_group(const stu_study_t *study, size_t i);
/* Prints "name = value, ..." for the parameters other than p: the swept ones when `swept`, else the fixed ones.
 * Returns how many it printed. */
int rep_print_params(FILE *out, const stu_study_t *study, const stu_point_t *point, int swept);
/* A parameter's value as labels show it: a file name without its folder and ".xml", *len characters from the
 * returned pointer (into `value`). */
const char *rep_value_shown(const char *value, int *len);
/* The point's values of the compared parameters (every swept one but p), such as "mesh" or "t800-torus-16x8,
 * binomial" (file names without their folder and ".xml"; a number after its parameter's name, "grid-rows = 4"); "" when
 * only p is swept. */
void rep_point_label(const stu_study_t *study, const stu_point_t *point, char *buf, size_t len);
/* Whether reference `ref` applies to the group of `point` (its where condition holds there). */
int rep_reference_applies(const stu_study_t *study, const scn_reference_t *ref, const stu_point_t *point);
/* The reference value of `ref` at p, or NAN when it gives none. */
double rep_reference_at(const scn_reference_t *ref, int p);
/* simrun's value of a reference's quantity ("t_par", a component or sub-component of seed 001 Table 5) in a
 * breakdown, seconds; NAN for another name. */
double rep_quantity_value(const met_breakdown_t *b, const char *quantity);

/* One reference figure beside simrun's at a point: the quantity, where the figure comes from, both values (seconds)
 * and simrun's relative difference, (simrun - reference) / reference as the report prints it in % (NAN for a
 * reference of 0). The strings are borrowed from the scenario. */
typedef struct rep_ref_row {
  const char *quantity;
  const char *source;
  double reference, simrun, difference;
} rep_ref_row_t;

/* Reference `ref` at `point`: 1 with *row filled when it applies there and gives a value at its p, else 0. */
int rep_reference_row(const stu_study_t *study, const stu_point_t *point, const scn_reference_t *ref,
                      rep_ref_row_t *row);

#endif
