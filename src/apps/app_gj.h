/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan elimination with block-row decomposition (seed 001 §4.1-4.2): input on the host, distribution, N steps
 * of normalise / broadcast / update with the modules of eq. 10 (Inv, Norm, Set, Rsub, Buf), collection, output. */
#ifndef APP_GJ_H
#define APP_GJ_H

#include "app_skeleton.h"
#include "app_gj_costs.h"

extern const app_skeleton_t app_gj_skeleton;

#endif
