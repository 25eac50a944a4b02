/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rank's LD_PRELOAD without libsimrun-trace.so (docs/tracer-extras.md, "Child processes"): the processes a rank
 * starts (a shell, a compressor, a script's tools) are not ranks of the run, yet each loaded the library, and Open
 * MPI's libraries with it, on its way: some 0.9 ms of CPU each on this machine, and NEURON's start-up script runs some
 * 50 such processes on rank 0, which the other ranks wait for. */
#ifndef TRC_PRELOAD_H
#define TRC_PRELOAD_H

/* Takes this library out of the process's LD_PRELOAD, the other entries kept in their order (the variable unset when
 * none is left). Called at MPI_Init, before Open MPI starts its threads: setenv is not safe beside a getenv. */
void trc_preload_drop(void);

#endif
