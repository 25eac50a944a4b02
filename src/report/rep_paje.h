/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Paje traces (the format of pajeng's pj_dump and of ViTE) of simulated and measured runs: a container per run holding
 * a container per rank, the rank's state set to its trace category over time, a link per message, and an event per
 * collective call with its root and the bytes a measured one moved. */
#ifndef REP_PAJE_H
#define REP_PAJE_H

#include "met_trace.h"
#include "stu_study.h"

#include <stddef.h>
#include <stdio.h>

/* One run of a Paje trace. */
typedef struct rep_paje_run {
  const char *name;         /* shown for the run's container; borrowed */
  const met_trace_t *trace; /* borrowed */
} rep_paje_run_t;

/* Writes the n runs as one Paje trace on `out`, every run starting at time 0 (seconds), events in time order (a spilled
 * trace's intervals read from its file; past 2^20 events, they are sorted through a temporary file: rep_sort.h). Each
 * message is one link: from its sender, where its send started (as OTF2's MPI_SEND has it), to its receiver's end of
 * the transfer; from the lower rank to the higher over the transfer where the trace does not say which end sent.
 * Returns 0, or BAS_EIO on a write error or when out of memory. */
int rep_paje_write(FILE *out, const rep_paje_run_t *runs, size_t n);

/* The Paje trace of the points of `study` that kept their trace (those of the per-process p), each run named by the
 * scenario and the point's swept parameters. Returns 0, or -1 as rep_paje_write. */
int rep_paje_study(FILE *out, const stu_study_t *study);

#endif
