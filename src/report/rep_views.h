/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The study's bar and curve views of a series of points against p (seed 000 Fig. 1.5; seed 001 Figs 5-9) and of one
 * point's ranks (seed 000 Fig. 1.6; Scalasca's wait states). Each writes one or more pictures of `pics` and returns 0,
 * or -1 with pics->err filled. */
#ifndef REP_VIEWS_H
#define REP_VIEWS_H

#include "met_wait.h"
#include "rep_chart.h"
#include "rep_picture.h"

/* Overall performance (Fig. 1.5) for every p of series g, its bars named p_names. */
int rep_overall_picture(rep_pictures_t *pics, const rep_series_t *g, const rep_labels_t *p_names);
/* Seed 001 Figs 5-9 for series g (two p at least): component times, their shares, B-ratios, the two bottleneck
 * ratios, sub-component shares. */
int rep_bottleneck_pictures(rep_pictures_t *pics, const rep_series_t *g, const rep_labels_t *p_names);
/* Overhead ratios per process of `point` (Fig. 1.6), in the picture named after series g. */
int rep_processes_picture(rep_pictures_t *pics, const stu_point_t *point, const rep_series_t *g);
/* Wait states per process of `point`, w its waits. */
int rep_wait_states_picture(rep_pictures_t *pics, const stu_point_t *point, const rep_series_t *g,
                            const met_waits_t *w);

#endif
