/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ScaLAPACK pdgemm, C = A B (Caron & Suter 2002, seed 003 §4.1): A (m x k) and B (k x n) block-cyclic with block R on
 * a grid-rows x (p / grid-rows) process grid; per step a block column of A broadcast along the process rows, a block
 * row of B broadcast along the process columns, then the local dgemm. The FAST model (eqs. 1-3) beside it. */
#ifndef APP_PDGEMM_H
#define APP_PDGEMM_H

#include "app_skeleton.h"

extern const app_skeleton_t app_pdgemm_skeleton;

#endif
