/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the ti-replay skeleton (app_ti*.c): the actions of a time-independent trace carried out on the simulated
 * machine, one rank's file at a time. Nothing outside src/apps/app_ti*.c includes it; the skeleton is app_ti.h. */
#ifndef APP_TI_ACTIONS_H
#define APP_TI_ACTIONS_H

#include "app_ti_trace.h"

/* Replays the rank's lines of the trace file `path` (shared: one file for every rank, whose lines name their rank),
 * then waits for the requests left, as SMPI does at the end. A bad line or file fails the rank with "FILE:LINE: ..."
 * and returns SIM_EPARAM; 0 when the whole file was replayed. */
int app_ti_replay_file(app_ti_rank_t *tr, const char *path, int shared);

/* Frees the communicators the trace defined (comm_def). */
void app_ti_comms_free(app_ti_rank_t *tr);

/* Computes `flops` on the rank's host (SIM_WORK); 0. */
int app_ti_compute(app_ti_rank_t *tr, double flops);

#endif
