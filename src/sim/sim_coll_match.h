/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* After a replay of per-rank trace files that did not end well (a deadlock, a message never received): whether the
 * ranks call different collectives, in which case the blame is the collectives, not the messages they are made of. */
#ifndef SIM_COLL_MATCH_H
#define SIM_COLL_MATCH_H

#include <stddef.h>

/* Reads the per-rank files `paths` (rank i's is paths[i]) and compares their collective actions (barrier, bcast,
 * reduce, allreduce, ...) in order with rank 0's. Returns 1 with "FILE:LINE: rank i calls VERB where rank 0 calls VERB
 * at FILE:LINE; ..." in err at the first that differs (or that one rank lacks), 0 when they match or a file cannot be
 * read (err untouched). */
int sim_coll_match(const char *const *paths, int nranks, char *err, size_t errlen);

#endif
