/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun's own light contexts for the analytic network's ranks (docs/scale.md): one small stack per context, carved
 * from one memory mapping, and an event queue of (time, sequence) that runs them one at a time, in time order, ties
 * first come first served, as SimGrid's maestro runs actors. No SimGrid actor, host or clock is involved. */
#ifndef SIM_FIBER_H
#define SIM_FIBER_H

#include <stddef.h>

typedef struct sim_fibers sim_fibers_t;
typedef void (*sim_fiber_fn)(void *arg);

/* A scheduler of `count` contexts with `stack_bytes` of stack each (rounded up to whole pages; only the pages a
 * context touches take memory). NULL when out of memory. */
sim_fibers_t *sim_fibers_new(int count, size_t stack_bytes);
/* Frees the scheduler and every context's stack, including those of contexts still suspended (they are abandoned,
 * not unwound). Accepts NULL. */
void sim_fibers_free(sim_fibers_t *s);

/* Makes context `id` (0 <= id < count, each started once) run fn(arg) at time 0, in the order they are started. */
void sim_fibers_start(sim_fibers_t *s, int id, sim_fiber_fn fn, void *arg);
/* Runs the contexts until none is runnable: every one has returned, or the rest wait for a resume nobody gives. */
void sim_fibers_run(sim_fibers_t *s);

/* The scheduler's clock: the time of the event being run. */
double sim_fibers_now(const sim_fibers_t *s);
/* From the running context: it runs again at time `t` (not before the clock; at once when t is not later). */
void sim_fibers_sleep_until(sim_fibers_t *s, double t);
/* From the running context: it stops until another resumes it. */
void sim_fibers_suspend(sim_fibers_t *s);
/* Makes suspended context `id` runnable now, after those already runnable now. */
void sim_fibers_resume(sim_fibers_t *s, int id);

#endif
