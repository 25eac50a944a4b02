/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ring matrix multiply, the running example of Lemeire's EPPA (seed 000 Ex. 1.2-1.4): a master distributes row
 * blocks of A and column blocks of B, p steps of local multiply each followed by a circular shift of the B blocks,
 * and the slaves return their rows of C to the master. */
#ifndef APP_MATMUL_H
#define APP_MATMUL_H

#include "app_skeleton.h"

extern const app_skeleton_t app_matmul_skeleton;

#endif
