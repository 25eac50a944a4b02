/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the DSM skeletons (TreadMarks on NCP2, seed 002 §3) share: the "controller" parameter that chooses NCP2's
 * protocol controllers or the original TreadMarks, the PP's cost of an inner-loop element, and the per-rank program
 * that runs a skeleton's body on the DSM layer (sim_dsm.h). */
#ifndef APP_DSM_COMMON_H
#define APP_DSM_COMMON_H

#include "app_skeleton.h"
#include "sim_dsm.h"

/* "yes" (NCP2, a CP per node) and "no" (original TreadMarks), NULL-terminated, for the parameter spec. */
extern const char *const app_dsm_controller_names[];

#define APP_DSM_CONTROLLER_PARAM                                                                                       \
  {                                                                                                                    \
    .name = "controller", .kind = SCN_CHOICE, .choices = app_dsm_controller_names, .required = 1,                      \
    .help = "yes: NCP2, a protocol controller per node; no: the original TreadMarks, every step on the PP",            \
    .role = SCN_ROLE_VARIANT                                                                                           \
  }

/* The catalogue entry of a DSM skeleton: its spec, prepare, advise and work functions, the cause-effect view, the
 * common program. */
#define APP_DSM_SKELETON(spec_, prepare_, advise_, work_)                                                              \
  {                                                                                                                    \
    .spec = &(spec_), .views = MET_VIEW_CAUSE_EFFECT, .prepare = (prepare_), .program = app_dsm_program,               \
    .release = free, .advise = (advise_), .work = (work_)                                                              \
  }

/* For the skeletons' work counts (app_skeleton_t.work), what the protocol does, in operations, as the simulation
 * counts it (sim_dsm.h): a page or diff request, a barrier (its nodes' arrivals). Pages of 4 KB, NCP2's
 * (simrun:dsm-page-bytes of platforms/ncp2-myrinet-8.xml). */
#define APP_DSM_REQUEST_OPS        SIM_DSM_REQUEST_OPS
#define APP_DSM_BARRIER_OPS(nodes) (SIM_DSM_BARRIER_OPS * (nodes))
#define APP_DSM_PAGE_BYTES         4096.0

/* The operations of one double-precision multiply-add element of an inner loop (load, fmadd, store): what it costs is
 * the platform's (sim_dsm_work); see app_dsm_common.c. */
extern const met_ops_t app_dsm_element;

/* A new skeleton argument of `size` bytes (zeroed) that begins with a sim_dsm_program_t, filled for `point`: the
 * controller choice, the shared space, and `body`, which runs on every node with the argument itself. NULL when out of
 * memory; free with free(). */
void *app_dsm_new(size_t size, const app_point_t *point, long shared_bytes,
                  void (*body)(sim_dsm_node_t *, const void *));

/* The memory check of every node's host (the skeletons' advise): TreadMarks maps the whole shared space of
 * `shared_bytes` on every node (seed 002 §2; sim_dsm.c refuses a run whose shared space exceeds a node's
 * simrun:memory-bytes), so each host must hold all of it; the message names the host that fails first (the one with
 * the least memory). Returns 1 with the message when a host is short, else 0 (also when no host gives its memory). */
int app_dsm_memory_advice(const met_platform_t *m, double shared_bytes, char *msg, size_t msglen);

/* The sim_program_fn of every DSM skeleton: `arg` begins with a sim_dsm_program_t. */
void app_dsm_program(sim_rank_t *rank, const void *arg);

/* Block rows: node `node` of `nodes` holds rows [*first, *first + *rows) of `n`, the first floor(node n / nodes). */
void app_dsm_block(long n, int nodes, int node, long *first, long *rows);
/* The node whose block holds row `row`. */
int app_dsm_owner(long n, int nodes, long row);

/* Reads size parameter `name` into *value and checks that every one of `nranks` nodes gets a share (value >= nranks)
 * and that it is at most `max` (`why` says why). Returns 0, or SIM_EPARAM with a message and the blame. */
int app_dsm_size(const app_point_t *point, const char *name, int nranks, long max, const char *why, long *value,
                 char *err, size_t errlen, const char **bad_param);
/* Checks that `value` of parameter `name` is at most `max`; returns 0, or SIM_EPARAM with a message and the blame. */
int app_dsm_at_most(const char *name, long value, long max, const char *why, char *err, size_t errlen,
                    const char **bad_param);

#endif
