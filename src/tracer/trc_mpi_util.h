/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so's PMPI wrappers (trc_mpi.c: start, end, point to point; trc_mpi_coll.c: collectives,
 * communicators; trc_mpi_other.c: calls counted only; trc_mpi_rma.c: one-sided calls): the helpers of trc_mpi_util.c.
 */
#ifndef TRC_MPI_UTIL_H
#define TRC_MPI_UTIL_H

#include "trc_record.h"

#include <mpi.h>

/* A wrapper the library exports (every other symbol is hidden). */
#define EXPORT __attribute__((visibility("default")))

/* The reason one-sided calls are counted, not traced (trc_mpi_other.c's window-making calls, trc_mpi_rma.c's others):
 * one text, so that trc_finish lists them together. */
#define TRC_RMA_NOTE                                                                                                   \
  "(one-sided communication: its puts, gets and synchronisations are not traced, their time is in the computation "    \
  "around them)"

/* This process's rank in MPI_COMM_WORLD. */
int trc_world_rank(void);

/* The size of `comm` (0 when PMPI_Comm_size fails). */
int trc_comm_size(MPI_Comm comm);

/* `count` elements of `type` in bytes (0 when not recording or the type is unknown). */
double trc_nbytes(int count, MPI_Datatype type);

/* A call entered at `t` that no TI action can hold: timed as `name`, counted as `why` (a string literal naming the
 * call and the reason), listed at MPI_Finalize. */
void trc_untraced_call(double t, const char *name, trc_category_t category, const char *why);

/* This process's rank in `comm`. */
int trc_comm_rank(MPI_Comm comm);

/* "N c0 c1 ... " of `count` entries of `counts` in bytes of `type` (zeros when counts is NULL), N their sum first when
 * `with_sum`: a new string the caller frees, or NULL when out of memory. */
char *trc_counts_text(const int *counts, int count, MPI_Datatype type, int with_sum);

#endif
