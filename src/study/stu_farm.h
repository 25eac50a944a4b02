/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The MPI task farm: the same sweep under Open MPI's mpirun, rank 0 running the study and handing each simulation to
 * an idle worker rank, which runs it in a local process and sends the result back as an MPI message. Built only when
 * Open MPI is found (stu_farm_mpi.c, with its mpicc flags); otherwise (stu_farm_none.c) the farm reports that it is
 * unavailable. */
#ifndef STU_FARM_H
#define STU_FARM_H

#include <stddef.h>

typedef struct stu_exec stu_exec_t;           /* stu_exec.h */
typedef struct stu_sweep_ctx stu_sweep_ctx_t; /* stu_task.h */

/* Starts MPI and gives this process's rank (0: the study; others: workers, see stu_serve). 0, or SIM_EINVAL with a
 * message (simrun was built without Open MPI). */
int stu_farm_start(int *rank, char *err, size_t errlen);

/* Ends MPI; on rank 0, first tells the workers that are still waiting to stop. */
void stu_farm_end(void);

/* Rank 0's executor under mpirun: one slot per worker rank. Returns 0, or SIM_EINVAL with a message (not built with
 * Open MPI, or no worker). Free with stu_farm_exec_free. */
int stu_farm_exec_new(stu_exec_t *exec, char *err, size_t errlen);
void stu_farm_exec_free(stu_exec_t *exec);
/* A worker's loop: runs the tasks rank 0 sends, one at a time, and sends each result back, until rank 0 says stop.
 * With ctx NULL (the worker could not read the scenario), answers every task with an error. 0, or BAS_EINVAL with a
 * message (not built with Open MPI). */
int stu_farm_serve(const stu_sweep_ctx_t *ctx, char *err, size_t errlen);

#endif
