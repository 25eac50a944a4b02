/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ping-pong between rank 0 and every other rank in turn, one message in flight at a time: on a quiet network each
 * transfer takes the machine's point-to-point time T(l, d) (seed 001 eq. 4, Table 2), so its trace calibrates it. */
#ifndef APP_PINGPONG_H
#define APP_PINGPONG_H

#include "app_skeleton.h"

extern const app_skeleton_t app_pingpong_skeleton;

#endif
