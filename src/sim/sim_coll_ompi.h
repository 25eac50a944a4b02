/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The collective algorithms Open MPI 4.1 runs, as simrun's nearest ones: its tuned component's fixed decisions by
 * communicator size and message size (the default on Debian 12's Open MPI 4.1.4), for the replay of a run measured
 * under Open MPI (ti-replay's collectives = openmpi, which simrun analyse --replay-on uses; docs/ti-replay.md). */
#ifndef SIM_COLL_OMPI_H
#define SIM_COLL_OMPI_H

#include "sim_coll.h"

/* The algorithm (an index into sim_coll_alg_names[call->kind], a sim_bcast_alg_t for a broadcast) that stands for the
 * one Open MPI 4.1 chooses for `call` among `members`; call->alg is not read. Pure. */
int sim_coll_ompi_alg(const sim_coll_call_t *call, int members);

#endif
