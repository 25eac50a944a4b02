/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ScaLAPACK pdtrsm, X A = B with A (n x n) upper triangular and B (m x n) (Caron & Suter 2002, seed 003 §4.2), on a
 * grid-rows x (p / grid-rows) block-cyclic grid: ceil(m/R) pbdtrsm calls, each solving a block row of B block by block.
 * A single-row grid updates without pipelining (eq. 6); a general grid splits the update in two and sends the first
 * part to the next process row, which accumulates it (eqs. 5, 7). The FAST model (eqs. 4-7) beside it. */
#ifndef APP_PDTRSM_H
#define APP_PDTRSM_H

#include "app_skeleton.h"

extern const app_skeleton_t app_pdtrsm_skeleton;

#endif
