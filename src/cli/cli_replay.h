/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun analyse --replay-on: a measured run's TI trace replayed (ti-replay, docs/ti-replay.md) on a platform by a
 * child simrun, for the prediction to set beside the measured time. */
#ifndef CLI_REPLAY_H
#define CLI_REPLAY_H

#include <stddef.h>

/* Replays the run in `dir` (its index.txt) at p ranks on `platform` and sets *t_par to the replay's T_par. Returns 0,
 * or -1 with the reason in err (no index.txt, a path XML cannot hold, the replay failed: its own error line). */
int cli_replay_time(const char *platform, const char *dir, int p, double *t_par, char *err, size_t errlen);

#endif
