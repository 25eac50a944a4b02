/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: the local executor, up to `slots` simulations at once, each in its own forked
 * process (-j N). */
#ifndef STU_POOL_H
#define STU_POOL_H

#include "stu_exec.h"

/* An executor of `slots` local processes running the tasks of `ctx` (borrowed). Returns 0, or SIM_ENOMEM; free with
 * stu_pool_free. */
int stu_pool_new(const stu_sweep_ctx_t *ctx, size_t slots, stu_exec_t *exec);
void stu_pool_free(stu_exec_t *exec);

#endif
