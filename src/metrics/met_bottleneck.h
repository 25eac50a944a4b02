/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Characterisation-based bottleneck analysis (Zemerly et al., seed 001 §3, §4.3, Table 5): a run's time broken into
 * processing (CPU, FPU), memory (internal, external), communication (link initialisation, distribution, broadcast,
 * collection, other) and I/O (input, output); B-ratios, the communication/computation and memory/processing ratios,
 * processor utilisation (eq. 8); and, over a sweep of p, a verdict: which component is the bottleneck where. */
#ifndef MET_BOTTLENECK_H
#define MET_BOTTLENECK_H

#include "met_trace.h"

#include <stddef.h>

typedef enum met_component {
  MET_COMP_PROCESSING = 0,
  MET_COMP_MEMORY,
  MET_COMP_COMMUNICATION,
  MET_COMP_IO,
  MET_COMP_COUNT
} met_component_t;

typedef enum met_sub {
  MET_SUB_CPU = 0,      /* processing */
  MET_SUB_FPU,          /* processing */
  MET_SUB_INTMEM,       /* memory */
  MET_SUB_EXTMEM,       /* memory */
  MET_SUB_LINK_INIT,    /* communication: CTRL intervals of a phase in this role */
  MET_SUB_DISTRIBUTION, /* communication: COMM intervals of a phase in this role */
  MET_SUB_BROADCAST,    /* communication: COMM intervals of a phase in this role */
  MET_SUB_COLLECTION,   /* communication: COMM intervals of a phase in this role */
  MET_SUB_OTHER_COMM,   /* communication: every other COMM interval */
  MET_SUB_INPUT,        /* I/O: IO intervals of a phase in this role */
  MET_SUB_OUTPUT,       /* I/O: every other IO interval */
  MET_SUB_COUNT
} met_sub_t;

/* The contract between a program and Table 5: time recorded under phase `label` (sim_phase in a skeleton, simrun_phase
 * in a traced program) counts as sub-component `sub` (link-init for control time; distribution, broadcast or
 * collection for communication; input for I/O). A skeleton declares its list in its descriptor; a list ends with a
 * NULL label, and NULL is the empty list. Communication in no listed phase is other-comm, I/O in none is output. */
typedef struct met_phase_role {
  const char *label;
  met_sub_t sub;
} met_phase_role_t;

/* Table 5's own names as labels ("link-init", "input", "output", "distribution", "broadcast", "collection"): what
 * Gauss-Jordan records, and what a traced program may label its phases with (docs/tracer.md). */
extern const met_phase_role_t met_table5_phases[];

/* The sub-components a program with these phases can have time in, as bits 1u << met_sub_t: the processing and
 * memory ones always, other-comm and output (which collect what no phase claims) only where data shows them. */
unsigned met_phase_subs(const met_phase_role_t *phases);

typedef struct met_breakdown {
  int p;
  double t_par;
  /* Seconds per sub-component, each the time of the rank that spends the most on it: the critical-path reading of
   * Table 5, where processing and memory are per processor (T/p when balanced) and I/O and distribution are the
   * root's. */
  double sub[MET_SUB_COUNT];
  double component[MET_COMP_COUNT]; /* sums of their subs */
  double idle;                      /* the largest idle time of a rank: waiting is in no component */
  /* The ratios are NaN where their denominator is 0 (undefined: printed "-", an empty CSV field, JSON null). */
  double b_ratio[MET_COMP_COUNT]; /* component / sum of the other components (> 1: a bottleneck); NaN when the others
                                   * are all 0, as at p = 1 on a machine whose only component is processing */
  double comm_comp_ratio;         /* communication / (processing + memory) (> 1: a bottleneck) */
  double mem_proc_ratio;          /* memory / processing */
  double utilisation;             /* U_p (eq. 8): time-weighted share of processors doing useful work */
} met_breakdown_t;

/* Fills `out` from `trace`, its phases read through `phases` (NULL: none claims a sub-component). Returns 0, or
 * BAS_EINVAL on an empty trace. */
int met_bottleneck(const met_trace_t *trace, const met_phase_role_t *phases, met_breakdown_t *out);

/* Where a ratio crosses 1 between two swept p: interpolated linearly in log2 p. */
typedef struct met_crossing {
  const char *ratio; /* "B-ratio of communication", "communication/computation", ... (static strings) */
  double p;          /* the interpolated p */
  int rising;        /* 1 when the ratio goes above 1 as p grows */
  int p_from, p_to;  /* the swept p it lies between: the ratio is on one side of 1 at p_from, on the other at p_to */
} met_crossing_t;

/* The verdict over a sweep: per point, the bottleneck component (the one with the largest B-ratio, flagged when it
 * exceeds 1) and its largest sub-component; crossings of 1 by the B-ratios and the communication/computation ratio. */
typedef struct met_verdict {
  size_t npoints;
  met_component_t *dominant; /* per point, in the order given */
  int *is_bottleneck;        /* per point: met_bottleneck_exceeds for the dominant component */
  met_sub_t *cause;          /* per point: the largest sub-component of the dominant component */
  size_t ncrossings;
  met_crossing_t *crossings; /* in order of p; at the same p, in the order found: earlier pair of points first, then
                              * the B-ratios in component order, then communication/computation */
} met_verdict_t;

/* The component with the largest B-ratio at one point (the only component with time, where that ratio is undefined),
 * and its largest sub-component in *cause. Ties go to the first in Table 5's order: processing, memory, communication,
 * io; and for the cause, the first sub-component of met_sub_t. */
met_component_t met_bottleneck_dominant(const met_breakdown_t *breakdown, met_sub_t *cause);
/* Whether component c is a bottleneck: it takes more time than all the others together (B-ratio above 1; also where
 * the ratio is undefined because c has time and the others none). */
int met_bottleneck_exceeds(const met_breakdown_t *breakdown, met_component_t c);

/* Builds the verdict for `count` breakdowns sorted by increasing p. Returns 0, or BAS_ENOMEM when out of memory. Free
 * the arrays with met_verdict_free. */
int met_bottleneck_verdict(const met_breakdown_t *points, size_t count, met_verdict_t *out);
void met_verdict_free(met_verdict_t *verdict);

/* Lower-case names: "processing", "memory", "communication", "io"; "cpu", "fpu", "intmem", "extmem", "link-init",
 * "distribution", "broadcast", "collection", "other-comm", "input", "output". NULL when out of range. */
const char *met_component_name(met_component_t component);
const char *met_sub_name(met_sub_t sub);

#endif
