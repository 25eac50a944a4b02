/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan elimination with block-row decomposition (seed 001 §4.1-4.2): input on the host, distribution, N steps
 * of normalise / broadcast / update with the modules of eq. 10 (Inv, Norm, Set, Rsub, Buf), collection, output. */
#ifndef APP_GJ_H
#define APP_GJ_H

#include "app_skeleton.h"
#include "met_machine.h"

extern const app_skeleton_t app_gj_skeleton;

/* Rsub-equivalent element operations of the whole sequential run for size n (eq. 10 with the module weights). */
double app_gj_element_ops(int n);
/* The same of the pivot's work at step k (Inv, Norm, Buf) and of updating `rows` other rows (Set, Rsub), and the
 * operations of one Rsub element: what a rank computes, as the program charges it (bench/sg_floor.c repeats the
 * program on SimGrid alone with them). */
double app_gj_pivot_ops(int n, int k);
double app_gj_update_ops(int n, int k, int rows);
extern const met_ops_t app_gj_rsub_element;

/* Bytes read from the host, distributed to one rank holding `rows` rows, broadcast per step, collected from one
 * rank, and written to the host (seed 001 §4.2). */
double app_gj_input_bytes(int n);
double app_gj_block_bytes(int n, int rows);
double app_gj_row_bytes(int n);
double app_gj_result_bytes(int rows);

#endif
