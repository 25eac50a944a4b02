/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CARNIVAL's views of a DSM point as pictures (seed 002 Figs. 4-5; docs/pictures.md). */
#ifndef REP_CARNIVAL_VIEWS_H
#define REP_CARNIVAL_VIEWS_H

#include "rep_picture.h"

/* The pictures of DSM point `point` (point->carnival not NULL): time by code scope, the
 * processors' profile of each scope, the wait map. Returns 0, or -1
 * with pics->err filled. */
int rep_carnival_pictures(rep_pictures_t *pics, const stu_point_t *point);

#endif
