/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: how many pending requests of the rank (trc_request.c) hold each request handle
 * (trc_handles.c). An MPI may give one handle to several requests at once: Open MPI 4.1's ob1 returns its one completed
 * request (ompi_request_empty) for every send it completed inline, at once, so that Ray's 32 sends in flight held one
 * handle; a search by handle alone then named the wrong ones to simrun analyse, whose 200,000 tests left 356,352 sends
 * outstanding. */
#ifndef TRC_HANDLES_H
#define TRC_HANDLES_H

#include <stdint.h>

/* A handle is given as its bits (trc_request.c: an MPI_Request's, a pointer in Open MPI, an int in MPICH), so that
 * this module is plain C. */

/* One more pending request holds `handle`. 0, or -1 when out of memory (its count is then not kept: the caller goes on
 * as if the handle were one request's). */
int trc_handles_add(uint64_t handle);

/* One fewer holds `handle` (one that trc_handles_add counted). */
void trc_handles_remove(uint64_t handle);

/* Whether more than one pending request holds `handle`; at once 0 while no handle is held twice. */
int trc_handles_shared(uint64_t handle);

/* Forgets every count (MPI_Finalize). */
void trc_handles_reset(void);

#endif
