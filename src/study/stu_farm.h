/* The MPI task farm: the same sweep under Open MPI's mpirun, rank 0 running the study and handing each simulation to
 * an idle worker rank, which runs it in a local process and sends the result back as an MPI message. Built only when
 * Open MPI is found (stu_farm_mpi.c, with its mpicc flags); otherwise (stu_farm_none.c) the farm reports that it is
 * unavailable. */
#ifndef STU_FARM_H
#define STU_FARM_H

#include <stddef.h>

/* Starts MPI and gives this process's rank (0: the study; others: workers, see stu_serve). 0, or SIM_EINVAL with a
 * message (simrun was built without Open MPI). */
int stu_farm_start(int *rank, char *err, size_t errlen);

/* Ends MPI; on rank 0, first tells the workers that are still waiting to stop. */
void stu_farm_end(void);

#endif
