/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The compute kernel whose flop rate a measured run is priced at: four independent multiply-add chains, 8 flops per
 * iteration. The tracer's calibration (src/tracer/trc_record.c) and simrun machine probe (src/cli/cli_probe.c) time
 * this one loop, so that a trace's compute amounts replay at the probed rate (docs/tracer.md, docs/machines.md).
 * Header only: the tracer, which links no simrun library, includes it too. */
#ifndef MET_FLOPS_H
#define MET_FLOPS_H

enum { MET_FLOPS_PER_ITERATION = 8 };

/* The source the tracer's "# flop-rate" line names, in parentheses, where SIMRUN_TRACE_FLOPS gave the rate rather than
 * its calibration, which simrun analyse's Speed: line then blames no calibration for (met_timeline.c). */
#define MET_FLOPS_GIVEN "SIMRUN_TRACE_FLOPS"

/* The words the tracer's "# flop-rate" line ends with where its TI trace has no poll action (SIMRUN_TRACE_FORMAT=smpi),
 * so that its compute amounts hold the runs of polls' CPU time too ("# disturbance"'s POLLS), which simrun analyse
 * then counts with the computations' (met_timeline.c). */
#define MET_FLOPS_POLLS_COMPUTED "SIMRUN_TRACE_FORMAT=smpi"

/* Runs `iterations` iterations of the chains from `seed` (just above 1) and returns their sum, which the caller keeps
 * (in a volatile) so that the loop is not optimised away. */
static inline double met_flop_chains(double seed, long iterations)
{
  double a = seed, b = seed, c = seed, d = seed, m = seed * 0.9999999, k = 1e-9;
  for (long i = 0; i < iterations; i++) {
    a = a * m + k;
    b = b * m + k;
    c = c * m + k;
    d = d * m + k;
  }
  return a + b + c + d;
}

#endif
