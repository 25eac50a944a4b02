/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The PMPI wrappers of MPI-3.1's one-sided calls past the window's making (trc_mpi_other.c): the transfers (puts,
 * gets, accumulates, atomics and their request-based forms) and the synchronisations (fences, locks, flushes,
 * post-start-complete-wait, the window's freeing). No TI action holds them, and their messages and waits have no
 * partner a timeline could pair: each is counted and timed (trc_rma_exit), its time left in the computation around it,
 * which a replay charges as work, as before they were wrapped; MPI_Finalize lists them with the windows' making and
 * says how long they took, so that a program whose MPI time is one-sided (NWChem through ARMCI-MPI, OpenCoarrays'
 * coarrays) says how much of its computation is MPI. Written from Open MPI 4.1's mpi.h prototypes. */
#include "trc_mpi_util.h"

/* The body of a wrapper: PMPI's `call` timed and counted as `name`. */
#define TIMED(name, call)                                                                                              \
  double t = trc_rma_enter();                                                                                          \
  int rc = call;                                                                                                       \
  trc_rma_exit(t, name " " TRC_RMA_NOTE);                                                                              \
  return rc

EXPORT int MPI_Put(const void *origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                   int target_count, MPI_Datatype target_type, MPI_Win win)
{
  TIMED("MPI_Put", PMPI_Put(origin, origin_count, origin_type, target, disp, target_count, target_type, win));
}

EXPORT int MPI_Get(void *origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                   int target_count, MPI_Datatype target_type, MPI_Win win)
{
  TIMED("MPI_Get", PMPI_Get(origin, origin_count, origin_type, target, disp, target_count, target_type, win));
}

EXPORT int MPI_Accumulate(const void *origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                          int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win)
{
  TIMED("MPI_Accumulate",
        PMPI_Accumulate(origin, origin_count, origin_type, target, disp, target_count, target_type, op, win));
}

EXPORT int MPI_Get_accumulate(const void *origin, int origin_count, MPI_Datatype origin_type, void *result,
                              int result_count, MPI_Datatype result_type, int target, MPI_Aint disp, int target_count,
                              MPI_Datatype target_type, MPI_Op op, MPI_Win win)
{
  TIMED("MPI_Get_accumulate", PMPI_Get_accumulate(origin, origin_count, origin_type, result, result_count, result_type,
                                                  target, disp, target_count, target_type, op, win));
}

EXPORT int MPI_Fetch_and_op(const void *origin, void *result, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op op,
                            MPI_Win win)
{
  TIMED("MPI_Fetch_and_op", PMPI_Fetch_and_op(origin, result, type, target, disp, op, win));
}

EXPORT int MPI_Compare_and_swap(const void *origin, const void *compare, void *result, MPI_Datatype type, int target,
                                MPI_Aint disp, MPI_Win win)
{
  TIMED("MPI_Compare_and_swap", PMPI_Compare_and_swap(origin, compare, result, type, target, disp, win));
}

EXPORT int MPI_Rput(const void *origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                    int target_count, MPI_Datatype target_type, MPI_Win win, MPI_Request *request)
{
  TIMED("MPI_Rput",
        PMPI_Rput(origin, origin_count, origin_type, target, disp, target_count, target_type, win, request));
}

EXPORT int MPI_Rget(void *origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                    int target_count, MPI_Datatype target_type, MPI_Win win, MPI_Request *request)
{
  TIMED("MPI_Rget",
        PMPI_Rget(origin, origin_count, origin_type, target, disp, target_count, target_type, win, request));
}

EXPORT int MPI_Raccumulate(const void *origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                           int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win, MPI_Request *request)
{
  TIMED("MPI_Raccumulate",
        PMPI_Raccumulate(origin, origin_count, origin_type, target, disp, target_count, target_type, op, win, request));
}

EXPORT int MPI_Rget_accumulate(const void *origin, int origin_count, MPI_Datatype origin_type, void *result,
                               int result_count, MPI_Datatype result_type, int target, MPI_Aint disp, int target_count,
                               MPI_Datatype target_type, MPI_Op op, MPI_Win win, MPI_Request *request)
{
  TIMED("MPI_Rget_accumulate",
        PMPI_Rget_accumulate(origin, origin_count, origin_type, result, result_count, result_type, target, disp,
                             target_count, target_type, op, win, request));
}

EXPORT int MPI_Win_fence(int assertion, MPI_Win win)
{
  TIMED("MPI_Win_fence", PMPI_Win_fence(assertion, win));
}

EXPORT int MPI_Win_lock(int lock_type, int target, int assertion, MPI_Win win)
{
  TIMED("MPI_Win_lock", PMPI_Win_lock(lock_type, target, assertion, win));
}

EXPORT int MPI_Win_unlock(int target, MPI_Win win)
{
  TIMED("MPI_Win_unlock", PMPI_Win_unlock(target, win));
}

EXPORT int MPI_Win_lock_all(int assertion, MPI_Win win)
{
  TIMED("MPI_Win_lock_all", PMPI_Win_lock_all(assertion, win));
}

EXPORT int MPI_Win_unlock_all(MPI_Win win)
{
  TIMED("MPI_Win_unlock_all", PMPI_Win_unlock_all(win));
}

EXPORT int MPI_Win_flush(int target, MPI_Win win)
{
  TIMED("MPI_Win_flush", PMPI_Win_flush(target, win));
}

EXPORT int MPI_Win_flush_all(MPI_Win win)
{
  TIMED("MPI_Win_flush_all", PMPI_Win_flush_all(win));
}

EXPORT int MPI_Win_flush_local(int target, MPI_Win win)
{
  TIMED("MPI_Win_flush_local", PMPI_Win_flush_local(target, win));
}

EXPORT int MPI_Win_flush_local_all(MPI_Win win)
{
  TIMED("MPI_Win_flush_local_all", PMPI_Win_flush_local_all(win));
}

EXPORT int MPI_Win_sync(MPI_Win win)
{
  TIMED("MPI_Win_sync", PMPI_Win_sync(win));
}

EXPORT int MPI_Win_post(MPI_Group group, int assertion, MPI_Win win)
{
  TIMED("MPI_Win_post", PMPI_Win_post(group, assertion, win));
}

EXPORT int MPI_Win_start(MPI_Group group, int assertion, MPI_Win win)
{
  TIMED("MPI_Win_start", PMPI_Win_start(group, assertion, win));
}

EXPORT int MPI_Win_complete(MPI_Win win)
{
  TIMED("MPI_Win_complete", PMPI_Win_complete(win));
}

EXPORT int MPI_Win_wait(MPI_Win win)
{
  TIMED("MPI_Win_wait", PMPI_Win_wait(win));
}

EXPORT int MPI_Win_test(MPI_Win win, int *flag)
{
  TIMED("MPI_Win_test", PMPI_Win_test(win, flag));
}

EXPORT int MPI_Win_free(MPI_Win *win)
{
  TIMED("MPI_Win_free", PMPI_Win_free(win));
}
