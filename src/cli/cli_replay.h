/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun analyse --replay-on and --platform: a measured run's TI trace replayed (ti-replay, docs/ti-replay.md) on a
 * platform by a child simrun, for the prediction to set beside the measured time, or for the bottleneck view of the
 * trace's operations (its compute amounts and messages) priced on that machine. */
#ifndef CLI_REPLAY_H
#define CLI_REPLAY_H

#include "met_bottleneck.h"

#include <stddef.h>

/* What a replay gave: its T_par; its T_seq, the trace's computations at the speed of rank 0's host (ti-replay's:
 * docs/ti-replay.md), or NAN; and its warning on messages between ranks on one host that crossed the host's links
 * (SIM_SAME_HOST_WORDS), without its label and platform ("N message(s) of ..."), or "". */
typedef struct cli_replayed {
  double t_par;
  double t_seq;
  char same_host[1024];
} cli_replayed_t;

/* Replays the run in `dir` (its index.txt) at p ranks on `platform`, rank i on host hosts[i] (cli_binding_place) or,
 * when hosts is NULL, where ti-replay puts it, into *out (its warnings shown too). The replay's files are in a
 * temporary folder of $TMPDIR (/tmp without it), removed on every path, a signal's included. Returns EXIT_OK; or an
 * exit status (cli_exit.h) with the one-line reason in err, of the user's files: EXIT_INPUT for the input (a path
 * XML cannot hold, a platform that does not load, a line of the trace the replay refuses: the replay's own error,
 * without the temporary scenario's place), EXIT_RUNTIME for the run (no temporary folder, the replay killed); or
 * CLI_EXIT_STOPPED (cli_results.h) when a signal caught by cli_signal.h came: the replay was ended, err untouched. */
int cli_replay_time(const char *platform, const char *dir, int p, char (*hosts)[32], cli_replayed_t *out, char *err,
                    size_t errlen);

/* Replays the run as cli_replay_time does and reads the replay's bottleneck view (seed 001 Table 5's components of
 * the busiest process, B-ratios, ratios, utilisation, from its results JSON) into *out. Returns as cli_replay_time. */
int cli_replay_breakdown(const char *platform, const char *dir, int p, met_breakdown_t *out, char *err, size_t errlen);

#endif
