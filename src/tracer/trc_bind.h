/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Each rank's CPU binding, for index.txt (docs/tracer.md, "What is written"): the affinity mask a rank had at
 * MPI_Init, its node and the node's online cores, gathered to rank 0 at MPI_Finalize and written after the trace's
 * paths, one line per rank, which simrun analyse --replay-on reads to place the replay's ranks (a bound run on the
 * cores it was bound to; an unbound oversubscribed one said so). */
#ifndef TRC_BIND_H
#define TRC_BIND_H

#include <stdio.h>

/* This rank's binding, noted at MPI_Init (sched_getaffinity, the processor name, the online cores). */
void trc_bind_note(void);

/* Collective over MPI_COMM_WORLD, at MPI_Finalize: every rank's binding gathered to rank 0. Rank 0 gets a table of
 * `size` entries to give trc_bind_write and then free(); the other ranks, and rank 0 out of memory, get NULL. */
void *trc_bind_gather(int size);

/* Writes the table's lines to `index`: "# simrun-binding rank=R node=NAME cpus=LIST online=N node-ranks=M", LIST the
 * rank's CPUs at MPI_Init in Linux's cpulist form (0-3,8), N the node's online cores, M the ranks on its node (M > N:
 * oversubscribed). smpirun -replay -np P reads the first P lines only, so they do not disturb it. Nothing when
 * `table` is NULL. */
void trc_bind_write(FILE *index, const void *table, int size);

#endif
