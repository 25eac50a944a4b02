/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench/coll-heavy.c for tests/test_app_ti.c, traced by smpirun -trace-ti on 128 ranks: 3 of its steps, without the
 * allgather (whose SMPI replay takes about 30 s at 128 ranks). SMPI's default selector picks several of the others'
 * algorithms by the number of ranks and the block size (alltoall: Bruck's below 1024 bytes from 64 to 511 ranks). */
#define COLL_HEAVY_STEPS     3
#define COLL_HEAVY_ALLGATHER 0
#include "../../../bench/coll-heavy.c"
