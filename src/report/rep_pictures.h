/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pictures of a study, as SVG files (docs/pictures.md): the views of Lemeire's EPPA tool (seed 000 §1.2, Figs
 * 1.4-1.8: timeline, overall performance, overhead ratios per process, metrics against p and the work size W with a
 * regression fit), the bottleneck views of Zemerly et al. (seed 001 Figs 5-9: components, B-ratios) and CARNIVAL's
 * views of a DSM run (seed 002 Figs 4-5: time by scope, each scope by processor, the wait map). */
#ifndef REP_PICTURES_H
#define REP_PICTURES_H

#include "rep_chart.h"
#include "stu_study.h"

#include <stddef.h>
#include <stdio.h>

/* Creates folder `dir` and its missing parents. Returns 0 (also when it exists), or BAS_EIO with a message in err. */
int rep_pictures_folder(const char *dir, char *err, size_t errlen);

/* Writes every picture of `study` into the existing folder `dir` as <scenario>-<view>[-<group>].svg, each file whole
 * or not at all, and prints on `log` how many were written (the fits: rep_print_fits).
 * Returns 0, or -1 with a message in err (the pictures already written stay). */
int rep_pictures(const stu_study_t *study, const char *dir, FILE *log, char *err, size_t errlen);

/* The regression fits of every metric against p and the numeric swept parameters (lost-cycle studies), written to
 * `out` as the pictures draw them, with their adjusted R^2 and the range of the data. Returns 0, or -1 when out of
 * memory. */
int rep_print_fits(FILE *out, const stu_study_t *study);

/* Hands every fit rep_print_fits would print (shown or not) to sink, in the same order. Returns 0, or -1 when out of
 * memory. */
int rep_fits_each(const stu_study_t *study, rep_fit_sink_fn sink, void *ctx);

#endif
