/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan's work and bytes (seed 001 §4.1-4.2, eq. 10) and its block rows, shared by the skeleton (app_gj.c)
 * and its closed form (app_gj_closed.c). */
#ifndef APP_GJ_COSTS_H
#define APP_GJ_COSTS_H

#include "met_machine.h"

/* The program's argument (prepare's): the number of equations, and the broadcast (a sim_bcast_alg_t). */
typedef struct app_gj_arg {
  int n;
  int bcast;
} app_gj_arg_t;

/* Block rows: rank r of p holds app_gj_rows_of(n, p, r) consecutive rows, in rank order (the first n % p ranks one
 * more); app_gj_owner_of(n, p, row) is the rank holding `row`, in constant time (every rank asks at every step). */
int app_gj_rows_of(int n, int p, int r);
int app_gj_owner_of(int n, int p, int row);
/* The operations of one Rsub-equivalent element on a rank holding `rows` rows: app_gj_rsub_element with the working
 * set of its block and the pivot row (and the sequential run's, the whole system). */
met_ops_t app_gj_ops(int n, int rows);

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
