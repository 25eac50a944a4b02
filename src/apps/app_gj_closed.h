/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan with the neighbour or the one-to-all broadcast evaluated in closed form across ranks
 * (sim_replay_closed.h, docs/scale.md): under the analytic network every message is priced alone, so each step's
 * broadcast of the pivot row is one pass over the ranks from its owner (along them for the neighbour relay), each
 * rank's clock the later of its own and its sender's plus the message's price; O(N p) additions and maxima in all,
 * with no rank executed. */
#ifndef APP_GJ_CLOSED_H
#define APP_GJ_CLOSED_H

#include "sim_replay.h"

/* The closed form of the program of `arg` (an app_gj_arg_t): with the neighbour or the one-to-all broadcast, else
 * NULL. */
sim_closed_fn app_gj_closed_form(const void *arg);

#endif
