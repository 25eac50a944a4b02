/* What the dense linear algebra skeletons share (ring matrix multiply, pdgemm, pdtrsm: seeds 000 and 003): charging
 * floating-point work, reading matrix sizes and the process grid of a point, the icluster figures of the FAST models
 * and the check of a node's memory (seed 003 §5.2). */
#ifndef APP_LINALG_H
#define APP_LINALG_H

#include "app_skeleton.h"
#include "met_model.h"

#include <stddef.h>

/* The largest matrix dimension a point may give: n^3 operations stay exact in a double. */
#define APP_LINALG_MAX_DIM 1000000L

/* icluster as the FAST models see it, the figures of platforms/icluster-fe-32.xml (tests/test_app_pdgemm.c checks
 * them against the loaded platform): lambda = 124.04 us (store-and-forward frame time + cables), tau = 1 / 11866059.8
 * s per byte (Fast Ethernet's TCP payload rate), 733e6 flop/s (the Pentium III's x87 peak), doubles. */
extern const met_machine_t app_icluster_machine;
/* An icluster node's memory, 256 MiB (seed 003 §5), the platform's simrun:memory-bytes. */
#define APP_ICLUSTER_MEMORY_BYTES 268435456.0

/* Charges `flops` floating-point operations to the calling rank (the platform's host speed is in flop/s): useful work,
 * or control of parallelism for work only the parallel program does. */
void app_linalg_flops(sim_rank_t *rank, double flops, sim_purpose_t purpose);

/* Reads the dense problem of `point` on `nranks` ranks into *d: m, n and, when the skeleton has it, k ("k" absent:
 * d->k = 0); block; the grid grid-rows x (nranks / grid-rows), or 1 x 1 for the sequential run (nranks = 1).
 * Returns 0, or SIM_EPARAM with a message and the parameter to blame: a dimension above APP_LINALG_MAX_DIM, a block
 * larger than a dimension, grid rows that do not divide p. */
int app_linalg_dense(const app_point_t *point, int nranks, met_dense_t *d, char *err, size_t errlen,
                     const char **bad_param);

/* A FAST model (met_pdgemm_time, met_pdtrsm_time) of `point` on `nranks` ranks with icluster's figures, in seconds;
 * NAN when the point is invalid. */
double app_linalg_model(const app_point_t *point, int nranks,
                        double (*model)(const met_dense_t *, const met_machine_t *));

/* The memory warning (seed 003 §5.2): when the busiest node of `point` on `nranks` ranks holds more bytes (as
 * node_bytes counts them) than an icluster node's memory, returns 1 with the text in msg; else 0. */
int app_linalg_memory_advice(const app_point_t *point, int nranks, double (*node_bytes)(const met_dense_t *, double),
                             char *msg, size_t msglen);

#endif
