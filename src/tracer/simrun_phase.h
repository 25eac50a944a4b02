/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Phases for simrun's MPI tracer (libsimrun-trace.so, docs/tracer.md), as EPPA's (seed 000 §1.2): a program labels
 * its parts with simrun_phase_begin("name") ... simrun_phase_end(), nested, and the measured timeline carries the
 * label. Without the library (not preloaded, not linked) both calls cost one test of a null pointer: the library's
 * functions are weak references here, resolved only when it is loaded. Copy this header into your program. */
#ifndef SIMRUN_PHASE_H
#define SIMRUN_PHASE_H

/* The library's entry points: weak, so NULL when libsimrun-trace.so is not loaded. */
extern void simrun_trace_phase_begin(const char *name) __attribute__((weak));
extern void simrun_trace_phase_end(void) __attribute__((weak));

/* Labels what follows with `name` (blanks become '_', at most 63 characters kept) until the matching end. */
static inline void simrun_phase_begin(const char *name)
{
  if (simrun_trace_phase_begin)
    simrun_trace_phase_begin(name);
}

/* Returns to the enclosing phase's label ("main" at the outermost). */
static inline void simrun_phase_end(void)
{
  if (simrun_trace_phase_end)
    simrun_trace_phase_end();
}

#endif
