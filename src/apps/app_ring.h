/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Two benchmarks of one block of `bytes`, `laps` times and nothing else. The ping-ring: the block goes round the ranks,
 * rank 0 to 1 to ... to p - 1 and back to 0, one message in flight at a time; a run of p * laps messages whose per-rank
 * work does not grow with p: the skeleton of bench/scale.sh's largest runs (docs/scale.md). The broadcast: rank 0
 * broadcasts it to every rank with the scenario's `broadcast` algorithm (docs/broadcasts.md), so that T_par is the
 * broadcasts' time alone, which lab 10 predicts from Hockney's parameters. */
#ifndef APP_RING_H
#define APP_RING_H

#include "app_skeleton.h"

extern const app_skeleton_t app_ring_skeleton;
extern const app_skeleton_t app_ring_broadcast_skeleton;

#endif
