/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The task farm of a simrun built without Open MPI (stu_farm.h): every entry point says so and how to get it. */
#include "sim_error.h"
#include "stu_farm.h"
#include "stu_exec.h"

#include <stdio.h>

static int unavailable(char *err, size_t errlen)
{
  snprintf(err, errlen,
           "this simrun was built without Open MPI, so --mpi is unavailable; install libopenmpi-dev "
           "(scripts/install-deps) and rebuild");
  return SIM_EINVAL;
}

int stu_farm_start(int *rank, char *err, size_t errlen)
{
  *rank = 0;
  return unavailable(err, errlen);
}

void stu_farm_end(void)
{
}

int stu_farm_exec_new(stu_exec_t *exec, char *err, size_t errlen)
{
  return unavailable(err, errlen);
}

void stu_farm_exec_free(stu_exec_t *exec)
{
}

int stu_farm_serve(const stu_sweep_ctx_t *ctx, char *err, size_t errlen)
{
  unavailable(err, errlen);
  return BAS_EINVAL;
}
