/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The bottom of the DSM module (seed 002 §3), called by its other files and calling none of them: the run's world
 * (one per process, freed by the last actor done with it), its clock, its first failure and the memory the protocol
 * cannot do without. */
#include "sim_dsm_world.h"

#include <simgrid/barrier.h>
#include <simgrid/engine.h>
#include <simgrid/mutex.h>
#include <simgrid/semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <xbt/asserts.h>

static dsm_world_t *dsm_world; /* one DSM run per process (sim_dsm.h) */

dsm_world_t *sim_dsm_world_current(void)
{
  return dsm_world;
}

dsm_world_t *sim_dsm_world_install(dsm_world_t *w)
{
  return dsm_world = w;
}

double sim_dsm_now(void)
{
  return simgrid_get_clock();
}

void sim_dsm_world_fail(dsm_world_t *w, int code, const char *fmt, ...)
{
  if (w->error)
    return;
  w->error = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->message, sizeof w->message, fmt, ap);
  va_end(ap);
}

/* Nothing could be simulated faithfully without this memory (sim_run.h reports the aborted process). */
void *sim_dsm_calloc(size_t count, size_t size)
{
  void *p = calloc(count, size);
  xbt_assert(p, "simrun: out of memory in the DSM simulation");
  return p;
}

static void world_free(dsm_world_t *w)
{
  for (int i = 0; w->node && i < w->nodes; i++) {
    struct sim_dsm_node *n = &w->node[i];
    for (long p = 0; n->pages && p < w->npages; p++) {
      free(n->pages[p].dirty);
      free(n->pages[p].pending);
    }
    free(n->pages);
    if (n->pp_lock) {
      sg_mutex_destroy(n->pp_lock);
      sg_sem_destroy(n->wake);
      sg_sem_destroy(n->queued);
    }
  }
  sg_barrier_destroy(w->startup);
  free(w->node);
  free(w->arrival);
  free(w->arrival_scope);
  free(w);
}

/* An actor is done with the world; the last one frees it. */
void sim_dsm_world_release(dsm_world_t *w)
{
  if (--w->alive > 0)
    return;
  world_free(w);
  dsm_world = NULL;
}
