/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ti-replay skeleton: replays a time-independent trace (SimGrid's SMPI format, sim_ti.h), such as one that
 * `smpirun -trace-ti` recorded from a real MPI program or one simrun wrote, on any platform. */
#ifndef APP_TI_H
#define APP_TI_H

#include "app_skeleton.h"

extern const app_skeleton_t app_ti_skeleton;

#endif
