/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun analyse --replay-on and --platform: a measured run's TI trace replayed (ti-replay, docs/ti-replay.md) on a
 * platform by a child simrun, for the prediction to set beside the measured time, or for the bottleneck view of the
 * trace's operations (its compute amounts and messages) priced on that machine. */
#ifndef CLI_REPLAY_H
#define CLI_REPLAY_H

#include "met_bottleneck.h"

#include <stddef.h>

/* Replays the run in `dir` (its index.txt) at p ranks on `platform`, rank i on host hosts[i] (cli_binding_place) or,
 * when hosts is NULL, where ti-replay puts it, and sets *t_par to the replay's T_par. Returns 0, or -1 with the reason
 * in err (no index.txt, a path XML cannot hold, the replay failed: its own error line). */
int cli_replay_time(const char *platform, const char *dir, int p, char (*hosts)[32], double *t_par, char *err,
                    size_t errlen);

/* Replays the run as cli_replay_time does and reads the replay's bottleneck view (seed 001 Table 5's components of
 * the busiest process, B-ratios, ratios, utilisation, from its results JSON) into *out. Returns 0, or -1 with the
 * reason in err. */
int cli_replay_breakdown(const char *platform, const char *dir, int p, met_breakdown_t *out, char *err, size_t errlen);

#endif
