/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* False sharing on TreadMarks/NCP2 (seed 002 §3, the diffs of Fig. 2): nodes update their own elements of one shared
 * array, interleaved (every page written by every node) or in blocks. */
#include "app_dsm_false.h"
#include "app_dsm_common.h"
#include "sim_error.h"

#include <stdlib.h>
#include <string.h>

#define DSM_FS_DOUBLE 8L

static const char *const dsm_false_layouts[] = {"interleaved", "blocked", NULL};

/* `iterations` sweeps, each node updating only its own elements of one array of `elements` doubles (node 0 allocates
 * and initialises it), a barrier after each. Layout "interleaved": element i belongs to node i mod p, so every 4 KB
 * page holds words of every node and is written by all of them (multiple writers): each barrier invalidates every page
 * everywhere, and each sweep starts with diff requests to p - 1 writers per page, each diff small. Layout "blocked":
 * node r owns elements [r E / p, (r + 1) E / p), so pages are written by one node (two at block boundaries). */
typedef struct dsm_false {
  sim_dsm_program_t program; /* first: app_dsm_program reads it */
  long elements;
  long iterations;
  int interleaved;
} dsm_false_t;

/* One sweep over this node's elements: read, update, write each. */
static void sweep(sim_dsm_node_t *node, const dsm_false_t *fs)
{
  int p = sim_dsm_node_count(node);
  int me = sim_dsm_node_id(node);
  long first = 0;
  long count = 0;
  long stride = fs->interleaved ? p : 1;
  if (fs->interleaved) {
    first = me;
    count = (fs->elements - me + p - 1) / p;
  } else {
    app_dsm_block(fs->elements, p, me, &first, &count);
  }
  for (long i = 0; i < count; i++) {
    long addr = (first + i * stride) * DSM_FS_DOUBLE;
    sim_dsm_read(node, addr, DSM_FS_DOUBLE);
    sim_dsm_write(node, addr, DSM_FS_DOUBLE);
  }
  sim_dsm_work(node, &app_dsm_element, (double)count);
}

static void false_body(sim_dsm_node_t *node, const void *arg)
{
  const dsm_false_t *fs = arg;
  sim_dsm_scope(node, "init");
  if (sim_dsm_node_id(node) == 0) {
    sim_dsm_write(node, 0, fs->elements * DSM_FS_DOUBLE);
    sim_dsm_work(node, &app_dsm_element, (double)fs->elements);
  }
  sim_dsm_barrier(node);
  sim_dsm_scope(node, "sweep");
  for (long it = 0; it < fs->iterations; it++) {
    sweep(node, fs);
    sim_dsm_barrier(node);
  }
}

static int dsm_false_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                             const char **bad_param)
{
  long elements = 0;
  long iterations = app_point_long(point, "iterations", 0);
  int rc = app_dsm_size(point, "elements", nranks, 1000000,
                        "simrun runs this skeleton up to 8 MB of shared data (NCP2's nodes have 32 MB, seed 002), "
                        "whatever the platform's memory, which the run checks against every node's simrun:memory-bytes",
                        &elements, err, errlen, bad_param);
  rc = rc ? rc : app_dsm_at_most("iterations", iterations, 10000, "keeps the simulation short", err, errlen, bad_param);
  dsm_false_t *fs = rc == 0 ? app_dsm_new(sizeof *fs, point, elements * DSM_FS_DOUBLE, false_body) : NULL;
  const char *layout = app_point_value(point, "layout");
  if (fs) {
    fs->elements = elements;
    fs->iterations = iterations;
    fs->interleaved = !layout || strcmp(layout, "blocked") != 0;
  }
  *arg = fs;
  return rc != 0 ? rc : fs ? 0 : SIM_ENOMEM;
}

static int dsm_false_advise(const app_point_t *point, int nranks, const met_platform_t *m, char *msg, size_t msglen)
{
  (void)nranks;
  double bytes = (double)app_point_long(point, "elements", 0) * DSM_FS_DOUBLE;
  return app_dsm_memory_advice(m, bytes, msg, msglen);
}

/* Every node's operations (app_skeleton_t.work), per sweep: a computation and a barrier, and the pages brought up to
 * date: interleaved, every page from each of the p - 1 other writers at every node; blocked, the page at each of the
 * p - 1 block boundaries at its two writers. */
static double dsm_false_work(const app_point_t *point, int nranks)
{
  double p = nranks, pages = (double)app_point_long(point, "elements", 1) * DSM_FS_DOUBLE / APP_DSM_PAGE_BYTES;
  const char *layout = app_point_value(point, "layout");
  double requests = layout && strcmp(layout, "blocked") == 0 ? 2 * (p - 1) : p * (p - 1) * pages;
  return (double)app_point_long(point, "iterations", 1) * (p + APP_DSM_BARRIER_OPS(p) + APP_DSM_REQUEST_OPS * requests);
}

static const scn_param_spec_t dsm_false_params[] = {
    {.name = "elements",
     .kind = SCN_INT,
     .min = 1,
     .required = 1,
     .help = "doubles in the shared array",
     .role = SCN_ROLE_SIZE},
    {.name = "iterations",
     .kind = SCN_INT,
     .min = 1,
     .required = 1,
     .help = "sweeps, each ended by a barrier",
     .role = SCN_ROLE_SIZE},
    {.name = "layout",
     .kind = SCN_CHOICE,
     .choices = dsm_false_layouts,
     .required = 1,
     .help = "interleaved (element i on node i mod p: false sharing) or blocked (contiguous blocks)"},
    APP_DSM_CONTROLLER_PARAM,
};

static const scn_skeleton_spec_t dsm_false_spec = {.name = "dsm-false-sharing",
                                                   .params = dsm_false_params,
                                                   .nparams = sizeof dsm_false_params / sizeof dsm_false_params[0]};

const app_skeleton_t app_dsm_false_skeleton =
    APP_DSM_SKELETON(dsm_false_spec, dsm_false_prepare, dsm_false_advise, dsm_false_work);
