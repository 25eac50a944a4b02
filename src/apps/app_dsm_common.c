/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared parts of the DSM skeletons on NCP2 (seed 002 §2-3): the controller parameter, the PP's element cost and the
 * per-rank program. */
#include "app_dsm_common.h"
#include "app_linalg.h"
#include "sim_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const app_dsm_controller_names[] = {"yes", SCN_VARIANT_BASELINE, NULL};

/* One element of a daxpy-like inner loop: 3 CPU operations (address arithmetic, the loop's count and branch), 2 flops
 * (one fused multiply-add), 3 external memory accesses (2 loads, 1 store). What they cost is the platform's: NCP2's
 * characterisation (platforms/ncp2-myrinet-8.xml) makes it the PowerPC 604's 8 cycles. */
const met_ops_t app_dsm_element = {.n = {[MET_CLASS_CPU] = 3, [MET_CLASS_FLOP] = 2, [MET_CLASS_EXTMEM] = 3}};

void *app_dsm_new(size_t size, const app_point_t *point, long shared_bytes,
                  void (*body)(sim_dsm_node_t *, const void *))
{
  sim_dsm_program_t *program = calloc(1, size);
  if (!program)
    return NULL;
  const char *controller = app_point_value(point, "controller");
  *program = (sim_dsm_program_t){.shared_bytes = shared_bytes,
                                 .controller = !controller || strcmp(controller, "no") != 0,
                                 .body = body,
                                 .arg = program};
  return program;
}

int app_dsm_memory_advice(const met_platform_t *m, double shared_bytes, char *msg, size_t msglen)
{
  return app_memory_advice(m, "the shared space (TreadMarks maps it whole on every node)", shared_bytes, shared_bytes,
                           0, msg, msglen);
}

void app_dsm_program(sim_rank_t *rank, const void *arg)
{
  sim_dsm_run(rank, arg);
}

void app_dsm_block(long n, int nodes, int node, long *first, long *rows)
{
  *first = node * n / nodes;
  *rows = (node + 1) * n / nodes - *first;
}

/* The largest node whose first row floor(node n / nodes) is <= row. */
int app_dsm_owner(long n, int nodes, long row)
{
  return (int)((row * nodes + nodes - 1) / n);
}

int app_dsm_size(const app_point_t *point, const char *name, int nranks, long max, const char *why, long *value,
                 char *err, size_t errlen, const char **bad_param)
{
  *value = app_point_long(point, name, 0);
  if (*value >= nranks)
    return app_dsm_at_most(name, *value, max, why, err, errlen, bad_param);
  snprintf(err, errlen, "%s = %ld is smaller than p = %d: every node needs a share; use %s >= p", name, *value, nranks,
           name);
  *bad_param = name;
  return SIM_EPARAM;
}

int app_dsm_at_most(const char *name, long value, long max, const char *why, char *err, size_t errlen,
                    const char **bad_param)
{
  if (value <= max)
    return 0;
  snprintf(err, errlen, "%s = %ld is too large: %s; use %s <= %ld", name, value, why, name, max);
  *bad_param = name;
  return SIM_EPARAM;
}
