/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the dense linear algebra skeletons share (ring matrix multiply, pdgemm, pdtrsm: seeds 000 and 003): charging
 * floating-point work, reading matrix sizes and the process grid of a point, the FAST models with the platform's
 * figures and the check of a node's memory against its host's (seed 003 §5.2). */
#ifndef APP_LINALG_H
#define APP_LINALG_H

#include "app_skeleton.h"
#include "met_model.h"

#include <stddef.h>

/* The largest matrix dimension a point may give: n^3 operations stay exact in a double. */
#define APP_LINALG_MAX_DIM 1000000L

/* Charges `flops` floating-point operations to the calling rank at its host's cost of a flop: useful work, or control
 * of parallelism for work only the parallel program does. */
void app_linalg_flops(sim_rank_t *rank, double flops, sim_purpose_t purpose);

/* Reads the dense problem of `point` on `nranks` ranks into *d: m, n and, when the skeleton has it, k ("k" absent:
 * d->k = 0); block; the grid grid-rows x (nranks / grid-rows), or 1 x 1 for the sequential run (nranks = 1).
 * Returns 0, or SIM_EPARAM with a message and the parameter to blame: a dimension above APP_LINALG_MAX_DIM, a block
 * larger than a dimension, grid rows that do not divide p. err may be NULL with errlen 0, bad_param NULL: the caller
 * only wants to know whether the point is valid. */
int app_linalg_dense(const app_point_t *point, int nranks, met_dense_t *d, char *err, size_t errlen,
                     const char **bad_param);

/* The sizes of a FAST model's messages, in bytes: along process rows from row_lo to row, along process columns from
 * col_lo to col. Hockney's links are priced at row and col; under a network model whose factors change with the size
 * (SMPI's), every size of a range must take the same factors, or the model cannot follow it. */
typedef struct app_linalg_sizes {
  double row_lo, row;
  double col_lo, col;
} app_linalg_sizes_t;

/* What the FAST models take from machine m for the grid of d: the flop rate of rank 0's host and Hockney's links
 * along the grid's process rows and columns for messages of `sizes`, each the mean over their pairs' own routes
 * (met_platform_grid_links), doubles. Returns 0, or SIM_EPLATFORM with what is missing in `missing` (a network model
 * the links cannot follow among it). */
int app_linalg_fast_machine(const met_platform_t *m, const met_dense_t *d, const app_linalg_sizes_t *sizes,
                            met_machine_t *fast, char *missing, size_t len);

/* A FAST model (met_pdgemm_time, met_pdtrsm_time) of `point` on `nranks` ranks of machine m, its messages of the
 * sizes sizes_of gives for the problem, in seconds; NAN with the reason in `missing` when the point is invalid or the
 * platform lacks an input. */
double app_linalg_model(const app_point_t *point, int nranks, const met_platform_t *m, char *missing, size_t len,
                        double (*model)(const met_dense_t *, const met_machine_t *),
                        app_linalg_sizes_t (*sizes_of)(const met_dense_t *));

/* The memory check of every rank's host (met_platform_memory_check): rank 0 holds rank0_bytes of `what`, every other
 * rank other_bytes. Returns 1 with one line in msg naming the host that fails first (the least memory of those short),
 * or, with say_skipped, saying that no host gives its memory (nothing checked); else 0. */
int app_memory_advice(const met_platform_t *m, const char *what, double rank0_bytes, double other_bytes,
                      int say_skipped, char *msg, size_t msglen);

/* The memory check (seed 003 §5.2): when the busiest process of `point` on `nranks` ranks holds more bytes (as
 * node_bytes counts them) than some rank's host's memory, returns 1 with the warning in msg naming the host that
 * fails first; when no host gives its memory size, returns 1 saying that the check was skipped; else 0. */
int app_linalg_memory_advice(const app_point_t *point, int nranks, const met_platform_t *m,
                             double (*node_bytes)(const met_dense_t *, double), char *msg, size_t msglen);

#endif
